"""The execution-graph machine against the axiomatic checker, set by set (docs/performance.md).

    PYTHONPATH=. python bench/graph_explorer.py             # every set below
    PYTHONPATH=. python bench/graph_explorer.py --set c11   # one set
    PYTHONPATH=. python bench/graph_explorer.py --step 5    # every 5th test of each set
    PYTHONPATH=. python bench/graph_explorer.py --cats DIR  # herd's cats from DIR

Each loop-free test is run by the checker (``check``) and by the graph machine
(``explore_graph``) under the set's model; the final states must be the same (a
disagreement is printed and the exit code is 1). Printed per set: tests, seconds of each
engine (parsing excluded), their ratio, complete executions per second of the graph
machine, and the slowest test. herd's cat models come from ../shared/reference/herd-cats;
a set whose model is absent is skipped (say so), and so is GenMC, which this bench does
not run. One core, one process, wall-clock seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.explorer.machines.graph.search import explore_graph
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[1]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append")
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--cats", type=Path, default=CATS, help="herd's cat models (default ../shared/reference/herd-cats)")
    args = parser.parse_args(argv)
    ok = all([run_set(name, args.step, args.cats) for name in (args.set or list(SETS))])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
