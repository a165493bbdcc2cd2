"""Hostile X86_64 inputs around register parts, shifts, NOP forms and ret: a result or a located error."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def run_both(text: str):
    p = parse_litmus(text, "h.litmus")
    m = load_model("tso")
    result = check(p, m)
    assert result.state_set() == explore(p, m).result.state_set()
    return result


def one(lines: list[str], cond: str = "0:rax=0", init: str = "") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"X86_64 h\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


@pytest.mark.parametrize("count", ["$18446744073709551615", "$-1", "$0x7fffffffffffffff", "-9223372036854775808"])
def test_shift_counts_of_any_size_are_masked(count):
    result = run_both(one(["movq $1,%rax", f"shlq {count},%rax"]))
    assert len(result.states) == 1


def test_a_count_register_holding_a_huge_value_is_masked():
    result = run_both(one(["movq $1,%rax", "shlq %cl,%rax"], cond="0:rax=-9223372036854775808",
                          init="0:rcx=0x7fffffffffffffff;"))
    assert result.observation == "Always"


def test_a_too_large_shift_count_literal_is_a_located_error():
    with pytest.raises(MmdslError) as err:
        parse_litmus(one(["shlq $0x1ffffffffffffffff,%rax"]), "h.litmus")
    assert err.value.pos is not None and err.value.pos.line == 4


def test_many_nops_and_rets():
    lines = ["nopw %cs:0x0(%rax,%rax,1)"] * 500 + ["ret"] * 50 + ["movq $1,%rax"]
    assert run_both(one(lines)).observation == "Always"


def test_ret_in_every_thread_before_and_after_labels():
    text = """X86_64 h
{ }
 P0          | P1          ;
 ret         | L: ret      ;
 movq $1,(x) | movq $1,(x) ;
 L:          | jmp L       ;
exists (x=1)
"""
    # P1 jumps back (a loop the axiomatic checker refuses), but ret ends it first
    assert explore(parse_litmus(text, "h.litmus"), load_model("tso")).result.observation == "Never"


@pytest.mark.parametrize("name", ["0:eax", "0:EAX", "0:%eax", "0:r15b", "0:spl", "0:ah", "12:r9w"])
def test_every_part_name_is_refused_in_a_condition(name):
    text = one(["movq $1,%rax"], cond=f"{name}=1")
    with pytest.raises(MmdslError, match="part of register"):
        parse_litmus(text, "h.litmus")


@pytest.mark.parametrize("operand", ["%", "%eax:", "(%rax,)", "(%rax,%rbx,)", "%cs:(", "$", "0(%rax,%eax,0"])
def test_malformed_operands_are_located_errors(operand):
    with pytest.raises(MmdslError) as err:
        parse_litmus(one([f"nopl {operand}", "movq $1,%rax"]), "h.litmus")
    assert err.value.pos is not None


def test_a_32_bit_read_of_a_register_holding_an_address_is_refused_by_name():
    with pytest.raises(MmdslError, match="address of location 'x'"):
        run_both(one(["movl %eax,(y)"], init="0:rax=x;"))


def test_symbolic_registers_are_their_own_registers():
    result = run_both(one(["movq $1,%foo", "movq %foo,%rax"], cond="0:rax=1"))
    assert result.observation == "Always"
