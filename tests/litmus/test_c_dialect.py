"""The C forms of the classic shapes give herd7's reference verdicts under the axiomatic engine."""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "litmus" / "classic"
VERDICTS = ROOT / "tests" / "reference" / "classic" / "verdicts.csv"
COLUMNS = {"sc": "SC", "tso": "TSO", "pso": "PSO*", "rmo": "RMO*"}
C_TESTS = sorted(p.stem for p in (CLASSIC / "c").glob("*.litmus"))


@lru_cache(maxsize=1)
def reference() -> dict[str, dict[str, str]]:
    if not VERDICTS.is_file():
        pytest.fail(f"the reference verdicts are missing: expected {VERDICTS.resolve()}")
    with open(VERDICTS) as f:
        return {row["test"]: {m: {"A": "Allowed", "F": "Forbidden"}[row[c]] for m, c in COLUMNS.items()}
                for row in csv.DictReader(f)}


def test_every_x86_classic_shape_has_a_c_form():
    x86 = sorted(p.stem for p in CLASSIC.glob("*.litmus"))
    assert C_TESTS == x86
    for name in ["SB", "MP", "LB", "IRIW", "WRC", "2+2W", "R", "S", "ISA2", "RWC", "W+RWC", "WWC",
                 "CoRR", "CoWW", "CoRW1", "CoRW2", "CoWR"]:
        assert name in C_TESTS and (name.startswith("Co") or f"{name}+fences" in C_TESTS)


@pytest.mark.parametrize("model", list(COLUMNS))
def test_c_classic_verdicts_match_herd(model):
    m = load_model(model)
    got = {}
    for name in C_TESTS:
        program = load_litmus(CLASSIC / "c" / f"{name}.litmus")
        assert program.arch == "C" and not program.has_loops()
        got[name] = check(program, m).verdict
    expected = {name: reference()[name][model] for name in C_TESTS}
    assert got == expected


def test_c_and_x86_forms_have_the_same_final_states():
    """Same outcomes (registers renamed by position) for every shape under tso."""
    m = load_model("tso")
    for name in C_TESTS:
        c = check(load_litmus(CLASSIC / "c" / f"{name}.litmus"), m)
        x = check(load_litmus(CLASSIC / f"{name}.litmus"), m)
        assert len(c.states) == len(x.states), name
        assert (c.positive, c.negative) == (x.positive, x.negative), name
