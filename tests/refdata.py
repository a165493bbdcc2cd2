"""Readers for the reference verdict tables (herd7 results), shared by several test modules."""

from __future__ import annotations

import csv
import hashlib
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the repository's own copies (tests/reference/README.md says where each came from)
REFERENCE = ROOT / "tests" / "reference"
# where new reference data arrives; only drift checks and tests of third-party model
# files (herd's .cat models, not copied) read it, and they skip when it is absent;
# MMDSL_SHARED_REFERENCE names it for a checkout that is not beside ../shared (a worktree)
SHARED_REFERENCE = Path(os.environ.get("MMDSL_SHARED_REFERENCE") or (ROOT / ".." / "shared" / "reference")).resolve()
X86_SUITE = ROOT / "litmus" / "x86"
RISCV_SUITE = ROOT / "litmus" / "riscv"
# corpus tests mmdsl refuses to read (left out of litmus/riscv; see its ORIGIN.md): a
# comment opened in the header and never closed, with a C-typed init section
RISCV_UNREAD = ("tests/HAND/ISA-LB-DEP-ADDR2-SUCCESS.litmus", "tests/HAND/ISA-LB-DEP-ADDR3-SUCCESS.litmus")

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


def riscv_corpus() -> list[dict]:
    """Rows of riscv/verdicts.csv (path, test, riscv.cat) with an absolute ``file`` added
    (the bundled copy of the test), less the tests left out of the bundle (RISCV_UNREAD)."""
    with open(REFERENCE / "riscv" / "verdicts.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["path"] not in RISCV_UNREAD]
    for r in rows:
        r["file"] = RISCV_SUITE / r["path"]
    return rows


def classic_file(dialect: str, test: str) -> Path:
    return REFERENCE / "classic" / dialect / f"{test}.litmus"


def outcome(text: str) -> tuple:
    """(final states, Ok/No, witness counts, Observation word) of a herd-shaped output."""
    lines = text.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("States "))
    n = int(lines[at].split()[1])
    states = frozenset(frozenset(a.strip().replace(" ", "").replace("[", "").replace("]", "")
                                 for a in line.split(";") if a.strip()) for line in lines[at + 1:at + 1 + n])
    witnesses = re.search(r"^Positive: (\d+) Negative: (\d+)", text, re.M).groups()
    observation = re.search(r"^Observation \S+ (\S+)", text, re.M).group(1)
    return states, lines[at + 1 + n], witnesses, observation


def herd_outputs_file(path: Path) -> dict[str, str]:
    """{test file (repository-relative): herd's output} of a file of herd runs, each output
    headed by a ``#file PATH`` line."""
    out, current = {}, None
    for line in path.read_text().splitlines(keepends=True):
        if line.startswith("#file "):
            current = line.split(maxsplit=1)[1].strip()
            out[current] = ""
        elif current is not None:
            out[current] += line
    return out


def states_digest(states) -> str:
    """A short digest of a set of final states as outcome() reads them (for CSVs of herd's runs)."""
    text = "\n".join(sorted(",".join(sorted(s)) for s in states))
    return hashlib.sha1(text.encode()).hexdigest()[:12]
