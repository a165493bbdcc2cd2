"""Benchmark: `mmdsl check` on the bundled whole C programs and, where installed, GenMC on the same files.

The programs: litmus/programs-c/*.c (philosophers with -D N=2) and GenMC's own test programs
bundled in tests/check/data/genmc (the variants/*.c files, GPL-3, see NOTE.md there). Each
runs as a whole process, as a user runs it, and prints the verdict, wall and CPU seconds.
GenMC is looked for as ``genmc`` on PATH or in /work/tools/bin; without it its columns say so
and nothing of it is timed. Two modes:

- ``--models sc,tso`` (default): ``mmdsl check FILE -m MODEL`` under table models (states
  visited) beside ``genmc -rc11 -disable-mm-detector -- FILE`` (RC11: the verdicts are for reading beside each other,
  not equal by construction).
- ``--cat PATH/rc11.cat``: both tools under RC11, ``mmdsl check FILE -m rc11.cat`` (the
  execution-graph machine) beside ``genmc -rc11 -disable-mm-detector -- FILE`` (with GenMC's
  own flags for the three tests that have them, GENMC_ARGS: the flags its test driver uses), with the complete executions each
  counted, compared with tests/check/data/genmc/expected-rc11.csv (GenMC v0.11's counts, and
  mmdsl's where they differ, with the reason). Totals per group: GenMC's litmus-style tests
  (the programs of that file) and the data-structure programs of litmus/programs-c.

Run from the repository root:
    .venv/bin/python bench/check_c.py [--models sc,tso] [--timeout 120] [--only peterson]
    .venv/bin/python bench/check_c.py --cat ../shared/reference/herd-cats/rc11.cat
Each line says whether issue 22's goal is met ("goal": a safe answer within 10 s, an error
reported within 2 s; judged on the child's CPU seconds, wall time being noisy on a shared
machine) and the misses are listed at the end.
Not a timed test: machines are shared and noisy; compare within one run.
"""

from __future__ import annotations

import argparse
import csv
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
HEADLINE = re.compile(r"under \S+: (safe up to unroll bound \d+|safe|assertion violated|deadlock|livelock|data race|memory error)")
# GenMC's error kinds (v0.11: "Error: Safety violation!") in mmdsl's words
# GenMC's own flags for a test (its tests/.../args.rc11.mo.in and genmc.rc11.mo.in, v0.11, which its
# test driver adds to "-rc11 -disable-mm-detector"): its expected count for the two release-sequence
# tests is with race detection off (with it on, GenMC v0.11 reports a race: its RC11 ends a release
# sequence at a later relaxed store, C++20); a liveness violation is only looked for when asked.
GENMC_ARGS = {"mp+rels+acq0": ["-disable-race-detection"], "s+rels+acq0": ["-disable-race-detection"],
              "simple0": ["-check-liveness"]}
GENMC_KINDS = {"Safety violation": "assertion violated", "Non-atomic race": "data race",
               "Liveness violation": "livelock"}
SAFE_GOAL, ERROR_GOAL = 10.0, 2.0  # seconds: issue 22's goals for a correct program and a broken one


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


def _stopped(cpu: float, timeout: float) -> str:
    """A child killed by a signal: the CPU limit, or before it (GenMC v0.11 segfaults on
    clh-lock-broken; mmdsl may be killed for memory)."""
    return "timeout" if cpu >= timeout - 1 else "killed (signal)"


def mmdsl_check(path: Path, model: str, timeout: float) -> tuple[str, str, str, float, float]:
    """Verdict, states visited (table models), complete executions (cat models), wall and CPU seconds."""
    argv = [sys.executable, "-m", "mmdsl", "check", str(path), "-m", model, *DEFINES.get(path.stem, [])]
    out, wall, cpu, done = timed(argv, timeout)
    if not done:
        return _stopped(cpu, timeout), "-", "-", wall, cpu
    m = HEADLINE.search(out)
    states = re.search(r"States (\d+)", out)
    execs = re.search(r"Executions (\d+) complete", out)
    verdict = m.group(1) if m else "refused (unsupported)" if "unsupported:" in out else "error (see mmdsl check)"
    return (verdict, states.group(1) if states else "-", execs.group(1) if execs else "-", wall, cpu)


def goal(verdict: str, cpu: float) -> str:
    """"ok" when the run met issue 22's goal for its verdict, else "MISS" ("-" when it gave no verdict)."""
    if verdict.startswith(("error", "refused", "killed")):
        return "-"
    limit = SAFE_GOAL if verdict.startswith("safe") else ERROR_GOAL  # a timeout misses either goal
    return "ok" if verdict != "timeout" and cpu <= limit else "MISS"


def genmc_check(binary: str, path: Path, timeout: float) -> tuple[str, str, float, float]:
    """Verdict in mmdsl's words, complete executions, wall and CPU seconds of ``genmc -rc11``."""
    argv = [binary, "-rc11", "-disable-mm-detector", *GENMC_ARGS.get(path.stem, []), "--",
            *DEFINES.get(path.stem, []), str(path)]
    out, wall, cpu, done = timed(argv, timeout)
    if not done:
        return _stopped(cpu, timeout), "-", wall, cpu
    execs = re.search(r"Number of complete executions explored: (\d+)", out)
    error = re.search(r"^(?:Error|Warning): (.+?)!", out, re.M)  # a warning is an error under IPR
    blocked = re.search(r"Number of blocked executions seen: (\d+)", out)
    if "No errors were detected" in out:
        verdict = f"safe ({blocked.group(1)} blocked)" if blocked else "safe"
    elif error:
        verdict = GENMC_KINDS.get(error.group(1), error.group(1))
    else:
        verdict = "? " + (out.strip().splitlines() or [""])[-1][:40]
    return verdict, execs.group(1) if execs else "-", wall, cpu


def run_tables(genmc: str | None, models: list[str], files: list[Path], timeout: float) -> None:
    print(f"{'program':<30} {'model':<5} {'mmdsl verdict':<26} {'states':>8} {'wall s':>8} {'CPU s':>7} {'goal':>4}"
          + (f"  {'GenMC -rc11 verdict':<26} {'wall s':>7} {'CPU s':>6}" if genmc else ""))
    totals = {m: [0.0, 0.0] for m in models}
    theirs = [0.0, 0.0]
    misses = []
    for path in files:
        g = genmc_check(genmc, path, timeout) if genmc else None
        if g is not None:
            theirs[0] += g[2]
            theirs[1] += g[3]
        for k, model in enumerate(models):
            verdict, states, _, wall, cpu = mmdsl_check(path, model, timeout)
            totals[model][0] += wall
            totals[model][1] += cpu
            met = goal(verdict, cpu)
            if met == "MISS":
                misses.append(f"{label(path)} -m {model}: {verdict}, {cpu:.1f} CPU s")
            line = f"{label(path):<30} {model:<5} {verdict:<26} {states:>8} {wall:>8.2f} {cpu:>7.2f} {met:>4}"
            if g is not None and k == 0:
                line += f"  {g[0]:<26} {g[2]:>7.2f} {g[3]:>6.2f}"
            print(line, flush=True)
    for model, (wall, cpu) in totals.items():
        ratio = f"; mmdsl/GenMC CPU {cpu / theirs[1]:.1f}x" if genmc and theirs[1] else ""
        print(f"Total mmdsl -m {model}: {len(files)} programs, wall {wall:.1f} s, CPU {cpu:.1f} s{ratio}")
    if genmc:
        print(f"Total GenMC -rc11: {len(files)} programs, wall {theirs[0]:.1f} s, CPU {theirs[1]:.1f} s")
    print(f"Goal missed ({len(misses)} of {len(files) * len(models)} runs; safe within {SAFE_GOAL:g} s, "
          f"an error within {ERROR_GOAL:g} s):")
    for m in misses:
        print("  " + m)


def rc11_groups(only: str) -> dict[str, list[tuple[Path, dict]]]:
    """GenMC's litmus-style tests (with their expected-rc11.csv row) and the data-structure programs."""
    rows = list(csv.DictReader((GENMC_DATA / "expected-rc11.csv").open()))
    litmus = [(GENMC_DATA / r["program"], r) for r in rows]
    data = [(p, {}) for p in sorted(PROGRAMS.glob("*.c"))]
    return {name: [(p, r) for p, r in group if only in p.name]
            for name, group in (("GenMC litmus-style", litmus), ("data structures", data))}


def _agreement(row: dict, mine: str, theirs: str) -> str:
    """``same``; ``as csv`` where the counts differ as expected-rc11.csv records (its note says why);
    ``error`` where the program has one (the searches stop at it: counts not compared); else a finding."""
    if not row:
        return "" if "-" in (mine, theirs) else "same" if mine == theirs else "differ"
    if not row["executions"]:
        return "error"
    if mine == row["executions"] and theirs == row["genmc"]:
        return "same" if mine == theirs else "as csv"
    return f"UNEXPECTED (csv: mmdsl {row['executions']}, GenMC {row['genmc']})"


def run_rc11(genmc: str | None, cat: str, only: str, timeout: float, group_only: str = "") -> None:
    print(f"{'program':<24} {'mmdsl verdict':<26} {'execs':>6} {'wall s':>7} {'CPU s':>6}"
          + (f"  {'GenMC verdict':<20} {'execs':>6} {'wall s':>7} {'CPU s':>6}  counts" if genmc else ""))
    for group, items in rc11_groups(only).items():
        if group_only and not group.startswith(group_only):
            continue
        mine_t = [0.0, 0.0]
        theirs_t = [0.0, 0.0]
        slowest = (0.0, "")
        print(f"-- {group}")
        for path, row in items:
            verdict, _, execs, wall, cpu = mmdsl_check(path, cat, timeout)
            mine_t[0] += wall
            mine_t[1] += cpu
            slowest = max(slowest, (wall, f"{path.stem} ({verdict})"))
            line = f"{path.stem:<24} {verdict:<26} {execs:>6} {wall:>7.2f} {cpu:>6.2f}"
            if genmc:
                g_verdict, g_execs, g_wall, g_cpu = genmc_check(genmc, path, timeout)
                theirs_t[0] += g_wall
                theirs_t[1] += g_cpu
                line += (f"  {g_verdict:<20} {g_execs:>6} {g_wall:>7.2f} {g_cpu:>6.2f}  "
                         f"{_agreement(row, execs, g_execs)}" + " ".join(["", *GENMC_ARGS.get(path.stem, [])]))
            print(line, flush=True)
        total = f"Total {group}: {len(items)} programs, mmdsl wall {mine_t[0]:.1f} s, CPU {mine_t[1]:.1f} s"
        if genmc:
            ratio = mine_t[0] / theirs_t[0] if theirs_t[0] else float("nan")
            total += (f"; GenMC wall {theirs_t[0]:.1f} s, CPU {theirs_t[1]:.1f} s; "
                      f"mmdsl/GenMC wall {ratio:.2f}x")
        print(total + f"; slowest mmdsl {slowest[1]} {slowest[0]:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="sc,tso", help="comma separated table models for mmdsl")
    ap.add_argument("--cat", default="", help="a cat model (rc11.cat): both tools under RC11, executions counted")
    ap.add_argument("--group", default="", choices=["", "GenMC", "data"],
                    help="only GenMC's programs or only the data structures (litmus/programs-c)")
    ap.add_argument("--timeout", type=float, default=120.0, help="CPU seconds per run")
    ap.add_argument("--only", default="", help="only files whose name contains this")
    args = ap.parse_args()
    print(f"Machine: {machine()}")
    genmc = genmc_binary()
    print(f"GenMC: {genmc}" if genmc else "GenMC: not installed (no genmc on PATH or in /work/tools/bin): skipped")
    if args.cat:
        if not Path(args.cat).is_file():
            sys.exit(f"check_c.py: --cat {args.cat}: no such file")
        run_rc11(genmc, args.cat, args.only, args.timeout, args.group)
    else:
        files = [p for p in programs() if args.only in p.name]
        if args.group:  # the data structures (litmus/programs-c) or GenMC's programs
            files = [p for p in files if (GENMC_DATA in p.parents) == (args.group == "GenMC")]
        run_tables(genmc, args.models.split(","), files, args.timeout)


if __name__ == "__main__":
    main()
