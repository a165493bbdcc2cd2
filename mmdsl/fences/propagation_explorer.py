"""Fence selection on the explorer under per-thread models (Power, Armv7): loops and --spec, grown failing sets.

The explorer route of a multi-copy-atomic model (``explorer_selector``) blocks a trace by
forbidding one of its out-of-order steps: a fence only keeps its own thread's later
operation behind an earlier one (``traces``). On the per-thread machine
(``explorer/machines/propagation/propagation.py``) that is not all a fence does. A cumulative fence is
*performed*: it commits a barrier that later writes of its thread wait behind on every
other thread (B-cumulativity), after the writes its thread had seen (A-cumulativity), and
a strong one waits until what its thread has seen has reached everyone. So a fence can
forbid a trace that has no out-of-order step at all: in WRC with a spin loop in the
middle thread (``litmus/ppc/loops/WRC+spin.litmus``) the middle thread's loop already
keeps its write after its read (a control dependency), yet only an ``lwsync`` there keeps
the reader from seeing the write before the one it depends on, and ``eieio``, which
orders only writes, does not. Reading a trace's overtakings would call that fence
useless and the answer would be wrong.

What carries over is the argument of the axiomatic route for these models
(``propagation``): monotonicity. A fence adds enabling conditions to the machine (the
operations it orders wait for it; propagations wait for its barrier; a strong one waits
for propagation) and enables nothing, so every run of the program with fence set S, its
fence steps dropped, is a run of the program with any subset of S: a violating final
state reachable with S is reachable with every subset. Selection is the same implicit
hitting-set loop, with the explorer as its oracle:

1. CP-SAT gives the cheapest fence set S meeting the clauses so far;
2. the explorer runs the program with S inserted; if no violating state is left, S is
   the answer;
3. else, for one violating final state X, S is grown to a maximal set M that still
   reaches X (halving: a block of candidates is added at once when X survives it, else
   split), and the clause "some fence outside M" is added. Every subset of M reaches X,
   so every correct answer meets the clause: the clauses are necessary, CP-SAT's optimum
   over them a lower bound, and the clean re-exploration of step 2 proves it minimal.

The candidates are every fence kind of the model at every place (``places``), loop
bodies included. Dependencies (``addr``, ``ctrl+isync`` ...) stay on the axiomatic route:
their places are found from a loop-free test's executions and written in by its dialect;
this route leaves them out and says so in a note (an ``isync`` after a branch the program
already has is a fence here, and makes a ``ctrl+isync`` of it).
"""

from __future__ import annotations

from ..core.condition import FinalState
from ..core.errors import MmdslError, UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Branch, Program
from ..explorer import explore_space
from ..lang.ir import Model
from .devices import split_kinds
from .encoding import Problem, any_of
from .loop import FenceOptions, Selection, Selector
from .places import program_places


class PropagationExplorerSelector(Selector):
    """Programs with loops (or ``--spec``) under a per-thread model: maximal-failing-set clauses over fences."""

    engine = "explorer"

    def __init__(self, program: Program, model: Model, options: FenceOptions):
        if options.method == "cut":
            raise UnsupportedError(
                f"--method cut under model '{model.name}' (propagation {model.propagation}): the cut's edges are "
                "the one-memory machine's out-of-order steps, and a fence here also acts through cumulativity",
                model.propagation_pos, hint="use the default --method cegar")
        self.program = program
        self.model = model
        self.options = options
        self.kinds, dependencies = split_kinds(model, options.kinds, options.costs)
        if not self.kinds:
            raise UnsupportedError(
                f"--kinds names only dependencies ({', '.join(k.name for k in dependencies)}), and fence selection "
                f"under '{model.name}' on the explorer (loops, --spec) inserts fences only",
                hint="name fence kinds too, or select on the loop-free form of the test")
        self.notes: list[str] = []
        if dependencies:
            self.notes.append(
                f"dependencies ({', '.join(k.name for k in dependencies)}) are chosen on loop-free tests only (the "
                "axiomatic route); on the explorer this selection inserts fences only")
        self.problem = Problem(model, program_places(program), self.kinds)
        inside = spin_loop_places(program)
        idle = idle_choices(program, model, self.problem)
        self.candidates = sorted((c for c in self.problem.all_choices()
                                  if (self.problem.choices[c].place.tid, self.problem.choices[c].place.index)
                                  not in inside and c not in idle), key=lambda i: self.problem.choices[i].key())
        if inside:
            self.notes.append(
                "places inside spin loops are not offered (" + ", ".join(
                    f"{program.threads[t].name} " + (f"line {a}" if a == b else f"lines {a}-{b}")
                    for t, a, b in spin_loop_lines(program))
                + "): a cumulative fence there commits a barrier on every iteration, so the explorer's storage "
                "never repeats a state; the answer is the cheapest among the other places")
        self.dominated = dominated_kinds(model, self.problem)
        # fence set -> (the fenced program, its result, the violating final states it reaches)
        self._checked: dict[frozenset[int], tuple[Program, TestResult, frozenset[FinalState]]] = {}
        self.explorations = 0

    # ----- the oracle ------------------------------------------------------------------------
    def _explore(self, program: Program):
        return explore_space(program, self.model, target=self.target.unwanted, order="bfs", truncate=False,
                             max_states=self.options.max_states, max_pending=self.options.max_pending,
                             max_memory=self.options.max_memory, compact=self.options.compact)

    def _violating(self, result: TestResult) -> frozenset[FinalState]:
        if self.program.state_property:  # the result's states are the targets, by where the threads are
            return frozenset(result.states)
        return frozenset(s for s in result.states if self.target.unwanted_state(s))

    def explored(self, chosen: frozenset[int]) -> frozenset[int]:
        """``chosen`` without the fences another chosen fence at the same place dominates.

        A kind B is dominated by a kind A (``dominated_kinds``) when A orders every pair B
        orders, is at least as cumulative, and B completes no ``ctrl+`` dependency (isync).
        In herd's axioms A and B together at one place then give exactly A's relations
        (``fence`` and ``prop`` are unions), so the explorer runs the smaller program:
        fewer barriers to propagate, and growing a set by a dominated fence costs nothing.
        """
        kinds_at: dict[tuple[int, int], set[int]] = {}
        for c in chosen:
            ch = self.problem.choices[c]
            kinds_at.setdefault((ch.place.tid, ch.place.index), set()).add(ch.kind_index)
        return frozenset(c for c in chosen
                         if not (self.dominated.get(self.problem.choices[c].kind_index, frozenset())
                                 & kinds_at[(self.problem.choices[c].place.tid, self.problem.choices[c].place.index)]))

    def _run(self, chosen: frozenset[int]) -> tuple[Program, TestResult, frozenset[FinalState]]:
        got = self._checked.get(chosen)
        if got is None:
            kept = self.explored(chosen)
            got = self._checked.get(kept)
            if got is None:
                fenced = self.fenced(kept)
                self.explorations += 1
                result = self._explore(fenced).result()
                got = self._checked[kept] = (fenced, result, self._violating(result))
            self._checked[chosen] = got
        return got

    # ----- engine hooks ----------------------------------------------------------------------
    def first(self) -> tuple[TestResult, int]:
        space = self._explore(self.program)
        self.explorations += 1
        result = space.result()
        self._checked[frozenset()] = (self.program, result, self._violating(result))
        return result, len(space.targets)

    def recheck(self, fenced: Program) -> tuple[TestResult, frozenset[FinalState]]:
        result = self._explore(fenced).result()
        return result, self._violating(result)

    def verify(self, chosen: frozenset[int]) -> tuple[Program, TestResult, object]:
        fenced, result, left = self._run(chosen)
        if self.explored(chosen) != chosen:  # the answer's program holds every fence chosen
            fenced = self.fenced(chosen)
        return fenced, result, left

    def refine(self, chosen: frozenset[int], fenced: Program, survivors: frozenset[FinalState]) -> bool:
        """Grow ``chosen`` to a maximal set still reaching one violating state; require a fence outside it."""
        x = min(survivors, key=FinalState.text)
        grown = set(chosen)
        self._grow(grown, [c for c in self.candidates if c not in grown], x)
        outside = [frozenset((c,)) for c in self.candidates if c not in grown]
        if not outside:  # no fence helps: an empty clause, CP-SAT says INFEASIBLE
            return self.problem.add(frozenset())
        return self.problem.add(any_of(outside))

    def _grow(self, grown: set[int], block: list[int], x: FinalState) -> None:
        """Add to ``grown`` every candidate of ``block`` that keeps ``x`` reachable, a half-block at a time.

        A candidate left out was tried with a subset of the final ``grown``; by monotonicity
        it also forbids ``x`` with the whole of it, so the result is maximal.
        """
        if not block:
            return
        if x in self._run(frozenset(grown | set(block)))[2]:
            grown.update(block)
            return
        if len(block) == 1:
            return
        half = len(block) // 2
        self._grow(grown, block[:half], x)
        self._grow(grown, block[half:], x)

    def rerun(self, program: Program) -> TestResult:
        return self._explore(program).result()

    def remaining(self) -> list[FinalState]:
        """The violating states still reachable with every fence kind at every place."""
        _, _, left = self._run(frozenset(self.candidates))
        if not left:
            raise MmdslError(f"internal: no fence set met the requirements of {self.program.name}, "
                             "yet every fence together forbids the target (please report this)")
        return sorted(left, key=FinalState.text)

    def run(self) -> Selection:
        sel = super().run()
        sel.notes = list(self.notes)
        return sel


_CUMULATIVITY_RANK = {None: 0, "": 0, "light": 1, "strong": 2}


def dominated_kinds(model: Model, problem: Problem) -> dict[int, frozenset[int]]:
    """Per kind index B, the kinds that dominate it (see ``PropagationExplorerSelector.explored``)."""
    from ..core.events import EventShape
    from ..lang.ir import ctrl_fence_of

    ctrl = {ctrl_fence_of(rule.name) for rule in model.dependencies} - {None}
    shapes = [EventShape("R"), EventShape("W")]
    pairs = [(a, b) for a in shapes for b in shapes]

    def rank(kind) -> int:
        return max((_CUMULATIVITY_RANK.get(d.cumulativity, 0) for d in model.fences_for(kind.name)), default=0)

    def orders(kind) -> set:
        return {p for p in pairs if problem._orders.orders_pair(kind.name, *p)}

    ctrl_names = set()
    for name in ctrl:
        decl = model.fence_for(name)
        ctrl_names |= set(decl.spellings) if decl is not None else {name}
    strength = [(orders(k), rank(k)) for k in problem.kinds]

    def dominates(a: int, b: int) -> bool:  # at least as strong; of two equal kinds the first declared
        (oa, ra), (ob, rb) = strength[a], strength[b]
        return a != b and oa >= ob and ra >= rb and ((oa, ra) != (ob, rb) or a < b)

    return {b: frozenset(a for a in range(len(problem.kinds)) if dominates(a, b))
            for b, kb in enumerate(problem.kinds) if not set(kb.spellings) & ctrl_names}


def idle_choices(program: Program, model: Model, problem: Problem) -> set[int]:
    """Choices that change no run: a kind that orders no access pair and is not cumulative
    (Power's isync, Arm's isb) at a place no conditional branch of its thread may come
    before. Such a fence only completes a ``ctrl+`` dependency (the explorer lets it wait
    for the branches before it); with none, it is never pending and holds nothing back.
    """
    from ..core.events import EventShape
    from ..explorer import control_successors

    shapes = [EventShape("R"), EventShape("W")]
    idle_kinds = {k for k, kind in enumerate(problem.kinds)
                  if not any(problem._orders.orders_pair(kind.name, a, b) for a in shapes for b in shapes)
                  and not any(d.cumulativity for d in model.fences_for(kind.name))}
    if not idle_kinds:
        return set()
    out = set()
    for t in program.threads:
        succ = control_successors(t) + [()]
        after_branch = [False] * (len(t.instrs) + 1)  # may a conditional branch come before this position?
        todo = [q for pc, ins in enumerate(t.instrs) if isinstance(ins, Branch)
                and ins.cond is not None for q in succ[pc]]
        while todo:
            q = todo.pop()
            if not after_branch[q]:
                after_branch[q] = True
                todo.extend(succ[q])
        for p, place in enumerate(problem.places[t.tid].places):
            if not after_branch[place.index]:
                out |= {problem.choice(t.tid, p, k) for k in idle_kinds}
    return out


def spin_loops(program: Program) -> list[tuple[int, int, int]]:
    """Every spin loop as (thread, its top, its back edge) (``explorer.machines.table.state.spin_loops``)."""
    from ..explorer.machines.table.state import spin_loops as loops_of

    return [(t.tid, top, edge) for t in program.threads for top, edge, _, _ in loops_of(t)]


def spin_loop_places(program: Program) -> set[tuple[int, int]]:
    """(thread, position) of the places inside a spin loop: before its top up to before its back edge."""
    return {(tid, p) for tid, top, edge in spin_loops(program) for p in range(top, edge + 1)}


def spin_loop_lines(program: Program) -> list[tuple[int, int | None, int | None]]:
    """(thread, first line, last line) of each spin loop, for the note."""
    out = []
    for tid, top, edge in spin_loops(program):
        instrs = program.threads[tid].instrs
        lines = [i.pos.line for i in instrs[top:edge + 1] if i.pos]
        out.append((tid, min(lines, default=None), max(lines, default=None)))
    return out


def select_per_thread_on_explorer(program: Program, model: Model, options: FenceOptions) -> Selection:
    """Fence selection on the explorer under a per-thread model (loops, state properties, --spec serial)."""
    return PropagationExplorerSelector(program, model, options).run()
