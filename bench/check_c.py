"""Benchmark: `mmdsl check` on the bundled whole C programs and, where installed, GenMC on the same files.

The programs: litmus/programs-c/*.c (philosophers with -D N=2) and GenMC's own test programs
bundled in tests/check/data/genmc (the variants/*.c files, GPL-3, see NOTE.md there). Each
runs as a whole process, ``mmdsl check FILE -m MODEL`` for each model asked (default sc and
tso), and prints the verdict, the states visited, wall and CPU seconds. GenMC is looked for
as ``genmc`` on PATH or in /work/tools/bin; it runs ``genmc FILE`` (its default model, RC11,
not the table models: the verdicts are for reading beside each other, not equal by
construction). Without GenMC its column says so and nothing of it is timed. Run from the
repository root:
    .venv/bin/python bench/check_c.py [--models sc,tso] [--timeout 120] [--only peterson]
Each line says whether issue 22's goal is met ("goal": a safe answer within 10 s, an error
reported within 2 s; judged on the child's CPU seconds, wall time being noisy on a shared
machine) and the misses are listed at the end.
Not a timed test: machines are shared and noisy; compare within one run.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from compare_herd import machine  # noqa: E402
from memorax import timed  # noqa: E402

PROGRAMS = ROOT / "litmus" / "programs-c"
GENMC_DATA = ROOT / "tests" / "check" / "data" / "genmc"
DEFINES = {"philosophers": ["-D", "N=2"], "philosophers-ordered": ["-D", "N=2"]}
SAFE_GOAL, ERROR_GOAL = 10.0, 2.0  # seconds: issue 22's goals for a correct program and a broken one
HEADLINE = re.compile(r"under \S+: (safe up to unroll bound \d+|safe|assertion violated|deadlock|livelock)")


def programs() -> list[Path]:
    return sorted(PROGRAMS.glob("*.c")) + sorted(GENMC_DATA.rglob("variants/*.c"))


def label(path: Path) -> str:
    """``queue-broken``, or ``genmc/wrong/fib_bench0`` for GenMC's programs (correct and wrong share names)."""
    if GENMC_DATA in path.parents:
        return f"genmc/{path.relative_to(GENMC_DATA).parts[0]}/{path.stem}"
    return path.stem


def genmc_binary() -> str | None:
    found = shutil.which("genmc")
    if found:
        return found
    local = Path("/work/tools/bin/genmc")
    return str(local) if local.exists() else None


def mmdsl_check(path: Path, model: str, timeout: float) -> tuple[str, str, float, float]:
    argv = [sys.executable, "-m", "mmdsl", "check", str(path), "-m", model, *DEFINES.get(path.stem, [])]
    out, wall, cpu, done = timed(argv, timeout)
    if not done:
        return "timeout", "-", wall, cpu
    m = HEADLINE.search(out)
    states = re.search(r"States (\d+)", out)
    verdict = m.group(1) if m else "error (see mmdsl check)"
    return verdict, states.group(1) if states else "-", wall, cpu


def goal(verdict: str, cpu: float) -> str:
    """"ok" when the run met issue 22's goal for its verdict, else "MISS" ("-" when it gave no verdict)."""
    if verdict.startswith("error"):
        return "-"
    limit = SAFE_GOAL if verdict.startswith("safe") else ERROR_GOAL  # a timeout misses either goal
    return "ok" if verdict != "timeout" and cpu <= limit else "MISS"


def genmc_check(binary: str, path: Path, timeout: float) -> tuple[str, float, float]:
    out, wall, cpu, done = timed([binary, str(path)], timeout)
    if not done:
        return "timeout", wall, cpu
    if "No errors were detected" in out:
        verdict = "safe"
    elif re.search(r"[Ee]rror detected", out):
        verdict = "error: " + next((ln.strip() for ln in out.splitlines() if "rror" in ln), "")[:50]
    else:
        verdict = "? " + (out.strip().splitlines() or [""])[-1][:50]
    return verdict, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="sc,tso", help="comma separated table models for mmdsl")
    ap.add_argument("--timeout", type=float, default=120.0, help="CPU seconds per run")
    ap.add_argument("--only", default="", help="only files whose name contains this")
    args = ap.parse_args()
    print(f"Machine: {machine()}")
    genmc = genmc_binary()
    print(f"GenMC: {genmc}" if genmc else "GenMC: not installed (no genmc on PATH or in /work/tools/bin): skipped")
    models = args.models.split(",")
    files = [p for p in programs() if args.only in p.name]
    print(f"{'program':<30} {'model':<5} {'mmdsl verdict':<26} {'states':>8} {'wall s':>8} {'CPU s':>7} {'goal':>4}"
          + (f"  {'GenMC verdict':<26} {'wall s':>7} {'CPU s':>6}" if genmc else ""))
    totals = {m: [0.0, 0.0] for m in models}
    misses = []
    for path in files:
        g = genmc_check(genmc, path, args.timeout) if genmc else None
        for k, model in enumerate(models):
            verdict, states, wall, cpu = mmdsl_check(path, model, args.timeout)
            totals[model][0] += wall
            totals[model][1] += cpu
            met = goal(verdict, cpu)
            if met == "MISS":
                misses.append(f"{label(path)} -m {model}: {verdict}, {cpu:.1f} CPU s")
            line = f"{label(path):<30} {model:<5} {verdict:<26} {states:>8} {wall:>8.2f} {cpu:>7.2f} {met:>4}"
            if g is not None and k == 0:
                line += f"  {g[0]:<26} {g[1]:>7.2f} {g[2]:>6.2f}"
            print(line, flush=True)
    for model, (wall, cpu) in totals.items():
        print(f"Total mmdsl -m {model}: {len(files)} programs, wall {wall:.1f} s, CPU {cpu:.1f} s")
    print(f"Goal missed ({len(misses)} of {len(files) * len(models)} runs; safe within {SAFE_GOAL:g} s, "
          f"an error within {ERROR_GOAL:g} s):")
    for m in misses:
        print("  " + m)


if __name__ == "__main__":
    main()
