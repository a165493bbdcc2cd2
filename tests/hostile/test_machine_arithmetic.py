"""Every dialect's arithmetic is machine arithmetic: 64-bit words that wrap, 32-bit forms cut and extended, and division by zero as each ISA (or C) says (issue 27, item 2).

herd7 7.58 fails on several of these files (it reads neither RISC-V div/rem nor AArch64 SDIV,
and dies with Division_by_zero on a PPC divw by zero),
so each expectation is the ISA manual's rule, cited beside it, computed in Python below
and checked against mmdsl on edge values (INT64_MIN/MAX, the INT32 boundaries, 0, -1)
and on values hypothesis draws.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1
EDGES = [INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, INT32_MIN, INT32_MAX, INT32_MIN - 1, INT32_MAX + 1,
         2 ** 32 - 1, 2 ** 32, 0, 1, -1, 2, -2]
words = st.one_of(st.sampled_from(EDGES), st.integers(INT64_MIN, INT64_MAX))


def wrap(v: int, bits: int = 64) -> int:
    """Two's complement: the low ``bits`` bits of v, read as a signed number."""
    half = 1 << (bits - 1)
    return ((v + half) % (1 << bits)) - half


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rv_div(a, b, bits=64):
    # RISC-V unprivileged ISA, M extension, "Division by zero and overflow" table:
    # x/0 = -1 (all bits set), x%0 = x; INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0
    a, b = wrap(a, bits), wrap(b, bits)
    return -1 if b == 0 else wrap(trunc_div(a, b), bits)


def rv_rem(a, b, bits=64):
    a, b = wrap(a, bits), wrap(b, bits)
    return a if b == 0 else wrap(a - b * trunc_div(a, b), bits)


def a64_sdiv(a, b, bits=64):
    # Arm ARM, SDIV: "if the divisor is zero the result is zero"; the quotient rounds toward zero
    a, b = wrap(a, bits), wrap(b, bits)
    return 0 if b == 0 else wrap(trunc_div(a, b), bits)


# dialect -> (test text with {a}, {b} and {want}, the result register, [(operation, the
# ISA's result)])
CASES = {
    # RV64I: ADD/SUB/MUL wrap to XLEN=64 bits ("overflows are ignored and the low XLEN bits
    # of results are written"); the *W forms compute on 32 bits and sign-extend the result
    "RISCV": ("RISCV t\n{{ 0:x5={a}; 0:x6={b}; }}\n P0 ;\n {op} x7,x5,x6 ;\nexists (0:x7={want})\n", [
        ("add", lambda a, b: wrap(a + b)), ("sub", lambda a, b: wrap(a - b)), ("mul", lambda a, b: wrap(a * b)),
        ("addw", lambda a, b: wrap(a + b, 32)), ("subw", lambda a, b: wrap(a - b, 32)),
        ("mulw", lambda a, b: wrap(a * b, 32)),
        ("div", rv_div), ("rem", rv_rem),
        ("divw", lambda a, b: rv_div(a, b, 32)), ("remw", lambda a, b: rv_rem(a, b, 32)),
    ]),
    # Arm ARM A64: ADD/SUB (X) are 64-bit and wrap; SDIV by zero is zero. A W result is the
    # low 32 bits; herd7 (and mmdsl) hold it sign-extended, which the condition reads
    "AArch64": ("AArch64 t\n{{ 0:X5={a}; 0:X6={b}; }}\n P0 ;\n {op} ;\nexists (0:X7={want})\n", [
        ("ADD X7,X5,X6", lambda a, b: wrap(a + b)), ("SUB X7,X5,X6", lambda a, b: wrap(a - b)),
        ("ADD W7,W5,W6", lambda a, b: wrap(a + b, 32)), ("SUB W7,W5,W6", lambda a, b: wrap(a - b, 32)),
        ("SDIV X7,X5,X6", a64_sdiv), ("SDIV W7,W5,W6", lambda a, b: a64_sdiv(a, b, 32)),
    ]),
    # Power ISA: add and subf are 64-bit, modulo 2^64; divw divides the low words (its high
    # word and a zero divisor's result are undefined: mmdsl sign-extends and gives 0)
    "PPC": ("PPC t\n{{ 0:r5={a}; 0:r6={b}; }}\n P0 ;\n {op} r7,r5,r6 ;\nexists (0:r7={want})\n", [
        ("add", lambda a, b: wrap(a + b)), ("subf", lambda a, b: wrap(b - a)),
        ("divw", lambda a, b: 0 if wrap(b, 32) == 0 else wrap(trunc_div(wrap(a, 32), wrap(b, 32)), 32)),
    ]),
    # x86-64 (Intel SDM vol. 1, 3.4.1.1): a 64-bit operation wraps; a 32-bit one writes its
    # 32-bit result zero-extended into the 64-bit register
    "X86_64": ("X86_64 t\n{{ 0:rax={a}; 0:rbx={b}; }}\n P0 ;\n {op} ;\nexists (0:rax={want})\n", [
        ("addq %rbx,%rax", lambda a, b: wrap(a + b)), ("subq %rbx,%rax", lambda a, b: wrap(a - b)),
        ("addl %ebx,%eax", lambda a, b: (a + b) % 2 ** 32), ("subl %ebx,%eax", lambda a, b: (a - b) % 2 ** 32),
    ]),
    # LISA (herd's generic language): values are the machine's 64-bit words
    "LISA": ("LISA t\n{{ 0:r5={a}; 0:r6={b}; }}\n P0 ;\n mov r7 ({op} r5 r6) ;\nexists (0:r7={want})\n", [
        ("add", lambda a, b: wrap(a + b)), ("sub", lambda a, b: wrap(a - b)),
    ]),
}
SC = load_model("sc")


def result_is(dialect: str, op: str, a: int, b: int, want: int) -> bool:
    text, _ = CASES[dialect]
    result = check(parse_litmus(text.format(a=a, b=b, op=op, want=want), "t.litmus"), SC)
    return result.positive > 0 and result.negative == 0


PAIRS = [(d, op, fn) for d, (_, ops) in sorted(CASES.items()) for op, fn in ops]


@pytest.mark.parametrize("dialect, op, fn", PAIRS, ids=[f"{d}-{op}" for d, op, _ in PAIRS])
def test_edge_values_give_the_isas_result(dialect, op, fn):
    wrong = [(a, b) for a in EDGES for b in (INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, 0, -1, 1)
             if not result_is(dialect, op, a, b, fn(a, b))]
    assert wrong == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(PAIRS), a=words, b=words)
def test_drawn_values_give_the_isas_result(case, a, b):
    dialect, op, fn = case
    assert result_is(dialect, op, a, b, fn(a, b)), (dialect, op, a, b)


def test_the_issues_x86_64_file_wraps():
    text = ("X86_64 t\n{ }\n P0 ;\n movq $-9223372036854775808,%rax ;\n subq $1,%rax ;\n movq %rax,(x) ;\n"
            "exists (x=9223372036854775807)\n")
    assert check(parse_litmus(text, "t.litmus"), SC).positive == 1


def test_riscv_addiw_sign_extends_its_32_bit_sum():
    # RV64I ADDIW: "the result is truncated to 32 bits and sign-extended to 64 bits"
    text = "RISCV t\n{ 0:x5=2147483647; }\n P0 ;\n addiw x7,x5,1 ;\nexists (0:x7=-2147483648)\n"
    assert check(parse_litmus(text, "t.litmus"), SC).positive == 1


@pytest.mark.parametrize("expr", ["5 / r0", "5 % r0"])
def test_c_division_by_zero_is_undefined_and_refused_at_its_place(expr):
    text = f"C t\n{{ }}\nP0 (int *x) {{ int r0 = 0; int r1 = {expr}; *x = r1; }}\nexists (x=0)\n"
    with pytest.raises(UnsupportedError, match="by zero: undefined behaviour in C") as err:
        check(parse_litmus(text, "t.litmus"), SC)
    assert "instruction 2" in str(err.value) or err.value.pos is not None


def test_aarch64_w_results_are_held_as_herd7_holds_them():
    # herd7 7.58, herd7 -model aarch64.cat on this file: States 1,
    # 0:X4=-2147483648; 0:X5=-2147483648; 0:X8=0; [x]=-1; (a W result sign-extended)
    text = ("AArch64 W3\n{ 0:X2=x; 0:X3=2147483647; }\n P0 ;\n MOV W1,#0 ;\n SUB W0,W1,#1 ;\n ADD X8,X0,#1 ;\n"
            " ADD W4,W3,#1 ;\n ADD X5,X4,#0 ;\n STR X0,[X2] ;\n"
            "exists (0:X8=0 /\\ 0:X4=-2147483648 /\\ 0:X5=-2147483648 /\\ x=-1)\n")
    result = check(parse_litmus(text, "t.litmus"), SC)
    assert (len(result.states), result.positive, result.negative) == (1, 1, 0)
