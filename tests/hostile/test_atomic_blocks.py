"""Hostile atomic blocks and cas2 (C dialect and Memorax .rmm): located errors, never a traceback."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def c(body: str) -> str:
    return "C T\n{ x = 0; y = 0; }\n\nP0(int *x, int *y)\n{\n" + body + "\n}\n\nexists (x=1)\n"


@pytest.mark.parametrize("body, line, words", [
    ("atomic { *x = 1;", 10, "expected ';'"),  # unterminated: the file ends inside the block
    ("int ok = cas2(x, x, 0, 0, 1, 1);", 6, "'cas2' on one location twice"),
    ("int ok = cas2(x, y, 0, 0, 1);", 6, "'cas2' takes 6 arguments, not 5"),
    ("atomic { atomic { *x = 1; } }", 6, "an atomic block inside an atomic block is not supported"),
    ("atomic { while (*x == 0) { } }", 6, "a jump out of an atomic block or back inside it"),
    ("while (1) { atomic { if (*x == 0) break; } }", 6, "a jump out of an atomic block"),
    ("atomic { *x = 1; smp_mb(); }", 6, "fence 'smp_mb();' inside an atomic block"),
    ("atomic { int r = cas(x, 0, 1); }", 6, "inside an atomic block"),
    ("atomic { int r = cas2(x, y, 0, 0, 1, 1); }", 6, "an atomic block inside an atomic block"),
])
def test_bad_c_atomic_blocks_are_located_errors(body, line, words):
    with pytest.raises(MmdslError) as info:
        parse_litmus(c(body), "h.litmus")
    assert words in str(info.value)
    assert info.value.pos is not None and info.value.pos.line == line


RMM = "forbidden\n  CS\ndata\n  x = 0 : [0:1]\nprocess\ntext\n"


@pytest.mark.parametrize("text, words", [
    ("  locked { write: x := 1;\n  CS: nop\n", "Expected '}'"),
    ("  locked { write: x := 1; goto CS };\n  CS: nop\n", "a jump out of an atomic block"),
    ("  locked { locked { write: x := 1 } };\n  CS: nop\n", "an atomic block inside an atomic block"),
    ("  locked { either { nop or nop } };\n  CS: nop\n", "a nondeterministic choice inside an atomic block"),
    ("  locked { fence };\n  CS: nop\n", "fence 'fence' inside an atomic block"),
    ("  locked { cas(x, 0, 1) };\n  CS: nop\n", "inside an atomic block"),
])
def test_bad_rmm_locked_blocks_are_located_errors(text, words):
    with pytest.raises(MmdslError) as info:
        parse_litmus(RMM + text, "h.rmm")
    assert words in str(info.value)
    assert info.value.pos is not None and info.value.pos.line >= 7


def test_a_long_chain_of_blocks_runs_on_both_engines():
    body = "\n".join("atomic { int r%d = *x; *x = r%d + 1; }" % (i, i) for i in range(30))
    p = parse_litmus(c(body).replace("exists (x=1)", "exists (x=30)"), "h.litmus")
    assert len(p.threads[0].instrs) == 30 * 4
    model = load_model("tso")
    assert check(p, model).verdict == explore(p, model).result.verdict == "Allowed"


def test_tools_without_atomic_blocks_refuse_them_by_name():
    from mmdsl.core.errors import UnsupportedError
    from mmdsl.fences.places import program_places

    p = parse_litmus(c("atomic { *x = 1; }"), "h.litmus")
    with pytest.raises(UnsupportedError, match="fence selection does not support atomic blocks"):
        program_places(p)
