"""Memorax's macro preprocessor (`macro ... endmacro`): expansion as its manual defines it, places, errors."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.core.program import Store
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus
from mmdsl.litmus.rmm_macros import MAX_TOKENS, expand_macros

# the example of Memorax's manual, section "Macros" (its figure: the macro text on the left,
# the equivalent expanded text on the right)
MANUAL_MACROS = """forbidden
  CS CS

data
  cs0 = 0 : [0:1]
  cs1 = 0 : [0:1]
  x = 0 : [0:1]
  y = 0 : [0:1]

macro p(x,y,pid)
process
text
  write: x := 1;
  read: y = 0;
  CS: write: [pid] := 1
endmacro

p(x,y,0)
p(y,x,1)
"""
MANUAL_EXPANDED = """forbidden
  CS CS

data
  cs0 = 0 : [0:1]
  cs1 = 0 : [0:1]
  x = 0 : [0:1]
  y = 0 : [0:1]

process
text
  write: x := 1;
  read: y = 0;
  CS: write: cs0 := 1
process
text
  write: y := 1;
  read: x = 0;
  CS: write: cs1 := 1
"""


def rmm(text: str, name: str = "m.rmm"):
    return parse_litmus(text, name)


def shape(program):
    return [[(type(i).__name__, str(getattr(i, "addr", ""))) for i in t.instrs] for t in program.threads]


def test_the_manuals_example_expands_to_its_right_hand_side():
    # [pid] with pid = 0 is the global numbered 0 (cs0): the same program as the expanded text
    assert shape(rmm(MANUAL_MACROS)) == shape(rmm(MANUAL_EXPANDED))
    for model in ("sc", "tso"):
        got = explore(rmm(MANUAL_MACROS), load_model(model))
        want = explore(rmm(MANUAL_EXPANDED), load_model(model))
        assert (got.positive, got.negative) == (want.positive, want.negative)


def test_text_without_macros_is_left_as_it_is():
    text = "forbidden CS\nprocess\ntext\n  CS: nop\n"
    assert expand_macros(text, None).text is text


def test_arguments_may_hold_parentheses_commas_and_calls():
    text = ("forbidden CS CS\ndata a = 0 : [0:3]\n"
            "macro plus(e) (e)+1 endmacro\n"
            "macro proc(v)\nprocess\ntext\n  write: a := v;\n  CS: nop\nendmacro\n"
            "proc(plus((1+1)))\nproc(plus(0))\n")
    expanded = expand_macros(text, None).text
    assert expanded.count("process") == 2
    assert "write: a := ( (1+1))+1" in " ".join(expanded.split("\n"))
    stores = [[i for i in t.instrs if isinstance(i, Store)][0] for t in rmm(text).threads]
    assert [str(s.value) for s in stores] == ["((1 + 1) + 1)", "(0 + 1)"]


def test_an_error_in_a_body_names_the_line_and_column_in_the_body():
    text = ("forbidden CS CS\ndata x = 0\n"        # 1, 2
            "macro p(v)\n"                          # 3
            "process\ntext\n"                       # 4, 5
            "  write: y := v;\n"                    # 6: y is not declared
            "  CS: nop\nendmacro\n"
            "p(1)\np(2)\n")
    with pytest.raises(LitmusError) as info:
        rmm(text)
    assert (info.value.pos.line, info.value.pos.col) == (6, 10), str(info.value)
    assert "undeclared location 'y'" in str(info.value)


def test_a_syntax_error_in_a_body_is_placed_in_the_body():
    text = "forbidden CS\nmacro p()\nprocess\ntext\n  CS: write: := 1\nendmacro\np()\n"
    with pytest.raises(LitmusError) as info:
        rmm(text)
    assert info.value.pos.line == 5, str(info.value)


@pytest.mark.parametrize("text, words, where", [
    ("forbidden CS\nmacro p(x)\nprocess text CS: nop\n", "has no 'endmacro'", (2, 1)),
    ("forbidden CS\nmacro p(x) nop endmacro\nmacro p(y) nop endmacro\n", "defined twice", (3, 7)),
    ("forbidden CS\nmacro p(x, x) nop endmacro\n", "given twice", (2, 12)),
    ("forbidden CS\nmacro p(x) macro q() nop endmacro endmacro\n", "inside a macro's body", (2, 12)),
    ("forbidden CS\nmacro process() nop endmacro\n", "keyword", (2, 7)),
    ("forbidden CS\nendmacro\n", "without a 'macro'", (2, 1)),
    ("forbidden CS\nmacro p(x) nop endmacro\np(1, 2)\n", "takes 1 argument(s), 2 given", (3, 1)),
    ("forbidden CS\nmacro p(x) nop endmacro\np(1,)\n", "empty argument", (3, 5)),
    ("forbidden CS\nmacro p(x) nop endmacro\np((1)\n", "never closed", (3, 1)),
    ("forbidden CS\nmacro p(x) q(x) endmacro\nmacro q(x) p(x) endmacro\nq(1)\n", "calls itself (q -> p -> q)", (2, 12)),
    ("forbidden CS\n/* unclosed\nmacro p(x) nop endmacro\n", "never closed", (2, 1)),
])
def test_bad_macros_are_located_errors(text, words, where):
    with pytest.raises(LitmusError) as info:
        rmm(text)
    assert words in str(info.value), str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == where, str(info.value)


def test_vips_constructs_inside_macros_are_refused_where_they_stand():
    text = ("forbidden CS CS\ndata l = 0 : [0:1]\n"
            "macro lock(x)\n  cas(x,0,1);\n  llfence\nendmacro\n"
            "process(2)\ntext\n  lock(l);\n  CS: nop\n")
    with pytest.raises(UnsupportedError) as info:
        rmm(text)
    assert (info.value.pos.line, info.value.pos.col) == (5, 3) and "VIPS-M" in str(info.value)


def test_a_doubling_chain_of_macros_stops_at_the_token_bound():
    levels = ["macro m0() nop; endmacro"]
    for k in range(1, 40):
        levels.append(f"macro m{k}() m{k - 1}() m{k - 1}() endmacro")
    text = "forbidden CS\n" + "\n".join(levels) + "\nprocess\ntext\n  m39();\n  CS: nop\n"
    with pytest.raises(LitmusError, match=f"more than {MAX_TOKENS:,} tokens"):
        rmm(text)
