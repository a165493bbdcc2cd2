"""Hostile RISC-V programs on the explorer: lr/sc retry loops, many lr/sc, sc without lr -- a result or a named error."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

RETRY = """RISCV lrsc-loop
{ 0:x5=x; 1:x5=x; }
 P0               | P1               ;
 L0:              | L1:              ;
 lr.w x6,0(x5)    | lr.w x6,0(x5)    ;
 addi x6,x6,1     | addi x6,x6,1     ;
 sc.w x7,x6,0(x5) | sc.w x7,x6,0(x5) ;
 bnez x7,L0       | bnez x7,L1       ;
exists (x=1)
"""


@pytest.mark.parametrize("model, words", [
    # a failing sc's status is known at once, so the loop may issue lr after lr: the pending bound
    ("sc", "would exceed 16 operations"),
    ("tso", "would exceed 16 operations"),
])
def test_an_lr_sc_retry_loop_is_a_named_error(model, words):
    with pytest.raises(MmdslError, match=words):
        explore(parse_litmus(RETRY, "lrsc-loop.litmus"), load_model(model))


def test_an_lr_sc_retry_loop_under_riscv_gives_herds_verdict():
    # RVWMO lets loads pass a branch, which the table machine guesses in loop-free code only:
    # the execution-graph machine runs the loop, a failed sc's retry blocked as a spin
    # iteration; herd7 -model riscv.cat: States 1 [x]=2; Never (an atomic increment)
    result = explore(parse_litmus(RETRY, "lrsc-loop.litmus"), load_model("riscv"))
    assert sorted(s.text() for s in result.states) == ["x=2;"]
    assert result.positive == 0 and result.stats["machine"] == "graph" and result.stats["duplicates"] == 0
    assert result.stats["unroll_cut"] == 0  # no iteration cut: the verdict is not bounded


def test_many_lr_sc_pairs_and_lone_scs_agree():
    lines = []
    for k in range(6):
        lines += ["lr.w x6,0(x5)", f"sc.w x{7 + k},x6,0(x5)", f"sc.w x{13 + k},x6,0(x5)"]  # the 2nd sc only fails
    body = "\n".join(f" {a:<20} | sc.w x7,x6,0(x5) ;" if i == 0 else f" {a:<20} |                  ;"
                     for i, a in enumerate(lines))
    text = ("RISCV many\n{ 0:x5=x; 1:x5=x; 1:x6=2; }\n P0                   | P1               ;\n"
            + body + "\nexists (x=2 /\\ 0:x7=0)\n")
    program = parse_litmus(text, "many.litmus")
    for model in ("riscv", "sc"):
        m = load_model(model)
        assert explore(program, m).state_set() == check(program, m, collect="none").state_set()
