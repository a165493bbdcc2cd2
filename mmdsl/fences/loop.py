"""The selection loop: solve -> insert -> re-check -> add what survives, until nothing does.

Every requirement added is necessary (any fence set that meets the target satisfies it:
``cycles`` for candidate executions, ``traces`` and ``cut`` for the explorer), so the
CP-SAT optimum over them is a lower bound on the cost of any correct answer; the final
re-check shows the answer correct. Together: OPTIMAL on the last round plus a clean
re-check proves the fence set minimum. Loop-free tests run on the axiomatic checker
(``AxiomaticSelector`` here); programs with loops and ``--method cut`` on the explorer
(``explorer_selector.ExplorerSelector``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..axiomatic import check
from ..axiomatic.loops import DEFAULT_UNROLL
from ..core.condition import FinalState
from ..core.errors import MmdslError, UnsupportedError
from ..core.events import Execution
from ..core.outcome import TestResult
from ..core.program import Program
from ..lang.ir import Model
from .cycles import CycleEncoder, ExecutionCycles, refinement
from .encoding import Choice, Problem, holds
from .insert import insert_fences
from .places import fence_kinds, program_places
from .solver import (
    FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN, Solution, next_minimal, next_optimal, solve_minimum,
)
from .targets import Target, make_target

MAX_EXECUTIONS = 200_000
METHODS = ("cegar", "cut")


@dataclass
class FenceOptions:
    target: str = "outcome"  # outcome | sc
    kinds: list[str] | None = None
    costs: dict[str, int] = field(default_factory=dict)
    all_optimal: bool = False
    all_minimal: bool = False  # every inclusion-minimal fence set, each re-checked
    method: str = "cegar"  # cegar | cut
    time_limit: float | None = None
    max_rounds: int = 100
    max_solutions: int = 100
    # the explorer's bounds, for programs searched operationally (loops, --method cut)
    max_states: int = 2_000_000
    max_pending: int | None = None  # None: the explorer's default (pending_bound)
    max_memory: float | None = None  # MB, a ceiling on the process's peak memory (None: none)
    compact: bool = False  # the explorer's visited set keeps 128-bit hashes of the states
    unroll: int | None = None  # loops on the checker (graph-machine models): herd's -unroll (None: 2)


@dataclass
class Selection:
    """The answer: fences, cost, what CP-SAT proved, and the re-check of the fenced program."""

    test: str
    model: str
    path: str | None
    target: Target
    method: str
    engine: str
    status: str  # OPTIMAL | FEASIBLE | INFEASIBLE (no fence can help) | UNKNOWN (time limit)
    fences: list[Choice] = field(default_factory=list)
    cost: int = 0
    bound: int | None = None
    rounds: int = 0
    time: float = 0.0
    unwanted: int = 0  # unwanted executions (explorer: violating final states) of the original
    requirements: int = 0
    before: TestResult | None = None
    after: TestResult | None = None  # the fenced program, re-checked
    fenced: Program | None = None
    alternatives: list[list[Choice]] = field(default_factory=list)  # --all-optimal / --all-minimal
    alternatives_kind: str = "optimal"  # "optimal" (every cheapest set) or "minimal" (inclusion-minimal)
    # why the list of alternatives is not complete: None (it is), "limit" (there are more
    # than max_solutions) or "time limit" (CP-SAT stopped before it knew whether more exist)
    alternatives_stopped: str | None = None
    remaining: list[FinalState] = field(default_factory=list)  # unwanted states with every fence in
    notes: list[str] = field(default_factory=list)  # what the route left out (dependencies on the explorer)
    unroll: int | None = None  # the checker's unrolling bound of a program with loops (graph-machine models)

    @property
    def optimal(self) -> bool:
        return self.status == OPTIMAL

    @property
    def more_alternatives(self) -> bool:
        return self.alternatives_stopped is not None

    @property
    def needed(self) -> bool:
        return self.unwanted > 0

    def insertions(self) -> list[tuple[int, int, str]]:
        return insertions_of(self.fences)


def insertions_of(fences: list[Choice]) -> list[tuple[int, int, str]]:
    """The fences of a choice list as (thread, before index, kind) (dependencies are written apart)."""
    return [(c.place.tid, c.place.index, c.kind.name) for c in fences if not c.is_dependency]


def execution_key(x: Execution) -> tuple:
    """What identifies an execution whether or not fences were inserted: per-thread accesses, rf, co."""
    ident: dict[int, tuple] = {}
    accesses: dict[int, list] = {}
    for e in x.events:
        if e.init:
            ident[e.eid] = (-1, e.loc)
        elif e.kind != "F":
            seq = accesses.setdefault(e.tid, [])
            ident[e.eid] = (e.tid, len(seq))
            seq.append((e.kind, e.loc, e.value, e.rmw))
    rf = sorted((ident[r], ident[w]) for w, r in x.rf.pairs())
    co = sorted((ident[a], ident[b]) for a, b in x.co.pairs())
    return (tuple(sorted((t, tuple(s)) for t, s in accesses.items())), tuple(rf), tuple(co))


def _allowed(program: Program, model: Model, unroll: int | None = None) -> tuple[TestResult, list[Execution]]:
    program.require_final_condition("axiomatic fence selection")
    result = check(program, model, collect="allowed", max_collected=MAX_EXECUTIONS, unroll=unroll)
    stored = result.stats["collected"].allowed
    if len(stored) < result.positive + result.negative:
        raise UnsupportedError(f"{program.name} has more than {MAX_EXECUTIONS} allowed executions under "
                               f"{model.name}; fence selection keeps them all")
    return result, stored


class Selector:
    """One selection run: the problem and the solve -> insert -> re-check loop, engine aside.

    An engine subclass says how to run the original program (adding the first
    requirements), how to re-check a fenced one (returning what survives) and how to turn
    survivors into new requirements.
    """

    engine = "axiomatic"

    def __init__(self, program: Program, model: Model, options: FenceOptions):
        self.program = program
        self.model = model
        self.options = options
        self.kinds = fence_kinds(model, options.kinds, options.costs)
        self.problem = Problem(model, program_places(program), self.kinds)

    # ----- engine hooks -------------------------------------------------------------------
    def first(self) -> tuple[TestResult, int]:
        """Run the original program, add the requirements of what is unwanted; (result, how many)."""
        raise NotImplementedError

    def recheck(self, fenced: Program) -> tuple[TestResult, object]:
        """Run a fenced program: its result and the unwanted behaviour that survives (falsy if none)."""
        raise NotImplementedError

    def refine(self, chosen: frozenset[int], fenced: Program, survivors) -> bool:
        """Add the requirements of survivors; True when something new was added."""
        raise NotImplementedError

    def rerun(self, program: Program) -> TestResult:
        """Just the result of a program (for the 'every fence' check)."""
        raise NotImplementedError

    # ----- the loop ---------------------------------------------------------------------------
    def fenced(self, chosen: frozenset[int]) -> Program:
        return insert_fences(self.program, insertions_of(self.problem.sorted_choices(chosen)))

    def verify(self, chosen: frozenset[int]) -> tuple[Program, TestResult, object]:
        fenced = self.fenced(chosen)
        result, survivors = self.recheck(fenced)
        return fenced, result, survivors

    def _refine(self, chosen: frozenset[int], fenced: Program, survivors) -> None:
        if not self.refine(chosen, fenced, survivors):
            raise MmdslError(f"internal: fence selection for {self.program.name} stopped making progress")

    def run(self) -> Selection:
        start = time.perf_counter()
        opts = self.options
        self.target = make_target(self.program, opts.target, self.engine)
        sel = Selection(self.program.name, self.model.name, self.program.path, self.target, opts.method,
                        self.engine, OPTIMAL)
        sel.before, sel.unwanted = self.first()
        sel.after = sel.before
        if not sel.unwanted:
            sel.fenced = self.program
            sel.time = time.perf_counter() - start
            return sel
        while True:
            sel.rounds += 1
            sol = solve_minimum(self.problem, opts.time_limit)
            if sol.status in (INFEASIBLE, UNKNOWN):
                sel.status = sol.status
                if sol.status == INFEASIBLE:
                    sel.remaining = self.remaining()
                break
            fenced, after, survivors = self.verify(sol.chosen)
            if not survivors:
                self._accept(sel, sol, fenced, after)
                break
            if sel.rounds >= opts.max_rounds:
                raise MmdslError(f"fence selection for {self.program.name} did not converge in "
                                 f"{opts.max_rounds} rounds")
            self._refine(sol.chosen, fenced, survivors)
        sel.requirements = len(self.problem.requirements) + len(self.problem.cuts)
        sel.time = time.perf_counter() - start
        return sel

    def _accept(self, sel: Selection, sol: Solution, fenced: Program, after: TestResult) -> None:
        sel.status = sol.status
        sel.fences = self.problem.sorted_choices(sol.chosen)
        sel.cost = sol.cost
        sel.bound = sol.bound
        sel.fenced = fenced
        sel.after = after
        if self.options.all_minimal and sol.status == OPTIMAL:
            sel.alternatives, sel.alternatives_stopped = self.all_minimal(sol)
            sel.alternatives_kind = "minimal"
        elif self.options.all_optimal and sol.status == OPTIMAL:
            sel.alternatives, sel.alternatives_stopped = self.all_optimal(sol)

    def all_minimal(self, sol: Solution) -> tuple[list[list[Choice]], str | None]:
        """Every inclusion-minimal fence set that passes the re-check (Memorax's answer), cheapest first.

        Each round asks CP-SAT for the cheapest set meeting the requirements that contains
        no set found so far (``next_minimal``); one the re-check refutes adds its survivors'
        requirements, one it confirms is minimal. Also why the list stopped early, as
        ``all_optimal``.
        """
        good = [sol.chosen]
        stopped = None
        rounds = 0
        while True:
            nxt = next_minimal(self.problem, good, self.options.time_limit)
            if nxt.status == INFEASIBLE:
                break
            if nxt.status == UNKNOWN:
                stopped = "time limit"
                break
            fenced, _, survivors = self.verify(nxt.chosen)
            if survivors:
                rounds += 1
                if rounds > self.options.max_rounds * 10:
                    raise MmdslError(f"the enumeration of minimal fence sets for {self.program.name} did "
                                     "not converge")
                self._refine(nxt.chosen, fenced, survivors)
            elif len(good) >= self.options.max_solutions:
                stopped = "limit"
                break
            else:
                good.append(nxt.chosen)
        sets = [self.problem.sorted_choices(g) for g in good]
        return sorted(sets, key=lambda cs: (sum(c.cost for c in cs), [c.key() for c in cs])), stopped

    def all_optimal(self, sol: Solution) -> tuple[list[list[Choice]], str | None]:
        """Every fence set of the optimal cost that passes the re-check, in canonical order.

        Also why the list stopped early: None when it is complete, "limit" when a verified
        answer beyond ``max_solutions`` exists, "time limit" when CP-SAT ran out of time.
        """
        found = [sol.chosen]
        good = [sol.chosen]
        stopped = None
        while True:
            nxt = next_optimal(self.problem, sol.cost, found, self.options.time_limit)
            if nxt.status == INFEASIBLE:
                break
            if nxt.status == UNKNOWN:
                stopped = "time limit"
                break
            found.append(nxt.chosen)
            fenced, _, survivors = self.verify(nxt.chosen)
            if survivors:
                self._refine(nxt.chosen, fenced, survivors)
            elif len(good) >= self.options.max_solutions:
                stopped = "limit"
                break
            else:
                good.append(nxt.chosen)
        sets = [self.problem.sorted_choices(g) for g in good]
        return sorted(sets, key=lambda cs: [c.key() for c in cs]), stopped

    def remaining(self) -> list[FinalState]:
        """The unwanted final states still reachable with every fence kind at every place."""
        result = self.rerun(self.fenced(frozenset(self.problem.all_choices())))
        states = sorted((s for s in result.states if self.target.unwanted_state(s)), key=FinalState.text)
        if not states:
            raise MmdslError(f"internal: no fence set met the requirements of {self.program.name}, "
                             "yet every fence together forbids the target (please report this)")
        return states


class AxiomaticSelector(Selector):
    """Unwanted candidate executions of the axiomatic checker, cycle requirements: loop-free
    tests, and under a model the explorer runs on the execution-graph machine (no
    reordering table whose traces could be cut) tests with loops too, unrolled on the
    checker herd's way (``options.unroll``, default 2; spin iterations blocked)."""

    def __init__(self, program: Program, model: Model, options: FenceOptions):
        super().__init__(program, model, options)
        self.unroll = unroll_bound(program, options)
        self.encoder = CycleEncoder(program, model, self.problem)
        self.cycles: dict[tuple, ExecutionCycles] = {}

    def first(self) -> tuple[TestResult, int]:
        result, stored = _allowed(self.program, self.model, self.unroll)
        unwanted = [x for x in stored if self.target.unwanted(x.final)]
        for x in unwanted:
            c = self.encoder.encode(x)
            self.cycles[execution_key(x)] = c
            self.problem.add(c.requirement)
        return result, len(unwanted)

    def recheck(self, fenced: Program) -> tuple[TestResult, list[Execution]]:
        result, stored = _allowed(fenced, self.model, self.unroll)
        return result, [y for y in stored if self.target.unwanted(y.final)]

    def refine(self, chosen: frozenset[int], fenced: Program, survivors: list[Execution]) -> bool:
        """Refinements for survivors; a survivor the exact encoding claims dead is a bug."""
        progress = False
        for y in survivors:
            c = self.cycles.get(execution_key(y))
            if c is None or (c.exact and holds(c.requirement, set(chosen))):
                raise MmdslError(f"internal: the fences chosen for {self.program.name} leave an execution "
                                 "the encoding said they forbid (please report this)")
            progress |= self.problem.add(refinement(c, set(chosen)))
        return progress

    def rerun(self, program: Program) -> TestResult:
        return check(program, self.model, collect="none", unroll=self.unroll)

    def run(self) -> Selection:
        sel = super().run()
        if self.unroll is not None:
            sel.unroll = self.unroll
            sel.notes.append(f"loops unrolled {self.unroll} times on the axiomatic checker (--unroll {self.unroll}, "
                             "herd's -unroll; spin iterations blocked): the fences are chosen, and the fenced "
                             "program re-checked, up to that bound")
        return sel


def unroll_bound(program: Program, options: FenceOptions) -> int | None:
    """The checker's unrolling bound for ``program`` (None when it has no loop)."""
    if not program.has_loops():
        return None
    return DEFAULT_UNROLL if options.unroll is None else options.unroll


__all__ = ["FenceOptions", "Selection", "Selector", "AxiomaticSelector", "unroll_bound", "FEASIBLE", "INFEASIBLE", "OPTIMAL", "UNKNOWN"]
