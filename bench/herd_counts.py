"""Records herd7's witness counts on every STEP-th test of a suite under one herd model: a CSV for the tests.

    python bench/herd_counts.py MODEL.cat SUITE STEP OUT.csv

For each test (sorted paths under SUITE, every STEP-th) it runs ``herd7 -model MODEL TEST``
and keeps the path (under SUITE), the Observation word and the Positive/Negative counts of
herd's ``Observation`` line; a test herd refuses or does not finish in 60 s is left out.
Never run by the tests (herd7 is absent in CI).
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path


def main() -> None:
    model, suite, step, out = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    rows = []
    for test in sorted(suite.rglob("*.litmus"))[::step]:
        try:
            text = subprocess.run(["herd7", "-model", model, str(test)], capture_output=True, text=True,
                                  timeout=60).stdout
        except subprocess.TimeoutExpired:
            continue
        m = re.search(r"^Observation \S+ (\S+) (\d+) (\d+)", text, re.M)
        if m:
            rows.append({"path": str(test.relative_to(suite)), "observation": m.group(1),
                         "positive": m.group(2), "negative": m.group(3)})
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, ["path", "observation", "positive", "negative"])
        w.writeheader()
        w.writerows(rows)
    print(out, len(rows), "tests")


if __name__ == "__main__":
    main()
