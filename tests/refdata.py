"""Readers for the reference verdict tables (herd7 results), shared by several test modules."""

from __future__ import annotations

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the repository's own copies (tests/reference/README.md says where each came from)
REFERENCE = ROOT / "tests" / "reference"
# where new reference data arrives; only drift checks and tests of third-party model
# files (herd's .cat models, not copied) read it, and they skip when it is absent
SHARED_REFERENCE = (ROOT / ".." / "shared" / "reference").resolve()
X86_SUITE = ROOT / "litmus" / "x86"

CLASSIC_COLUMNS = {"sc": "SC", "tso": "TSO", "pso": "PSO*", "rmo": "RMO*"}


def classic_verdicts() -> dict[str, dict[str, str]]:
    """{test: {model: "Allowed" | "Forbidden"}} for sc, tso, pso, rmo from classic/verdicts.csv."""
    out = {}
    with open(REFERENCE / "classic" / "verdicts.csv") as f:
        for row in csv.DictReader(f):
            out[row["test"]] = {
                m: {"A": "Allowed", "F": "Forbidden"}[row[col]]
                for m, col in CLASSIC_COLUMNS.items() if row[col] in ("A", "F")
            }
    return out


def x86_corpus() -> list[dict]:
    """Rows of x86-corpus/verdicts.csv with an absolute ``file`` added (the bundled copy of the test)."""
    with open(REFERENCE / "x86-corpus" / "verdicts.csv") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["file"] = X86_SUITE / r["path"]
    return rows


def classic_file(dialect: str, test: str) -> Path:
    return REFERENCE / "classic" / dialect / f"{test}.litmus"
