"""Fence selection under per-thread models (Power, Armv7) and where dependencies are devices (Armv8).

Under a per-thread model a fence acts through cumulativity (``prop``, ``hb``), not as one
member of an acyclic union; under Armv8 a dependency orders more than its two accesses
(``addr;po``, ``dep ; rfi``) and an isb completes a branch into ``ctrl+isb``
(``devices.acts_as_device``). Either way the cycle encoding of ``cycles.py`` does not
apply. What does: every relation a fence or a dependency adds to (``fence``,
``strong-fence``, ``light-fence``, ``dep``, hence ``ppo``, ``hb``, ``prop``) occurs only
positively in herd's four axioms and in Armv8's default order axiom (``check_monotone``
refuses a model where it does not), so adding devices never allows an execution.
Selection is then an implicit hitting-set loop over devices (every fence kind at every
place, every priced dependency the dialect can write):

1. CP-SAT gives the cheapest device set S meeting the clauses so far;
2. the axiomatic checker runs the program with S inserted; if no unwanted execution is
   left, S is the answer;
3. else, for one surviving execution X, S is grown greedily to a maximal set M that still
   leaves X allowed (each step one re-check), and the clause "some device outside M" is
   added. Any device set inside M leaves X allowed (monotonicity), so every correct answer
   meets the clause: the clauses are necessary, CP-SAT's optimum over them is a lower bound,
   and the clean re-check of step 2 makes it the proved minimum.

The re-check is of the program as written back in its dialect and read again when a
dependency is among the devices (so what ``-o`` writes is what was checked).
"""

from __future__ import annotations

from ..core.errors import MmdslError, UnsupportedError
from ..core.events import Execution
from ..core.outcome import TestResult
from ..core.program import Program
from ..lang.ir import Model
from .devices import dependency_slots, split_kinds, target_place
from .encoding import Problem, any_of
from .insert import insert_fences
from .loop import FenceOptions, Selector, _allowed, execution_key, insertions_of
from .places import program_places


_GROWING = {"fence", "strong-fence", "light-fence", "dep", "ppo", "kept-loc", "addr", "data", "ctrl", "F"}


def check_monotone(model: Model) -> None:
    """Refuse by name an axiom in which what devices add occurs negatively (under ~, right of \\, ~axiom).

    There a device could allow an execution, the clauses would not be necessary and the
    answer not proved minimal. The default axioms of a per-thread model pass.
    """
    from .cycles import _let_bodies

    lets = _let_bodies(model)
    growing = set(_GROWING)
    for decl in model.fences.values():
        growing |= set(decl.spellings)
    for ax in model.axioms:
        stack = [(ax.expr, not ax.negated, frozenset())]
        while stack:
            e, positive, seen = stack.pop()
            if e.op == "name":
                if e.name in growing and not positive:
                    raise UnsupportedError(
                        f"fence selection under model '{model.name}' needs fences and dependencies to act "
                        f"positively; axiom '{ax.name}' uses '{e.name}' negatively, so adding one could allow "
                        "an execution", ax.pos)
                if e.name in lets and e.name not in seen:
                    stack.append((lets[e.name], positive, seen | {e.name}))
                continue
            for i, a in enumerate(e.args):
                flip = e.op == "compl" or (e.op == "diff" and i > 0)
                stack.append((a, positive != flip, seen))


class PropagationSelector(Selector):
    """Loop-free tests under a per-thread model: maximal-failing-set clauses over fences and dependencies."""

    def __init__(self, program: Program, model: Model, options: FenceOptions):
        check_monotone(model)
        self.program = program
        self.model = model
        self.options = options
        self.kinds, self.dependencies = split_kinds(model, options.kinds, options.costs)
        self.problem = Problem(model, program_places(program), self.kinds)
        self.candidates: list[int] = []
        # device set -> (the program with it written in, its result, the unwanted executions left)
        self._checked: dict[frozenset[int], tuple[Program, TestResult, list[Execution]]] = {}

    # ----- devices ---------------------------------------------------------------------
    def _devices(self, executions: list[Execution]) -> list[int]:
        out = self.problem.all_choices()
        base = len(self.kinds)
        for tid, src, tgt, k in dependency_slots(self.program, self.model, executions, self.dependencies):
            place = target_place(self.program, tid, src, tgt)
            out.append(self.problem.device(place, self.dependencies[k], base + k, src))
        return sorted(out, key=lambda i: self.problem.choices[i].key())

    def fenced(self, chosen: frozenset[int]) -> Program:
        choices = self.problem.sorted_choices(chosen)
        if not any(c.is_dependency for c in choices):
            return insert_fences(self.program, insertions_of(choices))
        from .writer import fenced_source
        from ..litmus import parse_litmus

        return parse_litmus(fenced_source(self.program, choices), self.program.path or self.program.name)

    # ----- engine hooks ----------------------------------------------------------------
    def first(self) -> tuple[TestResult, int]:
        result, stored = _allowed(self.program, self.model)
        unwanted = [x for x in stored if self.target.unwanted(x.final)]
        self.candidates = self._devices(stored)
        return result, len(unwanted)

    def _run(self, chosen: frozenset[int]) -> tuple[Program, TestResult, list[Execution]]:
        got = self._checked.get(chosen)
        if got is None:
            fenced = self.fenced(chosen)
            result, stored = _allowed(fenced, self.model)
            got = self._checked[chosen] = (fenced, result, [y for y in stored if self.target.unwanted(y.final)])
        return got

    def recheck(self, fenced: Program) -> tuple[TestResult, list[Execution]]:
        result, stored = _allowed(fenced, self.model)
        return result, [y for y in stored if self.target.unwanted(y.final)]

    def verify(self, chosen: frozenset[int]) -> tuple[Program, TestResult, object]:
        return self._run(chosen)

    def refine(self, chosen: frozenset[int], fenced: Program, survivors: list[Execution]) -> bool:
        """Grow ``chosen`` to a maximal set leaving one survivor allowed; require a device outside it."""
        x = min(survivors, key=execution_key)
        key = execution_key(x)
        grown = set(chosen)
        for c in self.candidates:
            if c in grown:
                continue
            trial = frozenset(grown | {c})
            if any(execution_key(y) == key for y in self._run(trial)[2]):
                grown.add(c)
        outside = [frozenset((c,)) for c in self.candidates if c not in grown]
        if not outside:  # no device helps: an empty clause, CP-SAT says INFEASIBLE
            return self.problem.add(frozenset())
        return self.problem.add(any_of(outside))

    def rerun(self, program: Program) -> TestResult:
        from ..axiomatic import check

        return check(program, self.model, collect="none")

    def remaining(self):
        """The unwanted final states still reachable with every device in."""
        from ..core.condition import FinalState

        _, result, _ = self._run(frozenset(self.candidates))
        states = sorted((s for s in result.states if self.target.unwanted_state(s)), key=FinalState.text)
        if not states:
            raise MmdslError(f"internal: no device set met the requirements of {self.program.name}, "
                             "yet every device together forbids the target (please report this)")
        return states
