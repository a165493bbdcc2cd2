"""Hostile RISCV inputs: huge numbers, long mnemonics, odd registers, lone sc, loops: a result or a located error."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def one(lines: list[str], cond: str = "0:x5=0", init: str = "0:x6=x;") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"RISCV h\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


@pytest.mark.parametrize("line", [
    "li x5," + "9" * 5000,                 # a number past 64 bits
    "lw." + ".".join(["aq"] * 5000) + " x5,0(x6)",  # thousands of suffixes
    "amoswap" + ".w" * 3000 + " x5,x6,(x6)",
    "lw x5,0(" * 300 + "x6" + ")" * 300,   # nested brackets
    "lw x32,0(x6)", "lw x5,0(x100)", "lw X5,0(x6)",  # no such register (herd: lower case)
    "fence " + "r" * 5000 + ",w",
    "lw x5,0(x6),x7,x8",
    "\u0440w x5,0(x6)",                     # a Cyrillic letter
])
def test_bad_cells_are_located_errors(line):
    with pytest.raises(MmdslError) as err:
        parse_litmus(one([line]), "h.litmus")
    assert err.value.pos is not None and err.value.pos.line == 4


def test_a_thousand_labels_on_one_cell_parse():
    p = parse_litmus(one([" ".join(f"L{i}:" for i in range(1000)) + " lw x5,0(x6)"]), "h.litmus")
    assert len(p.threads[0].instrs) == 1


def test_store_conditionals_without_a_reservation_only_fail():
    p = parse_litmus(one(["sc.w x5,x0,0(x6)", "lr.w x7,0(x6)", "sc.w x8,x0,0(x6)", "sc.w x9,x0,0(x6)"],
                         cond="0:x5=0 \\/ 0:x9=0"), "h.litmus")
    r = check(p, load_model("riscv"))
    assert r.observation == "Never"  # the first has no lr, the last's reservation was used


def test_a_loop_is_refused_by_name_by_the_checker():
    p = parse_litmus(one(["L:", "lw x5,0(x6)", "beq x5,x0,L"]), "h.litmus")
    with pytest.raises(MmdslError, match="has a loop"):
        check(p, load_model("riscv"))


def test_many_store_conditionals_stay_bounded():
    """Each sc forks two ways: six lr/sc pairs on one thread (64 paths) are still a quick run."""
    lines = []
    for i in range(6):
        lines += ["lr.w x7,0(x6)", f"sc.w x{8 + i},x0,0(x6)"]
    r = check(parse_litmus(one(lines, cond="0:x8=0"), "h.litmus"), load_model("riscv"))
    assert r.observation == "Sometimes"
