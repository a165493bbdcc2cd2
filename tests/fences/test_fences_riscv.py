"""Fence selection under riscv (RVWMO): the cheapest RISC-V fences for the classic shapes.

riscv.mm's costs: fence rw,rw 4; fence.tso and the fences with one side rw (rw,r rw,w
r,rw w,rw) 3; the narrow fences r,r r,w w,r w,w 2; fence.i 1 (it orders nothing). Each
shape below needs one ordered po pair per thread of its cycle, and the narrow fence of
that pair's kinds is the one cost-2 kind that orders it:

* MP  (W x; W y || R y; R x): W->W on P0, R->R on P1: fence w,w + fence r,r = 4
  (fence.tso orders both but costs 3 each);
* SB  (W x; R y || W y; R x): W->R on both: fence w,r twice = 4 (fence.tso does not order W->R);
* LB  (R x; W y || R y; W x): R->W on both: fence r,w twice = 4;
* IRIW (two writers, two readers R x; R y / R y; R x): R->R on each reader: fence r,r twice = 4
  (RVWMO is multi-copy atomic: the writers need nothing);
* WRC (W x || R x; W y || R y; R x): R->W on P1, R->R on P2: fence r,w + fence r,r = 4;
* SB+amos (amoswap x; R y || amoswap y; R x): the AMO is one event, both a read and a write,
  so fence r,r orders it before the load as well as fence w,r: cost 4, and r,r comes first
  among the equal-cost kinds (declaration order).

herd7 7.58 (-model riscv.cat) gives Never on every fenced test written by `-o` (see data/riscv/README.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.select import rerun
from mmdsl.fences.writer import write_fenced
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

DATA = Path(__file__).resolve().parent / "data" / "riscv"

CHEAPEST = {  # thread -> the fence kind placed there; every answer costs 4
    "MP": {0: "fence-w-w", 1: "fence-r-r"},
    "SB": {0: "fence-w-r", 1: "fence-w-r"},
    "LB": {0: "fence-r-w", 1: "fence-r-w"},
    "IRIW": {1: "fence-r-r", 3: "fence-r-r"},
    "WRC": {1: "fence-r-w", 2: "fence-r-r"},
    "SB+amos": {0: "fence-r-r", 1: "fence-r-r"},
}
WRITTEN = {"fence-w-w": "fence w,w", "fence-r-r": "fence r,r", "fence-w-r": "fence w,r", "fence-r-w": "fence r,w"}


@pytest.mark.parametrize("shape", sorted(CHEAPEST))
def test_cheapest_riscv_fences(shape, tmp_path):
    model = load_model("riscv")
    program = load_litmus(DATA / f"{shape}.litmus")
    assert check(program, model).verdict == "Allowed"
    sel = select_fences(program, model, FenceOptions())
    assert sel.status == "OPTIMAL"
    assert {c.place.tid: c.kind.name for c in sel.fences} == CHEAPEST[shape]
    assert len(sel.fences) == 2 and sel.cost == 4
    assert sel.after.verdict == "Forbidden"
    out = tmp_path / f"{shape}.litmus"
    reread = write_fenced(program, sel.fences, out)
    assert check(reread, model).verdict == "Forbidden"
    text = out.read_text()
    for kind in CHEAPEST[shape].values():
        assert WRITTEN[kind] in text


def test_an_amo_is_ordered_by_a_fence_of_either_half():
    """Every minimal set for SB+amos: per thread one fence ordering the AMO before the load, by its
    read (r,r) or its write (w,r) half, or a wider fence; the four cheapest cost 4."""
    sel = select_fences(load_litmus(DATA / "SB+amos.litmus"), load_model("riscv"), FenceOptions(all_minimal=True))
    assert sel.alternatives_kind == "minimal" and sel.alternatives_stopped is None
    cheapest = sorted(tuple(c.kind.name for c in s) for s in sel.alternatives if sum(c.cost for c in s) == 4)
    assert cheapest == [("fence-r-r", "fence-r-r"), ("fence-r-r", "fence-w-r"),
                        ("fence-w-r", "fence-r-r"), ("fence-w-r", "fence-w-r")]


def test_a_forbidden_riscv_test_needs_no_fence():
    sel = select_fences(load_litmus(DATA / "MP+fence.w.w+addr.litmus"), load_model("riscv"))
    assert not sel.needed and sel.fences == []


def test_the_explorer_refuses_riscv_by_name():
    """riscv.mm defines its own axioms: it runs on the execution-graph machine, whose states
    have no out-of-order steps to cut, so --method cut refuses it by name (the checker selects)."""
    from mmdsl.core.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="needs a reordering-table machine; model 'riscv'"):
        select_fences(load_litmus(DATA / "MP.litmus"), load_model("riscv"), FenceOptions(method="cut"))


def test_explorer_selection_refuses_store_conditionals_by_name():
    from mmdsl.core.errors import UnsupportedError
    from mmdsl.litmus import parse_litmus

    text = "RISCV s\n{ 0:x5=x; }\n P0 ;\n lr.w x6,0(x5) ;\n sc.w x7,x6,0(x5) ;\nexists (x=0)\n"
    with pytest.raises(UnsupportedError, match="does not handle store-conditionals"):
        select_fences(parse_litmus(text, "s.litmus"), load_model("sc"), FenceOptions(method="cut"))


def test_a_test_with_a_loop_is_selected_on_the_checker_unrolled():
    """riscv runs on the execution-graph machine, so a spin loop is selected on the checker,
    unrolled herd's way (spin iterations blocked): MP's two narrow fences, the reader's
    inside its loop after the load, and the bound stated. herd7 7.58 -unroll 2 on the
    fenced test (the same fences, tests/explorer/data/loops' RV-spin) says Never."""
    program = load_litmus(DATA / "MP+spin.litmus")
    sel = select_fences(program, load_model("riscv"))
    assert sel.status == "OPTIMAL" and sel.cost == 4 and sel.unroll == 2
    assert [(c.place.thread, c.kind.name, c.place.before) for c in sel.fences] == [
        ("P0", "fence-w-w", "sw x1,0(x5)"), ("P1", "fence-r-r", "lw x1,0(x6)")]
    assert sel.after.verdict == "Forbidden" and any("--unroll 2" in n for n in sel.notes)
    assert rerun(sel, sel.fenced, load_model("riscv")).verdict == "Forbidden"
