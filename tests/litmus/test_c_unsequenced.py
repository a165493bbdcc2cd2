"""The operands of one C expression are evaluated unsequenced, as herd's C semantics does.

herd7 7.58 puts no program order between the events of two operands of one operator
(``READ_ONCE(*x) + READ_ONCE(*y)``), while every read of an expression precedes the write
of its result; a kernel RMW (``xchg``, ``cmpxchg``, ``atomic_add`` ...) opens with its
``smp_mb()`` before its arguments are evaluated, and its read half is unsequenced with
them. Found with herd7's dot output (``-show all -doshow po``) and pinned by verdicts:
herd's outputs are in litmus/linux/tests (linux-kernel.cat, test_herd_linux_cat.py) and
tests/litmus/data/unsequenced (rc11.cat, below).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.core.program import Fence, Load, Rmw
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

DATA = Path(__file__).parent / "data" / "unsequenced"
LINUX = ROOT / "litmus" / "linux" / "tests"


def _write(tmp_path, body: str, params: str = "int *x, int *y, int *z", cond: str = "exists (1:r0=1)") -> Path:
    f = tmp_path / "T.litmus"
    f.write_text(f"C T\n{{}}\nP0(int *x)\n{{\n\tWRITE_ONCE(*x, 1);\n}}\n\nP1({params})\n{{\n\tint r0;\n"
                 f"\tint r1;\n\n\t{body}\n}}\n{cond}\n")
    return f


def test_two_reads_of_one_expression_are_unsequenced_and_precede_the_write():
    p = load_litmus(LINUX / "CoRR+onceonce-expr+Once.litmus")
    assert p.threads[1].unsequenced == {(0, 1, False)}
    p = load_litmus(LINUX / "LB+xchgrelaxed-exprs+fencembonceonces.litmus")
    t = p.threads[0]
    # the two argument reads are unsequenced with each other and with the RMW's read half
    assert t.unsequenced == {(0, 1, False), (0, 2, True), (1, 2, True)}
    assert isinstance(t.instrs[2], Rmw)


def test_a_fully_ordered_rmw_opens_with_its_fence_before_its_arguments():
    t = load_litmus(LINUX / "SB+fencembonceonce+xchg-argonce.litmus").threads[0]
    kinds = [type(i).__name__ for i in t.instrs]
    assert kinds[1:5] == ["Fence", "Load", "Rmw", "Fence"]
    assert isinstance(t.instrs[1], Fence) and isinstance(t.instrs[2], Load)


@pytest.mark.parametrize("engine", ["axiomatic", "explorer"])
@pytest.mark.parametrize("model", ["sc", "tso", "rmo"])
def test_both_engines_let_the_reads_of_one_expression_go_either_way(engine, model):
    # CoRR with both reads in one expression: r0 = a - 2b is 1 when the first read sees 1
    # and the second 0; with the reads in po (before), no model allowed it
    m = load_model(model)
    program = load_litmus(LINUX / "CoRR+onceonce-expr+Once.litmus")
    result = check(program, m) if engine == "axiomatic" else explore(program, m)
    assert result.observation == "Sometimes"
    # the read beside an xchg() is not held by the fences around the xchg(): under rmo
    # (reads reordered), MP's outcome follows
    if model == "rmo":
        program = load_litmus(LINUX / "MP+fencewmbonceonce+once-xchg-expr.litmus")
        result = check(program, m) if engine == "axiomatic" else explore(program, m)
        assert result.observation == "Sometimes"


def test_the_engines_agree_on_the_expression_tests():
    for model in ["sc", "pso", "relaxed"]:
        m = load_model(model)
        for f in sorted(LINUX.glob("*expr*.litmus")):
            program = load_litmus(f)
            assert set(check(program, m).states) == set(explore(program, m).states), (f.name, model)


def test_the_per_thread_explorer_refuses_unsequenced_operands_by_name():
    program = load_litmus(LINUX / "CoRR+onceonce-expr+Once.litmus")
    with pytest.raises(MmdslError) as info:
        explore(program, load_model("power"))
    assert "unsequenced" in info.value.message and info.value.pos.line == 19


def test_a_read_in_cmpxchgs_new_value_is_refused_at_its_place(tmp_path):
    # herd evaluates the new value only when the comparison succeeds
    f = _write(tmp_path, "r0 = cmpxchg(z, 0, READ_ONCE(*x));")
    with pytest.raises(MmdslError) as info:
        load_litmus(f)
    assert "new value of 'cmpxchg'" in info.value.message
    assert (info.value.pos.line, info.value.pos.col) == (13, 21)


def test_a_read_beside_a_branching_call_is_refused(tmp_path):
    f = _write(tmp_path, "r0 = READ_ONCE(*y) + atomic_compare_exchange_strong(x, z, 1);",
               params="atomic_int *x, int *y, atomic_int *z")
    with pytest.raises(MmdslError) as info:
        load_litmus(f)
    assert "in one expression" in info.value.message and info.value.pos.line == 13


HERD_CATS = SHARED_REFERENCE / "herd-cats"


@pytest.mark.skipif(not (HERD_CATS / "rc11.cat").is_file(), reason=f"herd's rc11.cat is not in {HERD_CATS}")
@pytest.mark.parametrize("name", ["CoRR+rlx-expr", "CoRR+rlx-exchange-arg"])
def test_rc11_gives_herds_output(name):
    f = DATA / f"{name}.litmus"
    want = outcome((DATA / f"{name}.litmus.rc11.expected").read_text())
    got = outcome(herd_block(check(load_litmus(f), load_model(str(HERD_CATS / "rc11.cat"))), show_time=False))
    assert got == want
