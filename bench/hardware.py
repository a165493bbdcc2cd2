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
* ``mmdsl run FILES -m MODEL --engine explorer --timeout LIMIT`` over every file of the set:
  its per-test ``Time`` lines give how many tests finished under 5 s, the slowest, and the
  tests that hit the limit (or another refusal) are named.

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
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from compare_herd import byte_compile, herd_version, machine, mmdsl, one_file_per_test, timed_output  # noqa: E402
from riscv import herd_cat, row  # noqa: E402

SETS = {  # set -> (folder, mmdsl's model, herd's model)
    "ppc": ("litmus/ppc", "power", "ppc.cat"),
    "aarch64": ("litmus/aarch64", "armv8", "aarch64.cat"),
}
GOAL_SECONDS = 5.0  # the explorer's goal per test (issue 11)
TIME_LINE = re.compile(r"^Time (\S+) ([0-9.]+)$", re.MULTILINE)


def explorer_report(files: list[str], model: str, limit: float) -> str:
    """One explorer process over ``files``: per-test seconds from its Time lines, the limit hits named."""
    wall, cpu, rc, out, err = timed_output(mmdsl() + ["run", *files, "-m", model, "--engine", "explorer",
                                                     "--timeout", f"{limit:g}"])
    times = sorted(((float(s), name) for name, s in TIME_LINE.findall(out)), reverse=True)
    stopped = [line for line in err.splitlines() if "timed out after" in line]
    refused = [line for line in err.splitlines() if line and not line.startswith(" ") and line not in stopped]
    under = sum(1 for s, _ in times if s < GOAL_SECONDS)
    lines = [f"  explorer: {len(files)} files, {wall:.1f} s wall, {cpu:.1f} s CPU (exit {rc}); "
             f"{len(times)} finished, {under} of them under {GOAL_SECONDS:g} s; "
             f"{len(stopped)} hit the {limit:g} s limit; {len(refused)} other error(s)"]
    if times:
        lines.append("  slowest finished: " + ", ".join(f"{name} {s:.2f} s" for s, name in times[:5]))
    lines += [f"  limit: {line.split(': timed out')[0]}" for line in stopped]
    lines += [f"  error: {line}" for line in refused]
    for line in lines:
        print(line, flush=True)
    return "\n".join(lines)


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
        explorer_report([str(Path(f).relative_to(ROOT)) for f in every], model, args.limit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--herd-libdir", help="herd's libdir (ppc.cat, aarch64.cat; herd7 -set-libdir, mmdsl -m)")
    ap.add_argument("--sets", default="ppc,aarch64", help="comma list of: " + ", ".join(SETS))
    ap.add_argument("--skip", default="", help="comma list of: suite, run, quiet, cat, herd, explorer")
    ap.add_argument("--limit", type=float, default=20.0, help="the explorer's time limit per test (seconds)")
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
