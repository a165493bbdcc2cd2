"""Diagrams checked against independent data: herd's verdicts and the cycles diy built the tests from."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from diagram_cases import CLASSIC, classic_view
from refdata import classic_verdicts

from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.execution_choice import choose_executions

MODELS = ("sc", "tso", "pso", "rmo")
X86_TESTS = sorted(p.stem for p in CLASSIC.glob("*.litmus"))
DIY_TESTS = [t for t in X86_TESTS if "\nOrig=" in (CLASSIC / f"{t}.litmus").read_text()]
VERDICTS = classic_verdicts()
ORIG_FAMILY = {"Pod": "order", "Pos": "order", "MFe": "order", "Rfe": "rf", "Fre": "fr", "Coe": "co", "Wse": "co"}
ORDER_RELS = {"po", "ppo", "fence", "inserted"}


def herd_verdict(test: str, model: str) -> str:
    return VERDICTS[test.removesuffix("+fences") if test not in VERDICTS else test][model]


def orig_cycle(test: str) -> list[str]:
    text = (CLASSIC / f"{test}.litmus").read_text()
    return re.search(r"^Orig=(.*)$", text, re.M).group(1).split()


def family(rel: str) -> str:
    return "order" if rel in ORDER_RELS else rel


@pytest.mark.parametrize("test", [t for t in X86_TESTS if t in VERDICTS or t.removesuffix("+fences") in VERDICTS])
@pytest.mark.parametrize("model", MODELS)
def test_witness_drawn_exactly_when_herd_allows(test, model):
    """A witness diagram exists iff herd7 says Allowed; otherwise the forbidden ones name an axiom."""
    if test.endswith("+fences"):
        expected = "Forbidden"  # DESIGN.md: a full fence between every pair forbids all of them
    else:
        expected = herd_verdict(test, model)
    program = load_litmus(CLASSIC / f"{test}.litmus")
    m = load_model(model)
    witnesses = choose_executions(program, m, "witness").chosen
    assert bool(witnesses) == (expected == "Allowed")
    if expected == "Forbidden":
        forbidden = choose_executions(program, m, "forbidden").chosen
        assert forbidden, "a forbidden outcome with no forbidden execution to explain it"
        view = classic_view(test, model, "forbidden")
        assert view.axiom and view.headline.startswith(f"forbidden: violates {view.axiom}")
        assert any(e.highlight for e in view.edges)


@pytest.mark.parametrize("test", DIY_TESTS)
def test_sc_cycle_is_the_one_diy_built(test):
    """Under SC the highlighted cycle has the relations of the test's Orig line (diy's cycle)."""
    view = classic_view(test, "sc", "forbidden")
    hot = [e for e in view.edges if e.highlight]
    # the highlighted edges form one closed walk
    out_deg, in_deg = Counter(e.src for e in hot), Counter(e.dst for e in hot)
    assert out_deg == in_deg and out_deg and all(v == 1 for v in out_deg.values())
    labelled = Counter(family(e.rel) for e in hot if e.label)
    assert labelled == Counter(ORIG_FAMILY[tok[:3]] for tok in orig_cycle(test))


@pytest.mark.parametrize("test", [t for t in X86_TESTS if t.endswith("+fences")])
def test_rmo_fenced_cycle_goes_through_the_fences(test):
    """RMO keeps no cross-location order: each MFenced step of the cycle is drawn as a fence edge."""
    view = classic_view(test, "rmo", "forbidden")
    hot = [e for e in view.edges if e.highlight and e.label]
    fenced = sum(1 for tok in orig_cycle(test) if tok.startswith("MFenced"))
    assert sum(1 for e in hot if e.rel == "fence") == fenced
    assert all("mfence" in e.label for e in hot if e.rel == "fence")


def test_po_legend_of_a_model_without_table_does_not_claim_reordering():
    """tso-axioms keeps order through its axioms (po-ghb), not a table: its po edges are not
    'the model may reorder' -- the cycle of MP runs through two of them."""
    view = classic_view("MP", "tso-axioms", "forbidden")
    hot_po = [e for e in view.edges if e.highlight and e.rel == "po"]
    assert [e.label for e in hot_po] == ["po-ghb", "po-ghb"]
    assert ("po", "po", "program order") in view.legend
    assert ("po", "po", "program order (the model may reorder)") in classic_view("SB", "tso", "witness").legend


LABEL = re.compile(r"^\w+: ([RW])\*?(?:\[[^\]]*\])?(\w+)=(-?\d+)$")


def _access(label: str) -> tuple[str, str, int] | None:
    m = LABEL.match(label)
    return (m.group(1), m.group(2), int(m.group(3))) if m else None


@pytest.mark.parametrize("test", ["SB", "MP", "IRIW", "WRC", "2+2W", "R", "S", "lisa/CoRW2", "lisa/W+RWC"])
@pytest.mark.parametrize("model", ["sc", "rmo"])
def test_communication_edges_point_the_right_way(test, model):
    """Read off the labels alone: every read has one rf edge, from a write of its location and
    value; fr goes from a read to a write of its location, co from a write to a write of its
    location; none is reversed."""
    program = load_litmus(CLASSIC / f"{test}.litmus")
    count = len(choose_executions(program, load_model(model), "all", max_count=1000).chosen)
    for index in range(count):
        view = classic_view(test, model, "all", index=index, init=True)
        access = {n.name: _access(n.label) for _, nodes in view.columns for n in nodes}
        access.update({n.name: _access(n.label) for n in view.init})
        reads = {name for name, a in access.items() if a and a[0] == "R"}
        into: Counter = Counter()
        for e in view.edges:
            src, dst = access.get(e.src), access.get(e.dst)
            if e.rel == "rf":
                assert (src[0], dst[0]) == ("W", "R") and src[1:] == dst[1:], (test, index, e)
                into[e.dst] += 1
            elif e.rel == "fr":
                assert (src[0], dst[0], src[1]) == ("R", "W", dst[1]), (test, index, e)
            elif e.rel == "co":
                assert (src[0], dst[0], src[1]) == ("W", "W", dst[1]), (test, index, e)
        assert into == Counter(reads), (test, index)
