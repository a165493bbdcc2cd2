"""Benchmark: minimum-fence selection on the classic suite under every model, and on the bundled programs.

Run from the repository root:  .venv/bin/python bench/fences.py [--models sc,tso,pso,rmo,relaxed,dotnet]
Prints, per model, the number of tests, how many needed fences, the total and the slowest
selection time (goal: every classic test under one second), then each bundled program
with both methods (goal: under ten seconds; docs/fences.md has the table for dotnet).
Not a timed test: our machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mmdsl.core.errors import MmdslError  # noqa: E402
from mmdsl.fences import FenceOptions, select_fences  # noqa: E402
from mmdsl.lang import load_model  # noqa: E402
from mmdsl.litmus import load_litmus  # noqa: E402


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def classic(models: list[str]) -> None:
    files = sorted((ROOT / "litmus" / "classic").rglob("*.litmus"))
    programs = [load_litmus(f) for f in files]
    print(f"classic: {len(programs)} tests (X86, LISA, C)")
    for name in models:
        model = load_model(name)
        times, needed, errors = [], 0, 0
        for p in programs:
            t0 = time.perf_counter()
            try:
                sel = select_fences(p, model)
                needed += sel.needed
            except MmdslError:
                errors += 1
            times.append((time.perf_counter() - t0, p.name))
        total = sum(t for t, _ in times)
        slow, which = max(times)
        print(f"  {name:<8} {total:6.2f} s total, slowest {slow:.3f} s ({which}), "
              f"{needed} needed fences, {errors} errors")


def programs(models: list[str]) -> None:
    """Each bundled program under each model, both methods: fences per thread, cost, rounds, seconds."""
    files = sorted((ROOT / "litmus" / "programs").glob("*.litmus"))
    print("programs: fences per thread (cost), rounds, seconds -- traces/executions | min-cut")
    for name in models:
        model = load_model(name)
        for f in files:
            row = []
            for method in ("cegar", "cut"):
                program = load_litmus(f)
                t0 = time.perf_counter()
                try:
                    sel = select_fences(program, model, FenceOptions(method=method))
                    per = " + ".join(str(sum(1 for c in sel.fences if c.place.tid == t.tid)) for t in program.threads)
                    row.append(f"{per} ({sel.cost}) {sel.status} {sel.rounds} rounds {sel.engine} "
                               f"{time.perf_counter() - t0:6.2f} s")
                except MmdslError as err:
                    row.append(f"error: {err.message[:60]}")
            print(f"  {name:<8} {f.stem:<18} " + " | ".join(row), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sc,tso,pso,rmo,relaxed,dotnet")
    ap.add_argument("--program-models", default="dotnet")
    ap.add_argument("--skip-programs", action="store_true")
    args = ap.parse_args()
    print(machine())
    classic(args.models.split(","))
    if not args.skip_programs:
        programs(args.program_models.split(","))


if __name__ == "__main__":
    main()
