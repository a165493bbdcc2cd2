"""Benchmark: the RISC-V corpus (litmus/riscv, 5,051 tests) under riscv, through mmdsl and herd7.

Times, each as one process on one core (wall seconds, CPU seconds of the child process,
tests per CPU second), over the same files:

* ``mmdsl suite litmus/riscv -m riscv --jobs 1`` (the suite, judged against herd's verdicts);
* ``mmdsl run FILES -m riscv`` -- the axiomatic checker, full herd blocks -- and with ``-q``;
* ``mmdsl run FILES -m riscv --engine explorer`` (riscv.mm's axioms on the execution-graph machine);
* ``mmdsl run FILES -m .../riscv.cat`` -- herd's own model loaded unchanged -- when found
  (``--herd-libdir``, else ``../shared/reference/herd-cats``);
* ``herd7 -model riscv.cat FILES`` and ``-speedcheck true``, when herd7 is on PATH
  (``-set-libdir`` from ``--herd-libdir`` when given); skipped otherwise.

herd7 checks a test name once per run, so every tool gets one file per test name (the
corpus has none repeated; the count is printed). ``--agreement`` instead compares the
final states of the explorer and the checker on every file, in this process, and prints
the number of disagreements. Run it from the repository root:
  .venv/bin/python bench/riscv.py [--herd-libdir DIR] [--skip explorer,cat] [--agreement]
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

from compare_herd import herd_version, machine, mmdsl, one_file_per_test, timed  # noqa: E402

CORPUS = ROOT / "litmus" / "riscv" / "tests"
SHARED_CATS = ROOT.parent / "shared" / "reference" / "herd-cats"


def herd_cat(libdir: str | None, name: str = "riscv.cat") -> Path | None:
    """herd's model ``name`` from ``libdir``, else from ../shared/reference/herd-cats; None if in neither."""
    for base in ([Path(libdir)] if libdir else []) + [SHARED_CATS]:
        if (base / name).is_file():
            return base / name
    return None


def row(label: str, cmd: list[str], files: int) -> tuple[str, str, float]:
    wall, cpu, rc, n = timed(cmd)
    cell = f"{wall:.1f} s wall, {cpu:.1f} s CPU, {files / cpu if cpu else 0:.0f} tests/s CPU"
    if rc != 0:
        cell += f" (exit {rc})"
    if n and n != files:
        cell += f" ({n} verdicts printed)"
    print(f"  {label}: {cell}", flush=True)
    return label, cell, cpu


def agreement(files: list[str]) -> None:
    from mmdsl.axiomatic import check
    from mmdsl.explorer import explore
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    model = load_model("riscv")
    t0, c0 = time.perf_counter(), time.process_time()
    bad = []
    for f in files:
        program = load_litmus(f)
        if explore(program, model).state_set() != check(program, model, collect="none").state_set():
            bad.append(f)
            print(f"  disagree: {Path(f).relative_to(ROOT)}", flush=True)
    print(f"agreement: {len(files)} tests, {len(bad)} disagreement(s) between the explorer and the checker "
          f"under riscv ({time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--herd-libdir", help="herd's libdir (riscv.cat, for herd7 -set-libdir and mmdsl -m)")
    ap.add_argument("--skip", default="", help="comma list of: suite, run, quiet, explorer, cat, herd")
    ap.add_argument("--agreement", action="store_true", help="explorer vs checker on every file, then stop")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    corpus = sorted(glob.glob(str(CORPUS / "**" / "*.litmus"), recursive=True))
    files, dropped = one_file_per_test(corpus)
    print(machine())
    if args.agreement:
        agreement(files)
        return
    herd = shutil.which("herd7")
    cat = herd_cat(args.herd_libdir)
    print(f"{len(files)} corpus files ({len(dropped)} of {len(corpus)} left out: a test name already seen); "
          + (f"herd7 {herd_version(herd)} at {herd}" if herd else "herd7 is not on PATH: mmdsl alone")
          + (f"; herd's riscv.cat: {cat}" if cat else "; herd's riscv.cat not found"))
    rows = []
    run = mmdsl() + ["run", *files]
    if "suite" not in skip:
        rows.append(row("mmdsl suite litmus/riscv -m riscv --jobs 1",
                        mmdsl() + ["suite", "litmus/riscv", "-m", "riscv", "--jobs", "1"], len(files)))
    if "run" not in skip:
        rows.append(row("mmdsl run -m riscv (axiomatic, herd blocks)", run + ["-m", "riscv"], len(files)))
    if "quiet" not in skip:
        rows.append(row("mmdsl run -m riscv -q (verdicts only)", run + ["-m", "riscv", "-q"], len(files)))
    if "explorer" not in skip:
        rows.append(row("mmdsl run -m riscv --engine explorer", run + ["-m", "riscv", "--engine", "explorer"],
                        len(files)))
    if cat and "cat" not in skip:
        rows.append(row("mmdsl run -m riscv.cat (herd's model, unchanged)", run + ["-m", str(cat)], len(files)))
    if herd and "herd" not in skip:
        base = [herd] + (["-set-libdir", args.herd_libdir] if args.herd_libdir else []) + ["-model", "riscv.cat"]
        rows.append(row("herd7 -model riscv.cat", base + files, len(files)))
        rows.append(row("herd7 -model riscv.cat -speedcheck true", base + ["-speedcheck", "true"] + files,
                        len(files)))
    herd_cpu = {label: cpu for label, _, cpu in rows if label.startswith("herd7")}
    print()
    print("| what | time | CPU / herd7's |")
    print("|---|---|---|")
    for label, cell, cpu in rows:
        ref = herd_cpu.get("herd7 -model riscv.cat -speedcheck true" if "-q" in label else "herd7 -model riscv.cat")
        ratio = f"{cpu / ref:.2f}" if ref and not label.startswith("herd7") else ""
        print(f"| {label} | {cell} | {ratio} |")


if __name__ == "__main__":
    main()
