"""Benchmark: every herd stock cat over the bundled sets it applies to, mmdsl against herd7.

    python bench/stock_cat_sweep.py [--cats DIR] [--herd HERD7] [--per-set N] [--only a.cat,b.cat]
    python bench/stock_cat_sweep.py --summarize TABLE    (per model, from a run's printed table)

For each stock model mmdsl loads (bench/count_stock_cats.py) and each bundled set (x86,
classic, aarch64, ppc, arm, riscv, c11, linux), the first N tests of the set (one file per
test name, sorted) go through ``mmdsl run`` and through herd7, each as one process. A set
applies to a model when herd7 prints a verdict for one of its tests under it (herd refuses
a model whose architecture is not the test's, and a model needing names the test's
architecture lacks). Per (model, set) it prints herd7's verdicts, how many of mmdsl's
Observation lines (verdict and witness counts) and States counts equal herd7's, the tests
mmdsl refuses, and the CPU seconds of each tool's process (children's rusage) and their
ratio. herd7 runs with the stock folder as its library (-set-libdir; where it prints no
verdict with it, with its own library and its model of that name: herd7 7.58 refuses the
folder's later aarch64.cat, "unbound var: ADDR"), ``-archcheck false``
for the X86_64 corpus, and linux-kernel.def's macros (and the model's bell, when one is
beside it) on the Linux-kernel tests, as herd's linux-kernel.cfg says. Without herd7 it
says so and stops. Not a timed test: our machines are shared; compare ratios within a run.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_herd import machine, one_file_per_test  # noqa: E402
from count_stock_cats import count  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = {
    "x86": "litmus/x86/tests", "classic": "litmus/classic", "aarch64": "litmus/aarch64/tests",
    "ppc": "litmus/ppc/tests", "arm": "litmus/arm/tests", "riscv": "litmus/riscv/tests",
    "c11": "litmus/c11/tests", "linux": "litmus/linux/tests",
}
OBS = re.compile(r"^Observation (\S+) (\S+) (\d+) (\d+)", re.M)


def run(cmd: list[str], timeout: float) -> tuple[str, float]:
    """(standard output, CPU seconds of the child); a run past the timeout gives what it printed."""
    with tempfile.TemporaryFile("w+") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        text = out.read()
    return text, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def blocks(text: str) -> dict[str, tuple[str, str]]:
    """{test: (its Observation line's verdict and counts, its States count)} of herd-shaped output."""
    out = {}
    for block in text.split("\nTest ")[0:]:
        m = OBS.search(block)
        states = re.search(r"^States (\d+)", block, re.M)
        if m:
            out[m.group(1)] = (" ".join(m.group(2, 3, 4)), states.group(1) if states else "?")
    return out


def herd_cmd(herd: str, cats: Path | None, model: Path, set_name: str, files: list[str]) -> list[str]:
    """herd7 on the files: with ``cats`` as its library, or (None) with its own library and
    the model of that name in it."""
    cmd = [herd, "-set-libdir", str(cats), "-model", str(model)] if cats else [herd, "-model", model.name]
    cats = cats or model.parent
    if set_name == "x86":
        cmd += ["-archcheck", "false"]
    if set_name == "linux":
        cmd += ["-macros", str(cats / "linux-kernel.def")]
        if model.with_suffix(".bell").exists():
            cmd += ["-bell", str(model.with_suffix(".bell"))]
    return cmd + files


def set_files(root: str, per_set: int) -> list[str]:
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / root).rglob("*.litmus"))
    kept, _ = one_file_per_test(files)
    return kept[:per_set] if per_set else kept


def summarize(path: str) -> None:
    """One line per model from a run's table: sets, verdicts, agreement, CPU and ratio."""
    rows: dict = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 9 or not cells[2].isdigit():
            continue
        r = rows.setdefault(cells[0], [0, 0, 0, 0, 0, 0.0, 0.0])
        for k, v in enumerate([1, int(cells[2]), int(cells[3]), int(cells[4]), int(cells[5]),
                               float(cells[6]), float(cells[7])]):
            r[k] += v
    print("| model | sets | herd7 verdicts | Observation = herd7 | States = herd7 | mmdsl refused | mmdsl CPU s"
          " | herd7 CPU s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model, (sets, n, obs, states, refused, m, h) in rows.items():
        print(f"| {model} | {sets} | {n} | {obs} | {states} | {refused} | {m:.2f} | {h:.2f} | {m / h:.1f} |")
    tm, th = sum(r[5] for r in rows.values()), sum(r[6] for r in rows.values())
    print(f"\n{len(rows)} models, {sum(r[1] for r in rows.values())} (model, test) runs herd7 answered, "
          f"{sum(r[2] for r in rows.values())} with herd7's Observation; mmdsl {tm:.1f} s CPU, herd7 {th:.1f} s, "
          f"ratio {tm / th:.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--summarize", default=None, help="a run's printed table: one line per model")
    ap.add_argument("--cats", default=str(ROOT.parent / "shared" / "reference" / "herd-cats"))
    ap.add_argument("--herd", default=shutil.which("herd7") or "/work/tools/bin/herd7")
    ap.add_argument("--per-set", type=int, default=8)
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return 0
    cats = Path(args.cats)
    if not cats.is_dir():
        print(f"no folder {cats}", file=sys.stderr)
        return 2
    if not Path(args.herd).exists():
        print(f"no herd7 at {args.herd}: nothing to compare against", file=sys.stderr)
        return 2
    loaded, _ = count(cats)
    if args.only:
        loaded = [m for m in loaded if m in args.only.split(",")]
    files = {name: set_files(root, args.per_set) for name, root in SETS.items()}
    mmdsl = [sys.executable, "-m", "mmdsl", "run", "--cat-path", str(cats)]
    print(f"machine: {machine()}\n{args.per_set or 'all'} tests per set\n")
    print("| model | set | herd7 verdicts | Observation = herd7 | States = herd7 | mmdsl refused | mmdsl CPU s"
          " | herd7 CPU s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    total_m = total_h = 0.0
    for model in loaded:
        path = cats / model
        for set_name, fs in files.items():
            herd_out, herd_cpu = run(herd_cmd(args.herd, cats, path, set_name, fs), args.timeout)
            herd = blocks(herd_out)
            if not herd:  # the folder's files may be of another herd version: herd7's own library
                herd_out, herd_cpu = run(herd_cmd(args.herd, None, path, set_name, fs), args.timeout)
                herd = blocks(herd_out)
            if not herd:
                continue  # herd7 refuses the model on this set: it does not apply
            mm_out, mm_cpu = run([*mmdsl, "-m", str(path), *fs], args.timeout)
            mm = blocks(mm_out)
            obs = sum(1 for t, (o, _) in herd.items() if t in mm and mm[t][0] == o)
            states = sum(1 for t, (_, s) in herd.items() if t in mm and mm[t][1] == s)
            refused = sum(1 for t in herd if t not in mm)
            total_m, total_h = total_m + mm_cpu, total_h + herd_cpu
            ratio = f"{mm_cpu / herd_cpu:.2f}" if herd_cpu > 0 else "-"
            print(f"| {model} | {set_name} | {len(herd)} | {obs} | {states} | {refused} | {mm_cpu:.2f} |"
                  f" {herd_cpu:.2f} | {ratio} |", flush=True)
    if total_h:
        print(f"\nall: mmdsl {total_m:.1f} s CPU, herd7 {total_h:.1f} s CPU, ratio {total_m / total_h:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
