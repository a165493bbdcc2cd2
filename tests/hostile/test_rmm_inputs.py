"""Hostile Memorax `.rmm` programs: deep nesting, huge counts and numbers, endless loops - clean errors, bounded runs."""

from __future__ import annotations


import pytest
from budget import cpu_budget

from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def rmm(text: str):
    return parse_litmus(text, "h.rmm")


@pytest.mark.parametrize("text, words", [
    ("", "Expected"),
    ("forbidden if\nprocess\ntext\n  nop\n", "Expected"),
    ("forbidden CS\nprocess(100000)\ntext\n  CS: nop\n", "count from 1 to 64"),
    ("forbidden CS\ndata x = 99999999999999999999999\nprocess\ntext\n  CS: nop\n", "too large"),
    ("forbidden CS\ndata x = * : [0:1000000]\nprocess\ntext\n  CS: nop\n", "at most 64 initial values"),
    ("forbidden CS\ndata x = * : [3:1]\nprocess\ntext\n  CS: nop\n", "empty"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  CS: write: [7] := 1\n", "not a global location"),
    ("forbidden CS\nprocess\ntext\n  CS: $r := me\n", "not supported"),
])
def test_bad_programs_are_located_errors(text, words):
    with pytest.raises(MmdslError) as info:
        rmm(text)
    assert words in str(info.value) and info.value.pos is not None, str(info.value)


def test_deep_nesting_is_an_error_not_a_crash():
    depth = 3000
    text = "forbidden CS\nprocess\ntext\n" + "{ " * depth + "nop" + " }" * depth + ";\n CS: nop\n"
    with cpu_budget(60), pytest.raises(MmdslError):
        rmm(text)


def test_a_process_that_spins_forever_terminates_by_state_hashing():
    p = rmm("forbidden CS *\ndata x = 0\nprocess\ntext\n  L: write: x := 1; goto L;\n  CS: nop\n"
            "process\nregisters $r = 0\ntext\n  L: read: $r := x; goto L\n")
    for model in ("sc", "tso", "pso"):
        result = explore(p, load_model(model))
        assert result.positive == 0 and result.stats["buffer_bound"] == 3


def test_an_either_of_a_thousand_alternatives_explores_each():
    alts = " or ".join(f"write: x := {k}" for k in range(1000))
    p = rmm(f"forbidden CS\ndata x = 0\nprocess\ntext\n  either {{ {alts} }};\n  read: x = 999;\n  CS: nop; nop\n")
    with cpu_budget(60):
        assert explore(p, load_model("sc")).positive > 0
