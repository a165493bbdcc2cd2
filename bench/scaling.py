"""Benchmark family: many writes to one location and IRIW with many writes per writer.

Writes the tests into litmus/scaling/ (``--write``) and times each one through the checker
under the given models, printing candidates (work done) and seconds. Not a timed test.
Run it from the repository root:  .venv/bin/python bench/scaling.py [--models sc,tso]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "litmus" / "scaling"

# (name, writes of x per thread, does each thread read x after its writes)
SPLITS = [("2-2-2", (2, 2, 2)), ("3-2-1", (3, 2, 1)), ("4-1-1", (4, 1, 1)), ("6-0-0", (6, 0, 0))]


def _table(columns: list[list[str]]) -> str:
    width = [max([len(c) for c in col] + [4]) for col in columns]
    rows = max(len(c) for c in columns)
    names = [f"P{i}".ljust(width[i]) for i in range(len(columns))]
    lines = [" " + " | ".join(names) + " ;"]
    for r in range(rows):
        cells = [(col[r] if r < len(col) else "").ljust(width[i]) for i, col in enumerate(columns)]
        lines.append(" " + " | ".join(cells) + " ;")
    return "\n".join(lines)


def many_writes(label: str, split: tuple[int, ...], reads: bool) -> tuple[str, str]:
    """3 threads, 6 writes of x in all (values 1..6); with ``reads`` each thread then reads x."""
    name = f"CoW6-{label}" + ("+R" if reads else "")
    columns, value, conds = [], 1, []
    for tid, k in enumerate(split):
        col = []
        for _ in range(k):
            col.append(f"MOV [x],${value}")
            value += 1
        if reads:
            col.append("MOV EAX,[x]")
            # each reader sees its own first write: coherence forbids it when it wrote more
            conds.append(f"{tid}:EAX={value - k}" if k else f"{tid}:EAX=0")
        columns.append(col)
    conds.append("x=1")  # the first write last in coherence: forbidden unless P0 wrote once
    text = f"X86 {name}\n\"many writes to one location (bench/scaling.py)\"\n{{\n}}\n"
    return name, text + _table(columns) + "\nexists (" + " /\\ ".join(conds) + ")\n"


def iriw(n: int, fenced: bool) -> tuple[str, str]:
    """IRIW whose two writers each write their location ``n`` times (values 1..n)."""
    name = f"IRIW-{n}W" + ("+mfences" if fenced else "")
    w0 = [f"MOV [x],${v}" for v in range(1, n + 1)]
    w1 = [f"MOV [y],${v}" for v in range(1, n + 1)]
    mid = ["MFENCE"] if fenced else []
    r0 = ["MOV EAX,[x]"] + mid + ["MOV EBX,[y]"]
    r1 = ["MOV EAX,[y]"] + mid + ["MOV EBX,[x]"]
    cond = f"exists (1:EAX={n} /\\ 1:EBX=0 /\\ 3:EAX={n} /\\ 3:EBX=0)"
    text = f"X86 {name}\n\"IRIW, {n} writes per writer (bench/scaling.py)\"\n{{\n}}\n"
    return name, text + _table([w0, r0, w1, r1]) + "\n" + cond + "\n"


def family() -> list[tuple[str, str]]:
    tests = [many_writes(label, split, reads) for label, split in SPLITS for reads in (False, True)]
    tests += [iriw(n, fenced) for n in (3, 5) for fenced in (False, True)]
    return tests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sc,tso")
    ap.add_argument("--write", action="store_true", help="(re)write litmus/scaling/*.litmus first")
    args = ap.parse_args()
    if args.write:
        OUT.mkdir(exist_ok=True)
        for name, text in family():
            (OUT / f"{name}.litmus").write_text(text)
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    models = [load_model(m) for m in args.models.split(",")]
    print(f"{'test':<22} {'model':<6} {'verdict':<10} {'candidates':>10} {'seconds':>8}")
    for name, _ in family():
        program = load_litmus(OUT / f"{name}.litmus")
        for model in models:
            t0 = time.perf_counter()
            r = check(program, model, collect="none")
            dt = time.perf_counter() - t0
            verdict = "Allowed" if r.positive else "Forbidden"
            print(f"{name:<22} {model.name:<6} {verdict:<10} {r.candidates:>10} {dt:8.2f}")


if __name__ == "__main__":
    main()
