"""herd7's word on fence selection under power, armv7 and armv8: the answer forbids, every cheaper device set allows.

For each test: ``mmdsl fences`` (``fences/propagation.py``) picks the cheapest fences and
dependencies; the fenced test it writes (``-o``) goes to herd7 with ppc.cat / arm.cat / aarch64.cat,
which must say Never. Then every device set of lower cost that is maximal (no candidate
device fits in the remaining budget) is written the same way and given to herd7, which
must say Sometimes for each: herd's models are monotone in fences and dependencies, so a
maximal cheaper set allowed means every cheaper set is, and the answer is optimal by
herd's own judgement, not only by mmdsl's.

    .venv/bin/python bench/hw_fences_herd.py --herd-libdir /work/herd-build/herdtools7/herd/libdir \
        --out tests/fences/data/hw/herd_verdicts.csv --fenced tests/fences/data/hw litmus/ppc/tests/classic/MP.litmus ...

The model is power for PPC and LISA tests, armv7 for ARM tests, armv8 for AArch64 tests
(``--model`` overrides).
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mmdsl.fences.loop import FenceOptions  # noqa: E402
from mmdsl.fences.propagation import PropagationSelector  # noqa: E402
from mmdsl.fences.writer import fenced_source  # noqa: E402
from mmdsl.lang import load_model  # noqa: E402
from mmdsl.litmus import load_litmus  # noqa: E402

CATS = {"power": "ppc.cat", "armv7": "arm.cat", "armv8": "aarch64.cat"}
MODEL_OF_ARCH = {"ARM": "armv7", "AArch64": "armv8"}  # any other (PPC, LISA): power


def herd(libdir: str, cat: str, text: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "t.litmus"
        f.write_text(text)
        out = subprocess.run(["herd7", "-set-libdir", libdir, "-model", cat, str(f)], capture_output=True,
                             text=True, timeout=120).stdout
    for line in out.splitlines():
        if line.startswith("Observation"):
            return line.split()[2]
    raise RuntimeError(f"herd7 gave no Observation:\n{out}")


def maximal_cheaper(costs: list[int], budget: int) -> list[list[int]]:
    """Every set of candidate indices costing < budget to which no further candidate can be added."""
    out: list[list[int]] = []
    n = len(costs)

    def go(i: int, chosen: list[int], spent: int) -> None:
        if i == n:
            if all(j in chosen or spent + costs[j] >= budget for j in range(n)):
                out.append(list(chosen))
            return
        if spent + costs[i] < budget:
            go(i + 1, chosen + [i], spent + costs[i])
        go(i + 1, chosen, spent)

    go(0, [], 0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tests", nargs="+")
    ap.add_argument("--herd-libdir", required=True)
    ap.add_argument("--model")
    ap.add_argument("--out", help="CSV of the verdicts")
    ap.add_argument("--fenced", help="folder to keep each fenced test in (ppc/, arm/, aarch64/ below it)")
    ap.add_argument("--max-sets", type=int, default=2000,
                    help="give herd at most this many cheaper sets per test (the CSV says when it stopped)")
    args = ap.parse_args()
    rows = []
    for t in args.tests:
        program = load_litmus(t)
        name = args.model or MODEL_OF_ARCH.get(program.arch, "power")
        model = load_model(name)
        selector = PropagationSelector(program, model, FenceOptions())
        sel = selector.run()
        if not sel.needed:
            continue
        text = fenced_source(program, sel.fences)
        verdict = herd(args.herd_libdir, CATS[name], text)
        cands = [selector.problem.choices[i] for i in selector.candidates]
        cheaper = maximal_cheaper([c.cost for c in cands], sel.cost)
        forbidding = 0
        total = len(cheaper)
        cheaper = cheaper[:args.max_sets]
        for s in cheaper:
            if herd(args.herd_libdir, CATS[name], fenced_source(program, sorted((cands[i] for i in s),
                                                                              key=lambda c: c.key()))) != "Sometimes":
                forbidding += 1
        answer = " ".join(f"P{c.place.tid}:{c.kind.name}" for c in sel.fences)
        rows.append({"test": Path(t).resolve().relative_to(ROOT).as_posix() if Path(t).resolve().is_relative_to(ROOT)
                     else t, "model": name, "answer": answer, "cost": sel.cost, "herd_answer": verdict,
                     "cheaper_maximal_sets": total, "given_to_herd": len(cheaper),
                     "cheaper_forbidden_by_herd": forbidding})
        print(rows[-1], flush=True)
        if args.fenced:
            folder = Path(args.fenced) / program.arch.lower()
            folder.mkdir(parents=True, exist_ok=True)
            (folder / Path(t).name).write_text(text)
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    bad = [r for r in rows if r["herd_answer"] != "Never" or r["cheaper_forbidden_by_herd"]]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
