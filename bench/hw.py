"""Benchmark: `mmdsl hw` beside litmus7 on this CPU, and the whole x86 corpus run against tso.

Part 1 (``--tests``, default the X86 tests of ``litmus/classic``): each test run by
``mmdsl hw TEST -n N --json`` and, when ``litmus7`` is on PATH (or ``--litmus7``), by
litmus7 with the same number of iterations (``-s L7SIZE -r N/L7SIZE``, litmus7's
default size of 100,000 unless ``--litmus7-size``: litmus7 starts its threads per run, so
small runs are its slow case): its C generated, built
with its own Makefile, and its ``run.sh`` run. For each tool: wall and CPU seconds of the
whole job (generation + compilation + run, child processes), the seconds the harness
reported for the run alone (``time`` in mmdsl's JSON, litmus7's ``Time`` line), the
iterations per second of that run, and how often the condition was seen. litmus7 runs with
its defaults otherwise (no affinity, ``changing`` launch, user barrier), mmdsl with its own
(pinned threads, spinning barrier): the rates compare the two harnesses as users run them.

Part 2 (``--corpus``): ``mmdsl hw litmus/x86 -n N -m tso --json`` in one process: how many
tests ran, were refused, showed their condition; the observed states tso forbids (each one
a model-or-harness bug); the allowed states never observed; the SB-family tests (names SB...)
split by whether tso allows their condition, and how many showed it; seconds in gcc and in
the runs. ``--corpus-only`` skips part 1; ``--corpus-every K`` runs every K-th file in path
order (a deterministic sample).

Run it from the repository root:
  .venv/bin/python bench/hw.py [-n 1000000] [--size 1000] [--litmus7-size 100000] [--tests F...] [--corpus] [--litmus7 PATH]
Not a timed test: our machines are shared (the harness's threads compete with everything
else running), compare ratios within one run.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from compare_herd import machine  # noqa: E402  (the bench scripts' machine line)

MMDSL = [sys.executable, "-m", "mmdsl"]


def timed(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the children, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):  # 1: a model forbids an observed state, still a run
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return wall, cpu, proc.stdout


def run_mmdsl(test: str, iterations: int, size: int) -> dict | str:
    """The figures of one run, or why mmdsl hw refused the test."""
    wall, cpu, out = timed(MMDSL + ["hw", test, "-n", str(iterations), "--size", str(size),
                                    "--timeout", "600", "--json"], ROOT)
    data = json.loads(out)
    if not data["results"]:
        return "; ".join(str(e) for e in data.get("errors", [])) or "no result"
    result = data["results"][0]
    return {"wall": wall, "cpu": cpu, "run": result["time"], "seen": result["positive"],
            "total": result["positive"] + result["negative"]}


def run_litmus7(litmus7: str, test: str, iterations: int, size: int) -> dict:
    runs = max(1, iterations // size)
    with tempfile.TemporaryDirectory(prefix="mmdsl-bench-l7-") as tmp:
        out_dir = Path(tmp) / "out"
        out_dir.mkdir()
        w1, c1, _ = timed([litmus7, "-s", str(size), "-r", str(runs), "-o", str(out_dir),
                           str(ROOT / test)], Path(tmp))
        w2, c2, _ = timed(["make", "-s"], out_dir)
        w3, c3, out = timed(["sh", "run.sh"], out_dir)
    obs = re.search(r"^Observation \S+ \S+ (\d+) (\d+)", out, re.MULTILINE)
    run = re.search(r"^Time \S+ ([0-9.]+)", out, re.MULTILINE)
    if not obs or not run:
        raise RuntimeError(f"litmus7 printed no Observation/Time line for {test}")
    seen, unseen = int(obs.group(1)), int(obs.group(2))
    return {"wall": w1 + w2 + w3, "cpu": c1 + c2 + c3, "run": float(run.group(1)), "seen": seen,
            "total": seen + unseen}


def rate(row: dict) -> str:
    return f"{row['total'] / row['run'] / 1e6:.2f} M/s" if row["run"] > 0 else "-"


def side_by_side(tests: list[str], iterations: int, size: int, litmus7: str | None,
                 litmus7_size: int) -> None:
    print(f"## mmdsl hw beside litmus7: {iterations:,} iterations per test, "
          f"{size:,} per run (litmus7: {litmus7_size:,})\n")
    print("| test | mmdsl wall / CPU s | mmdsl run s | mmdsl rate | mmdsl seen | "
          "litmus7 wall / CPU s | litmus7 run s | litmus7 rate | litmus7 seen |")
    print("|---|---|---|---|---|---|---|---|---|")
    for test in tests:
        mine = run_mmdsl(test, iterations, size)
        if isinstance(mine, str):
            print(f"| {Path(test).stem} | refused: {mine[:80]} |" + " - |" * 7, flush=True)
            continue
        cells = [Path(test).stem, f"{mine['wall']:.2f} / {mine['cpu']:.2f}", f"{mine['run']:.2f}",
                 rate(mine), f"{mine['seen']:,}/{mine['total']:,}"]
        if litmus7:
            theirs = run_litmus7(litmus7, test, iterations, litmus7_size)
            cells += [f"{theirs['wall']:.2f} / {theirs['cpu']:.2f}", f"{theirs['run']:.2f}",
                      rate(theirs), f"{theirs['seen']:,}/{theirs['total']:,}"]
        else:
            cells += ["-"] * 4
        print("| " + " | ".join(cells) + " |", flush=True)
    if not litmus7:
        print("\nlitmus7 not found (PATH or --litmus7): mmdsl alone.")


def corpus(iterations: int, size: int, folder: str, every: int = 1) -> None:
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*.litmus"))
    sample = files[::every]
    wall, cpu, out = timed(MMDSL + ["hw", *sample, "-n", str(iterations), "--size", str(size),
                                    "-m", "tso", "--json"], ROOT)
    data = json.loads(out)
    results = data["results"]
    refused = data.get("errors", [])
    forbidden = [(r["test"], f"{s['state']} ({s['count']} times)") for r in results
                 for s in r.get("models", {}).get("tso", {}).get("forbidden_observed", [])]
    never = sum(r.get("models", {}).get("tso", {}).get("allowed_never_observed", 0) for r in results)
    seen = sum(1 for r in results if r["positive"] > 0)
    sb = [r for r in results if r["test"].startswith("SB")]
    slow = sorted(results, key=lambda r: -r["time"])[:3]
    runs = sum(r["positive"] + r["negative"] for r in results)
    which = "every test" if every == 1 else f"every {every}th test in path order ({len(sample)} of {len(files)})"
    print(f"\n## {folder} under tso: {iterations:,} iterations per test, {which}\n")
    print(f"- {len(results)} tests ran, {len(refused)} refused; {wall:.0f} s wall, {cpu:.0f} s CPU")
    print(f"- condition seen at least once in {seen} of {len(results)} tests; {runs:,} runs in all")
    print(f"- observed states tso forbids: {len(forbidden)}"
          + ("".join(f"\n  - {t}: {s}" for t, s in forbidden[:20])))
    print(f"- states tso allows that were never observed: {never}")
    allowed = tso_allows([r["path"] for r in sb])
    for verdict, label in ((True, "tso allows"), (False, "tso forbids")):
        rows = [r for r, a in zip(sb, allowed) if a is verdict]
        print(f"- SB-family tests (name SB...) whose condition {label}: {len(rows)}; condition seen in "
              f"{sum(1 for r in rows if r['positive'] > 0)}: "
              + ", ".join(f"{r['test']} {r['positive']:,}" for r in rows))
    compile_s = sum(r.get("compile_time", 0) for r in results)
    print(f"- seconds in gcc {compile_s:.0f}, in the harnesses' runs {sum(r['time'] for r in results):.0f}; "
          "slowest runs: " + ", ".join(f"{r['test']} {r['time']:.1f} s" for r in slow))
    for line in data.get("summary", []):
        print(f"- mmdsl's summary: {line}")


def tso_allows(paths: list[str]) -> list[bool | None]:
    """Per test, whether tso allows its (exists) condition, from `mmdsl run -m tso`'s Observation lines."""
    if not paths:
        return []
    _, _, out = timed(MMDSL + ["run", *paths, "-m", "tso"], ROOT)
    obs = re.findall(r"^Observation \S+ (\w+)", out, re.MULTILINE)
    return [o != "Never" for o in obs] if len(obs) == len(paths) else [None] * len(paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--iterations", type=int, default=1_000_000)
    parser.add_argument("--size", type=int, default=1000, help="iterations per run (litmus7 -s)")
    parser.add_argument("--tests", nargs="*", default=None)
    parser.add_argument("--corpus", action="store_true", help="also run litmus/x86 against tso")
    parser.add_argument("--corpus-iterations", type=int, default=100_000)
    parser.add_argument("--corpus-every", type=int, default=1, help="run every K-th corpus test (path order)")
    parser.add_argument("--corpus-only", action="store_true", help="skip the side-by-side part")
    parser.add_argument("--litmus7", default=shutil.which("litmus7"))
    parser.add_argument("--litmus7-size", type=int, default=100_000, help="litmus7 -s")
    args = parser.parse_args()
    if not shutil.which("gcc") and not shutil.which("cc"):
        print("no C compiler on PATH: mmdsl hw cannot run here", file=sys.stderr)
        sys.exit(2)
    tests = args.tests or sorted(
        str(Path(p).relative_to(ROOT)) for p in glob.glob(str(ROOT / "litmus/classic/*.litmus")))
    tests = [t for t in tests if (ROOT / t).read_text(errors="replace").split(None, 1)[0] in ("X86", "X86_64")]
    print(f"# bench/hw.py on {machine()}")
    print(f"litmus7: {args.litmus7 or 'not found'}\n")
    if not args.corpus_only:
        side_by_side(tests, args.iterations, args.size, args.litmus7, args.litmus7_size)
    if args.corpus or args.corpus_only:
        corpus(args.corpus_iterations, args.size, "litmus/x86", args.corpus_every)


if __name__ == "__main__":
    main()
