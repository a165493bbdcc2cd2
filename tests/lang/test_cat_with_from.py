"""`with x from S`, S a set of relations known before the execution (lang/cat_choice.py's ``among``), against herd7.

herd runs the rest of the model once per element of S (its value on the execution; equal
values are one element) and counts each run that passes as an execution; ``{}`` gives
none. The four models of tests/lang/data/with-from (a literal, ``{}``, cross.cat's
``cross``, stdlib's ``map`` and ``++``) are compared with herd7 7.58's outputs there
(final states, Ok/No, witness counts, Observation) on litmus/classic and its LISA tests.
They include herd's cos.cat and cross.cat, read from ../shared/reference/herd-cats
(herdtools7, CeCILL-B): skipped when that folder is absent.
"""

from __future__ import annotations

import pytest
from refdata import ROOT, SHARED_REFERENCE, herd_outputs_file, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
DATA = ROOT / "tests" / "lang" / "data" / "with-from"
MODELS = ("among", "none", "cross", "map")

pytestmark = pytest.mark.skipif(not HERD_CATS.is_dir(), reason=f"herd's stock models not at {HERD_CATS}")


def _model(name: str):
    return lower_cat_file(DATA / f"{name}.cat", [HERD_CATS])


def _disagreements(name: str, files) -> list:
    model = _model(name)
    herd = herd_outputs_file(DATA / f"{name}.herd.txt")
    wrong = []
    for f in files:
        got = outcome(herd_block(check(load_litmus(ROOT / f), model), show_time=False))
        if got != outcome(herd[f]):
            wrong.append((f, got[1:], outcome(herd[f])[1:]))
    return wrong


@pytest.mark.parametrize("name", MODELS)
def test_every_classic_test_gives_herds_states_counts_and_observation(name):
    files = sorted(herd_outputs_file(DATA / f"{name}.herd.txt"))
    assert len(files) == 47
    assert _disagreements(name, files) == []


def test_the_checks_after_the_choice_become_one_and_the_others_stay():
    model = _model("map")
    assert [a.name for a in model.axioms if not a.default][-1] == "x-choice"
    assert "only-external" in model.axioms[-1].doc and "no-rf-chosen" in model.axioms[-1].doc


def test_equal_values_are_one_choice():
    """On SB (no po-loc pair) {po, 0, po-loc} is {po, 0}: herd's 1 6, not 1 9 (among.cat)."""
    res = check(load_litmus(ROOT / "litmus/classic/SB.litmus"), _model("among"))
    assert (res.positive, res.negative) == (1, 6)


def test_an_empty_set_of_choices_is_no_execution():
    res = check(load_litmus(ROOT / "litmus/classic/SB.litmus"), _model("none"))
    assert (res.observation, len(res.states), res.positive, res.negative) == ("Never", 0, 0, 0)


@pytest.mark.parametrize("text, error, words", [
    # herd: "set expected"
    ('"m"\nwith x from po\nacyclic x\n', MmdslError, "not a set of relations"),
    # x itself a set of relations
    ('"m"\nwith x from {{po}, {rf}}\n', UnsupportedError, "choosing among sets of relations"),
    # a set computed from the execution's events (stdlib's map over W)
    ('"m"\nwith x from map (fun e -> [e]) W\nacyclic x\n', UnsupportedError, "cannot compute before the execution"),
])
def test_what_is_not_a_set_of_relations_is_refused_at_the_with(tmp_path, text, error, words):
    p = tmp_path / "m.cat"
    p.write_text(text)
    with pytest.raises(error) as info:
        lower_cat_file(p, [HERD_CATS])
    assert words in info.value.message
    assert info.value.pos is not None and info.value.pos.line == 2
