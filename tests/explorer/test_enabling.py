"""The enabling predicates compiled from each bundled model, against DESIGN.md's reference tables."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.core.events import EventShape
from mmdsl.core.program import BinOp, Const, Fence, Load, Reg, Rmw, Store, Thread
from mmdsl.explorer.machines.table.enabling import ALWAYS, DIFFERENT, NEVER, ThreadRules, model_rules
from mmdsl.lang import load_model

R = EventShape("R")
W = EventShape("W")


def rules(name: str):
    return model_rules(load_model(name))


def may_reorder(name: str, earlier: EventShape, later: EventShape) -> bool:
    """DESIGN.md's 'Y': the later access may be performed first (different locations)."""
    return rules(name).overtake(earlier, later) != NEVER


# DESIGN.md, "Reference semantics": W->R, W->W, R->R, R->W for the SPARC family
SPARC = {
    "sc": {"WR": False, "WW": False, "RR": False, "RW": False},
    "tso": {"WR": True, "WW": False, "RR": False, "RW": False},
    "pso": {"WR": True, "WW": True, "RR": False, "RW": False},
    "rmo": {"WR": True, "WW": True, "RR": True, "RW": True},
}
SHAPES = {"R": R, "W": W}


@pytest.mark.parametrize("model", sorted(SPARC))
@pytest.mark.parametrize("pair", ["WR", "WW", "RR", "RW"])
def test_sparc_family_reorders_exactly_the_pairs_of_the_reference_table(model, pair):
    assert may_reorder(model, SHAPES[pair[0]], SHAPES[pair[1]]) is SPARC[model][pair]


@pytest.mark.parametrize("model", sorted(SPARC))
@pytest.mark.parametrize("pair", ["WR", "WW", "RR", "RW"])
def test_same_location_pairs_keep_their_order_in_the_sparc_family(model, pair):
    """DESIGN.md: same-location pairs keep program order (a read after a write is forwarded)."""
    assert rules(model).overtake(SHAPES[pair[0]], SHAPES[pair[1]]) != ALWAYS


@pytest.mark.parametrize("pair, kept", [("WR", True), ("WW", True), ("RW", True), ("RR", False)])
def test_dotnet_keeps_same_location_pairs_with_a_write(pair, kept):
    """The paper's data dependence: a pair on one location with a write in it; two reads may swap."""
    assert (rules("dotnet").overtake(SHAPES[pair[0]], SHAPES[pair[1]]) != ALWAYS) is kept


def test_tso_lets_only_a_read_overtake_an_earlier_write_to_another_location():
    tso = rules("tso")
    assert tso.overtake(W, R) == DIFFERENT
    assert tso.forward_past(W, R)  # at the same location the read takes the pending write's value
    for earlier, later in [(W, W), (R, R), (R, W)]:
        assert tso.overtake(earlier, later) == NEVER


def test_sc_neither_reorders_nor_forwards():
    sc = rules("sc")
    assert all(sc.overtake(a, b) == NEVER for a in (R, W) for b in (R, W))
    assert not sc.forward_past(W, R)


# .NET, Huynh and Roychoudhury Table 1 (DESIGN.md): may the later be performed first?
DOTNET_CLASSES = {
    "Read": [EventShape("R")],
    "Write": [EventShape("W")],
    "VolRead": [EventShape("R", annots=frozenset({"volatile"}))],
    "VolWrite": [EventShape("W", annots=frozenset({"volatile"}))],
    # Monitor.Enter is an atomic test-and-set: both of its halves are in class Lock
    "Lock": [EventShape("R", rmw=True, annots=frozenset({"lock"})),
             EventShape("W", rmw=True, annots=frozenset({"lock"}))],
    "Unlock": [EventShape("W", annots=frozenset({"unlock"}))],
}
DOTNET_TABLE = {  # row: earlier; columns Read Write VolRead VolWrite Lock Unlock
    "Read":     "Y Y Y - Y -",
    "Write":    "Y Y Y - Y -",
    "VolRead":  "- - - - - -",
    "VolWrite": "Y Y Y - Y -",
    "Lock":     "- - - - - -",
    "Unlock":   "Y Y Y - - -",
}
DOTNET_COLUMNS = ["Read", "Write", "VolRead", "VolWrite", "Lock", "Unlock"]


@pytest.mark.parametrize("row", list(DOTNET_TABLE))
def test_dotnet_table_row_by_row(row):
    got = []
    for col in DOTNET_COLUMNS:
        answers = {may_reorder("dotnet", a, b) for a in DOTNET_CLASSES[row] for b in DOTNET_CLASSES[col]}
        assert len(answers) == 1, f"{row} -> {col} depends on the RMW half"
        got.append("Y" if answers.pop() else "-")
    assert " ".join(got) == DOTNET_TABLE[row]


def test_dotnet_keeps_a_read_after_a_write_to_the_same_location_without_forwarding():
    dotnet = rules("dotnet")
    assert dotnet.overtake(W, R) == DIFFERENT
    assert not dotnet.forward_past(W, R)


def test_relaxed_lets_two_reads_of_one_location_swap_and_keeps_the_rest_per_location():
    """CheckFence's Relaxed: only same-location pairs whose later access is a store keep order."""
    relaxed = rules("relaxed")
    assert relaxed.overtake(R, R) == ALWAYS
    assert relaxed.overtake(W, W) == DIFFERENT
    assert relaxed.overtake(R, W) == DIFFERENT
    assert relaxed.overtake(W, R) == DIFFERENT and relaxed.forward_past(W, R)


def test_every_bundled_table_model_keeps_accesses_after_the_reads_their_address_or_value_comes_from():
    for name in ("sc", "tso", "pso", "rmo", "dotnet", "relaxed"):
        for later in (R, W):
            assert rules(name).dependency_kept("addr", R, later) is None, name
        assert rules(name).dependency_kept("data", R, W) is None, name


@pytest.mark.parametrize("relation", ["ctrl", "addr;po"])
def test_only_rmo_lets_a_read_overtake_a_read_it_is_control_or_addr_po_dependent_on(relation):
    """SPARC V9's dependence order: ctrl keeps only stores; there is no addr;po (issue 9)."""
    for name in ("sc", "tso", "pso", "dotnet", "relaxed"):
        for later in (R, W):
            assert rules(name).dependency_kept(relation, R, later) is None, name
    rmo = rules("rmo")
    assert rmo.dependency_kept(relation, R, R) is not None
    assert (rmo.dependency_kept(relation, R, W) is None) is (relation == "ctrl")


def thread(*instrs) -> Thread:
    return Thread(0, "P0", list(instrs))


def test_fences_hold_the_pairs_they_order():
    tso = ThreadRules(rules("tso"), thread(Store(Const("x"), Const(1)), Fence("mfence"), Load("r0", Const("y")),
                                           Fence("sfence")))
    w, mfence, r, sfence = range(4)
    assert tso.fence_blocks(mfence, w, r)
    assert not tso.fence_blocks(sfence, w, r)  # SFENCE orders store-store only
    assert tso.fence_blocks(sfence, w, w)


def test_an_undeclared_fence_orders_nothing():
    """herd: a fence of a set the model does not use (lang/fence_use.py warns about it)."""
    tr = ThreadRules(rules("rmo"), thread(Store(Const("x"), Const(1)), Fence("frobnicate", text="f[frobnicate]"),
                                          Load("r0", Const("y"))))
    assert not any(tr.fence_a) and not any(any(row) for row in tr.fence_before)


XCHG = Rmw("r0", Const("x"), Const(1), annots=frozenset({"atomic"}))
FAA = Rmw("r0", Const("x"), BinOp("add", Reg("%old"), Const(1)))
LOCK = Rmw(None, Const("l"), Const(1), cond=BinOp("eq", Reg("%old"), Const(0)), blocking=True,
           annots=frozenset({"lock"}))


@pytest.mark.parametrize("model, ins, atomic", [
    ("tso", XCHG, True),  # locked instructions: both halves keep order with everything
    ("rmo", FAA, True),
    ("dotnet", LOCK, True),  # Monitor.Enter: both halves are Lock
    ("dotnet", FAA, False),  # a plain RMW: a Read half and a Write half, told apart
    ("relaxed", FAA, False),
])
def test_read_modify_writes_are_one_step_exactly_when_their_halves_cannot_be_told_apart(model, ins, atomic):
    tr = ThreadRules(rules(model), thread(Load("r1", Const("y")), ins, Store(Const("z"), Const(1))))
    assert tr.atomic[1] is atomic


def test_a_model_with_its_own_axioms_is_refused_by_name():
    with pytest.raises(UnsupportedError) as err:
        rules("tso-axioms")
    assert err.value.message == (
        "model 'tso-axioms' is not supported by the explorer: it defines its own axioms (uniproc, atomic, tso); "
        "the explorer runs models given by a reordering table")
    assert err.value.pos is not None and err.value.pos.file.endswith("tso-axioms.mm")


SPECULATIVE = """model speculative "reads overtaken by anything, dependent or not"

reorder {
         R    W
    R    Y    Y
    W    Y    d
}
forwarding own-writes
fence full aka mb orders M * M cost 3 "full fence"
"""


def test_a_model_letting_an_access_overtake_a_read_it_depends_on_speculates_on_its_value(tmp_path):
    """Once refused; now the dependent write is performed on a guessed value, checked when
    the read is performed, and the explorer agrees with the axiomatic checker."""
    from mmdsl.axiomatic import check
    from mmdsl.explorer import explore
    from mmdsl.litmus import parse_litmus

    path = tmp_path / "speculative.mm"
    path.write_text(SPECULATIVE)
    model = load_model(path)
    independent = parse_litmus("LISA SB\n{\n}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n r[] r0 y | r[] r0 x ;\n"
                               "exists (0:r0=0 /\\ 1:r0=0)\n")
    assert explore(independent, model).verdict == "Allowed"
    dependent = parse_litmus("LISA LB+data\n{\n}\n P0 | P1 ;\n r[] r0 x | r[] r0 y ;\n w[] y r0 | w[] x 1 ;\n"
                             "exists (0:r0=1 /\\ 1:r0=1)\n")
    found = explore(dependent, model)
    assert found.verdict == "Allowed"
    assert found.state_set() == check(dependent, model, collect="none").state_set()
