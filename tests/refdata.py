"""Readers for the reference verdict tables (herd7 results), shared by several test modules."""

from __future__ import annotations

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = (ROOT / ".." / "shared").resolve()
REFERENCE = SHARED / "reference"

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
    """Rows of x86-corpus/verdicts.csv with an absolute ``file`` added."""
    base = REFERENCE / "x86-corpus"
    with open(base / "verdicts.csv") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["file"] = base / r["path"]
    return rows


def classic_file(dialect: str, test: str) -> Path:
    return REFERENCE / "classic" / dialect / f"{test}.litmus"
