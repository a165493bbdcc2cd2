"""Benchmark: the x86 corpus (and the classic shapes) under sc and tso, in one process.

Prints parse time and, per model, the checking time and tests per second: wall seconds
and the CPU seconds of this process (on a shared machine the wall time grows with the
load, the CPU time much less). Run it from the repository root:
  .venv/bin/python bench/corpus.py [--models sc,tso] [--verdict]
Not a timed test: compare ratios within one run, our machines are noisy.
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_herd import cpu_name  # noqa: E402  (the bench scripts' one CPU-name reader)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mmdsl.axiomatic import check  # noqa: E402
from mmdsl.lang import load_model  # noqa: E402
from mmdsl.litmus import load_litmus  # noqa: E402

CORPUS = ROOT / "litmus" / "x86" / "tests"  # the bundled copy of the x86 corpus (litmus/x86)


def machine() -> str:
    cpu = cpu_name()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def run(files: list[str], models: list[str], label: str, collect: str) -> None:
    t0, c0 = time.perf_counter(), time.process_time()
    programs = [load_litmus(f) for f in files]
    parse, pcpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label}: {len(files)} tests, parsed in {parse:.2f} s ({len(files) / parse:.0f} tests/s, "
          f"{pcpu:.2f} s CPU)")
    for name in models:
        model = load_model(name)
        t0, c0 = time.perf_counter(), time.process_time()
        cands = 0
        for p in programs:
            cands += check(p, model, collect=collect).candidates
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"  {name:<6} checked in {dt:6.2f} s ({cpu:.2f} s CPU)  {len(programs) / dt:7.0f} tests/s  "
              f"{cands} complete candidates  (parse + check {parse + dt:.2f} s, {pcpu + cpu:.2f} s CPU)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sc,tso")
    ap.add_argument("--verdict", action="store_true", help="verdicts only (run -q): collect=\"verdict\"")
    args = ap.parse_args()
    models = args.models.split(",")
    collect = "verdict" if args.verdict else "none"
    print(machine(), f"load average {os.getloadavg()[0]:.1f}, collect={collect}")
    classic = sorted(glob.glob(str(ROOT / "litmus" / "classic" / "**" / "*.litmus"), recursive=True))
    run(classic, models, "classic", collect)
    run(sorted(glob.glob(str(CORPUS / "**" / "*.litmus"), recursive=True)), models, "x86 corpus", collect)


if __name__ == "__main__":
    main()
