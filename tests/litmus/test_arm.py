"""The ARM (v7) dialect: the instructions of diy's ARM tests lowered as herd reads them; the rest refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.core.program import Assign, BinOp, Branch, Const, Fence, Load, Reg, Store, StoreCond
from mmdsl.litmus import load_litmus, parse_litmus
from mmdsl.litmus.arm import ZFLAG
from mmdsl.litmus.registry import dialect_for

SUITE = Path(__file__).resolve().parents[2] / "litmus" / "arm" / "tests"


def one(lines: list[str], init: str = "0:R2=x; 0:R4=y;", cond: str = "0:R1=0") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"ARM t\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


def instrs(*lines: str, init: str = "0:R2=x; 0:R4=y;"):
    return parse_litmus(one(list(lines), init), "t.litmus").threads[0].instrs


def error(text: str) -> MmdslError:
    with pytest.raises(MmdslError) as info:
        parse_litmus(text, "t.litmus")
    return info.value


def test_every_bundled_arm_test_parses():
    """N of N: the classic shapes, their variants and the hand-written tests."""
    files = sorted(SUITE.rglob("*.litmus"))
    assert len(files) == 151
    for f in files:
        p = load_litmus(f)
        assert p.arch == "ARM" and p.threads and (p.name == f.stem or "herding-cats" in f.parts)
    assert dialect_for("arm").name == "ARM"


def test_loads_and_stores_with_offsets_and_index_registers():
    got = instrs("LDR R1,[R2]", "LDR R1,[R2,#4]", "LDR R1,[R3,R2]", "STR R1,[R4]", "STR R1,[R3,R4]",
                 "ldr r1,[r2]", "LDR R1,R2", "STR R1,[R3,R4,LSL #2]")
    assert got[0] == Load("R1", Reg("R2"))
    assert got[1] == Load("R1", BinOp("add", Reg("R2"), Const(4)))
    assert got[2] == Load("R1", BinOp("add", Reg("R3"), Reg("R2")))
    assert got[3] == Store(Reg("R4"), Reg("R1"))
    assert got[4] == Store(BinOp("add", Reg("R3"), Reg("R4")), Reg("R1"))
    assert got[5] == got[0]  # herd reads mnemonics and registers in any case
    assert got[6] == got[0]  # and a bare register as an address
    assert got[7] == Store(BinOp("add", Reg("R3"), BinOp("shl", Reg("R4"), Const(2))), Reg("R1"))


def test_alu_compare_and_branches_on_the_z_flag():
    text = one(["MOV R1,#1", "MOV R3,R1", "EOR R3,R1,R1", "ADD R3,R3,#1", "ADDS R5,R1,R1", "CMP R1,#0",
                "BEQ L", "CMP R1,R3", "BNE L", "CBZ R1,L", "CBNZ R1,L", "B L", "L:", "ISB"])
    got = parse_litmus(text, "t.litmus").threads[0].instrs
    assert got[0] == Assign("R1", Const(1))
    assert got[1] == Assign("R3", Reg("R1"))
    assert got[2] == Assign("R3", BinOp("xor", Reg("R1"), Reg("R1")))
    assert got[3] == Assign("R3", BinOp("add", Reg("R3"), Const(1)))
    assert got[4] == Assign("R5", BinOp("add", Reg("R1"), Reg("R1")))
    assert got[5] == Assign(ZFLAG, BinOp("eq", Reg("R5"), Const(0)))  # the S form sets Z
    assert got[6] == Assign(ZFLAG, BinOp("eq", Reg("R1"), Const(0)))
    assert got[7] == Branch(BinOp("ne", Reg(ZFLAG), Const(0)), 13)
    assert got[9] == Branch(BinOp("eq", Reg(ZFLAG), Const(0)), 13)
    assert got[10] == Branch(BinOp("eq", Reg("R1"), Const(0)), 13)
    assert got[11] == Branch(BinOp("ne", Reg("R1"), Const(0)), 13)
    assert got[12] == Branch(None, 13)
    assert got[14] == Fence("isb")


@pytest.mark.parametrize("text, kind", [
    ("DMB", "dmb"), ("DMB SY", "dmb"), ("DMB ST", "dmb-st"), ("DMB ISH", "dmb-ish"), ("DMB ISHST", "dmb-ishst"),
    ("DSB", "dsb"), ("DSB ST", "dsb-st"), ("dmb ish", "dmb-ish"), ("ISB", "isb"),
])
def test_barriers_name_their_kinds(text, kind):
    assert instrs(text) == [Fence(kind)]
    written = dialect_for("ARM").fence_text(kind)
    assert instrs(written) == [Fence(kind)]


def test_exclusives():
    got = instrs("LDREX R1,[R2]", "STREX R3,R1,[R2]")
    assert got[0] == Load("R1", Reg("R2"), frozenset({"X", "lr"}))
    assert got[1] == StoreCond("R3", Reg("R2"), Reg("R1"), frozenset({"X", "stcond"}),
                               reservation_dep="addr")


def test_symbolic_registers_as_diy_writes_them():
    p = load_litmus(SUITE / "deps-and-fences" / "WRC+addrs.litmus")
    assert [t.reg_init for t in p.threads] == [{"%x0": "x"}, {"%x1": "x", "%y1": "y"}, {"%y2": "y", "%x2": "x"}]
    assert p.threads[2].instrs[2] == Load("R2", BinOp("add", Reg("R1"), Reg("%x2")))


@pytest.mark.parametrize("cell, words, col", [
    ("LDRD R1,R2,[R3]", "doubleword access 'LDRD' is not supported", 2),
    ("MOV R1,R2,R3", "'MOV' takes 2 operands, not 3", 2),
    ("LDR R1,#2", "must be a memory operand [RN], [RN,#K] or [RN,RM], not '2'", 2),
    ("LDR R1,[R2,LSL #2]", "cannot parse instruction", 8),
    ("DMB XY", "unknown option of 'DMB'", 2),
    ("EOR R1,R2,#1", "'EOR' takes three registers", 2),
    ("LDR R13,[R2]", "operand 1 of 'LDR' must be a register, not 'R13'", 2),
    ("MOV R1,#", "cannot parse instruction", 8),
])
def test_bad_instructions_are_refused_at_their_place(cell, words, col):
    err = error(one([cell]))
    assert words in err.message
    assert (err.pos.file, err.pos.line, err.pos.col) == ("t.litmus", 4, col)


def test_eors_is_refused_because_herd_reads_it_as_eor():
    """herd7's ARM lexer maps EORS to EOR, flags untouched: the branch after it reads the old Z."""
    err = error(one(["EORS R3,R1,R1"]))
    assert isinstance(err, UnsupportedError)
    assert "'EORS' is not supported: herd7 reads it as EOR" in err.message and (err.pos.line, err.pos.col) == (4, 2)


def test_andeq_of_one_register_is_herds_no_op():
    assert instrs("ANDEQ R1,R1,R1", "MOV R1,#1") == [Assign("R1", Const(1))]
    assert isinstance(error(one(["ANDEQ R1,R2,R1"])), UnsupportedError)


def test_conditional_execution_is_refused_by_name():
    err = error(one(["MOVNE R1,#1"]))
    assert isinstance(err, UnsupportedError)
    assert "conditionally executed ARM instruction 'MOVNE' is not supported" in err.message
    assert (err.pos.line, err.pos.col) == (4, 2)


def test_a_predicated_store_is_refused_and_the_branch_around_it_gives_herds_output():
    """herd7 allows LB with STRNE (no control dependency) and forbids it with a branch around
    STR: mmdsl reads the second as herd does and refuses the first rather than read it so."""
    from mmdsl.axiomatic import check
    from mmdsl.explorer import explore
    from mmdsl.lang import load_model
    from mmdsl.render.herd_text import herd_block

    from refdata import outcome

    data = Path(__file__).parent / "data" / "arm-predicated"
    assert "Observation LBr Sometimes" in (data / "LBr.litmus.expected").read_text()
    with pytest.raises(UnsupportedError) as caught:
        load_litmus(data / "LBr.litmus")
    assert "'STRNE'" in caught.value.message and "no control dependency" in caught.value.hint
    want = outcome((data / "LBs.litmus.expected").read_text())
    for run in (check, explore):
        got = outcome(herd_block(run(load_litmus(data / "LBs.litmus"), load_model("armv7")), show_time=False))
        assert got[:2] == want[:2] and got[3] == want[3], run
