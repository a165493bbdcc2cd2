"""The execution requirement: minimal cycle sets, and which models fences act through."""

from __future__ import annotations

import pytest

from fences_reference import CLASSIC
from mmdsl.core.errors import UnsupportedError
from mmdsl.fences import select_fences
from mmdsl.fences.cycles import Pair, fence_axioms, minimal_cycle_sets
from mmdsl.lang import load_model
from mmdsl.lang.lower import lower_model_file
from mmdsl.litmus import load_litmus
from mmdsl.relations import Rel


def _pairs(*ab):
    return [Pair(a, b, frozenset({i})) for i, (a, b) in enumerate(ab)]


def test_minimal_sets_of_two_cycles():
    # events 0..5; E0: 1->2, 3->0 (two communication edges), and 5->4
    e0 = Rel.from_pairs(6, [(1, 2), (3, 0), (5, 4)])
    # relaxed pairs: (0,1) and (2,3) close 0-1-2-3-0; (4,5) closes 4-5-4 alone
    sets = minimal_cycle_sets(e0, _pairs((0, 1), (2, 3), (4, 5)), budget=1000)
    assert sets == [frozenset({2}), frozenset({0, 1})]


def test_superset_cycles_are_dropped():
    # 0->1 relaxed closes with E0 1->0 alone; the longer cycle through 2 adds nothing
    e0 = Rel.from_pairs(4, [(1, 0), (1, 2), (3, 0)])
    sets = minimal_cycle_sets(e0, _pairs((0, 1), (2, 3)), budget=1000)
    assert sets == [frozenset({0})]


def test_budget_exhaustion_is_reported():
    n = 12
    # a complete E0-free graph: every pair both ways -> many cycles
    pairs = _pairs(*[(i, j) for i in range(n) for j in range(n) if i != j])
    assert minimal_cycle_sets(Rel.empty(n), pairs, budget=50) is None


def test_no_cycle_means_unsatisfiable():
    assert minimal_cycle_sets(Rel.empty(3), _pairs((0, 1)), budget=10) == []


def test_default_axioms_use_the_fence_relation():
    assert [ax.name for ax in fence_axioms(load_model("tso"))] == ["tso"]


def test_models_using_fences_otherwise_are_refused():
    with pytest.raises(UnsupportedError, match="axiom 'tso' uses 'mfence'"):
        fence_axioms(load_model("tso-axioms"))


def test_a_let_bound_ordering_axiom_works(tmp_path):
    text = '''model mytso "TSO through a let"
reorder {
         R    W
    R    -    -
    W    Y    -
}
forwarding own-writes
fence mfence orders M * M cost 3
let ghb = ppo | fence | rfe | co | fr
axiom uniproc : acyclic po-loc | rf | co | fr
axiom order : acyclic ghb
'''
    (tmp_path / "mytso.mm").write_text(text)
    model = lower_model_file(tmp_path / "mytso.mm")
    assert [ax.name for ax in fence_axioms(model)] == ["order"]
    sel = select_fences(load_litmus(CLASSIC / "SB.litmus"), model)
    assert sel.status == "OPTIMAL" and sel.cost == 6
