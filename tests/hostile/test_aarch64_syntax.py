"""Hostile AArch64 inputs: huge numbers, long mnemonics, odd registers, nesting, loops: a result or a located error."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def one(lines: list[str], cond: str = "0:X0=0", init: str = "0:X1=x;") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"AArch64 h\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


@pytest.mark.parametrize("line", [
    "MOV X0,#" + "9" * 5000,                  # a number past 64 bits
    "MOV W0,#-3000000000",                    # past 32 bits for a W register
    "LDR" + "R" * 5000 + " W0,[X1]",          # a long mnemonic
    "LDR W0," + "[" * 300 + "X1" + "]" * 300,  # nested brackets
    "LDR X31,[X1]", "LDR W0,[X99]", "LDR W0,[SP]", "LDR Q0,[X1]",  # no such register here
    "DMB " + "S" * 5000,
    "LDR W0,[X1],X2,X3",
    "B.XX LC00", "B.NE", "CBNZ W0",
    "LDR W0,[X1,X2,SXTW #3]",
    "\u041cOV W0,#1",                          # a Cyrillic letter
    "CASPAL X0,X1,X2,X3,[X4]", "STLXP W5,X0,X1,[X4]", "LDXP X0,X0,[X4]",  # pairs (mixed-size)
])
def test_bad_cells_are_located_errors(line):
    with pytest.raises(MmdslError) as err:
        parse_litmus(one([line]), "h.litmus")
    assert err.value.pos is not None and err.value.pos.line == 4


def test_a_thousand_labels_on_one_cell_parse():
    p = parse_litmus(one([" ".join(f"L{i}:" for i in range(1000)) + " LDR W0,[X1]"]), "h.litmus")
    assert len(p.threads[0].instrs) == 1


def test_a_backward_branch_is_refused_by_the_checker_at_its_place():
    p = parse_litmus(one(["LC00:", "LDR W0,[X1]", "CBNZ W0,LC00"]), "h.litmus")
    with pytest.raises(MmdslError) as err:
        check(p, load_model("sc"))
    assert "loop" in err.value.message and err.value.pos.line == 6


def test_an_address_offset_that_is_not_zero_is_an_error_of_the_run_not_a_wrong_verdict():
    p = parse_litmus(one(["MOV W0,#1", "STR W0,[X1,#4]"]), "h.litmus")
    with pytest.raises(MmdslError) as err:
        check(p, load_model("sc"))
    assert "address" in err.value.message and err.value.pos.line == 5


def test_store_exclusives_without_a_reservation_only_fail():
    p = parse_litmus(one(["MOV W2,#1", "STXR W0,W2,[X1]", "LDXR W3,[X1]", "STXR W4,W2,[X1]",
                          "STXR W5,W2,[X1]"], cond="0:X0=1 /\\ 0:X5=1"), "h.litmus")
    r = check(p, load_model("sc"))
    assert r.observation == "Always"  # the first and the last cannot succeed


def test_a_cas_retry_loop_is_refused_by_the_checker_and_explored():
    """CAS in a loop (a lock): the checker refuses the loop at its place, the explorer runs it."""
    from mmdsl.explorer import explore

    p = parse_litmus(one(["MOV W2,#1", "LC00:", "MOV W0,#0", "CAS W0,W2,[X1]", "CBNZ W0,LC00"],
                         cond="x=1"), "h.litmus")
    with pytest.raises(MmdslError) as err:
        check(p, load_model("armv8"))
    assert "loop" in err.value.message and err.value.pos.line == 8
    assert {s.text() for s in explore(p, load_model("sc")).state_set()} == {"x=1;"}


def test_a_cas_on_a_register_that_is_no_location_is_an_error_of_the_run():
    p = parse_litmus(one(["MOV W2,#1", "CAS W0,W2,[X3]"], init="0:X1=x;"), "h.litmus")
    with pytest.raises(MmdslError) as err:
        check(p, load_model("armv8"))
    assert "not a location" in err.value.message and err.value.pos.line == 5
