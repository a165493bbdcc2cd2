"""Builds x86.csv from herd7's output on the x86 corpus under x86tso-mixed.cat (not run by tests).

    herd7 -set-libdir <herd libdir> -I <herd-cats> -model <herd-cats>/x86tso-mixed.cat \\
        $(find litmus/x86 -name '*.litmus' | sort) > herd.out
    python tests/axiomatic/data/x86tso-mixed/make_csv.py herd.out > tests/axiomatic/data/x86tso-mixed/x86.csv

Computed with herd7 7.58 (2026-11-26). herd skips a file whose test name an earlier file of
the run had (41 of the 2,595): a row per test herd ran, named by the first file of that name.
Each row: file (under litmus/x86/tests/non-mixed-size/), Observation word, positive and negative witnesses, number of final states,
and states_digest() of the final states (tests/axiomatic/test_herd_x86tso_mixed_cat.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from refdata import outcome, states_digest  # noqa: E402

PREFIX = "litmus/x86/tests/non-mixed-size/"


def main(out_path: str) -> None:
    root = Path(__file__).resolve().parents[4]
    files = sorted(str(p.relative_to(root)) for p in (root / "litmus" / "x86").rglob("*.litmus"))
    first: dict[str, str] = {}
    for f in files:
        name = (root / f).read_text().splitlines()[0].split()[1]
        first.setdefault(name, f)
    text = Path(out_path).read_text()
    blocks = text.split("\nTest ")
    print("file;observation;positive;negative;states;digest")
    for b in blocks:
        b = b if b.startswith("Test ") else "Test " + b
        name = b.split()[1]
        states, _, (pos, neg), obs = outcome(b)
        print(f"{first[name].removeprefix(PREFIX)};{obs};{pos};{neg};{len(states)};{states_digest(states)}")


if __name__ == "__main__":
    main(sys.argv[1])
