"""Bounds of non-monotone axioms on partial executions (explorer/machines/graph/bounds.py).

The soundness property is checked directly: at every partial execution of a few tests,
the lower bound of each non-monotone axiom's relation is contained in its value on every
complete execution below it, and that value in the upper bound (so a step the bounds cut
loses no execution). The gain is pinned as work (partial executions), never seconds, with
the checker's final states: on herd's linux-kernel.cat (when ../shared is there) and on
a model of a user's with a difference of growing relations, whose name nobody knows.
"""

from __future__ import annotations

import pytest
from explorer_paths import ROOT
from refdata import SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.axiomatic.candidates import Enumerator
from mmdsl.axiomatic.checker import combinations, program_paths
from mmdsl.axiomatic.structure import Structure
from mmdsl.explorer.machines.graph.axioms import AxiomPlan
from mmdsl.explorer.machines.graph.bounds import Bounds, Context
from mmdsl.explorer.machines.graph.machine import GraphMachine
from mmdsl.explorer.machines.graph.search import explore_graph
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

CATS = SHARED_REFERENCE / "herd-cats"
needs_cats = pytest.mark.skipif(not CATS.is_dir(), reason="herd's cat models (../shared/reference/herd-cats) absent")
LINUX = ROOT / "litmus" / "linux" / "tests"
CLASSIC = ROOT / "litmus" / "classic" / "lisa"


def _within(small, big) -> bool:
    if isinstance(small, int):
        return small & ~big == 0
    return (small - big).is_empty()


def _machines(program, model):
    loops = None
    checked, locations, traces, extra = program_paths(program, model, loops)
    for combo, thin_air in combinations(traces, extra):
        structure = Structure(program, list(combo), locations)
        prepared = structure.prepare(checked)
        enum = Enumerator(structure, prepared, prune=True, thin_air=thin_air)
        yield GraphMachine(structure, prepared, enum, AxiomPlan(checked, prepared)), Bounds(checked, prepared)


def _check_bounds(machine: GraphMachine, bounds: Bounds) -> int:
    """Walk every partial execution (nothing pruned); at each, the bounds hold every completion.
    Returns the partial executions checked."""
    p = machine.p
    exact = {ax.name: compiled for ax, compiled, _ in p.axioms}
    checked = 0

    def walk(state) -> list[dict]:
        nonlocal checked
        if machine.is_complete(state):
            d = machine.dynamic(state)
            return [{ax.name: p.value(exact[ax.name], d) for ax, _ in bounds.values}]
        leaves = []
        for step in machine.candidates(state):
            leaves += walk(machine.apply(state, step))
        ctx = Context(machine.dynamic(state), machine.upper(state))
        for ax, bounded in bounds.values:
            lo, hi = bounded(ctx)
            for leaf in leaves:
                assert _within(lo, leaf[ax.name]) and _within(leaf[ax.name], hi), ax.name
        checked += 1
        return leaves

    walk(machine.initial_state())
    return checked


def _user_model(tmp_path):
    """tso-axioms with a difference of growing relations in its global order: po pairs of two
    reads that read one write are taken out. Not monotone; nobody recognises it."""
    text = (ROOT / "models" / "tso-axioms.mm").read_text().replace("model tso-axioms", "model tso-rsw", 1)
    text = text.replace("let ghb      = po-ghb |", "let ghb      = (po-ghb \\ (rf^-1 ; rf)) |")
    assert "(po-ghb \\ (rf^-1 ; rf))" in text
    path = tmp_path / "tso-rsw.mm"
    path.write_text(text)
    return load_model(str(path))


@pytest.mark.parametrize("test", ["MP", "SB", "LB", "2+2W", "CoRR"])
def test_bounds_hold_every_completion_under_a_users_model(test, tmp_path):
    model = _user_model(tmp_path)
    program = load_litmus(CLASSIC / f"{test}.litmus")
    total = 0
    for machine, bounds in _machines(program, model):
        assert [ax.name for ax, _ in bounds.values] == ["tso"]
        total += _check_bounds(machine, bounds)
    assert total > 1


@pytest.mark.parametrize("name", ["HAND/RSW+W.litmus", "HAND/CoRR-cleaninit.litmus"])
def test_bounds_hold_every_completion_under_riscv(name):
    """riscv.mm's Model is not monotone (rule 2's \\ rsw); its bounds hold every completion."""
    program = load_litmus(ROOT / "litmus" / "riscv" / "tests" / name)
    for machine, bounds in _machines(program, load_model("riscv")):
        assert "Model" in [ax.name for ax, _ in bounds.values]
        _check_bounds(machine, bounds)


@needs_cats
@pytest.mark.parametrize("test", ["SB+rcusyncs", "RCU+sync+read"])
def test_bounds_hold_every_completion_under_linux_kernel_cat(test):
    """RCU: a let rec of rcu-order through hb and pb."""
    model = load_model(str(CATS / "linux-kernel.cat"))
    names = set()
    for machine, bounds in _machines(load_litmus(LINUX / f"{test}.litmus"), model):
        names |= {ax.name for ax, _ in bounds.values}
        _check_bounds(machine, bounds)
    assert {"happens-before", "rcu"} <= names


def test_a_users_non_monotone_axiom_is_cut_early_by_its_bounds(tmp_path):
    """MP under the user's model: the reader's two reads are of different locations, so no
    completion takes their po pair out of ghb, and reading x=0 after y=1 is cut at that step.
    The same final states as the checker, with fewer partial executions than with the bounds
    switched off."""
    model = _user_model(tmp_path)
    program = load_litmus(CLASSIC / "MP.litmus")
    expected = check(program, model, collect="none").state_set()
    with_bounds = explore_graph(program, model, max_states=10_000)
    assert with_bounds.state_set() == expected and with_bounds.stats["duplicates"] == 0
    assert with_bounds.stats["bounded"] == 1
    assert (with_bounds.stats["explored"], with_bounds.stats["complete"], with_bounds.stats["blocked"]) == (9, 3, 0)
    original = AxiomPlan.__init__

    def unbounded(self, model, prepared):
        original(self, model, prepared)
        self.bounded = []

    try:
        AxiomPlan.__init__ = unbounded
        without = explore_graph(program, model, max_states=10_000)
    finally:
        AxiomPlan.__init__ = original
    assert without.state_set() == expected
    assert (without.stats["explored"], without.stats["blocked"]) == (10, 1), without.stats


def test_the_bounds_of_an_unknown_expression_say_nothing(tmp_path):
    """A read's own write taken away (``[R] \\\\ (rf^-1 ; rf)``) may empty as reads are added:
    its upper bound of rsw holds every read that has a write to read, so nothing is cut."""
    text = (ROOT / "models" / "tso-axioms.mm").read_text().replace("model tso-axioms", "model tso-reads", 1)
    path = tmp_path / "tso-reads.mm"
    path.write_text(text + '\naxiom reads : empty [R] \\ (rf^-1 ; rf)   "every read reads a write"\n')
    result = explore_graph(load_litmus(CLASSIC / "SB.litmus"), load_model(str(path)), max_states=10_000)
    assert result.stats["complete"] == 4 and result.stats["bounded"] == 0


LINUX_WORK = {  # test -> (partial executions explored, complete); without the bounds: 10, 34, 2,821, 2,569
    "MP+pooncerelease+poacquireonce.litmus": (9, 3),
    "IRIW+fencembonceonces+OnceOnce.litmus": (33, 15),
    "ISA2+pooncelock+pooncelock+pombonce.litmus": (334, 7),
    "Z6.0+pooncelock+pooncelock+pombonce.litmus": (231, 8),
}


@needs_cats
@pytest.mark.parametrize("test", sorted(LINUX_WORK))
def test_linux_kernel_cat_is_cut_early_with_the_checkers_states(test):
    """linux-kernel.cat's happens-before, propagation and rcu are not monotone as written
    (lock.cat's rf and co, \\ id); their lower bounds cut the search."""
    model = load_model(str(CATS / "linux-kernel.cat"))
    program = load_litmus(LINUX / test)
    result = explore_graph(program, model, max_states=200_000)
    assert result.state_set() == check(program, model, collect="none").state_set()
    assert result.stats["duplicates"] == 0 and result.stats["bounded"] > 0
    assert (result.stats["explored"], result.stats["complete"]) == LINUX_WORK[test]
