"""Explorer benchmark: states per second on the bundled programs and on the x86 corpus.

    PYTHONPATH=. python bench/explore.py                 # both tables
    PYTHONPATH=. python bench/explore.py --programs      # the bundled programs only
    PYTHONPATH=. python bench/explore.py --corpus 10     # every 10th corpus test (default: all)
    PYTHONPATH=. python bench/explore.py --reproduction  # the table of docs/reproduction-dotnet.md
                                                         # (ours, then the paper's in parentheses)

One core, one process; times are wall-clock seconds of `explore()` (parsing excluded).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mmdsl.explorer import StateLimit, explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "litmus" / "programs"
CORPUS = (ROOT / "litmus" / "x86" / "tests").resolve()  # the bundled copy of the x86 corpus
MODELS = ("sc", "tso", "pso", "rmo", "dotnet", "relaxed")

# The .NET paper's figures (tests/reference/seed-programs.md): program -> (.NET states,
# transitions, SC states, max pending, first violation s, full search s, POR states,
# POR transitions, POR s). Our names: dc is dcl.
PAPER = {
    "peterson": (903, 2794, 101, 5, 0.16, 0.91, 881, 2697, 0.90),
    "tbarrier": (1579, 5812, 154, 8, 0.7, 1.51, 801, 2641, 1.5),
    "dcl": (228, 479, 94, 8, 0.11, 0.41, 150, 272, 0.36),
    "rw-vol": (1646, 5616, 251, 6, 0.33, 2.02, 1613, 5458, 2.06),
    "rowo": (1831, 4413, 257, 7, 0.3, 1.41, 1776, 4231, 1.36),
    "po": (6143, 22875, 415, 7, 0.52, 7.71, 6091, 22595, 7.64),
    "iw1": (14886, 67589, 677, 6, None, 22.81, 246, 557, 0.59),
    "iw2": (92613, 285430, 3477, 5, None, 86.53, 353, 560, 0.63),
    "rw": (7762, 28310, 1832, 8, None, 8.82, 6851, 22119, 7.48),
    "bb": (16072, 51447, 5707, 10, None, 25.11, 1704, 4048, 2.08),
}


def timed(program, model, **kw):
    start = time.perf_counter()
    result = explore(program, model, **kw)
    return result, time.perf_counter() - start


def programs_table(models=("sc", "dotnet", "tso", "pso")) -> None:
    print(f"{'program':18} {'model':7} {'por':4} {'states':>9} {'transitions':>12} {'seconds':>8} {'states/s':>9}")
    for path in sorted(PROGRAMS.glob("*.litmus")):
        program = load_litmus(path)
        for name in models:
            for por in (True, False):
                try:
                    result, dt = timed(program, load_model(name), por=por)
                except StateLimit as err:
                    print(f"{path.stem:18} {name:7} {'on' if por else 'off':4} {err.message}", flush=True)
                    continue
                st = result.stats
                print(f"{path.stem:18} {name:7} {'on' if por else 'off':4} {st['states']:>9} {st['transitions']:>12} "
                      f"{dt:>8.2f} {st['states'] / dt:>9.0f}", flush=True)


def corpus_table(step: int) -> None:
    files = sorted(CORPUS.glob("**/*.litmus"))[::step]
    programs = [load_litmus(f) for f in files]
    print(f"x86 corpus: {len(files)} tests (every {step}th)" if step > 1 else f"x86 corpus: {len(files)} tests")
    print(f"{'model':8} {'por':4} {'states':>10} {'transitions':>12} {'seconds':>8} {'states/s':>9}")
    for name in MODELS:
        model = load_model(name)
        for por in (True, False):
            states = transitions = 0
            total = 0.0
            for program in programs:
                result, dt = timed(program, model, por=por)
                states += result.stats["states"]
                transitions += result.stats["transitions"]
                total += dt
            print(f"{name:8} {'on' if por else 'off':4} {states:>10} {transitions:>12} {total:>8.1f} "
                  f"{states / total:>9.0f}", flush=True)


def reproduction_table() -> None:
    """Markdown rows, ours / the paper's: .NET (depth-first, as the paper) with and without reduction, SC."""
    print("| program | property fails under .NET | .NET states / transitions | .NET with reduction | "
          "SC states (reduction off / on) | max pending | first violation s | full search s (reduction off / on) |")
    print("|---|---|---|---|---|---|---|---|")
    dotnet, sc = load_model("dotnet"), load_model("sc")
    for path in sorted(PROGRAMS.glob("*.litmus")):
        program = load_litmus(path)
        full, t_full = timed(program, dotnet, por=False, order="dfs")
        red, t_red = timed(program, dotnet, order="dfs")
        sc_full, _ = timed(program, sc, por=False, order="dfs")
        sc_red, _ = timed(program, sc, order="dfs")
        first = full.stats["first_violation_time"]
        paper = PAPER.get(path.stem)
        cells = [
            "yes" if full.verdict == "Allowed" else "no",
            f"{full.stats['states']} / {full.stats['transitions']}",
            f"{red.stats['states']} / {red.stats['transitions']}",
            f"{sc_full.stats['states']} / {sc_red.stats['states']}",
            str(full.stats["max_pending"]),
            "none" if first is None else f"{first:.3f}",
            f"{t_full:.2f} / {t_red:.2f}",
        ]
        if paper is not None:
            states, trans, sc_states, pending, fv, total, p_states, p_trans, p_time = paper
            theirs = ["no" if fv is None else "yes", f"{states} / {trans}", f"{p_states} / {p_trans}",
                      str(sc_states), str(pending), "none" if fv is None else str(fv), f"{total} / {p_time}"]
            cells = [f"{a} ({b})" for a, b in zip(cells, theirs)]
        print(f"| {path.stem} | " + " | ".join(cells) + " |", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", action="store_true", help="only the bundled programs")
    ap.add_argument("--corpus", type=int, metavar="STEP", nargs="?", const=1,
                    help="only the x86 corpus, every STEP-th test")
    ap.add_argument("--reproduction", action="store_true", help="the table of docs/reproduction-dotnet.md")
    args = ap.parse_args(argv)
    if args.reproduction:
        reproduction_table()
        return 0
    if args.programs or args.corpus is None:
        programs_table()
    if args.corpus is not None or not args.programs:
        if not CORPUS.is_dir():
            print(f"the x86 corpus is missing: expected it at {CORPUS}", file=sys.stderr)
            return 2
        corpus_table(args.corpus or 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
