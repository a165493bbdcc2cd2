"""The .NET paper's method: a minimum cut of the explored state graph, solved exactly with CP-SAT.

Huynh and Roychoudhury explore the program under the relaxed model and look for the
cheapest set of barriers that disconnects the initial state from every violating final
state, where the cuttable edges are the out-of-order transitions (a later operation
performed while an earlier one of its thread is pending) and a barrier at a place removes
every such transition that overtakes an operation issued before that place with one
issued after it. They solve it with max-flow; here the same question is one CP-SAT
constraint (``encoding.CutGraph``): a Boolean "reachable" per state, true at the initial
state, false at violating ones, and for each edge "source reachable and the edge not
removed implies target reachable" -- a minimum cut where the edges of one barrier are cut
together, which max-flow alone cannot express.

The state graph does not record the path that led to a state, so a transition is taken
to be removed by a barrier at every place that *may* lie between the two issues: a place
reachable in the thread's control flow after the overtaken operation's instruction, from
which the overtaking one's is reachable. That over-approximates what a barrier removes,
so the cut is a necessary condition (every correct fence set cuts the graph this way)
and its optimum a lower bound; the fenced program is explored again, and traces that
survive are added as exact requirements (``traces``), as the paper's method would need a
second pass for.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.program import Thread
from ..explorer import StateSpace, control_successors
from .encoding import CutGraph, Problem
from .traces import overtaking_literal


class ControlFlow:
    """Positions that may lie between two instructions of a thread (its control-flow graph)."""

    def __init__(self, thread: Thread):
        succ = control_successors(thread) + [()]  # the end has no successor
        n = len(succ)
        self.reach: list[frozenset[int]] = []
        for i in range(n):
            seen = {i}
            todo = [i]
            while todo:
                for s in succ[todo.pop()]:
                    if s not in seen:
                        seen.add(s)
                        todo.append(s)
            self.reach.append(frozenset(seen))
        self.succ = succ
        self.between = lru_cache(maxsize=None)(self._between)

    def _between(self, a: int, b: int) -> tuple[int, ...]:
        """Positions control may reach after instruction ``a`` and before arriving at ``b`` (``b`` included)."""
        after = set()
        for s in self.succ[a]:
            after |= self.reach[s]
        return tuple(sorted(q for q in after if b in self.reach[q]))


def cut_graph(problem: Problem, space: StateSpace) -> CutGraph:
    """The explored state graph with each out-of-order edge labelled by the fences that remove it."""
    flows = [ControlFlow(t) for t in space.program.threads]
    edges = []
    for src, dst, overtakings in space.edges():
        lits: set = set()
        for ov in overtakings:
            lits |= overtaking_literal(problem, ov, flows[ov.tid].between(ov.earlier, ov.later))
        edges.append((src, dst, frozenset(lits)))
    return CutGraph(space.states, 0, edges, frozenset(space.targets))
