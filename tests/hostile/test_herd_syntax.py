"""Hostile inputs to the herd syntax of issue 9 (arrays, scopes:/regions: sections, no condition):
a located error or a bounded run, never a traceback or a blow-up."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import LitmusError, MmdslError, UnsupportedError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus
from mmdsl.suite.runner import check_with

MAX_CELLS = 256  # mmdsl.litmus.arrays.MAX_CELLS


def _test(init: str = "", sections: str = "", final: str = "exists (0:r0=0)") -> str:
    return f"LISA h\n{{ {init} }}\n P0 ;\n r[] r0 x ;\n{sections}\n{final}\n"


def test_a_deep_scope_tree_is_a_located_error():
    n = 5000
    text = _test(sections="scopes: " + "(a " * n + "P0" + ")" * n)
    with pytest.raises(LitmusError, match="nested too deeply") as info:
        parse_litmus(text, "t.litmus")
    assert info.value.pos.line == 5


def test_a_huge_array_is_refused_before_it_is_built():
    with pytest.raises(UnsupportedError, match="has 100000000 cells; at most"):
        parse_litmus(_test("int x[100000000];"), "t.litmus")
    with pytest.raises(LitmusError, match="malformed init block"):  # more digits than any size
        parse_litmus(_test("int x[" + "9" * 5000 + "];"), "t.litmus")


def test_many_arrays_are_bounded_together():
    init = " ".join(f"int a{i}[{MAX_CELLS}];" for i in range(4))
    with pytest.raises(UnsupportedError, match="the arrays of this test have"):
        parse_litmus(_test(init), "t.litmus")


def test_the_largest_array_runs_under_both_engines():
    program = parse_litmus(_test(f"int x[{MAX_CELLS}];", final=f"exists (x[{MAX_CELLS - 1}]=0)"), "t.litmus")
    assert check_with(program, load_model("sc"), "both").verdict == "Allowed"


@pytest.mark.parametrize("final", [
    "exists (" + "9" * 5000 + ":r0=1)",  # a thread number no int() should see
    "exists (x[" + "9" * 5000 + "]=1)",
    "exists (x={" + ",".join(["1"] * 3000) + "})",
])
def test_absurd_conditions_are_located_errors(final):
    with pytest.raises(MmdslError) as info:
        parse_litmus(_test("int x[2];", final=final), "t.litmus")
    assert info.value.pos is not None and info.value.pos.line == 6


def test_a_long_locations_list_runs():
    program = parse_litmus(_test("int x[2];", final="locations [" + "x;" * 3000 + "]"), "t.litmus")
    assert len(check_with(program, load_model("sc"), "both").states) == 1


def test_sections_only_and_no_condition_run():
    program = parse_litmus("LISA e\n{ }\n P0 ;\n r[] r0 x ;\nregions: x:A\n", "t.litmus")
    result = check_with(program, load_model("sc"), "both")
    assert result.condition.text() == "forall (true)" and result.ok
