"""Benchmark: the PPC and AArch64 sets under power and armv8, both engines, herd7 beside them (issue 11).

For each set -- ``litmus/ppc`` (ppc-gen, classic, deps-and-fences, hand, random,
herding-cats) under ``-m power`` and ``litmus/aarch64`` under ``-m armv8`` -- times, each
as one process on one core (wall seconds, CPU seconds of the child process), as a user
runs them:

* ``mmdsl suite litmus/SET -m MODEL --jobs 1``;
* ``mmdsl run FILES -m MODEL`` (the axiomatic checker, full herd blocks) and with ``-q``;
* ``mmdsl run FILES -m CAT`` -- herd's ``ppc.cat`` / ``aarch64.cat`` loaded unchanged --
  when found (``--herd-libdir``, else ``../shared/reference/herd-cats``);
* ``herd7 -model ppc.cat FILES`` / ``aarch64.cat`` (and ``-speedcheck true``), when herd7 is
  on PATH, on the same files;
* the explorer (``explore``, what ``mmdsl run --engine explorer`` calls) on every file of the
  set, one at a time in this process within a wall-clock limit per test: the CPU seconds of
  each (the machine is shared: wall time grows with the load), how many finished under 5 s,
  the slowest, the tests that hit the limit or were refused (``--no-reduction``: without the
  reduction, for comparison).

herd7 checks a test name once per run, so the timed runs get one file per test name (the
count is printed); the explorer run and the suite take every file. The ratio column is
mmdsl's CPU time over herd7's (over ``-speedcheck true`` for ``-q``). Run it from the
repository root:
  .venv/bin/python bench/hardware.py [--herd-libdir DIR] [--sets ppc,aarch64]
                                     [--skip suite,run,quiet,cat,herd,explorer] [--limit S]
Not a timed test: our machines are shared, compare ratios within one run.
"""

from __future__ import annotations

import argparse
import glob
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from compare_herd import byte_compile, herd_version, machine, mmdsl, one_file_per_test  # noqa: E402
from riscv import herd_cat, row  # noqa: E402

SETS = {  # set -> (folder, mmdsl's model, herd's model)
    "ppc": ("litmus/ppc", "power", "ppc.cat"),
    "aarch64": ("litmus/aarch64", "armv8", "aarch64.cat"),
}
GOAL_SECONDS = 5.0  # the explorer's goal per test (issue 11)


def explorer_report(files: list[str], model_name: str, limit: float, reduce: bool) -> None:
    """The explorer on each file in this process: CPU seconds per test (the machine is shared: its
    wall time grows with the load), how many under the goal, the slowest, the limit hits named."""
    from mmdsl.core import limits
    from mmdsl.core.errors import MmdslError
    from mmdsl.explorer import explore
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    model = load_model(model_name)
    times, stopped, refused = [], [], []
    w0, c0 = time.perf_counter(), time.process_time()
    for path in files:
        start = time.process_time()
        try:
            with limits.within(limit, path):
                result = explore(load_litmus(ROOT / path), model, por=reduce)
            times.append((time.process_time() - start, result.stats["states"], path))
        except limits.TimeLimitError:
            stopped.append(path)
        except MmdslError as err:
            refused.append(f"{path}: {str(err).splitlines()[0]}")
    times.sort(reverse=True)
    under = sum(1 for cpu, _, _ in times if cpu < GOAL_SECONDS)
    print(f"  explorer -m {model_name}, reduction {'on' if reduce else 'off'}, in this process, limit {limit:g} s "
          f"wall per test: {len(files)} files, {time.perf_counter() - w0:.0f} s wall, {time.process_time() - c0:.0f} s "
          f"CPU; {len(times)} finished, {under} of them under {GOAL_SECONDS:g} s CPU; {len(stopped)} hit the limit; "
          f"{len(refused)} refused", flush=True)
    if times:
        print(f"  states: {sum(n for _, n, _ in times)} in all, the most {max(n for _, n, _ in times)}")
        print("  slowest: " + ", ".join(f"{Path(p).stem} {cpu:.2f} s ({n} states)" for cpu, n, p in times[:6]))
    for path in stopped:
        print(f"  limit: {path}")
    for line in refused:
        print(f"  refused: {line}")
    print(flush=True)


def bench_set(name: str, args: argparse.Namespace, skip: set[str], herd: str | None) -> None:
    folder, model, cat_name = SETS[name]
    every = sorted(glob.glob(str(ROOT / folder / "tests" / "**" / "*.litmus"), recursive=True))
    files, dropped = one_file_per_test(every)
    cat = herd_cat(args.herd_libdir, cat_name)
    print(f"\n{folder} under {model}: {len(files)} files for the timed runs ({len(dropped)} of {len(every)} "
          f"left out: a test name already seen); herd's {cat_name}: {cat or 'not found'}", flush=True)
    rows = []
    run = mmdsl() + ["run", *files]
    if "suite" not in skip:
        rows.append(row(f"mmdsl suite {folder} -m {model} --jobs 1 ({len(every)} files)",
                        mmdsl() + ["suite", folder, "-m", model, "--jobs", "1"], len(every)))
    if "run" not in skip:
        rows.append(row(f"mmdsl run -m {model} (axiomatic, herd blocks)", run + ["-m", model], len(files)))
    if "quiet" not in skip:
        rows.append(row(f"mmdsl run -m {model} -q (verdicts only)", run + ["-m", model, "-q"], len(files)))
    if cat and "cat" not in skip:
        rows.append(row(f"mmdsl run -m {cat_name} (herd's model, unchanged)", run + ["-m", str(cat)], len(files)))
    herd_default = f"herd7 -model {cat_name}"
    if herd and "herd" not in skip:
        base = [herd] + (["-set-libdir", args.herd_libdir] if args.herd_libdir else []) + ["-model", cat_name]
        rows.append(row(herd_default, base + files, len(files)))
        rows.append(row(f"{herd_default} -speedcheck true", base + ["-speedcheck", "true"] + files, len(files)))
    herd_cpu = {label: cpu for label, _, cpu in rows if label.startswith("herd7")}
    print()
    print("| what | time | CPU / herd7's |")
    print("|---|---|---|")
    for label, cell, cpu in rows:
        ref = herd_cpu.get(f"{herd_default} -speedcheck true" if "-q" in label else herd_default)
        ratio = f"{cpu / ref:.2f}" if ref and not label.startswith("herd7") else ""
        print(f"| {label} | {cell} | {ratio} |")
    print(flush=True)
    if "explorer" not in skip:
        explorer_report([str(Path(f).relative_to(ROOT)) for f in every], model, args.limit, not args.no_reduction)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--herd-libdir", help="herd's libdir (ppc.cat, aarch64.cat; herd7 -set-libdir, mmdsl -m)")
    ap.add_argument("--sets", default="ppc,aarch64", help="comma list of: " + ", ".join(SETS))
    ap.add_argument("--skip", default="", help="comma list of: suite, run, quiet, cat, herd, explorer")
    ap.add_argument("--limit", type=float, default=30.0, help="the explorer's time limit per test (wall seconds)")
    ap.add_argument("--no-reduction", action="store_true", help="the explorer without its reduction (por=False)")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    herd = shutil.which("herd7")
    print(machine())
    print(byte_compile())
    print(f"herd7 {herd_version(herd)} at {herd}" if herd else "herd7 is not on PATH: mmdsl alone")
    for name in filter(None, args.sets.split(",")):
        bench_set(name, args, skip, herd)


if __name__ == "__main__":
    main()
