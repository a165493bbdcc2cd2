"""Dining philosophers under `mmdsl check`: the deadlock's cost per number of philosophers N.

    PYTHONPATH=. python bench/philosophers.py                 # N = 2..6 under sc
    PYTHONPATH=. python bench/philosophers.py --max 8 --model tso

For each N, in a child process (``python -m mmdsl check litmus/programs-c/philosophers.c -D N=..
--json``): the verdict, the states and transitions the explorer visited, the trace's length and
the child's CPU seconds (user + system, ``getrusage``: work, not wall clock). A run is cut at
``--max-states`` (then "cut" is printed and larger N are not tried); after a run over
``--stop-cpu`` CPU seconds larger N are not tried either (printed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "litmus" / "programs-c" / "philosophers.c"


def run(n: int, model: str, max_states: int) -> tuple[dict | None, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "mmdsl", "check", str(PROGRAM), "-m", model, "-D", f"N={n}",
                           "--json", "--max-states", str(max_states)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        return json.loads(proc.stdout), cpu
    except json.JSONDecodeError:
        return None, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min", type=int, default=2)
    ap.add_argument("--max", type=int, default=6)
    ap.add_argument("--model", default="sc")
    ap.add_argument("--max-states", type=int, default=2_000_000)
    ap.add_argument("--stop-cpu", type=float, default=60.0, help="no larger N after a run over this")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from compare_herd import machine

    print(f"Machine: {machine()}")
    print(f"| N | verdict | states | transitions | trace steps | CPU s |  (model {args.model})")
    print("|---|---|---|---|---|---|")
    for n in range(args.min, args.max + 1):
        out, cpu = run(n, args.model, args.max_states)
        if out is None:
            print(f"| {n} | cut (over {args.max_states:,} states or an error) | | | | {cpu:.1f} |")
            break
        st = out["stats"]
        print(f"| {n} | {out['verdict']} | {st['states']:,} | {st['transitions']:,} | {len(out['trace'])} "
              f"| {cpu:.1f} |", flush=True)
        if cpu > args.stop_cpu:
            print(f"(stopped: N={n} took over {args.stop_cpu:g} CPU s)")
            break


if __name__ == "__main__":
    main()
