"""`mmdsl check` on GenMC's own test programs (tests/check/data/genmc, GPL-3, see NOTE.md there):
the verdict under each table model, derived from GenMC's correct / wrong answer."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from budget import cpu_budget

from mmdsl.check import check_program
from mmdsl.lang import load_model
from mmdsl.litmus.cprog import load_c_program

DATA = Path(__file__).parent / "data" / "genmc"
ROWS = list(csv.DictReader((DATA / "expected.csv").open()))


def _param(row):
    marks = [pytest.mark.slow] if row["slow"] else []
    return pytest.param(row, id=f"{row['program'].split('/')[-1]}-{row['model']}", marks=marks)


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_genmc_program_verdict(row):
    with cpu_budget(60 if row["slow"] else 15):
        result = check_program(load_c_program(str(DATA / row["program"])), load_model(row["model"]))
    assert result.verdict == row["verdict"], (row, result.trace[-5:])
    if row["genmc"] == "safe":  # GenMC's correct programs: never an error here (compilation is sound)
        assert not result.error


def test_every_bundled_program_has_an_expectation():
    bundled = {str(p.relative_to(DATA)) for p in DATA.rglob("variants/*.c")}
    rc11 = {r["program"] for r in csv.DictReader((DATA / "expected-rc11.csv").open())}
    assert bundled == {r["program"] for r in ROWS} | rc11  # rc11.cat rows: test_check_cat_models.py


def test_dekker_rlx_violation_names_the_assertion_and_a_trace():
    result = check_program(load_c_program(str(DATA / "wrong/safety/dekker_rlx/variants/dekker_rlx0.c")),
                           load_model("tso"))
    assert result.verdict == "violation"
    assert result.failed["at"].endswith("dekker_rlx.c:10:3") or result.failed["at"].endswith("dekker_rlx.c:20:3")
    assert result.failed["text"].startswith("assert(")
    performed = [s for s in result.steps if "perform" in s["action"]]
    assert any("W" in s["action"] and " c=" in s["action"] for s in performed)
