"""Benchmark: the command line against herd7, like for like, over the whole x86 corpus.

Runs the same files through ``mmdsl run`` and, when ``herd7`` is on PATH, through herd7
(default, and ``-speedcheck true``), each as one process, and prints the issue-15 table in
Markdown: wall seconds, CPU seconds of the child process, and mmdsl / herd7 ratios. Without
herd7 it says so and times mmdsl alone. Also times start-up (``mmdsl run`` on one classic
test, best of --repeat) and the scaling family of bench/scaling.py through the CLI.
Run it from the repository root:  .venv/bin/python bench/compare_herd.py [--model tso]
Not a timed test: our machines are shared, compare ratios within one run.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / ".." / "shared" / "reference" / "x86-corpus" / "tests"
HERD_MODEL = {"tso": "x86tso.cat", "sc": "sc.cat"}  # herd's own models for the same names


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {now}, "
            f"load average {load} at the start")


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the child, exit code); output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def mmdsl() -> list[str]:
    exe = ROOT / ".venv" / "bin" / "mmdsl"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mmdsl.cli.app"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="tso")
    ap.add_argument("--repeat", type=int, default=5, help="start-up runs (the best is kept)")
    args = ap.parse_args()
    files = sorted(glob.glob(str(CORPUS / "**" / "*.litmus"), recursive=True))
    herd = shutil.which("herd7")
    print(machine())
    print(f"{len(files)} corpus files, model {args.model}; "
          + (f"herd7 at {herd}" if herd else "herd7 is not on PATH: mmdsl alone"))
    print()
    rows = []
    m = mmdsl() + ["run", *files, "-m", args.model]
    h = [herd, "-model", HERD_MODEL.get(args.model, args.model)] + files if herd else None
    for label, ours, theirs in [
        ("full herd blocks (herd7 default)", m, h),
        ("verdicts only: mmdsl `-q`, herd7 `-speedcheck true`", m + ["-q"],
         h[:1] + ["-speedcheck", "true"] + h[1:] if h else None),
    ]:
        wall, cpu, rc = timed(ours)
        cell = f"{wall:.1f} s wall, {cpu:.1f} s CPU" + ("" if rc == 0 else f" (exit {rc})")
        if theirs:
            hw, hc, hrc = timed(theirs)
            rows.append((label, cell, f"{hw:.1f} s wall, {hc:.1f} s CPU", f"{cpu / hc:.2f}"))
        else:
            rows.append((label, cell, "not run", ""))
    best = min(timed(mmdsl() + ["run", "litmus/classic/SB.litmus", "-m", args.model])
               for _ in range(args.repeat))
    rows.append((f"start-up: `mmdsl run litmus/classic/SB.litmus` (best of {args.repeat})",
                 f"{best[0]:.2f} s wall, {best[1]:.2f} s CPU", "", ""))
    scaling = sorted(glob.glob(str(ROOT / "litmus" / "scaling" / "*.litmus")))
    worst = ("", 0.0, 0.0)
    for f in scaling:
        wall, cpu, _ = timed(mmdsl() + ["run", f, "-m", args.model])
        if cpu > worst[2]:
            worst = (Path(f).stem, wall, cpu)
    rows.append((f"scaling family ({len(scaling)} tests, one process each): the slowest, {worst[0]}",
                 f"{worst[1]:.2f} s wall, {worst[2]:.2f} s CPU", "", ""))
    print("| what | mmdsl | herd7 | ratio (CPU) |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
