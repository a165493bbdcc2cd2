"""The whole public litmus-tests-x86 corpus gives herd7's Observation under sc and x86-TSO."""

from __future__ import annotations

import pytest
from refdata import x86_corpus

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROWS = x86_corpus()


@pytest.mark.slow
@pytest.mark.parametrize("model", ["sc", "tso"])
def test_x86_corpus_observations(model):
    m = load_model(model)
    wrong = []
    for row in ROWS:
        result = check(load_litmus(row["file"]), m, collect="none")
        # both models allow at least the interleavings: "Never" with no execution at all
        # (0 0) would be a broken checker, not herd's Observation
        if result.observation != row[model] or result.positive + result.negative == 0:
            wrong.append((row["path"], result.observation, row[model]))
    assert not wrong, f"{len(wrong)} of {len(ROWS)} differ from herd7, e.g. {wrong[:5]}"


@pytest.mark.slow
def test_tso_table_and_axiom_forms_agree_on_the_corpus():
    a, b = load_model("tso"), load_model("tso-axioms")
    for row in ROWS:
        program = load_litmus(row["file"])
        ra, rb = check(program, a, collect="none"), check(program, b, collect="none")
        assert ra.states == rb.states, row["path"]


def test_coherence_forall_tests_are_always():
    # the four `forall` tests of the corpus: herd says Always under both models
    rows = [r for r in ROWS if r["sc"] == "Always"]
    assert len(rows) == 4
    for row in rows:
        result = check(load_litmus(row["file"]), load_model("tso"), collect="none")
        assert result.condition.quantifier == "forall"
        assert result.observation == "Always" and result.ok


def _verdicts_of_herd(rows, model):
    """Verdict-only runs (`run -q`) give herd's verdict: Allowed exactly when herd observed it."""
    m = load_model(model)
    wrong = []
    for row in rows:
        result = check(load_litmus(row["file"]), m, collect="verdict")
        herd = "Forbidden" if row[model] == "Never" else "Allowed"
        if result.verdict != herd:
            wrong.append((row["path"], result.verdict, herd))
    assert not wrong, f"{len(wrong)} of {len(rows)} differ from herd7, e.g. {wrong[:5]}"


@pytest.mark.slow
@pytest.mark.parametrize("model", ["sc", "tso"])
def test_x86_corpus_verdict_only(model):
    _verdicts_of_herd(ROWS, model)


@pytest.mark.parametrize("model", ["sc", "tso"])
def test_x86_corpus_verdict_only_sample(model):
    _verdicts_of_herd(ROWS[::25], model)
