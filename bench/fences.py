"""Benchmark: minimum-fence selection on the classic suite under every model, and on the bundled programs.

Run from the repository root:  .venv/bin/python bench/fences.py [--models sc,tso,pso,rmo,relaxed,dotnet]
Prints, per model, the number of tests, how many needed fences, the total and the slowest
selection time (goal: every classic test under one second), then each bundled program
(goal: under ten seconds). Not a timed test: our machines are noisy.
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


def programs(models: list[str], method: str) -> None:
    files = sorted((ROOT / "litmus" / "programs").glob("*.litmus"))
    print(f"programs ({method}):")
    for name in models:
        model = load_model(name)
        for f in files:
            t0 = time.perf_counter()
            try:
                sel = select_fences(load_litmus(f), model, FenceOptions(method=method))
                what = f"{len(sel.fences)} fences, cost {sel.cost}, {sel.status}, {sel.rounds} rounds"
            except MmdslError as err:
                what = f"error: {err.message[:80]}"
            print(f"  {name:<8} {f.stem:<18} {time.perf_counter() - t0:7.2f} s  {what}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sc,tso,pso,rmo,relaxed,dotnet")
    ap.add_argument("--program-models", default="dotnet")
    ap.add_argument("--skip-programs", action="store_true")
    args = ap.parse_args()
    print(machine())
    classic(args.models.split(","))
    if not args.skip_programs:
        for method in ("cegar", "cut"):
            programs(args.program_models.split(","), method)


if __name__ == "__main__":
    main()
