"""Engine agreement: the axiomatic checker and the explorer on bundled loop-free tests (issue 11).

Usage: .venv/bin/python bench/engine_agreement.py MODEL GLOB... [--timeout S] [--every K]

For each test: "agree", "DISAGREE" (both finished, different final states), "refused"
(an engine refused it by name: MmdslError) or "not finished" (the explorer overran its
time limit or state bound).  Prints one line per disagreement, then the counts.
"""

from __future__ import annotations

import argparse
import glob
import sys

from mmdsl.axiomatic import check
from mmdsl.core import limits
from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus


def compare(path: str, model, timeout: float, max_states: int) -> tuple[str, str]:
    """The verdict for one test and a detail (state counts or the refusal)."""
    try:
        program = load_litmus(path)
        axiomatic = {str(s) for s in check(program, model).states}
    except MmdslError as err:
        return "refused", f"checker: {err}".splitlines()[0]
    try:
        with limits.within(timeout, path):
            explored = {str(s) for s in explore(program, model, max_states=max_states).states}
    except limits.TimeLimitError:
        return "not finished", f"timeout {timeout:g} s"
    except MmdslError as err:
        text = str(err).splitlines()[0]
        if "state" in type(err).__name__.lower() or "limit" in type(err).__name__.lower():
            return "not finished", text
        return "refused", f"explorer: {text}"
    if axiomatic == explored:
        return "agree", ""
    return "DISAGREE", f"checker {len(axiomatic)} explorer {len(explored)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("globs", nargs="+")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--max-states", type=int, default=200_000)
    parser.add_argument("--every", type=int, default=1, help="take every K-th test")
    parser.add_argument("--verbose", action="store_true", help="also print refusals and unfinished tests")
    args = parser.parse_args(argv)
    model = load_model(args.model)
    files = sorted({f for pattern in args.globs for f in glob.glob(pattern)})[::args.every]
    counts: dict[str, int] = {}
    for path in files:
        verdict, detail = compare(path, model, args.timeout, args.max_states)
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict == "DISAGREE" or (args.verbose and verdict != "agree"):
            print(f"{verdict}\t{path}\t{detail}", flush=True)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{args.model}: {len(files)} tests: {summary}")
    return 1 if counts.get("DISAGREE") else 0


if __name__ == "__main__":
    sys.exit(main())
