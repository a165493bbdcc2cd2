"""Reference data for the fence tests: the classic shapes' diy cycles and herd verdicts."""

from __future__ import annotations

import csv
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "reference"  # the repository's copies (tests/reference/README.md)
CLASSIC = ROOT / "litmus" / "classic"

# verdicts.csv columns -> bundled model names
MODEL_COLUMNS = {"SC": "sc", "TSO": "tso", "PSO*": "pso", "RMO*": "rmo"}

# DESIGN.md, "Reference semantics": the program-order pairs (earlier, later) each model
# lets be performed out of order when the locations differ and nothing depends.
RELAXED = {
    "sc": set(),
    "tso": {"WR"},
    "pso": {"WR", "WW"},
    "rmo": {"WR", "WW", "RR", "RW"},
}

# the model's fence that orders every pair (what `--kinds` names for a single full fence)
FULL_FENCE = {"sc": "mfence", "tso": "mfence", "pso": "membar", "rmo": "membar"}


def classic_cycles() -> dict[str, str]:
    """shape -> diy cycle, from the table in classic/NOTE.md."""
    text = (REFERENCE / "classic" / "NOTE.md").read_text()
    out = {}
    for m in re.finditer(r"^\| ([A-Za-z0-9+]+) \| ([A-Za-z ]+) \|$", text, re.M):
        if m.group(1) != "shape":
            out[m.group(1)] = m.group(2).strip()
    return out


def classic_verdicts() -> dict[str, dict[str, str]]:
    """test -> {model: "A" | "F"} for the SC/TSO/PSO*/RMO* columns of verdicts.csv."""
    with open(REFERENCE / "classic" / "verdicts.csv") as f:
        return {row["test"]: {MODEL_COLUMNS[c]: row[c] for c in MODEL_COLUMNS} for row in csv.DictReader(f)}


def relaxed_pairs_on_cycle(cycle: str, model: str) -> int:
    """How many program-order edges of a diy cycle (PodXY) the model leaves relaxed."""
    return sum(1 for m in re.finditer(r"Pod([RW])([RW])", cycle) if m.group(1) + m.group(2) in RELAXED[model])
