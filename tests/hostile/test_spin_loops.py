"""Hostile spin loops on the explorer under power: one that never exits, and loops that are not spin loops."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.fences import select_fences
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

HEAD = "PPC {name}\n\"\"\n{{\n0:r2=x; 0:r4=y;\n1:r2=y; 1:r4=x;\n}}\n"


def _program(name: str, p1: list[str], p0: tuple[str, ...] = ("li r1,1", "stw r1,0(r2)")) -> str:
    rows = [f" {p0[k] if k < len(p0) else '':<13}| {ins:<16};" for k, ins in enumerate(p1)]
    return HEAD.format(name=name) + " P0           | P1              ;\n" + "\n".join(rows) + "\nexists (1:r3=0)\n"


def test_a_spin_loop_that_never_exits_ends_with_no_final_state():
    # P0 writes x, P1 spins on y: nothing ever sets y, so no run ends; no hang, no fence needed
    text = _program("never", ["Loop:", "lwz r1,0(r2)", "cmpwi r1,0", "beq Loop", "lwz r3,0(r4)"])
    program = parse_litmus(text, "never.litmus")
    assert explore(program, load_model("power")).states == {}
    assert not select_fences(program, load_model("power")).needed


@pytest.mark.parametrize("name,p1", [
    # a counter carried from one iteration to the next: dropping iterations would change it
    ("counter", ["Loop:", "addi r5,r5,1", "lwz r1,0(r2)", "cmpwi r1,0", "beq Loop", "lwz r3,0(r4)"]),
    # a store in the body: dropping an iteration would drop a write
    ("store", ["Loop:", "stw r5,0(r4)", "lwz r1,0(r2)", "cmpwi r1,0", "beq Loop", "lwz r3,0(r4)"]),
    # a second branch into the middle of the body
    ("entered", ["cmpwi r5,0", "beq Mid", "Loop:", "lwz r1,0(r2)", "Mid:", "cmpwi r1,0", "beq Loop",
                 "lwz r3,0(r4)"]),
])
def test_loops_that_are_not_spin_loops_are_still_refused_by_name(name, p1):
    program = parse_litmus(_program(name, p1), f"{name}.litmus")
    with pytest.raises(UnsupportedError, match="loop-free code only") as err:
        explore(program, load_model("power"))
    assert err.value.pos is not None and err.value.pos.line > 1
