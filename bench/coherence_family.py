"""The coherence family: every split of up to 6 writes to one location over up to 3 threads.

Writes litmus/coherence/ (``--write``): for each split (writes per thread, largest first,
1 to 6 writes in all, at most 3 threads) three shapes, in X86 and LISA:

- ``W``: the writes alone (threads without writes left out);
- ``R``: each thread (three of them) reads x once after its writes;
- ``WR``: each thread reads x after every write (a thread without writes reads twice),
  so reads sit between the writes.

Writes carry the values 1..n in thread order. The conditions make coherence decide:
with reads, each read sees the write of the next thread that comes at its own position
(the thread's j-th write for the read after the j-th write, wrapping round; 0 where
that thread has fewer writes), and the final value of x is 1 (P0's first write last in
coherence: forbidden once P0 wrote twice); without reads, x ends with the first write
of the last thread. Then prints, per test and model, the verdict and the work done
(candidates and partial candidates of the checker, full run and ``-q``) and CPU seconds.
Run it from the repository root:  .venv/bin/python bench/coherence_family.py [--write] [--models tso,sc]
Not a timed test: the work is pinned in tests/axiomatic/work_counts.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "litmus" / "coherence"
SHAPES = ("W", "R", "WR")


def splits(most: int = 6, threads: int = 3) -> list[tuple[int, ...]]:
    """Writes per thread, largest first, padded with 0 to ``threads``: every partition of 1..most."""
    out = []

    def parts(n: int, cap: int, k: int) -> list[tuple[int, ...]]:
        if k == 0:
            return [()] if n == 0 else []
        return [(a,) + rest for a in range(min(n, cap), -1, -1) for rest in parts(n - a, a, k - 1)]

    for n in range(1, most + 1):
        out += parts(n, n, threads)
    return out


def threads_of(split: tuple[int, ...], shape: str) -> list[list[tuple]]:
    """Per thread its accesses in order: ("W", value) or ("R", value the condition wants)."""
    firsts, v = [], 1
    for k in split:
        firsts.append(list(range(v, v + k)))
        v += k
    if shape == "W":
        return [[("W", x) for x in ws] for ws in firsts if ws]
    n = len(split)

    def seen(tid: int, j: int) -> int:  # the next thread's j-th write, else 0
        nxt = firsts[(tid + 1) % n]
        return nxt[j] if j < len(nxt) else 0

    out = []
    for tid, ws in enumerate(firsts):
        acc: list[tuple] = []
        if shape == "R":
            acc = [("W", x) for x in ws] + [("R", seen(tid, max(len(ws) - 1, 0)))]
        else:
            for j, x in enumerate(ws):
                acc += [("W", x), ("R", seen(tid, j))]
            if not ws:
                acc = [("R", seen(tid, 0)), ("R", seen(tid, 1))]
        out.append(acc)
    return out


def name_of(split: tuple[int, ...], shape: str) -> str:
    used = split if shape != "W" else tuple(k for k in split if k)
    return f"Co{sum(split)}W-" + "-".join(map(str, used)) + ("" if shape == "W" else "+" + shape)


def condition(split: tuple[int, ...], shape: str, ths: list[list[tuple]], regs) -> list[str]:
    conds = []
    for tid, acc in enumerate(ths):
        reads = [v for kind, v in acc if kind == "R"]
        conds += [f"{tid}:{regs[i]}={v}" for i, v in enumerate(reads)]
    if shape == "W":
        last = [k for k in split if k]
        conds.append(f"x={sum(last[:-1]) + 1}")  # the last thread's first write last
    else:
        conds.append("x=1")
    return conds


def _table(columns: list[list[str]]) -> str:
    width = [max([len(c) for c in col] + [4]) for col in columns]
    names = [f"P{i}".ljust(width[i]) for i in range(len(columns))]
    lines = [" " + " | ".join(names) + " ;"]
    for r in range(max(len(c) for c in columns)):
        cells = [(col[r] if r < len(col) else "").ljust(width[i]) for i, col in enumerate(columns)]
        lines.append(" " + " | ".join(cells) + " ;")
    return "\n".join(lines)


X86_REGS = ("EAX", "EBX", "ECX", "EDX", "ESI", "EDI")
LISA_REGS = ("r1", "r2", "r3", "r4", "r5", "r6")


def _text(split: tuple[int, ...], shape: str, head: str, write: str, read: str, regs) -> str:
    """A test's text: ``write`` and ``read`` format one access (value / register)."""
    ths = threads_of(split, shape)
    cols = []
    for acc in ths:
        col, r = [], 0
        for kind, v in acc:
            col.append(write.format(v=v) if kind == "W" else read.format(r=regs[r]))
            r += kind == "R"
        cols.append(col)
    return head + _table(cols) + "\nexists (" + " /\\ ".join(condition(split, shape, ths, regs)) + ")\n"


def x86(split: tuple[int, ...], shape: str) -> str:
    head = f"X86 {name_of(split, shape)}\n\"coherence family (bench/coherence_family.py)\"\n{{\n}}\n"
    return _text(split, shape, head, "MOV [x],${v}", "MOV {r},[x]", X86_REGS)


def lisa(split: tuple[int, ...], shape: str) -> str:
    return _text(split, shape, f"LISA {name_of(split, shape)}\n{{ x = 0; }}\n", "w[] x {v}", "r[] {r} x", LISA_REGS)


def oracle(split: tuple[int, ...], shape: str) -> tuple[set, int, int]:
    """(final states, Positive, Negative) of the SC executions, by interleaving the accesses."""
    threads = threads_of(split, shape)
    conds = condition(split, shape, threads, X86_REGS)
    want = {}
    for c in conds:
        k, v = c.split("=")
        want[k] = int(v)
    # a partial execution: (positions, the reads' sources so far, the writes in co order);
    # interleavings that reach the same one are merged (they have the same futures)
    frontier = {(tuple(0 for _ in threads), (), ())}
    executions = set()
    while frontier:
        nxt = set()
        for pcs, rf, co in frontier:
            moved = False
            for tid, acc in enumerate(threads):
                if pcs[tid] == len(acc):
                    continue
                moved = True
                kind, value = acc[pcs[tid]]
                step = pcs[:tid] + (pcs[tid] + 1,) + pcs[tid + 1:]
                event = (tid, pcs[tid])
                if kind == "W":
                    nxt.add((step, rf, co + ((event, value),)))
                else:
                    nxt.add((step, rf + ((event, co[-1][1] if co else 0),), co))
            if not moved:
                executions.add((tuple(sorted(rf)), co))
        frontier = nxt
    states, pos, neg = set(), 0, 0
    for rf, co in executions:
        final = {"x": co[-1][1] if co else 0}
        per_thread: dict[int, list[int]] = {}
        for (tid, _), v in sorted(rf):
            per_thread.setdefault(tid, []).append(v)
        for tid, vs in per_thread.items():
            for i, v in enumerate(vs):
                final[f"{tid}:{X86_REGS[i]}"] = v
        observed = tuple(sorted((k, final.get(k, 0)) for k in want))
        states.add(observed)
        if all(final.get(k, 0) == v for k, v in want.items()):
            pos += 1
        else:
            neg += 1
    return states, pos, neg


def family() -> list[tuple[str, str, str]]:
    """(name, X86 text, LISA text) of every test, without duplicates."""
    seen, out = set(), []
    for split in splits():
        for shape in SHAPES:
            name = name_of(split, shape)
            if name not in seen:
                seen.add(name)
                out.append((name, x86(split, shape), lisa(split, shape)))
    return out


def manifest() -> str:
    """litmus/coherence/manifest.yaml: every test's verdict under sc and tso, from the oracle."""
    lines = [
        "# Generated by bench/coherence_family.py --write; rerun it instead of editing by hand.",
        "name: coherence",
        "description: >-",
        "  Every split of up to 6 writes to one location over up to 3 threads, without reads,",
        "  with a read after the writes and with a read after every write (X86, and LISA in",
        "  lisa/). Expected: the interleaving oracle of bench/coherence_family.py (one location:",
        "  SC per location is SC), which herd7 7.58's outputs in herd/ agree with.",
        "models: [sc, tso]",
        "engine: axiomatic",
        'tests: ["*.litmus", "lisa/*.litmus"]',
        "expect:",
    ]
    seen = set()
    for split in splits():
        for shape in SHAPES:
            name = name_of(split, shape)
            if name in seen:
                continue
            seen.add(name)
            verdict = "Allowed" if oracle(split, shape)[1] else "Forbidden"
            for prefix in ("", "lisa/"):
                lines.append(f"  {prefix}{name}: {{sc: {verdict}, tso: {verdict}}}")
    return "\n".join(lines) + "\n"


def write() -> None:
    (OUT / "lisa").mkdir(parents=True, exist_ok=True)
    for name, x, li in family():
        (OUT / f"{name}.litmus").write_text(x)
        (OUT / "lisa" / f"{name}.litmus").write_text(li)
    (OUT / "manifest.yaml").write_text(manifest())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="tso,sc")
    ap.add_argument("--write", action="store_true", help="(re)write litmus/coherence/ first")
    ap.add_argument("--only", default="", help="only tests whose name contains this")
    args = ap.parse_args()
    if args.write:
        write()
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    models = [load_model(m) for m in args.models.split(",")]
    print(f"{'test':<18} {'model':<10} {'verdict':<8} {'cands':>6} {'partial':>8} {'-q':>4} "
          f"{'-q part':>7} {'CPU s':>6} {'-q s':>5}")
    worst = (0.0, "")
    for name, _, _ in family():
        if args.only not in name:
            continue
        program = load_litmus(OUT / f"{name}.litmus")
        for model in models:
            t0 = time.process_time()
            r = check(program, model, collect="none")
            t1 = time.process_time()
            q = check(program, model, collect="verdict")
            t2 = time.process_time()
            verdict = "Allowed" if r.positive else "Forbid"
            print(f"{name:<18} {model.name:<10} {verdict:<8} {r.candidates:>6} {r.stats['partial']:>8} "
                  f"{q.candidates:>4} {q.stats['partial']:>7} {t1 - t0:6.2f} {t2 - t1:5.2f}", flush=True)
            worst = max(worst, (t1 - t0, f"{name} {model.name}"))
    print(f"slowest full check: {worst[1]}, {worst[0]:.2f} s CPU")


if __name__ == "__main__":
    main()
