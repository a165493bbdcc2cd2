"""The classic shapes give herd7's verdicts (shared/reference/classic/verdicts.csv)."""

from __future__ import annotations

import pytest
from refdata import REFERENCE, classic_verdicts

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

VERDICTS = classic_verdicts()
CASES = [
    (dialect, test, model)
    for dialect in ("X86", "LISA")
    for test in sorted(VERDICTS)
    if (REFERENCE / "classic" / dialect / f"{test}.litmus").exists()
    for model in VERDICTS[test]
]


def test_every_reference_row_is_covered():
    assert len({(t, m) for d, t, m in CASES if d == "X86"}) == sum(len(v) for v in VERDICTS.values())
    assert len([c for c in CASES if c[0] == "LISA"]) == 17 * 4


@pytest.mark.parametrize("dialect, test, model", CASES)
def test_classic_verdict(dialect, test, model):
    program = load_litmus(REFERENCE / "classic" / dialect / f"{test}.litmus")
    result = check(program, load_model(model), collect="none")
    assert result.verdict == VERDICTS[test][model]
    # each model here allows at least the interleavings, so "Forbidden" with no execution at
    # all would be a broken checker, not herd's verdict
    assert result.negative > 0 or result.positive > 0


@pytest.mark.parametrize("test", ["SB", "MP", "LB", "IRIW", "WRC", "2+2W", "R", "S", "ISA2", "RWC", "W+RWC", "WWC"])
def test_tso_in_table_form_equals_tso_in_axiom_form(test):
    program = load_litmus(REFERENCE / "classic" / "X86" / f"{test}.litmus")
    a = check(program, load_model("tso"), collect="none")
    b = check(program, load_model("tso-axioms"), collect="none")
    assert a.states == b.states and (a.positive, a.negative) == (b.positive, b.negative)


def test_fences_forbid_every_shape_under_every_model():
    for test in VERDICTS:
        if not test.endswith("+fences"):
            continue
        program = load_litmus(REFERENCE / "classic" / "X86" / f"{test}.litmus")
        for model in ("sc", "tso", "pso", "rmo", "dotnet", "relaxed"):
            result = check(program, load_model(model), collect="none")
            assert result.verdict == "Forbidden" and result.negative > 0, (test, model)
