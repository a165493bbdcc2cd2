"""Which axioms a step of the graph machine must re-check: read off the model's IR once.

A step adds one event to a partial execution whose static relations (po, dependencies,
locations, annotations) are those of the whole path combination already; what grows is
rf (a read step adds one pair) and co (a write step inserts one write in its location's
order, keeping every pair already there). An axiom whose expression is positive in the
dynamic relations (``Prepared.prunable_tests``: unions, sequences, intersections,
closures, inverses, domains, and differences whose right side is static -- the checker's
own reading of the IR) can only lose by growing them, so a partial execution that fails
it has no consistent completion: that is the enabling condition of a step. Every other
axiom (a negated one, one with a complement or a difference of dynamic relations, a
``with x from linearisations``) is checked only on complete executions.

Of the monotone axioms a read step re-checks only those that read rf (or fr, com and
their internal/external parts), a write step those that read co (or fr, com): the
names an axiom reads are followed through the model's lets.
"""

from __future__ import annotations

from typing import Callable

from ....lang.evaluate import Prepared
from ....lang.ir import Model
from .bounds import Bounds

# the dynamic names a read step (a new rf pair) and a write step (a new co position) change
RF_CHANGES = frozenset({"rf", "rfe", "rfi", "fr", "fre", "fri", "com"})
CO_CHANGES = frozenset({"co", "coe", "coi", "fr", "fre", "fri", "com"})
_DYNAMIC = RF_CHANGES | CO_CHANGES


def _let_names(model: Model) -> dict[str, set[str]]:
    """Each let's name -> the names its bindings read (every binding of that name: a
    rebinding makes the answer larger, never wrong)."""
    reads: dict[str, set[str]] = {}
    for group in model.lets:
        for b in group.bindings:
            reads.setdefault(b.name, set()).update(b.expr.names())
    return reads


def dynamic_reads(model: Model, names: set[str], lets: dict[str, set[str]] | None = None) -> set[str]:
    """The dynamic relations (rf, co, fr ...) that ``names`` read, through the lets."""
    lets = _let_names(model) if lets is None else lets
    seen: set[str] = set()
    todo = list(names)
    while todo:
        nm = todo.pop()
        if nm in seen:
            continue
        seen.add(nm)
        todo.extend(lets.get(nm, ()))
    return seen & _DYNAMIC


class AxiomPlan:
    """The tests of one prepared model, split by when the graph machine runs them."""

    def __init__(self, model: Model, prepared: Prepared):
        lets = _let_names(model)
        self.on_read: list[tuple[object, Callable]] = []  # monotone, reading rf
        self.on_write: list[tuple[object, Callable]] = []  # monotone, reading co
        self.monotone_tests = list(prepared.prunable_tests)  # all checked once, at the root
        for ax, test in prepared.prunable_tests:
            dyn = dynamic_reads(model, ax.expr.names(), lets)
            if dyn & RF_CHANGES:
                self.on_read.append((ax, test))
            if dyn & CO_CHANGES:
                self.on_write.append((ax, test))
        self.at_end = list(prepared.other_tests)  # not monotone: exactly on complete executions only
        # ... and on every partial execution through their bounds (bounds.py), re-checked after
        # every step: a step may shrink what a difference takes away as well as grow the rest
        self.bounded = Bounds(model, prepared).tests if self.at_end else []
        self.monotone = [ax.name for ax, _ in prepared.prunable_tests]
        self.complete_only = [ax.name for ax, _ in self.at_end]

    def tests(self, kind: str) -> list[tuple[object, Callable]]:
        """The tests a step adding an event of ``kind`` ("R" or "W") re-checks."""
        return self.on_read if kind == "R" else self.on_write
