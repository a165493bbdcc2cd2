"""The explorer's work on a corpus through the CLI: states explored and CPU seconds (docs/performance.md).

    PYTHONPATH=. python bench/explorer_cost.py riscv          # litmus/riscv under riscv
    PYTHONPATH=. python bench/explorer_cost.py linux          # litmus/linux under linux-kernel.cat
    PYTHONPATH=. python bench/explorer_cost.py riscv --root DIR   # the mmdsl source tree in DIR
    PYTHONPATH=. python bench/explorer_cost.py riscv --step 10    # every 10th test

One child process per set runs ``python -m mmdsl run FILES -m MODEL --engine explorer --json``
(the source tree ``--root``, by default this one, so two trees -- before and after a
change -- can be compared on the same machine). Printed per set: tests, the explorer's
states (the table machines' states or the graph machine's partial executions, summed over
the tests, as ``--stats`` and ``--json`` report them), how many tests ran on each machine,
tests refused, and the child's CPU seconds (user + system, ``getrusage``): work, not wall
clock, since the machines are shared. herd's cats come from ../shared/reference/herd-cats;
a set whose model is absent is skipped (and says so).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATS = (ROOT / ".." / "shared" / "reference" / "herd-cats").resolve()
# set name -> (folder of litmus tests, model: a bundled name or cat:FILE in herd's cats)
SETS = {
    "riscv": ("litmus/riscv", "riscv"),
    "riscv-cat": ("litmus/riscv", "cat:riscv.cat"),
    "linux": ("litmus/linux", "cat:linux-kernel.cat"),
    "c11": ("litmus/c11", "cat:rc11.cat"),
    "classic": ("litmus/classic", "tso-axioms"),
}


def files_of(folder: Path, step: int) -> list[Path]:
    return sorted(folder.glob("**/*.litmus"))[::step]


def measure(name: str, root: Path, step: int, cats: Path = CATS) -> dict | None:
    """Run one set through the CLI in a child process; its counts and CPU seconds."""
    folder, spec = SETS[name]
    model = spec
    if spec.startswith("cat:"):
        path = cats / spec[4:]
        if not path.is_file():
            print(f"{name}: skipped, {spec[4:]} not found in {cats}")
            return None
        model = str(path)
    files = files_of(ROOT / folder, step)
    env = dict(os.environ, PYTHONPATH=str(root))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "mmdsl", "run", *map(str, files), "-m", model,
                           "--engine", "explorer", "--json"], env=env, cwd=root,
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print(f"{name}: no JSON from the CLI (exit {proc.returncode}): {proc.stderr.strip()[:300]}")
        return None
    machines: Counter = Counter()
    states = 0
    for r in out["results"]:
        stats = r.get("stats") or {}
        states += stats.get("states", 0)
        machines[stats.get("machine", "table")] += 1
    return {"set": name, "tests": len(out["results"]), "refused": len(out.get("errors", [])),
            "states": states, "machines": dict(machines), "cpu": cpu, "files": len(files)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", default=["riscv", "linux"], choices=sorted(SETS))
    ap.add_argument("--root", type=Path, default=ROOT, help="the mmdsl source tree to run (default: this one)")
    ap.add_argument("--step", type=int, default=1, help="every STEP-th test of each set")
    ap.add_argument("--cats", type=Path, default=CATS, help="herd's cat models")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    print(f"tree {root}")
    for name in args.sets:
        got = measure(name, root, args.step, args.cats)
        if got is None:
            continue
        machines = ", ".join(f"{m} {k}" for m, k in sorted(got["machines"].items()))
        print(f"{name}: {got['tests']} tests run of {got['files']} ({got['refused']} refused), "
              f"states {got['states']:,}, machines: {machines}; CPU {got['cpu']:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
