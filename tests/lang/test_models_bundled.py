"""The bundled models load, say what DESIGN.md's tables say, and tso equals tso-axioms."""

from __future__ import annotations

import pytest

from mmdsl.core.events import EventShape
from mmdsl.lang import bundled_model_paths, load_model
from mmdsl.lang.table import CompiledTable

BUNDLED = ["sc", "tso", "pso", "rmo", "dotnet", "relaxed", "tso-axioms"]

R = EventShape("R")
W = EventShape("W")


def test_every_bundled_model_loads_with_a_doc_string():
    names = {p.stem for p in bundled_model_paths()}
    assert set(BUNDLED) <= names
    for name in names:
        m = load_model(name)
        assert m.title and m.doc, f"{name} needs a title and a doc string"


# DESIGN.md, "Reference semantics": may the later access be performed first, for two
# accesses to different locations with no dependency (earlier -> later)?
REFERENCE_TABLES = {
    "sc": {("W", "R"): False, ("W", "W"): False, ("R", "R"): False, ("R", "W"): False},
    "tso": {("W", "R"): True, ("W", "W"): False, ("R", "R"): False, ("R", "W"): False},
    "pso": {("W", "R"): True, ("W", "W"): True, ("R", "R"): False, ("R", "W"): False},
    "rmo": {("W", "R"): True, ("W", "W"): True, ("R", "R"): True, ("R", "W"): True},
    "relaxed": {("W", "R"): True, ("W", "W"): True, ("R", "R"): True, ("R", "W"): True},
}
SHAPES = {"R": R, "W": W}


@pytest.mark.parametrize("model", sorted(REFERENCE_TABLES))
def test_tables_match_design(model):
    table = CompiledTable(load_model(model))
    for (a, b), reorder in REFERENCE_TABLES[model].items():
        kept = table.keeps(SHAPES[a], SHAPES[b], same_loc=False, dependent=False)
        assert kept == (not reorder), f"{model}: {a}->{b}"


@pytest.mark.parametrize("model", ["sc", "tso", "pso", "rmo"])
def test_same_location_pairs_keep_program_order(model):
    table = CompiledTable(load_model(model))
    for a in "RW":
        for b in "RW":
            assert table.kept_at_same_location(SHAPES[a], SHAPES[b], dependent=False), (model, a, b)


def test_rmo_keeps_dependent_pairs():
    table = CompiledTable(load_model("rmo"))
    assert table.keeps(R, W, same_loc=False, dependent=True)
    assert table.keeps(R, R, same_loc=False, dependent=True)


def _dn(kind, *annots):
    return EventShape(kind, kind == "L", False, frozenset(annots))


# The .NET paper's Table 1 (DESIGN.md): Y = the later may be performed before the earlier.
DOTNET = {
    "Read": "Y Y Y - Y -", "Write": "Y Y Y - Y -", "VolRead": "- - - - - -",
    "VolWrite": "Y Y Y - Y -", "Lock": "- - - - - -", "Unlock": "Y Y Y - - -",
}
DOTNET_SHAPES = {
    "Read": EventShape("R"), "Write": EventShape("W"),
    "VolRead": EventShape("R", annots=frozenset({"volatile"})),
    "VolWrite": EventShape("W", annots=frozenset({"volatile"})),
    "Lock": EventShape("R", rmw=True, annots=frozenset({"lock"})),
    "Unlock": EventShape("W", annots=frozenset({"unlock"})),
}


def test_dotnet_table_is_the_papers_table_1():
    table = CompiledTable(load_model("dotnet"))
    cols = list(DOTNET)
    for row, cells in DOTNET.items():
        for col, cell in zip(cols, cells.split()):
            kept = table.keeps(DOTNET_SHAPES[row], DOTNET_SHAPES[col], same_loc=False, dependent=False)
            assert kept == (cell == "-"), f"dotnet {row} -> {col}"
    # data dependence through one location keeps order: a store then a load of it
    assert table.keeps(EventShape("W"), EventShape("R"), same_loc=True, dependent=False)
    assert not load_model("dotnet").forwarding


def test_default_axioms_follow_design():
    tso = load_model("tso")
    assert [a.name for a in tso.axioms] == ["uniproc", "atomic", "tso"]
    assert all(a.default for a in tso.axioms)
    # with forwarding, a read takes its own thread's write only once the reads that write's
    # value and address depend on are performed (the explorer issues writes with known values)
    assert tso.axioms[2].text() == "acyclic ppo | fence | rfe | co | fr | (dep | rmw) ; rfi"
    assert load_model("sc").axioms[2].text() == "acyclic ppo | fence | rf | co | fr"
    assert not any(a.default for a in load_model("tso-axioms").axioms)


def test_fence_spellings_map_to_model_fences():
    assert load_model("tso").fence_for("MFENCE").name == "mfence"
    assert load_model("rmo").fence_for("mfence").name == "membar"
    assert load_model("dotnet").fence_for("mb").name == "MemoryBarrier"
    assert load_model("relaxed").fence_for("lwsync") is None
    assert {f for f in load_model("relaxed").fences} >= {"ll", "ls", "sl", "ss"}
