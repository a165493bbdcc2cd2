"""The execution-graph machine against the axiomatic checker, set by set (docs/performance.md).

    PYTHONPATH=. python bench/graph_explorer.py             # every set below
    PYTHONPATH=. python bench/graph_explorer.py --set c11   # one set
    PYTHONPATH=. python bench/graph_explorer.py --step 5    # every 5th test of each set
    PYTHONPATH=. python bench/graph_explorer.py --cats DIR  # herd's cats from DIR
    PYTHONPATH=. python bench/graph_explorer.py --cli --set c11   # through the command line

Each loop-free test is run by the checker (``check``) and by the graph machine
(``explore_graph``) under the set's model; the final states must be the same (a
disagreement is printed and the exit code is 1). Printed per set: tests, seconds of each
engine (parsing excluded), their ratio, complete executions per second of the graph
machine, and the slowest test. herd's cat models come from ../shared/reference/herd-cats;
a set whose model is absent is skipped (say so), and so is GenMC, which this bench does
not run. One core, one process, wall-clock seconds.

With ``--cli`` each set runs as a user runs it instead: two child processes,
``python -m mmdsl run FOLDER -m MODEL --json`` with ``--engine axiomatic`` and with
``--engine explorer`` (every test of the folder, loops included: the explorer unrolls them as
``run`` does), timed whole (start-up, parsing, warnings: wall and CPU seconds of the child);
the final states of each test compared between the two outputs; complete executions summed
from the explorer's ``--json`` stats.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.explorer.machines.graph.search import explore_graph
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from compare_herd import machine  # noqa: E402
from hw import timed  # noqa: E402  (a child process: wall, CPU, stdout)
CATS = (ROOT / ".." / "shared" / "reference" / "herd-cats").resolve()
# set name -> (folder of litmus tests, model: a bundled name or a herd cat file)
SETS = {
    "classic": ("litmus/classic", "tso-axioms"),
    "classic-x86tso": ("litmus/classic", "cat:x86tso.cat"),
    "c11": ("litmus/c11", "cat:rc11.cat"),
    "x86": ("litmus/x86", "cat:x86tso.cat"),
    "riscv": ("litmus/riscv", "cat:riscv.cat"),
    "linux": ("litmus/linux", "cat:linux-kernel.cat"),
}


def _model(spec: str, cats: Path):
    if spec.startswith("cat:"):
        path = cats / spec[4:]
        return load_model(str(path)) if path.is_file() else None
    return load_model(spec)


def run_set(name: str, step: int, cats: Path = CATS) -> bool:
    folder, spec = SETS[name]
    model = _model(spec, cats)
    if model is None:
        print(f"{name}: skipped, {spec[4:]} not found in {cats}")
        return True
    files = sorted((ROOT / folder).glob("**/*.litmus"))[::step]
    ok = True
    tests = 0
    t_check = t_graph = 0.0
    complete = 0
    slowest = (0.0, "")
    for path in files:
        try:
            program = load_litmus(path)
            if program.has_loops():
                continue
            t0 = time.perf_counter()
            expected = check(program, model, collect="none").state_set()
            t1 = time.perf_counter()
            result = explore_graph(program, model, max_states=5_000_000)
            t2 = time.perf_counter()
        except MmdslError as err:
            print(f"  {path.relative_to(ROOT)}: {str(err).splitlines()[0]}")
            continue
        tests += 1
        t_check += t1 - t0
        t_graph += t2 - t1
        complete += result.stats["complete"]
        slowest = max(slowest, (t2 - t1, path.name))
        if result.state_set() != expected or result.stats["duplicates"]:
            ok = False
            print(f"  DISAGREE {path.relative_to(ROOT)}")
    ratio = t_graph / t_check if t_check else float("nan")
    rate = complete / t_graph if t_graph else 0.0
    print(f"{name} ({folder} under {model.name}, step {step}): {tests} tests, checker {t_check:.1f} s, "
          f"graph machine {t_graph:.1f} s ({ratio:.2f}x), {complete} complete executions "
          f"({rate:,.0f}/s), slowest {slowest[1]} {slowest[0]:.2f} s, agree: {'yes' if ok else 'NO'}")
    return ok


def _child(argv: list[str]) -> tuple[dict, float, float]:
    """The child's --json output, wall seconds and CPU seconds (user + system)."""
    wall, cpu, out = timed(argv, ROOT)
    return json.loads(out), wall, cpu


def _states(result: dict) -> frozenset:
    return frozenset(json.dumps(s["state"], sort_keys=True) for s in result["states"])


def run_set_cli(name: str, cats: Path = CATS) -> bool:
    folder, spec = SETS[name]
    model = str(cats / spec[4:]) if spec.startswith("cat:") else spec
    if spec.startswith("cat:") and not Path(model).is_file():
        print(f"{name}: skipped, {spec[4:]} not found in {cats}")
        return True
    runs = {}
    for engine in ("axiomatic", "explorer"):
        argv = [sys.executable, "-m", "mmdsl", "run", folder, "-m", model, "--engine", engine, "--json"]
        runs[engine] = _child(argv)
    (checker, c_wall, c_cpu), (graph, g_wall, g_cpu) = runs["axiomatic"], runs["explorer"]
    by_test = {r["path"]: _states(r) for r in checker["results"]}
    differ = [r["path"] for r in graph["results"] if by_test.get(r["path"]) != _states(r)]
    for path in differ:
        print(f"  DISAGREE {path}")
    complete = sum(r.get("stats", {}).get("complete", 0) for r in graph["results"])
    search = sum(r.get("stats", {}).get("search_time", 0.0) for r in graph["results"])
    slowest = max((r.get("time", 0.0), r["test"]) for r in graph["results"])
    print(f"{name} CLI (mmdsl run {folder} -m {Path(model).name}): {len(graph['results'])} tests; "
          f"--engine axiomatic wall {c_wall:.1f} s, CPU {c_cpu:.1f} s; --engine explorer wall {g_wall:.1f} s, "
          f"CPU {g_cpu:.1f} s ({g_wall / c_wall:.2f}x wall, {g_cpu / c_cpu:.2f}x CPU); {complete} complete "
          f"executions ({complete / g_wall:,.0f} per wall second of the command, {complete / search:,.0f} "
          f"per second of search); slowest {slowest[1]} {slowest[0]:.2f} s; agree: {'NO' if differ else 'yes'}")
    return not differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append")
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--cli", action="store_true", help="run each set through `mmdsl run` (child processes)")
    parser.add_argument("--cats", type=Path, default=CATS, help="herd's cat models (default ../shared/reference/herd-cats)")
    args = parser.parse_args(argv)
    names = args.set or list(SETS)
    print(f"# bench/graph_explorer.py{' --cli' if args.cli else ''} on {machine()}")
    if args.cli:
        ok = all([run_set_cli(name, args.cats) for name in names])
    else:
        ok = all([run_set(name, args.step, args.cats) for name in names])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
