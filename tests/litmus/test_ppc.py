"""The PPC dialect: the instructions of diy's Power tests lowered as herd reads them; the rest refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import LitmusError, MmdslError
from mmdsl.core.program import Assign, BinOp, Branch, Const, Fence, Load, Reg, Store, StoreCond, UnOp
from mmdsl.litmus import load_litmus, parse_litmus
from mmdsl.litmus.ppc import CR0, compare
from mmdsl.litmus.registry import dialect_for

SUITE = Path(__file__).resolve().parents[2] / "litmus" / "ppc" / "tests"


def one(lines: list[str], init: str = "0:r2=x; 0:r4=y;", cond: str = "0:r1=0") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"PPC t\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


def instrs(*lines: str, init: str = "0:r2=x; 0:r4=y;"):
    return parse_litmus(one(list(lines), init), "t.litmus").threads[0].instrs


def error(text: str) -> MmdslError:
    with pytest.raises(MmdslError) as info:
        parse_litmus(text, "t.litmus")
    return info.value


def test_the_registry_knows_ppc():
    assert dialect_for("PPC").name == "PPC"
    assert dialect_for("ppc").name == "PPC"


def test_every_bundled_ppc_test_parses():
    """N of N: the 540 diy7 tests, the classic shapes, their variants and the hand-written tests."""
    files = sorted(SUITE.rglob("*.litmus"))
    assert len(files) == 656
    for f in files:
        p = load_litmus(f)
        assert p.arch == "PPC" and p.threads and (p.name == f.stem or "herding-cats" in f.parts)


def test_loads_and_stores_displacement_and_indexed():
    got = instrs("lwz r1,0(r2)", "ld r1,8(r2)", "stw r1,0(r4)", "std r1,0(r4)", "lwzx r5,r3,r2",
                 "stwx r5,r3,r4", "ldx r5,r0,r2", "stdx r5,r0,r4")
    assert got[0] == Load("r1", Reg("r2"))
    assert got[1] == Load("r1", BinOp("add", Reg("r2"), Const(8)))
    assert got[2] == Store(Reg("r4"), Reg("r1"))
    assert got[3] == Store(Reg("r4"), Reg("r1"))
    assert got[4] == Load("r5", BinOp("add", Reg("r3"), Reg("r2")))
    assert got[5] == Store(BinOp("add", Reg("r3"), Reg("r4")), Reg("r5"))
    # r0 as RA of an indexed access reads 0 (Power ISA; herd's read_reg_or_zero)
    assert got[6] == Load("r5", BinOp("add", Const(0), Reg("r2")))
    assert got[7] == Store(BinOp("add", Const(0), Reg("r4")), Reg("r5"))


def test_alu_idioms_of_dependencies():
    got = instrs("li r1,1", "mr r3,r1", "xor r3,r1,r1", "addi r3,r3,1", "addi r6,r0,7", "or r3,r1,r5",
                 "and r3,r1,r5", "add r3,r1,r5", "subf r3,r1,r5", "xori r3,r3,2", "xor. r3,r1,r1")
    assert got[0] == Assign("r1", Const(1))
    assert got[1] == Assign("r3", Reg("r1"))
    assert got[2] == Assign("r3", BinOp("xor", Reg("r1"), Reg("r1")))
    assert got[3] == Assign("r3", BinOp("add", Reg("r3"), Const(1)))
    assert got[4] == Assign("r6", BinOp("add", Const(0), Const(7)))  # addi from r0 is li
    assert got[5] == Assign("r3", BinOp("or", Reg("r1"), Reg("r5")))
    assert got[8] == Assign("r3", BinOp("sub", Reg("r5"), Reg("r1")))  # subtract from
    assert got[10] == Assign("r3", BinOp("xor", Reg("r1"), Reg("r1")))
    assert got[11] == Assign(CR0, compare(Reg("r3"), Const(0)))  # the dot form sets cr0


def test_compare_and_branches_on_cr0():
    text = one(["cmpw r1,r1", "beq L", "cmpwi r1,2", "bne L", "cmpw cr0,r1,r3", "blt L", "b L", "L:", "isync"])
    got = parse_litmus(text, "t.litmus").threads[0].instrs
    assert got[0] == Assign(CR0, compare(Reg("r1"), Reg("r1")))
    assert got[1] == Branch(BinOp("eq", Reg(CR0), Const(0)), 7)
    assert got[2] == Assign(CR0, compare(Reg("r1"), Const(2)))
    assert got[3] == Branch(BinOp("ne", Reg(CR0), Const(0)), 7)
    assert got[4] == Assign(CR0, compare(Reg("r1"), Reg("r3")))
    assert got[5] == Branch(BinOp("lt", Reg(CR0), Const(0)), 7)
    assert got[6] == Branch(None, 7)
    assert got[8] == Fence("isync")


def test_herds_other_spellings():
    got = instrs("lwz r1,4,r2", "stw r1,0,r4", "hwsync", "subi r3,r0,2", "lis r5,1", "divw r3,r1,r5", "bnl L",
                 "bng L", "L:")
    assert got[0] == Load("r1", BinOp("add", Reg("r2"), Const(4)))
    assert got[1] == Store(Reg("r4"), Reg("r1"))
    assert got[2] == Fence("sync")
    assert got[3] == Assign("r3", BinOp("sub", Const(0), Const(2)))
    assert got[4] == Assign("r5", Const(65536))
    assert got[5] == Assign("r3", UnOp("sext32", BinOp("div0", UnOp("sext32", Reg("r1")), UnOp("sext32", Reg("r5")))))
    assert got[6] == Branch(BinOp("ge", Reg(CR0), Const(0)), 8)
    assert got[7] == Branch(BinOp("le", Reg(CR0), Const(0)), 8)


def test_fences_and_reservations():
    got = instrs("sync", "lwsync", "eieio", "isync", "lwarx r1,r0,r2", "stwcx. r3,r0,r2")
    assert [i.kind for i in got[:4]] == ["sync", "lwsync", "eieio", "isync"]
    assert got[4] == Load("r1", BinOp("add", Const(0), Reg("r2")), frozenset({"X", "lr"}))
    # cr0 is 0 (eq) after a successful stwcx., so beq means success and bne failure
    assert got[5] == StoreCond(CR0, BinOp("add", Const(0), Reg("r2")), Reg("r3"), frozenset({"X", "stcond"}),
                               reservation_dep="data")
    assert dialect_for("PPC").fence_text("lwsync") == "lwsync"


def test_symbolic_registers_bind_to_the_thread_that_names_them():
    text = "PPC t\n{ %a0=x; %a1=y; x=3; }\n P0 | P1 ;\n lwz r1,0(%a0) | stw r1,0(%a1) ;\nexists (0:r1=3)\n"
    p = parse_litmus(text, "t.litmus")
    assert p.threads[0].reg_init == {"%a0": "x"} and p.threads[1].reg_init == {"%a1": "y"}
    assert p.init["x"] == 3


def test_an_ambiguous_or_unused_symbolic_register_is_an_error_at_its_place():
    err = error("PPC t\n{ %a=x; }\n P0 | P1 ;\n lwz r1,0(%a) | lwz r1,0(%a) ;\nexists (0:r1=3)\n")
    assert "ambiguous symbolic register %a" in err.message and (err.pos.line, err.pos.col) == (2, 3)
    err = error("PPC t\n{ 0:r2=x;\n %b=x; }\n P0 ;\n lwz r1,0(r2) ;\nexists (0:r1=3)\n")
    assert "symbolic register %b does not appear in the code" in err.message and err.pos.line == 3


@pytest.mark.parametrize("cell, words, col", [
    ("mfcrf r6", "unsupported PPC instruction 'mfcrf'", 2),
    ("rlwinm r1,r2,32,0,31", "'rlwinm' SH must be 0 to 31, not 32", 2),
    ("lwz r1,0(r2", "cannot parse instruction 'lwz r1,0(r2' (at '(r2')", 10),
    ("lwz r32,0(r2)", "operand 1 of 'lwz' must be a register, not 'r32'", 2),
    ("stw r1,r2", "operand 2 of 'stw' must be a memory operand D(RA), not 'r2'", 2),
    ("li 1,r1", "operand 1 of 'li' must be a register, not '1'", 2),
    ("cmpw cr8,r1,r2", "operand 1 of 'cmpw' must be a condition register field", 2),
    ("beq cr9,L0", "operand 1 of 'beq' must be a condition register field", 2),
    ("sync r1", "'sync' takes 0 operands, not 1", 2),
])
def test_bad_instructions_are_refused_at_their_place(cell, words, col):
    err = error(one([cell]))
    assert words in err.message
    assert (err.pos.file, err.pos.line, err.pos.col) == ("t.litmus", 4, col)
    assert isinstance(err, (LitmusError, MmdslError))


def _run(cells: list[str], regs: str) -> set:
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model

    body = "\n".join(f" {c} ;" for c in cells)
    p = parse_litmus(f"PPC t\n{{ 0:r9=x; }}\n P0 ;\n{body}\nlocations [{regs}]\nexists (0:r0=0)\n", "t.litmus")
    return {s.text().replace("0:r0=0; ", "").strip() for s in check(p, load_model("sc"), collect="none").state_set()}


def test_condition_register_fields_mfcr_and_rlwinm_follow_the_power_isa():
    """Power ISA: cmpw crN sets field N's LT, GT or EQ bit (8, 4, 2 in its nibble), field 0 in
    bits 32-35 of mfcr's result (the top nibble of the low word); rlwinm rotates the low word
    left and keeps bits MB to ME (bit 0 the most significant, MB > ME wrapping)."""
    assert _run(["li r1,1", "li r2,2", "cmpw cr1,r1,r2", "cmpwi r2,2", "cmpw cr7,r2,r1", "mfcr r3"], "0:r3;") == \
        {"0:r3=" + str(0x2 << 28 | 0x8 << 24 | 0x4) + ";"}
    assert _run(["li r1,1", "li r2,2", "cmpw cr2,r2,r1", "bgt cr2,L0", "li r4,7", "L0:", "blt cr2,L1", "li r5,9",
                 "L1:"], "0:r4;0:r5;") == {"0:r4=0; 0:r5=9;"}
    assert _run(["li r4,-1", "rlwinm r3,r4,4,30,31", "rlwinm r5,r4,16,0,15", "li r6,0x12345678",
                 "rlwinm r7,r6,8,0,31", "rlwinm r8,r6,0,28,3"], "0:r3;0:r5;0:r7;0:r8;") == \
        {f"0:r3=3; 0:r5={0xffff0000}; 0:r7={0x34567812}; 0:r8={0x10000008};"}
    assert _run(["li r1,-1", "li r2,1", "cmplw r1,r2", "mfcr r3"], "0:r3;") == {"0:r3=" + str(0x4 << 28) + ";"}


def test_mfcr_after_a_branch_sees_the_fields_of_its_path():
    assert _run(["li r1,1", "cmpwi r1,0", "beq L0", "cmpwi cr3,r1,1", "L0:", "mfcr r3", "beq cr3,L1", "li r3,5",
                 "L1:"], "0:r3;") == {"0:r3=" + str(0x4 << 28 | 0x2 << 16) + ";"}
    assert _run(["li r1,0", "cmpwi r1,0", "beq L0", "cmpwi cr3,r1,1", "L0:", "mfcr r3", "beq cr3,L1", "li r3,5",
                 "L1:"], "0:r3;") == {"0:r3=5;"}  # cr3 never set: its EQ bit is clear, as herd's initial cr


def test_mfcr_beside_a_store_conditional_is_refused_by_name():
    err = error(one(["stwcx. r1,r0,r2", "mfcr r3"]))
    assert "'mfcr' in a thread with 'stwcx.'" in err.message


def test_branch_to_an_unknown_label_is_located():
    err = error(one(["beq Nowhere"]))
    assert "branch to unknown label 'Nowhere'" in err.message and err.pos.line == 4


def test_herds_header_texname_and_proc_names_in_the_init_block():
    """herd's catalogue writes `PPC co4 (CoFour)` and `P0:r5=x`: both read as herd reads them."""
    text = ("PPC CoWR (CoFour)\n\"doc\"\n{\nP0:r5=x ;\nP1:r5=x ;\n}\n P0 | P1 ;\n"
            " li r1,1 | li r1,2 ;\n stw r1,0(r5) | stw r1,0(r5) ;\n lwz r2,0(r5) | ;\n"
            "exists (P0:r2=2 /\\ x=1)\n")
    p = parse_litmus(text, "t.litmus")
    assert p.name == "CoWR" and p.doc == "doc"
    assert [t.reg_init for t in p.threads] == [{"r5": "x"}, {"r5": "x"}]
    assert ("reg", 0, "r2") in p.condition.keys()


@pytest.mark.parametrize("name", ["A010", "A011", "A013", "R001", "R002"])
def test_herds_own_instruction_tests_give_herds_output(name):
    """herd's PPC instruction tests for cmplwi and rlwinm, and mmdsl's for rlwimi with herd7's
    output (tests/litmus/data/ppc-instructions)."""
    from pathlib import Path

    from refdata import outcome

    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus
    from mmdsl.render.herd_text import herd_block

    path = Path(__file__).parent / "data" / "ppc-instructions" / f"{name}.litmus"
    got = outcome(herd_block(check(load_litmus(path), load_model("power")), show_time=False))
    assert got == outcome(Path(f"{path}.expected").read_text())


@pytest.mark.parametrize("name", ["R001", "R002"])
def test_rlwimi_tests_give_herds_final_states_on_the_explorer_too(name):
    """The agreement invariant on the rlwimi tests: the explorer's final states are herd7's."""
    from pathlib import Path

    from mmdsl.explorer import explore
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus
    from mmdsl.render.herd_text import herd_block

    from refdata import outcome

    path = Path(__file__).parent / "data" / "ppc-instructions" / f"{name}.litmus"
    got = outcome(herd_block(explore(load_litmus(path), load_model("power")), show_time=False))
    assert got[:2] == outcome(Path(f"{path}.expected").read_text())[:2]
