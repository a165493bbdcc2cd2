"""Benchmark: a suite (default the x86 corpus, 2,595 tests) under sc and tso with --jobs 1 and --jobs 2.

Prints, per job count, the wall time, tests per second and cells (test x model) per
second, the CPU time spent (this process and its workers: the overhead of the workers,
and how many cores the run really had), then the ratio of each run's time to the one-job run. Run it from the repository root:

    .venv/bin/python bench/suite.py [--suite litmus/x86] [--models sc,tso] [--jobs 1,2] [--repeat 1]

On a machine with two free cores the two-job run should take close to half the time of
the one-job run. Other processes on the machine skew both; compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mmdsl.suite.manifest import load_suite  # noqa: E402
from mmdsl.suite.run import model_columns, run_suite  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="litmus/x86")
    ap.add_argument("--models", default="sc,tso")
    ap.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    ap.add_argument("--repeat", type=int, default=1, help="runs per job count (the best is kept)")
    args = ap.parse_args(argv)

    os.chdir(ROOT)
    suite = load_suite(args.suite)
    columns = model_columns(suite, args.models.split(","))
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cpus, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"suite {suite.name}: {len(suite.tests)} tests x {len(columns)} models "
          f"({', '.join(c.column for c in columns)})")
    results = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        best = None
        for _ in range(args.repeat):
            cpu0 = _cpu()
            start = time.perf_counter()
            run = run_suite(suite, columns, jobs=jobs)
            wall = time.perf_counter() - start
            cpu = _cpu() - cpu0
            if run.exit_code() != 0:
                print(f"  jobs {jobs}: the run did not pass its manifest ({run.outcomes()})")
                return 1
            if best is None or wall < best[0]:
                best = (wall, cpu)
        wall, cpu = best
        results[jobs] = wall
        print(f"  jobs {jobs}: {wall:7.2f} s  {len(suite.tests) / wall:7.1f} tests/s  "
              f"{len(suite.tests) * len(columns) / wall:7.1f} cells/s  (cpu {cpu:.2f} s, "
              f"{cpu / wall:.2f} cores busy on average)")
    base = results.get(1)
    if base:
        for jobs, wall in results.items():
            if jobs != 1:
                print(f"  jobs {jobs} / jobs 1: {wall / base:.2f} of the time ({base / wall:.2f}x speed-up)")
    return 0


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    sys.exit(main())
