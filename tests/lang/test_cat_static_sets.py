"""cat's sets of relations and tags: `++`, `|`, `match` over them and over a tag, stdlib's `map`.

The values are the same on every execution, so the loader takes them apart before any
(mmdsl/lang/cat_static.py); a match over the events of one execution stays a refusal by
name. The verdicts pinned are the classic ones (tests/reference/classic/verdicts.csv,
herd7 7.57: SB, MP, LB, IRIW forbidden under SC; SB allowed and MP, LB, IRIW forbidden
under TSO).
"""

from __future__ import annotations

import csv

import pytest
from refdata import REFERENCE, ROOT

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus

CLASSIC = ROOT / "litmus" / "classic"
STDLIB = """stdlib
let map f =
  let rec do_map S = match S with
  || {} -> {}
  || e ++ S -> f e ++ do_map S
  end in
  do_map
"""
UNIONS = """
let unions =
  let rec u S = match S with
  || {} -> 0
  || r ++ rest -> r | u rest
  end in u
"""
SC = UNIONS + """let com = rf ++ ({co} | {fr})
acyclic unions (po ++ com) as sc
"""
TSO = UNIONS + """let ppo kind = match kind with
  || 'sc -> po
  || 'tso -> po \\ (W * R)
  || _ -> 0
  end
let twice = map (fun r -> r ; r) {co, fr}
acyclic unions ({ppo 'tso, rf & ext} | {co, fr}) as tso
acyclic unions twice | co | fr as redundant
"""


def load(tmp_path, text):
    (tmp_path / "stdlib.cat").write_text(STDLIB)
    p = tmp_path / "m.cat"
    p.write_text('"m"\n' + text)
    return lower_cat_file(p)


def reference(column: str) -> dict:
    word = {"A": "Allowed", "F": "Forbidden"}
    with open(REFERENCE / "classic" / "verdicts.csv") as f:
        return {r["test"]: word[r[column]] for r in csv.DictReader(f)}


def verdicts(model, tests):
    return {t: check(load_litmus(CLASSIC / f"{t}.litmus"), model, collect="none").verdict for t in tests}


@pytest.mark.parametrize("text, column", [(SC, "SC"), (TSO, "TSO")])
def test_models_built_from_sets_of_relations_give_the_classic_verdicts(tmp_path, text, column):
    tests = ["SB", "MP", "LB", "IRIW", "2+2W", "R", "WRC"]
    want = reference(column)
    assert verdicts(load(tmp_path, text), tests) == {t: want[t] for t in tests}


def test_the_set_is_taken_apart_before_any_execution(tmp_path):
    model = load(tmp_path, SC)
    assert [a.name for a in model.axioms] == ["sc"]
    assert model.axioms[0].expr.names() >= {"po", "rf", "co", "fr"}


@pytest.mark.parametrize("text, words, line", [
    ("let s = match R with || {} -> po || e ++ rest -> e end\nacyclic s\n", "over the events or pairs", 2),
    ("let s = map (fun e -> [e]) W\nacyclic po | s\n", "over the events or pairs", 3),  # stdlib.cat:3, its match
    ("let s = po ++ rf\nacyclic s\n", "'++' adding an element to the events or pairs", 2),
    ("let s = match 'c with 'a -> po || 'b -> rf end\nacyclic s\n", "no case of this match fits the tag 'c", 2),
    ("let s = match po with 'a -> po end\nacyclic s\n", "needs one tag", 2),
    ("with x from R\nacyclic x\n", "S is a set of events or a relation, not a set of relations", 2),
    ("acyclic {po, rf}\n", "a set of relations where a set or relation is expected", 2),
])
def test_what_depends_on_an_execution_is_refused_at_its_place(tmp_path, text, words, line):
    with pytest.raises(MmdslError) as info:
        load(tmp_path, text)
    assert words in info.value.message, info.value.message
    assert info.value.pos is not None and info.value.pos.line == line, info.value.pos


def test_a_match_over_events_is_a_refusal_by_name_not_a_model_error(tmp_path):
    with pytest.raises(UnsupportedError):
        load(tmp_path, "let s = match R with || {} -> po || e ++ rest -> po end\nacyclic s\n")


def test_a_long_set_is_folded_and_a_longer_one_refused_by_name(tmp_path):
    items = ", ".join(["po", "rf", "co", "fr"] * 20)
    model = load(tmp_path, UNIONS + f"acyclic unions {{{items}}} as sc\n")
    assert verdicts(model, ["SB"]) == {"SB": "Forbidden"}
    items = ", ".join([f"po & (_ * _) & {k}" for k in ("po", "rf", "co", "fr")] * 500)
    with pytest.raises(UnsupportedError) as info:
        load(tmp_path, UNIONS + f"acyclic unions {{{items}}} as sc\n")
    assert "applied more than 100 deep" in info.value.message and info.value.pos is not None


def test_a_recursive_let_over_empty_sets_is_known_empty(tmp_path):
    """Its least fixpoint is empty when its body is, its own names taken empty (the Linux
    bell's srcu-rscs over the SRCU events mmdsl's C dialect never makes)."""
    from mmdsl.lang.cat_static import statically_empty

    model = load(tmp_path, "let rec r = ([0] ; po) | (r ; po) | (s ; r)\nand s = r ; r\nacyclic po | r | s as x\n")
    names = {b.name: b.expr for g in model.lets for b in g.bindings}
    assert statically_empty(names["r"], model) and statically_empty(names["s"], model)
    model = load(tmp_path, "let rec r = po | (r ; po)\nacyclic r as x\n")
    names = {b.name: b.expr for g in model.lets for b in g.bindings}
    assert not statically_empty(names["r"], model)


def test_different_values_of_an_empty_relation_is_empty_and_else_refused(tmp_path):
    """herd's different-values(r) keeps the pairs of r whose values differ: mmdsl's relations
    carry no values, so only an r empty on every execution is lowered (the Linux bell's
    srcu-bad-nesting flag)."""
    model = load(tmp_path, "acyclic po | different-values(0) as x\n")
    assert verdicts(model, ["SB"]) == {"SB": "Allowed"}
    with pytest.raises(UnsupportedError) as info:
        load(tmp_path, "acyclic po | different-values(rf) as x\n")
    assert "'different-values'" in info.value.message and info.value.pos.line == 2
