"""Solving a fence-selection problem with OR-Tools CP-SAT (imported only here, only when solving)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable

from .encoding import Problem

OPTIMAL = "OPTIMAL"
FEASIBLE = "FEASIBLE"
INFEASIBLE = "INFEASIBLE"
UNKNOWN = "UNKNOWN"


@dataclass
class Solution:
    """What CP-SAT said: status, the chosen fences (choice indices), their cost, the proved bound."""

    status: str
    chosen: frozenset[int]
    cost: int | None
    bound: int | None
    time: float


def _sorted_alt(alt) -> list[list[int]]:
    return sorted(sorted(lit) for lit in alt)


class _Built:
    """A CP-SAT model of the problem's requirements (no objective yet)."""

    def __init__(self, problem: Problem, exclude: Iterable[frozenset[int]] = ()):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        m = self.model = cp_model.CpModel()
        self.x = [m.new_bool_var(f"fence{i}") for i in range(len(problem.choices))]
        self._lits: dict[frozenset, object] = {}
        for req in problem.requirements:
            terms = []
            for alt in sorted(req, key=lambda a: (len(a), _sorted_alt(a))):
                lits = [self._literal(frozenset(lit)) for lit in _sorted_alt(alt)]
                if len(lits) == 1:
                    terms.append(lits[0])
                    continue
                a = m.new_bool_var("")
                for lit in lits:
                    m.add_implication(a, lit)
                terms.append(a)
            m.add_bool_or(terms)
        for cut in problem.cuts:
            self._cut(cut)
        for chosen in exclude:
            m.add_bool_or([self.x[i].Not() for i in sorted(chosen)])
        self.costs = [c.cost for c in problem.choices]
        # canonical preference among equal-cost answers: earlier thread, earlier place, earlier kind
        order = sorted(range(len(problem.choices)), key=lambda i: problem.choices[i].key())
        self.rank = {i: r + 1 for r, i in enumerate(order)}

    def _literal(self, lit: frozenset):
        if len(lit) == 1:
            return self.x[next(iter(lit))]
        v = self._lits.get(lit)
        if v is None:
            v = self._lits[lit] = self.model.new_bool_var("")
            self.model.add_bool_or([self.x[i] for i in sorted(lit)] + [v.Not()])
        return v

    def _cut(self, cut) -> None:
        """No path of the graph from its initial node to a violating node keeps all its edges."""
        m = self.model
        reach = [m.new_bool_var("") for _ in range(cut.nodes)]
        m.add_bool_or([reach[cut.initial]])
        for v in sorted(cut.violating):
            m.add_bool_or([reach[v].Not()])
        for u, v, lit in cut.edges:
            clause = [reach[u].Not(), reach[v]]
            if lit:
                clause.append(self._literal(frozenset(lit)))
            m.add_bool_or(clause)

    def cost_expr(self):
        return sum(c * v for c, v in zip(self.costs, self.x))

    def tie_expr(self):
        return sum(self.rank[i] * v for i, v in enumerate(self.x))

    def run(self, time_limit: float | None):
        solver = self.cp.CpSolver()
        solver.parameters.num_workers = 1
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = float(time_limit)
        status = solver.solve(self.model)
        return solver, solver.status_name(status)

    def chosen(self, solver) -> frozenset[int]:
        return frozenset(i for i, v in enumerate(self.x) if solver.value(v))


def solve_minimum(problem: Problem, time_limit: float | None = None) -> Solution:
    """The cheapest fence set meeting every requirement; OPTIMAL when CP-SAT proved it minimal.

    A second solve at the optimal cost picks, among equally cheap answers, the canonical
    one (earliest threads, places and kinds), so answers do not depend on solver luck.
    """
    start = time.perf_counter()
    if not problem.requirements and not problem.cuts:
        return Solution(OPTIMAL, frozenset(), 0, 0, time.perf_counter() - start)
    built = _Built(problem)
    built.model.minimize(built.cost_expr())
    solver, status = built.run(time_limit)
    if status not in (OPTIMAL, FEASIBLE):
        return Solution(status if status == INFEASIBLE else UNKNOWN, frozenset(), None, None,
                        time.perf_counter() - start)
    cost = int(round(solver.objective_value))
    bound = int(-(-solver.best_objective_bound // 1))
    chosen = built.chosen(solver)
    if status == OPTIMAL:
        chosen = _canonical(problem, cost, time_limit)[1] or chosen
    return Solution(status, chosen, cost, bound, time.perf_counter() - start)


def _canonical(problem: Problem, cost: int, time_limit: float | None,
               exclude: Iterable[frozenset[int]] = ()) -> tuple[str, frozenset[int] | None]:
    """(status, the canonical set of exactly ``cost`` avoiding ``exclude``, or None when there is none)."""
    built = _Built(problem, exclude)
    built.model.add(built.cost_expr() == cost)
    built.model.minimize(built.tie_expr())
    solver, status = built.run(time_limit)
    if status not in (OPTIMAL, FEASIBLE):
        return (INFEASIBLE if status == INFEASIBLE else UNKNOWN), None
    return status, built.chosen(solver)


def next_optimal(problem: Problem, cost: int, found: list[frozenset[int]],
                 time_limit: float | None = None) -> Solution:
    """Another fence set of exactly ``cost`` meeting every requirement, none of ``found``.

    The status says whether there is one (OPTIMAL or FEASIBLE, with the set), none is left
    (INFEASIBLE), or the time limit stopped CP-SAT before it knew (UNKNOWN). Every answer
    of optimal cost is minimal (costs are positive, so no answer contains another), hence
    excluding each found set as a whole (not all of its fences again) loses no other
    optimal answer.
    """
    start = time.perf_counter()
    status, chosen = _canonical(problem, cost, time_limit, found)
    if chosen is None:
        return Solution(status, frozenset(), None, None, time.perf_counter() - start)
    return Solution(status, chosen, cost, cost, time.perf_counter() - start)


def next_minimal(problem: Problem, found: list[frozenset[int]], time_limit: float | None = None) -> Solution:
    """The cheapest fence set meeting every requirement and containing none of ``found``.

    Every requirement is necessary, so a correct fence set that is a proper subset of the
    answer would meet them too, avoid ``found`` as well, and cost less (costs are
    positive): an OPTIMAL answer that passes the re-check is therefore inclusion-minimal,
    and excluding the supersets of each found set loses no other minimal one. Among equally
    cheap answers the canonical one is taken (as ``solve_minimum``).
    """
    start = time.perf_counter()
    built = _Built(problem, found)
    built.model.minimize(built.cost_expr())
    solver, status = built.run(time_limit)
    if status != OPTIMAL:  # a FEASIBLE answer might not be minimal: the enumeration stops there
        return Solution(INFEASIBLE if status == INFEASIBLE else UNKNOWN, frozenset(), None, None,
                        time.perf_counter() - start)
    cost = int(round(solver.objective_value))
    chosen = _canonical(problem, cost, time_limit, found)[1] or built.chosen(solver)
    return Solution(OPTIMAL, chosen, cost, cost, time.perf_counter() - start)
