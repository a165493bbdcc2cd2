"""Benchmark: the command line against herd7, like for like, over the whole x86 corpus.

Runs the same files through ``mmdsl run`` and, when ``herd7`` is on PATH, through herd7
(default, and ``-speedcheck true``), each as one process, and prints the issue-15 table in
Markdown: wall seconds, CPU seconds of the child process, and mmdsl / herd7 ratios. Without
herd7 it says so and times mmdsl alone. Like for like: herd7 gets ``-archcheck false`` (the
corpus is X86_64, herd's x86tso.cat says X86: without it herd refuses every file at once),
and both tools get the same files, one per test name (herd checks a name once per run and
silently skips a later file of the same name), and the verdicts each printed are counted; mmdsl is
byte-compiled first, as an installed mmdsl is. Also times start-up (``mmdsl run`` on one classic
test, best of --repeat) and the slowest tests of the scaling family (bench/scaling.py) and of
the coherence family (bench/coherence_family.py) through the CLI, one process each.
Each corpus row is run in pairs, mmdsl then herd7, --pairs times (A B A B ...), and the
medians are printed, with the median and range of the pairs' CPU ratios.
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


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def paired(ours: list[str], theirs: list[str] | None, pairs: int) -> dict:
    """Run ``ours`` and ``theirs`` alternately (A B A B ...) ``pairs`` times: the median wall and
    CPU seconds of each, the median and range of the per-pair CPU ratios, the verdicts printed
    and the exit codes. A pair's two runs see about the same load, so its ratio is fairer
    than a ratio of two separate single runs."""
    runs: dict[str, list] = {"ours": [], "theirs": []}
    for _ in range(pairs):
        runs["ours"].append(timed(ours))
        if theirs:
            runs["theirs"].append(timed(theirs))
    out = {}
    for side, rs in runs.items():
        if rs:
            out[side] = (median([r[0] for r in rs]), median([r[1] for r in rs]),
                         max(r[2] for r in rs), rs[-1][3])
    if theirs:
        ratios = [a[1] / b[1] for a, b in zip(runs["ours"], runs["theirs"]) if b[1]]
        out["ratios"] = ratios
    return out


def cell(wall: float, cpu: float, rc: int) -> str:
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU" + ("" if rc == 0 else f" (exit {rc})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="tso")
    ap.add_argument("--repeat", type=int, default=5, help="start-up runs (the best is kept)")
    ap.add_argument("--pairs", type=int, default=5,
                    help="paired runs (mmdsl, herd7, mmdsl, herd7 ...) per row; medians are printed")
    args = ap.parse_args()
    corpus = sorted(glob.glob(str(CORPUS / "**" / "*.litmus"), recursive=True))
    files, dropped = one_file_per_test(corpus)
    herd = shutil.which("herd7")
    print(machine())
    print(byte_compile())
    print(f"{len(files)} corpus files ({len(dropped)} of {len(corpus)} left out: a test name "
          f"already seen), model {args.model}; "
          + (f"herd7 {herd_version(herd)} at {herd}" if herd else "herd7 is not on PATH: mmdsl alone")
          + f"; medians of {args.pairs} paired runs")
    print()
    rows, counts = [], []
    m = mmdsl() + ["run", *files, "-m", args.model]
    for label, ours, theirs in [
        ("full herd blocks (herd7 default)", m,
         herd_command(herd, args.model, files) if herd else None),
        ("verdicts only: mmdsl `-q`, herd7 `-speedcheck true`", m + ["-q"],
         herd_command(herd, args.model, files, speedcheck=True) if herd else None),
    ]:
        got = paired(ours, theirs, args.pairs)
        wall, cpu, rc, n = got["ours"]
        short = label.split(":")[0].split(" (")[0]
        if theirs:
            hw, hc, hrc, hn = got["theirs"]
            ratios = got["ratios"]
            spread = f"{median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})" if ratios else ""
            rows.append((label, cell(wall, cpu, rc), cell(hw, hc, hrc), spread))
            counts.append(f"{short}: mmdsl {n}, herd7 {hn} verdicts")
        else:
            rows.append((label, cell(wall, cpu, rc), "not run", ""))
            counts.append(f"{short}: mmdsl {n} verdicts")
    best = min(timed(mmdsl() + ["run", "litmus/classic/SB.litmus", "-m", args.model])[:2]
               for _ in range(args.repeat))
    rows.append((f"start-up: `mmdsl run litmus/classic/SB.litmus` (best of {args.repeat})",
                 f"{best[0]:.2f} s wall, {best[1]:.2f} s CPU", "", ""))
    for family in ("scaling", "coherence"):
        tests = sorted(glob.glob(str(ROOT / "litmus" / family / "*.litmus")))
        worst = ("", 0.0, 0.0)
        for f in tests:
            wall, cpu, _, _ = timed(mmdsl() + ["run", f, "-m", args.model])
            if cpu > worst[2]:
                worst = (Path(f).stem, wall, cpu)
        rows.append((f"{family} family ({len(tests)} tests, one process each): the slowest, {worst[0]}",
                     f"{worst[1]:.2f} s wall, {worst[2]:.2f} s CPU", "", ""))
    print("| what | mmdsl (median) | herd7 (median) | ratio (CPU, median of pairs, range) |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print("Verdicts printed (" + str(len(files)) + " files, last run): " + "; ".join(counts) + ".")


if __name__ == "__main__":
    main()
