"""The agreement invariant on loop-free tests with atomic blocks and cas2: checker and explorer, same final states."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def c_test(body0: str, body1: str, cond: str) -> str:
    return (f"C T\n{{ x = 0; y = 0; }}\n\nP0(int *x, int *y)\n{{\n{body0}\n}}\n\n"
            f"P1(int *x, int *y)\n{{\n{body1}\n}}\n\n{cond}\n")


INC = "atomic { int r = *x; *x = r + 1; *y = r; }"
# name -> (test, verdict per model: sc, tso, pso, pso-cas, rmo)
TESTS = {
    "two-increments": (c_test(INC, INC, "exists (x=1 \\/ y=0)"), "FFFFF"),
    "cas2-vs-store": (c_test("int ok = cas2(x, y, 0, 0, 1, 2);", "*y = 5;", "exists (0:ok=1 /\\ x=1 /\\ y=5)"),
                      "AAAAA"),
    "cas2-both": (c_test("int ok = cas2(x, y, 0, 0, 1, 1);", "int ok = cas2(y, x, 0, 0, 2, 2);",
                         "exists (0:ok=1 /\\ 1:ok=1)"), "FFFFF"),
    "SB-blocks": (c_test("*x = 1; int a; atomic { a = *y; }", "*y = 1; int b; atomic { b = *x; }",
                         "exists (0:a=0 /\\ 1:b=0)"), "FFFAF"),
    "MP-block-flag": (c_test("*x = 1; atomic { *y = 1; }", "int r0 = *y; int r1 = *x;",
                             "exists (1:r0=1 /\\ 1:r1=0)"), "FFFAA"),
    "reads-in-reverse": (c_test("int a; int b; atomic { b = *y; a = *x; }", "*y = 1; *x = 1;",
                                "exists (0:a=1 /\\ 0:b=0)"), "FFAAA"),
    "same-location": (c_test("*x = 1; int a; atomic { a = *x; *y = a; }", "int r = *y; int s = *x;",
                             "exists (1:r=1 /\\ 1:s=0)"), "FFFFA"),
    "conditional-write": (c_test("atomic { int a = *x; if (a == 0) { *y = 1; } else { *y = 2; } }",
                                 "*x = 1; int r = *y;", "exists (1:r=1 /\\ x=1)"), "AAAAA"),
}
MODELS = ["sc", "tso", "pso", "pso-cas", "rmo"]


@pytest.mark.parametrize("name", sorted(TESTS))
@pytest.mark.parametrize("k, model", list(enumerate(MODELS)))
def test_checker_and_explorer_agree_on_atomic_blocks(name, k, model):
    text, verdicts = TESTS[name]
    p = parse_litmus(text, f"{name}.litmus")
    m = load_model(model)
    checked = check(p, m)
    assert checked.state_set() == explore(p, m).result.state_set()
    assert checked.verdict[0] == verdicts[k]


def test_a_model_with_its_own_axioms_is_refused_by_name():
    p = parse_litmus(TESTS["two-increments"][0], "t.litmus")
    with pytest.raises(UnsupportedError, match="own axioms"):
        check(p, load_model("tso-axioms"))
    with pytest.raises(UnsupportedError, match="execution-graph machine"):
        explore(p, load_model("tso-axioms"))
