"""Benchmark: Memorax's own example files under mmdsl's explorer and, where installed, Memorax itself.

For each file of tests/litmus/data/memorax (Memorax's doc/examples, read as they are) and
each model pair -- mmdsl's ``tso`` beside Memorax's ``sb`` abstraction (exact for TSO's
control-state reachability on finite domains), ``pso`` beside ``hsb`` (PSO) -- prints
whether the forbidden labels are reachable, the states visited and the CPU and wall time
of each tool, as whole processes (``mmdsl run -q --engine explorer``, which stops at the
first violation, and ``memorax -a ABS reach FILE``). Memorax is found as ``memorax`` on
PATH or in $MEMORAX; without it, its columns say so. Run from the repository root:
    .venv/bin/python bench/memorax.py [--timeout 120] [--files peterson,dekker]
Not a timed test: machines are shared and noisy; compare within one run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from compare_herd import machine  # noqa: E402

DATA = ROOT / "tests" / "litmus" / "data" / "memorax"
PAIRS = (("tso", "sb"), ("pso", "hsb"))


def timed(argv: list[str], timeout: float) -> tuple[str, float, float, bool]:
    """Output, wall seconds, CPU seconds of the child, and whether it finished within ``timeout``
    seconds of CPU (a limit on CPU, not wall time: a shared machine stretches wall time)."""
    def limit_cpu() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 1))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout * 20, cwd=ROOT,
                              preexec_fn=limit_cpu)
        out, done = proc.stdout + proc.stderr, proc.returncode >= 0
    except subprocess.TimeoutExpired:
        out, done = "", False
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu, done


def mmdsl_verdict(path: Path, model: str, timeout: float) -> tuple[str, str, float, float]:
    argv = [sys.executable, "-m", "mmdsl", "explore", str(path), "-m", model, "--first", "--no-trace",
            "--stats", "--timeout", "0"]
    out, wall, cpu, done = timed(argv, timeout)
    if not done or "timed out" in out:
        return "timeout", "-", wall, cpu
    m = re.search(r"states (\d+)", out)
    states = m.group(1) if m else "-"
    if "is reachable" in out:
        return "reachable", states, wall, cpu
    if "is unreachable" in out:
        return "unreachable", states, wall, cpu
    return "error: " + (out.strip().splitlines() or ["?"])[0][-80:], states, wall, cpu


def memorax_verdict(exe: str | None, path: Path, abstraction: str, timeout: float) -> tuple[str, str, float, float]:
    if exe is None:
        return "not installed", "-", 0.0, 0.0
    out, wall, cpu, done = timed([exe, "-a", abstraction, "reach", str(path)], timeout)
    if not done:
        return "timeout", "-", wall, cpu
    m = re.search(r"Reachable:\s+(Yes|No)", out)
    states = re.search(r"Size of visited set:\s+(\d+)", out)
    if m:
        return ("reachable" if m.group(1) == "Yes" else "unreachable"), states.group(1) if states else "-", wall, cpu
    err = re.search(r"Error: (.*)", out)
    return "refused: " + (err.group(1)[:60] if err else out.strip()[-60:]), "-", wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="CPU seconds per tool, file and model")
    ap.add_argument("--files", help="only these files (stems, comma separated)")
    args = ap.parse_args()
    exe = os.environ.get("MEMORAX") or shutil.which("memorax")
    files = sorted(DATA.rglob("*.rmm"))
    if args.files:
        want = set(args.files.split(","))
        files = [f for f in files if f.stem in want]
    print(f"# {machine()}")
    print(f"# memorax: {exe or 'not installed'}; a limit of {args.timeout:g} s of CPU per run")
    print("| file | model | mmdsl | states | CPU s | wall s | Memorax | states | CPU s | wall s | agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for path in files:
        name = str(path.relative_to(DATA))
        for model, abstraction in PAIRS:
            ours = mmdsl_verdict(path, model, args.timeout)
            theirs = memorax_verdict(exe, path, abstraction, args.timeout)
            both = {ours[0], theirs[0]} <= {"reachable", "unreachable"}
            agree = ("yes" if ours[0] == theirs[0] else "NO") if both else "-"
            print(f"| {name} | {model} / {abstraction} | {ours[0]} | {ours[1]} | {ours[3]:.2f} | {ours[2]:.2f} "
                  f"| {theirs[0]} | {theirs[1]} | {theirs[3]:.2f} | {theirs[2]:.2f} | {agree} |", flush=True)


if __name__ == "__main__":
    main()
