"""Malformed tests: one clear error with file:line:col and what was expected, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from refdata import REFERENCE, ROOT

from mmdsl.core.errors import LitmusError, MmdslError, UnsupportedError
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

GOOD = """X86 SB
"doc"
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\\ 1:EAX=0)
"""

# (replace this, by that) -> (error class, line, col, message fragment)
CASES = {
    "header": (("X86 SB\n", "\n\n"), LitmusError, 3, 1, "malformed header"),
    "arch": (("X86 SB", "ARMv9 SB"), UnsupportedError, 1, 1, "architecture 'ARMv9' is not supported"),
    "unclosed-init": (("{ x=0; y=0; }", "{ x=0; y=0;"), LitmusError, 3, 1, "init block is never closed"),
    "init-item": (("{ x=0; y=0; }", "{ x=0; y=; }"), LitmusError, 3, 9, "malformed init block"),
    "instruction": (("MOV EAX,[y] |", "MOVE EAX,[y] |"), LitmusError, 6, 2, "unsupported x86 instruction 'MOVE'"),
    "operand": (("MOV EAX,[y] |", "MOV EAX,[y |"), LitmusError, 6, 9, "cannot parse instruction"),
    "thread-name": (("P0          | P1", "P0          | P2"), LitmusError, 4, 16, "thread column 1 is named 'P2'"),
    "row-cells": ((" MOV [x],$1  | MOV [y],$1  ;", " MOV [x],$1  ;"), LitmusError, 5, 2, "this row has 1 cells"),
    "condition": (("0:EAX=0 /\\ 1:EAX=0", "0:EAX=0 /\\"), LitmusError, 7, 17, "malformed final condition"),
    "condition-thread": (("1:EAX=0)", "2:EAX=0)"), LitmusError, 7, 1, "register EAX of thread 2"),
    "comment": (("\"doc\"", "\"doc\" (* never closed"), LitmusError, 2, 7, "comment '(*' is never closed"),
    "row-end": (("MOV EAX,[x] ;\n", "MOV EAX,[x]\n"), LitmusError, 6, 2, "does not end with ';'"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_litmus_error(case):
    (old, new), cls, line, col, fragment = CASES[case]
    assert old in GOOD
    with pytest.raises(cls) as info:
        parse_litmus(GOOD.replace(old, new, 1), "t.litmus")
    err = info.value
    assert fragment in str(err), str(err)
    assert (err.pos.line, err.pos.col) == (line, col), str(err)
    assert str(err).startswith(f"t.litmus:{line}:{col}:")


HUGE = "9" * 5000  # beyond Python's 4300-digit int() limit too


@pytest.mark.parametrize("text, line, col", [
    (f"LISA t\n{{ x = {HUGE}; }}\n P0 ;\n r[] r0 x ;\nexists (0:r0=1)\n", 2, 7),
    (f"LISA t\n{{ }}\n P0 ;\n w[] x {HUGE} ;\nexists (x=1)\n", 4, 8),
    (f"LISA t\n{{ }}\n P0 ;\n w[] x 1 ;\nexists (x={HUGE})\n", 5, 11),
    (f"X86 t\n{{ }}\n P0 ;\n MOV [x],${HUGE} ;\nexists (x=1)\n", 4, 11),
    (f"X86_64 t\n{{ }}\n P0 ;\n movq ${HUGE},(x) ;\nexists (x=1)\n", 4, 8),
    (f"C t\n{{ }}\nP0(int *x) {{ *x = {HUGE}; }}\nexists (x=1)\n", 3, 19),
    ("LISA t\n{ x = 18446744073709551616; }\n P0 ;\n r[] r0 x ;\nexists (0:r0=1)\n", 2, 7),  # 2^64
])
def test_integer_literals_wider_than_64_bits_are_refused_where_they_are(text, line, col):
    with pytest.raises(LitmusError, match="integer literal .* is too large") as info:
        parse_litmus(text, "t.litmus")
    assert (info.value.pos.line, info.value.pos.col) == (line, col)


def test_64_bit_literals_and_leading_zeros_are_fine():
    # the largest unsigned 64-bit value in either syntax; herd reads 010 as ten
    ok = parse_litmus("X86 t\n{ x = 0xffffffffffffffff; }\n P0 ;\n MOV EAX,[x+010] ;\n"
                      "exists (0:EAX=18446744073709551615)\n", "t.litmus")
    assert ok.init["x"] == 2 ** 64 - 1
    assert str(ok.threads[0].instrs[0].addr) == "(x + 10)"
    att = parse_litmus("X86_64 t\n{ }\n P0 ;\n movq 08(%rax),%rbx ;\nexists (0:rbx=0)\n", "t.litmus")
    assert str(att.threads[0].instrs[0].addr) == "(8 + rax)"


@pytest.mark.parametrize("text, line, col, fragment", [
    ("X86 t\n{ }\n P0 ;\n MOV [x],$1 ;\nexists " + "(" * 3000 + "x=1" + ")" * 3000 + "\n",
     5, 3007, "3000 levels of brackets"),
    ("X86 t\n{ }\n P0 ;\n MOV [x],$1 ;\nexists " + "~" * 5000 + "x=1\n", 5, 8, "a chain of 5000 '~'"),
    ("C t\n{ }\nP0(int *x) { int r0 = " + "(" * 500 + "1" + ")" * 500 + "; }\nexists (0:r0=1)\n",
     3, 522, "501 levels of brackets"),
    ("C t\n{ }\nP0(int *x) { " + "{" * 2000 + "}" * 2000 + " }\nexists (x=1)\n", 3, 2013, "2001 levels"),
])
def test_nesting_beyond_the_parser_is_an_error_not_a_crash(text, line, col, fragment):
    with pytest.raises(LitmusError, match="nested too deeply") as info:
        parse_litmus(text, "t.litmus")
    assert fragment in str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == (line, col)


def test_lisa_label_errors():
    text = "LISA t\n{ }\n P0 ;\n b[] r0 L9 ;\nexists (0:r0=0)\n"
    with pytest.raises(LitmusError, match="branch to unknown label 'L9'"):
        parse_litmus(text, "t.litmus")


def test_unknown_fence_kind_is_a_warning_at_the_instruction():
    from mmdsl.axiomatic import check

    text = "LISA t\n{ }\n P0 | P1 ;\n w[] x 1 | r[] r0 y ;\n f[lwsync] | r[] r1 x ;\n w[] y 1 | ;\n" \
           "exists (1:r0=1 /\\ 1:r1=0)\n"
    result = check(parse_litmus(text, "t.litmus"), load_model("tso"))
    assert result.warnings == ["t.litmus:5:2: warning: model 'tso' has no fence 'lwsync' (used by 'f[lwsync]'); "
                               "it orders nothing under this model"]


@pytest.mark.parametrize("engine", ["axiomatic", "explorer"])
def test_address_arithmetic_is_reported_at_the_instruction(engine):
    from mmdsl.axiomatic import check
    from mmdsl.explorer import explore

    run = check if engine == "axiomatic" else explore
    text = "X86 t\n{ }\n P0 ;\n MOV [x],$1 ;\n MOV EAX,[x+4] ;\nexists (0:EAX=1)\n"
    with pytest.raises(UnsupportedError) as info:
        run(parse_litmus(text, "t.litmus"), load_model("tso"))
    assert "only +0 is supported" in str(info.value) and "MOV EAX,[x+4]" in str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == (5, 2)


def test_missing_file():
    with pytest.raises(LitmusError, match="cannot read litmus file"):
        load_litmus("/nonexistent/x.litmus")


SEEDS = [
    GOOD,
    (REFERENCE / "classic" / "LISA" / "MP.litmus").read_text(),
    (ROOT / "litmus" / "x86" / "tests" / "non-mixed-size" / "CO" / "CO-SBI.litmus").read_text(),
]
ALPHABET = " \n;|[]{}()$%:,=~/\\*xyrEAX0123456789PLmovqfw"


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=3))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + len(ch):]
        else:
            text = text[:i] + ch + text[i + len(ch):]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_tests_give_a_result_or_a_clean_error(text):
    from mmdsl.axiomatic import check

    try:
        program = parse_litmus(text, "m.litmus")
        check(program, load_model("tso"), why=True)
    except MmdslError as err:
        s = str(err)
        assert s and "Traceback" not in s
        assert err.pos is None or (err.pos.line >= 1 and err.pos.col >= 1)


def test_a_byte_order_mark_is_not_part_of_the_header(tmp_path):
    f = tmp_path / "bom.litmus"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    p = load_litmus(f)
    assert (p.arch, p.name) == ("X86", "SB")
    assert p.threads[0].instrs[0].pos.line == 5 and p.threads[0].instrs[0].pos.col == 2
