"""Benchmark: the command line against herd7, like for like, over the whole x86 corpus.

Runs the same files through ``mmdsl run`` and, when ``herd7`` is on PATH, through herd7
(default, and ``-speedcheck true``), each as one process, and prints the issue-15 table in
Markdown: wall seconds, CPU seconds of the child process, and mmdsl / herd7 ratios. Without
herd7 it says so and times mmdsl alone. Like for like: herd7 gets ``-archcheck false`` (the
corpus is X86_64, herd's x86tso.cat says X86: without it herd refuses every file at once),
and both tools get the same files, one per test name (herd checks a name once per run and
silently skips a later file of the same name), and the verdicts each printed are counted; mmdsl is
byte-compiled first, as an installed mmdsl is. Also times start-up (``mmdsl run`` on one classic
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
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "litmus" / "x86" / "tests"  # the bundled copy of the x86 corpus (litmus/x86)
HERD_MODEL = {"tso": "x86tso.cat", "sc": "sc.cat"}  # herd's own models for the same names


def cpu_name() -> str:
    """The CPU's model name from /proc/cpuinfo (the benches' machine lines)."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown cpu"


def machine() -> str:
    cpu = cpu_name()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {now}, "
            f"load average {load} at the start")


def timed(cmd: list[str]) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds of the child, exit code, verdicts printed)."""
    with tempfile.TemporaryFile("w+") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL).returncode
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        count = verdicts_printed(out.read())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc, count


def verdicts_printed(text: str) -> int:
    """Verdicts in a run's output: herd blocks' ``Observation`` lines, else mmdsl's ``N test(s)`` summary."""
    blocks = sum(1 for line in text.splitlines() if line.startswith("Observation "))
    if blocks:
        return blocks
    summary = re.search(r"^(\d+) test\(s\) x (\d+) model\(s\)", text, re.MULTILINE)
    return int(summary.group(1)) * int(summary.group(2)) if summary else 0


def litmus_name(path: str) -> str:
    """The test's name as herd reads it: the second word of the first non-blank line."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            words = line.split()
            if words:
                return words[1] if len(words) > 1 else ""
    return ""


def one_file_per_test(files: list[str]) -> tuple[list[str], list[str]]:
    """(kept, dropped): the first file of each test name, in order; herd7 checks a name once a run."""
    seen: set[str] = set()
    kept, dropped = [], []
    for f in files:
        name = litmus_name(f)
        (dropped if name in seen else kept).append(f)
        seen.add(name)
    return kept, dropped


def herd_command(herd: str, model: str, files: list[str], speedcheck: bool = False) -> list[str]:
    """herd7 on the files under herd's own model of that name, X86_64 tests against an X86 model allowed."""
    cmd = [herd, "-archcheck", "false", "-model", HERD_MODEL.get(model, model)]
    return cmd + (["-speedcheck", "true"] if speedcheck else []) + files


def herd_version(herd: str) -> str:
    try:
        return subprocess.run([herd, "-version"], capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown version"


def byte_compile() -> str:
    """Compile mmdsl's modules to bytecode first, as ``pip install`` does, and say so.

    Without it, where PYTHONDONTWRITEBYTECODE is set (as on our shared machines) or the
    source tree is read-only, every ``mmdsl`` process compiles its ~70 modules from source
    again, which is not what an installed mmdsl costs.
    """
    python = ROOT / ".venv" / "bin" / "python"
    cmd = [str(python) if python.exists() else sys.executable, "-m", "compileall", "-q", str(ROOT / "mmdsl")]
    ok = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    return "mmdsl byte-compiled first (as pip install does)" if ok else "byte-compiling mmdsl failed"


def mmdsl() -> list[str]:
    exe = ROOT / ".venv" / "bin" / "mmdsl"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mmdsl.cli.app"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="tso")
    ap.add_argument("--repeat", type=int, default=5, help="start-up runs (the best is kept)")
    args = ap.parse_args()
    corpus = sorted(glob.glob(str(CORPUS / "**" / "*.litmus"), recursive=True))
    files, dropped = one_file_per_test(corpus)
    herd = shutil.which("herd7")
    print(machine())
    print(byte_compile())
    print(f"{len(files)} corpus files ({len(dropped)} of {len(corpus)} left out: a test name "
          f"already seen), model {args.model}; "
          + (f"herd7 {herd_version(herd)} at {herd}" if herd else "herd7 is not on PATH: mmdsl alone"))
    print()
    rows, counts = [], []
    m = mmdsl() + ["run", *files, "-m", args.model]
    for label, ours, theirs in [
        ("full herd blocks (herd7 default)", m,
         herd_command(herd, args.model, files) if herd else None),
        ("verdicts only: mmdsl `-q`, herd7 `-speedcheck true`", m + ["-q"],
         herd_command(herd, args.model, files, speedcheck=True) if herd else None),
    ]:
        wall, cpu, rc, n = timed(ours)
        cell = f"{wall:.1f} s wall, {cpu:.1f} s CPU" + ("" if rc == 0 else f" (exit {rc})")
        if theirs:
            hw, hc, hrc, hn = timed(theirs)
            hcell = f"{hw:.1f} s wall, {hc:.1f} s CPU" + ("" if hrc == 0 else f" (exit {hrc})")
            rows.append((label, cell, hcell, f"{cpu / hc:.2f}" if hc else ""))
            counts.append(f"{label.split(':')[0].split(' (')[0]}: mmdsl {n}, herd7 {hn} verdicts")
        else:
            rows.append((label, cell, "not run", ""))
            counts.append(f"{label.split(':')[0].split(' (')[0]}: mmdsl {n} verdicts")
    best = min(timed(mmdsl() + ["run", "litmus/classic/SB.litmus", "-m", args.model])[:2]
               for _ in range(args.repeat))
    rows.append((f"start-up: `mmdsl run litmus/classic/SB.litmus` (best of {args.repeat})",
                 f"{best[0]:.2f} s wall, {best[1]:.2f} s CPU", "", ""))
    scaling = sorted(glob.glob(str(ROOT / "litmus" / "scaling" / "*.litmus")))
    worst = ("", 0.0, 0.0)
    for f in scaling:
        wall, cpu, _, _ = timed(mmdsl() + ["run", f, "-m", args.model])
        if cpu > worst[2]:
            worst = (Path(f).stem, wall, cpu)
    rows.append((f"scaling family ({len(scaling)} tests, one process each): the slowest, {worst[0]}",
                 f"{worst[1]:.2f} s wall, {worst[2]:.2f} s CPU", "", ""))
    print("| what | mmdsl | herd7 | ratio (CPU) |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print("Verdicts printed (" + str(len(files)) + " files): " + "; ".join(counts) + ".")


if __name__ == "__main__":
    main()
