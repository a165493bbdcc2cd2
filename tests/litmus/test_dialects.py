"""Every reference test parses; each dialect lowers its instructions to the core IR faithfully."""

from __future__ import annotations

import pytest
from refdata import REFERENCE, x86_corpus

from mmdsl.core.program import Assign, Branch, Const, Fence, Load, Reg, Rmw, Store
from mmdsl.litmus import load_litmus, parse_litmus


def test_whole_x86_corpus_parses():
    rows = x86_corpus()
    assert len(rows) == 2595
    for r in rows:
        p = load_litmus(r["file"])
        assert p.name == r["test"], r["path"]
        assert p.arch == "X86_64" and p.threads


@pytest.mark.parametrize("dialect", ["LISA", "X86"])
def test_classic_reference_tests_parse(dialect):
    files = sorted((REFERENCE / "classic" / dialect).glob("*.litmus"))
    assert len(files) >= 17
    for f in files:
        p = load_litmus(f)
        assert p.arch == dialect and p.name == f.stem


def test_lisa_instructions_and_dependency_idioms():
    p = parse_litmus("""LISA deps
{ 0:r9=z; }
 P0                  | P1 ;
 r[acq] r0 x         | w[rel] x 1 ;
 mov r1 (xor r0 r0)  | f[mb] ;
 r[] r2 y+r1         | rmw[] r3 (add r3 2) y ;
 w[] r9 r2           | rmw[] r4 7 x ;
 b[] r2 L0           | ;
 w[] x 2             | ;
 L0:                 | ;
exists (0:r2=1 /\\ 1:r3=0)
""", "deps.litmus")
    t0, t1 = p.threads
    assert t0.reg_init == {"r9": "z"}
    assert isinstance(t0.instrs[0], Load) and t0.instrs[0].annots == {"acq"}
    assert t0.instrs[1] == Assign("r1", t0.instrs[1].expr) and t0.instrs[1].expr.op == "xor"
    assert t0.instrs[2].addr.op == "add" and t0.instrs[2].addr.left == Const("y")
    assert isinstance(t0.instrs[3], Store) and t0.instrs[3].addr == Reg("r9")
    assert isinstance(t0.instrs[4], Branch) and t0.instrs[4].target == 6
    assert isinstance(t1.instrs[1], Fence) and t1.instrs[1].kind == "mb"
    fetch_add, xchg = t1.instrs[2], t1.instrs[3]
    assert isinstance(fetch_add, Rmw) and fetch_add.new.op == "add" and fetch_add.new.left == Reg("%old")
    assert isinstance(xchg, Rmw) and xchg.new == Const(7)
    assert t0.instrs[0].pos.line == 4 and t0.instrs[0].pos.col == 2
    assert t1.instrs[0].pos.col == 24


def test_x86_intel_and_att_forms_lower_alike():
    intel = parse_litmus("""X86 t
{ x=0; }
 P0          | P1            ;
 MOV [x],$1  | MOV EAX,[x]   ;
 MFENCE      | XCHG [y],EBX  ;
 LOCK ADD [z],$2 | MOV [y],EAX ;
exists (1:EAX=1)
""", "t.litmus")
    att = parse_litmus("""X86_64 t
{ x=0; }
 P0          | P1            ;
 movq $1,(x) | movq (x),%rax ;
 mfence      | xchgq %rbx,(y) ;
 lock addq $2,(z) | movq %rax,(y) ;
exists (1:rax=1)
""", "t.litmus")
    for a, b in zip(intel.threads, att.threads):
        assert [type(i) for i in a.instrs] == [type(i) for i in b.instrs]
    assert att.condition.keys() == [("reg", 1, "rax")]
    assert att.threads[1].instrs[0].dst == "rax"
    assert intel.threads[0].instrs[2].annots == {"atomic"}


CMPXCHG_THEN_JE = """X86 cas
{ x=INIT; 0:EBX=5; }
 P0                   ;
 MOV EAX,$0           ;
 LOCK CMPXCHG [x],EBX ;
 JE L0                ;
 MOV ECX,$1           ;
 L0:                  ;
locations [x; 0:EAX;]
exists (0:ECX=1)
"""


@pytest.mark.parametrize("init, state", [
    # Intel SDM, CMPXCHG: if EAX = [x] then ZF := 1, [x] := EBX, else ZF := 0, EAX := [x]
    (0, "0:EAX=0; 0:ECX=0; x=5;"),  # equal: the swap happens and JE jumps over MOV ECX
    (1, "0:EAX=1; 0:ECX=1; x=1;"),  # different: no swap, ZF clear, JE falls through
])
def test_cmpxchg_sets_the_zero_flag_je_reads(init, state):
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model

    result = check(parse_litmus(CMPXCHG_THEN_JE.replace("INIT", str(init)), "cas.litmus"), load_model("sc"))
    assert {s.text() for s in result.states} == {state}


ARITHMETIC_THEN_JE = """X86 dec
{ x=INIT; 0:EBX=INIT; }
 P0             ;
 LOCK DEC [x]   ;
 JE L0          ;
 MOV EAX,$1     ;
 L0:            ;
 SUB EBX,$1     ;
 JNE L1         ;
 MOV ECX,$1     ;
 L1:            ;
locations [0:ECX;]
exists (0:EAX=1)
"""


@pytest.mark.parametrize("init, state", [
    # herd (X86Sem: write_zf v_result 0) and Intel's manual: arithmetic sets ZF when the result is 0
    (1, "0:EAX=0; 0:ECX=1;"),  # 1-1 = 0: JE jumps, JNE falls through
    (2, "0:EAX=1; 0:ECX=0;"),  # 2-1 = 1: JE falls through, JNE jumps
])
def test_arithmetic_sets_the_zero_flag(init, state):
    from mmdsl.axiomatic import check
    from mmdsl.explorer import explore
    from mmdsl.lang import load_model

    program = parse_litmus(ARITHMETIC_THEN_JE.replace("INIT", str(init)), "dec.litmus")
    for run in (check, explore):
        assert {s.text() for s in run(program, load_model("sc")).states} == {state}, run
