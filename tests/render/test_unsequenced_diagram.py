"""Diagrams of C tests with two reads in one expression draw the po the checker used.

herd's C semantics leaves the operands of one operator unsequenced (no po between their
events; tests/litmus/test_c_unsequenced.py), and the checker takes those pairs out of po
(mmdsl/axiomatic/structure.py). A diagram draws no po edge between them, keeps the po to
and from the events sequenced around them (the transitive reduction of the checker's po,
not of the column), and keeps the column straight with an invisible edge. Golden DOT files
in tests/render/golden (pytest --bless rewrites them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import golden
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.relations import Rel
from mmdsl.render.dot_execution import execution_dot
from mmdsl.render.execution_choice import choose_executions
from mmdsl.render.execution_view import execution_view
from mmdsl.render.styles import style_named

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
LINUX = ROOT / "litmus" / "linux" / "tests"
ORDER = ("po", "ppo", "fence", "inserted")

CASES = [
    # (golden name, test of litmus/linux/tests, model, --show)
    ("linux-CoRR-expr-sc-witness", "CoRR+onceonce-expr+Once", "sc", "witness"),
    ("linux-LB-xchg-exprs-sc-allowed", "LB+xchgrelaxed-exprs+fencembonceonces", "sc", "allowed"),
    ("linux-MP-once-xchg-expr-sc-forbidden", "MP+fencewmbonceonce+once-xchg-expr", "sc", "forbidden"),
]


def _views(test: str, model_name: str, show: str, count: int = 1):
    program, model = load_litmus(LINUX / f"{test}.litmus"), load_model(model_name)
    for c in choose_executions(program, model, show, count).chosen:
        yield c.execution, execution_view(c.execution, model, test=program.name, status=c.status,
                                          thread_names=[t.name for t in program.threads],
                                          condition=program.condition, violations=c.violations)


@pytest.mark.parametrize("name, test, model, show", CASES, ids=[c[0] for c in CASES])
def test_golden_dot_of_unsequenced_reads(name, test, model, show, bless):
    _, view = next(_views(test, model, show))
    golden(GOLDEN / f"{name}.dot", execution_dot(view, style_named("screen")), bless)


@pytest.mark.parametrize("name, test, model, show", CASES, ids=[c[0] for c in CASES])
def test_the_drawn_order_is_the_checkers_po(name, test, model, show):
    for execution, view in _views(test, model, show, 4):
        label = {e.label: e.eid for e in execution.events}
        po = execution.static["po"]
        drawn = [(label[e.src], label[e.dst]) for e in view.edges if e.rel in ORDER]
        assert all((a, b) in po for a, b in drawn), "an order edge between events not in po"
        closure = Rel.from_pairs(execution.n, drawn)
        for _ in range(execution.n):
            closure = closure | closure.seq(closure)
        inside = [e.eid for e in execution.events if not e.init]
        assert {(a, b) for a, b in po.pairs() if a in inside} == set(closure.pairs())


def test_no_po_edge_joins_the_two_reads_and_the_column_stays_straight():
    _, view = next(_views("CoRR+onceonce-expr+Once", "sc", "witness"))
    assert not [e for e in view.edges if e.rel in ORDER]  # P1's two reads: nothing between them
    text = execution_dot(view, style_named("screen"))
    assert "b -> c [style=invis weight=10]" in text and 'id="po-b-c"' not in text


def test_the_rest_of_the_thread_keeps_its_po():
    # P1: r0 = READ_ONCE(*y) + 2 * xchg(z, 1); r1 = READ_ONCE(*x): the read of y is
    # unsequenced with the xchg, and both precede the read of x
    _, view = next(_views("MP+fencewmbonceonce+once-xchg-expr", "sc", "forbidden"))
    order = {(e.src, e.dst) for e in view.edges if e.rel in ORDER}
    assert ("d", "i") in order and ("d", "e") not in order and ("e", "f") in order


def test_draw_and_run_draw_leave_out_the_po_edge(tmp_path):
    test = str(LINUX / "CoRR+onceonce-expr+Once.litmus")
    r = CliRunner().invoke(app, ["draw", test, "-m", "sc", "--format", "dot", "-o", str(tmp_path / "d")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["run", test, "-m", "sc", "--draw", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    for folder in ("d", "r"):
        dots = list((tmp_path / folder).rglob("*.dot"))
        assert dots, folder
        for dot in dots:
            assert 'id="po-b-c"' not in dot.read_text()
