"""What a fence set must do to block one explorer trace: forbid one of its out-of-order steps.

A trace of the operational explorer is a sequence of issue and perform steps. A perform
step of thread t is out of order when operations of t issued earlier are still pending:
it overtakes each of them. In the fenced program the same step is impossible exactly
when a fence issued between some overtaken operation a and the performed operation b
orders (a, b) -- the explorer keeps such a fence pending and lets no b it orders pass
it -- and nothing else about the trace changes (fences change no value and no branch).
So the trace is blocked exactly when, for some out-of-order step and some operation it
overtakes, a chosen fence kind ordering the pair sits at a place control passed between
the two issues: an OR of literals, necessary and sufficient for this trace.

The explorer gives the overtakings of a trace with the places passed between each
pair's issues, followed exactly along the trace (``explorer.Overtaking``). Traces of a
fenced program are read back in terms of the original program's
places (a fence inserted before instruction i sits at i's place).
"""

from __future__ import annotations

from ..core.program import Fence, Program
from ..explorer import Overtaking, StateSpace
from .encoding import Literal, Problem, Requirement, any_of

MAX_TRACES = 64  # violating traces turned into requirements per exploration


def positions_back(original: Program, fenced: Program) -> list[list[int]]:
    """Per thread, for each position of ``fenced``, the position of ``original`` it stands for.

    Fences inserted before original instruction i (and i itself) stand for position i.
    """
    out = []
    for t0, t1 in zip(original.threads, fenced.threads):
        back = []
        i = 0
        for ins in t1.instrs:
            back.append(i)
            inserted = isinstance(ins, Fence) and not (i < len(t0.instrs) and ins is t0.instrs[i])
            if not inserted:
                i += 1
        back.append(len(t0.instrs))
        out.append(back)
    return out


def overtaking_literal(problem: Problem, ov: Overtaking, positions) -> Literal:
    """Fences at ``positions`` of thread ``ov.tid`` that keep the overtaking operation behind the overtaken one."""
    lits: set = set()
    for x in ov.earlier_events:
        for y in ov.later_events:
            lits |= problem.literal(ov.tid, positions, x, y)
    return frozenset(lits)


class TraceEncoder:
    """Turns violating traces of a program (or of a fenced version of it) into requirements."""

    def __init__(self, problem: Problem):
        self.problem = problem

    def requirement(self, space: StateSpace, target: int, back: list[list[int]] | None = None) -> Requirement:
        """The requirement of the trace leading to final state ``target`` (OR over its overtakings)."""
        literals = set()
        for ov in space.trace_overtakings(target):
            seen = ov.passed if back is None else [back[ov.tid][q] for q in ov.passed]
            lit = overtaking_literal(self.problem, ov, seen)
            if lit:
                literals.add(lit)
        return any_of(sorted(literals, key=sorted))

    def requirements(self, space: StateSpace, back: list[list[int]] | None = None,
                     limit: int = MAX_TRACES) -> list[Requirement]:
        """Requirements of (up to ``limit``) traces to the violating final states, nearest first."""
        return [self.requirement(space, target, back) for target in space.targets[:limit]]
