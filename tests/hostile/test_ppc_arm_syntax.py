"""Hostile PPC and ARM inputs: huge numbers, long mnemonics, odd registers, lone store-conditionals,
loops, symbolic registers: a result or a located error, never a traceback."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def ppc(lines: list[str], cond: str = "0:r1=0", init: str = "0:r2=x;") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"PPC h\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


def arm(lines: list[str], cond: str = "0:R1=0", init: str = "0:R2=x;") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"ARM h\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


@pytest.mark.parametrize("text", [
    ppc(["li r1," + "9" * 5000]),                      # a number past 64 bits
    ppc(["lwz r1," + "9" * 30 + "(r2)"]),
    ppc(["lwz" + "x" * 5000 + " r1,0(r2)"]),           # a long mnemonic
    ppc(["stwcx" + "." * 3000 + " r1,r0,r2"]),
    ppc(["lwz r1,0(" * 300 + "r2" + ")" * 300]),       # nested brackets
    ppc(["lwz r32,0(r2)"]), ppc(["lwz r1,0(r99)"]), ppc(["lwz R1,0(r2)"]),
    ppc(["lwz r1,0(r2),r3,r4"]),
    ppc(["\u0440wz r1,0(r2)"]),                         # a Cyrillic letter
    ppc(["lwz r1,0(%" + "a" * 5000 + ")"], init="%" + "a" * 5000 + "=x;"),  # fine, or a located error
    arm(["MOV R1,#" + "9" * 5000]),
    arm(["LDR R1,[" * 300 + "R2" + "]" * 300]),
    arm(["DMB " + "S" * 5000]),
    arm(["LDR R13,[R2]"]), arm(["LDR R1,[R2,#]"]), arm(["MOVNE R1,#1"]), arm(["EORS R1,R1,R1"]),
    arm(["STREX R3,R1"]),
])
def test_bad_cells_are_located_errors_or_results(text):
    try:
        p = parse_litmus(text, "h.litmus")
    except MmdslError as err:
        assert err.pos is not None and err.pos.file == "h.litmus" and err.pos.line in (2, 4)
        return
    assert check(p, load_model("sc")).observation in ("Never", "Sometimes", "Always")


def test_a_thousand_labels_on_one_cell_parse():
    p = parse_litmus(ppc([" ".join(f"L{i}:" for i in range(1000)) + " lwz r1,0(r2)"]), "h.litmus")
    assert len(p.threads[0].instrs) == 1


def test_store_conditionals_without_a_reservation_only_fail():
    p = parse_litmus(ppc(["li r3,1", "stwcx. r3,r0,r2", "beq Ok", "li r5,1", "Ok:"], cond="0:r5=0"), "h.litmus")
    assert check(p, load_model("sc")).observation == "Never"
    p = parse_litmus(arm(["MOV R3,#1", "STREX R5,R3,[R2]"], cond="0:R5=0"), "h.litmus")
    assert check(p, load_model("sc")).observation == "Never"


def test_a_retry_loop_is_refused_by_name_by_the_checker():
    p = parse_litmus(ppc(["L:", "lwarx r1,r0,r2", "addi r1,r1,1", "stwcx. r1,r0,r2", "bne L"]), "h.litmus")
    with pytest.raises(MmdslError, match="has a loop"):
        check(p, load_model("sc"))


def test_many_store_conditionals_stay_bounded():
    """Each stwcx. forks two ways: six lwarx/stwcx. pairs on one thread are still a quick run."""
    lines = []
    for i in range(6):
        lines += ["lwarx r7,r0,r2", "addi r8,r7,1", "stwcx. r8,r0,r2"]
    r = check(parse_litmus(ppc(lines, cond="x=6"), "h.litmus"), load_model("sc"))
    assert r.observation == "Sometimes"


@pytest.mark.parametrize("init, words", [
    ("%a=x; %a=y;", "symbolic register %a"),   # twice: the second binding wins or is refused, never a crash
    ("%a=" + "9" * 40 + ";", "too large"),
    ("%a=&x;", "is given '&x'"),
    ("%a=x; %zz=y;", "symbolic register %zz does not appear in the code"),
])
def test_odd_symbolic_register_inits(init, words):
    text = arm(["LDR R1,[%a]"], init=init)
    try:
        p = parse_litmus(text, "h.litmus")
    except MmdslError as err:
        assert words in err.message and err.pos is not None and err.pos.line == 2
        return
    assert p.threads[0].reg_init["%a"] in ("x", "y")


@pytest.mark.parametrize("cell, words", [
    ("rlwimi r1,r2,4,30,2", "'rlwimi' with MB > ME is not supported"),
    ("rlwimi r1,r2,32,0,31", "'rlwimi' SH must be 0 to 31, not 32"),
    ("rlwimi r1,r2,4,0,-1", "'rlwimi' ME must be 0 to 31, not -1"),
    ("rlwimi r1,r2,4,0", "'rlwimi' takes 5 operands, not 4"),
    ("rlwimi r1,4,4,0,31", "operand 2 of 'rlwimi' must be a register"),
    ("rlwimi. r1,r2,4,0,31", "unsupported PPC instruction 'rlwimi.'"),
])
def test_malformed_rlwimi_is_refused_at_its_place(cell, words):
    with pytest.raises(MmdslError) as caught:
        parse_litmus(ppc([cell]), "h.litmus")
    assert words in caught.value.message and (caught.value.pos.line, caught.value.pos.col) == (4, 2)
