"""Hostile spin loops on the explorer under power: one that never exits, and loops that are not spin loops."""

from __future__ import annotations

import pytest

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
def test_loops_that_are_not_spin_loops_go_to_the_graph_machine_with_their_bound(name, p1):
    # power's table machine cannot guess a branch in a loop: the execution-graph machine
    # unrolls it (herd's default 2) and says so; nothing writes y, so no run ends
    program = parse_litmus(_program(name, p1), f"{name}.litmus")
    result = explore(program, load_model("power"))
    assert result.states == {} and result.stats["machine"] == "graph"
    assert "explored on the execution-graph machine" in result.warnings[0]
    cut = name in ("counter", "store")  # a counter or a store per iteration: not a spin loop
    assert (result.stats["unroll_cut"] > 0) == cut
    assert any("--unroll 2" in w for w in result.warnings) == cut
