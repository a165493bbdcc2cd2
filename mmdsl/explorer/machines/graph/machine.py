"""The execution-graph machine: one combination of thread paths built event by event under axioms.

A state is a partial execution: how many of the path combination's memory events are
added (they are added in program order, thread by thread round-robin: the first event of
every thread, then the second ...), the write each added read reads from, and each
location's coherence order over the added writes (init first). A step adds the next
event: a read chooses its write (any write of its location whose value its path allows:
a write po-later in another thread too, which is what load buffering needs -- the path
fixed the value the read returns, the obligation is checked when the write's value is
known and again on the complete execution, ``Enumerator._leaf``), a write chooses its
place in coherence after the writes already placed. A step is enabled when the monotone
axioms that read what it changed still hold (``axioms.AxiomPlan``); a complete execution
is then checked on the other axioms and on its values exactly as the checker checks a
candidate (the same ``Prepared``, the same leaf code), so the two engines cannot differ.

Each execution is reached once: the order events are added in is fixed, and a complete
execution fixes every choice (a read's write; a write's place among the writes before it).
"""

from __future__ import annotations

from typing import NamedTuple

from ....axiomatic.candidates import Enumerator, _co_rows
from ....axiomatic.structure import Structure
from ....lang.evaluate import Dynamic, Prepared
from ....relations import Rel
from .axioms import AxiomPlan
from .bounds import Context


class GraphStep(NamedTuple):
    """Add event ``eid``: a read reading from ``choice`` (a write's eid), a write placed at
    position ``choice`` of its location's coherence order."""

    eid: int
    choice: int


# a state: (events added, rf source per schedule slot of a read or -1, co order per location)
GraphState = tuple


class GraphMachine:
    """One structure (a combination of thread paths) explored as growing execution graphs."""

    def __init__(self, structure: Structure, prepared: Prepared, enumerator: Enumerator, plan: AxiomPlan):
        self.s = structure
        self.p = prepared
        self.enum = enumerator
        self.plan = plan
        self.n = structure.n
        events = structure.events
        per_thread = [[e for e in ids if events[e].kind in ("R", "W")] for ids in structure.thread_events]
        depth = max((len(ids) for ids in per_thread), default=0)
        # the schedule: the k-th memory event of each thread in turn
        self.schedule = [ids[k] for k in range(depth) for ids in per_thread if k < len(ids)]
        self.options = dict(enumerator.choices)  # read -> the writes it may read from
        self.locs = sorted(structure.writes_by_loc)
        self.loc_index = {loc: i for i, loc in enumerate(self.locs)}
        self.inits = [tuple(w for w in structure.writes_by_loc[loc] if events[w].init) for loc in self.locs]
        self._init_mask = [sum(1 << w for w in inits) for inits in self.inits]
        self.checks = 0  # partial executions checked against the monotone axioms
        self.pruned = 0  # steps not enabled: the extended execution fails a monotone axiom
        self.bounded = 0  # of those, steps cut by the bounds of a non-monotone axiom (bounds.py)

    # ----- the machine interface (explorer.machine.ExplorerMachine) -------------------
    def initial_state(self) -> GraphState:
        return (0, (), tuple(self.inits))

    def enabled(self, state: GraphState) -> list[GraphStep]:
        """Every step from ``state`` that keeps the monotone axioms (none when complete)."""
        kind = self.s.events[self.schedule[state[0]]].kind if state[0] < len(self.schedule) else "R"
        candidates = self.candidates(state)
        steps = [step for step in candidates if self.consistent(self.apply(state, step), kind)]
        self.pruned += len(candidates) - len(steps)
        return steps

    def apply(self, state: GraphState, step: GraphStep) -> GraphState:
        k, rf, co = state
        ev = self.s.events[step.eid]
        if ev.kind == "R":
            return (k + 1, rf + ((step.eid, step.choice),), co)
        li = self.loc_index[ev.loc]
        order = co[li]
        placed = order[:step.choice] + (step.eid,) + order[step.choice:]
        return (k + 1, rf, co[:li] + (placed,) + co[li + 1:])

    def is_complete(self, state: GraphState) -> bool:
        return state[0] == len(self.schedule)

    def describe(self, state: GraphState, step: GraphStep) -> str:
        """``P0: R x reads from iy`` / ``P1: W y=1 placed after iy in co``."""
        ev = self.s.events[step.eid]
        events = self.s.events
        head = f"P{ev.tid}: {ev.label} {ev.kind} {ev.loc}"
        if ev.kind == "R":
            w = events[step.choice]
            return f"{head} reads from {w.label} ({_write_text(w)})"
        order = state[2][self.loc_index[ev.loc]]
        value = "" if ev.value is None else f"={ev.value}"
        return f"{head}{value} placed after {events[order[step.choice - 1]].label} in co"

    # ----- consistency ----------------------------------------------------------------
    def dynamic(self, state: GraphState) -> Dynamic:
        """The partial execution's rf and co as the evaluator's ``Dynamic`` (a fresh cache)."""
        n = self.n
        rf_rows = [0] * n
        for r, w in state[1]:
            rf_rows[w] |= 1 << r
        co_rows = _co_rows(n, {loc: list(order) for loc, order in zip(self.locs, state[2])})
        return Dynamic(Rel(n, rf_rows), Rel(n, co_rows), self.s.internal)

    def consistent(self, state: GraphState, kind: str) -> bool:
        """Do the monotone axioms that read what a step of ``kind`` changed hold on ``state``?"""
        return self.failure(state, kind) is None

    def failure(self, state: GraphState, kind: str) -> str | None:
        """The first of those axioms ``state`` fails (its name), or None; then the axioms that
        are not monotone, whose lower bound no completion of ``state`` escapes (``bounds.py``)."""
        tests, bounded = self.plan.tests(kind), self.plan.bounded
        if not tests and not bounded:
            return None
        self.checks += 1
        d = self.dynamic(state)
        failed = next((ax.name for ax, test in tests if not test(d)), None)
        if failed is not None or not bounded:
            return failed
        ctx = Context(d, self.upper(state))
        failed = next((ax.name for ax, may_hold in bounded if not may_hold(ctx)), None)
        if failed is not None:
            self.bounded += 1
        return failed

    def upper(self, state: GraphState) -> Dynamic:
        """rf and co at their largest over every completion of ``state``: each read not added
        yet reads any write it may read, each write not placed yet is anywhere after the init."""
        k, rf, co = state
        n = self.n
        rf_rows = [0] * n
        for r, w in rf:
            rf_rows[w] |= 1 << r
        events = self.s.events
        unplaced: dict = {}
        for eid in self.schedule[k:]:
            ev = events[eid]
            if ev.kind == "R":
                for w in self.options.get(eid, ()):
                    rf_rows[w] |= 1 << eid
            else:
                unplaced[ev.loc] = unplaced.get(ev.loc, 0) | (1 << eid)
        co_rows = _co_rows(n, {loc: list(order) for loc, order in zip(self.locs, state[2])})
        for loc, mask in unplaced.items():
            li = self.loc_index[loc]
            placed = 0
            for w in co[li]:
                placed |= 1 << w
            later = (placed & ~self._init_mask[li]) | mask
            for w in co[li]:
                co_rows[w] |= mask
            m = mask
            while m:
                low = m & -m
                u = low.bit_length() - 1
                co_rows[u] |= later & ~low
                m ^= low
        return Dynamic(Rel(n, rf_rows), Rel(n, co_rows), self.s.internal)

    def candidates(self, state: GraphState) -> list[GraphStep]:
        """Every step from ``state``, enabled or not (``enabled`` keeps those the axioms allow)."""
        k, rf, co = state
        if k == len(self.schedule):
            return []
        eid = self.schedule[k]
        ev = self.s.events[eid]
        if ev.kind == "R":
            return [GraphStep(eid, w) for w in self.options.get(eid, [])]
        li = self.loc_index[ev.loc]
        return [GraphStep(eid, pos) for pos in range(len(self.inits[li]), len(co[li]) + 1)]

    def root_consistent(self) -> bool:
        """Do the monotone axioms hold on the execution of no event but the inits? Each is
        checked here once, then again after every step that changes what it reads, so all
        of them hold on every state the search keeps (a failure here fails everywhere)."""
        d = self.dynamic(self.initial_state())
        return all(test(d) for _, test in self.plan.monotone_tests)

    def finish(self, state: GraphState, on_leaf) -> bool:
        """Check a complete execution as the checker checks a candidate and hand it to
        ``on_leaf(leaf, allowed)``; False when it is not one (its values or an axiom fail)."""
        d = self.dynamic(state)
        enum = self.enum
        # every monotone axiom held after the last step that changed what it reads, and
        # nothing it reads changed since: only the others are left (Enumerator._leaf)
        enum._checked = d
        enum._prune_now = True
        enum.want_forbidden = False
        called = []

        def keep(leaf, allowed) -> None:
            called.append(allowed)
            on_leaf(leaf, allowed)

        enum.on_leaf = keep
        src = dict(state[1])
        chosen = {loc: list(order) for loc, order in zip(self.locs, state[2])}
        enum._leaf(list(d.rf.rows), src, chosen, list(d.co.rows))
        return bool(called)


def _write_text(w) -> str:
    value = "?" if w.value is None else w.value
    return f"init {w.loc}={value}" if w.init else f"P{w.tid}'s W {w.loc}={value}"
