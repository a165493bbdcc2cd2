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

The places passed are followed exactly along the trace: every issue step is an
instruction executed (branches evaluated on the registers of the state), skipped labels
included. Traces of a fenced program are read back in terms of the original program's
places (a fence inserted before instruction i sits at i's place).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..axiomatic.checker import observed_keys
from ..core.events import EventShape
from ..core.outcome import TestResult
from ..core.program import Branch, Fence, Program, evaluate
from ..explorer import DEFAULT_MAX_PENDING, DEFAULT_MAX_STATES, ENGINE
from ..explorer.enabling import instruction_shapes, model_rules
from ..explorer.search import SearchOutcome, path_to, search
from ..explorer.state import FENCE, I_RMW, RMW, Machine
from ..explorer.transitions import ISSUE, RMW_READ, Semantics
from ..lang.ir import Model
from .encoding import Literal, Problem, Requirement, any_of

MAX_TRACES = 64  # violating traces turned into requirements per exploration


@dataclass
class Explored:
    """One exploration for fence selection: the result and the violating final states' traces."""

    result: TestResult
    outcome: SearchOutcome
    machine: Machine


def explore_for(program: Program, model: Model, unwanted, *, graph: bool = False, por: bool = True,
                max_states: int = DEFAULT_MAX_STATES) -> Explored:
    """Explore ``program``; final states where ``unwanted(values)`` holds are the targets."""
    machine = Machine(program, model_rules(model))
    semantics = Semantics(machine, DEFAULT_MAX_PENDING)
    found = search(machine, semantics, keys=observed_keys(program), is_target=unwanted,
                   state_filter=program.filter, por=por, order="bfs", max_states=max_states,
                   keep_graph=graph)
    cond = program.condition
    positive = sum(1 for s in found.finals if cond.prop.holds(s.as_dict()))
    result = TestResult(test=program.name, model=model.name, engine=ENGINE, condition=cond,
                        states=dict(found.finals), positive=positive, negative=len(found.finals) - positive,
                        path=program.path, time=found.time)
    result.stats.update(states=found.states, transitions=found.transitions)
    return Explored(result, found, machine)


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


def pending_shapes(ins, pending_op, later: bool, atomic: bool) -> tuple[EventShape, ...]:
    """The halves of a pending operation that take part in an overtaking.

    A read-modify-write performed in one step moves both halves; split, its read half
    goes first and its write half later. A compare-and-swap that may still fail is
    passed by committing it to fail, so only its read half holds a later operation.
    (Pending operations are the explorer's tuples, see ``explorer.state``: field 0 the
    kind, 3 the instruction, 8 of an RMW "may still fail".)
    """
    shapes = instruction_shapes(ins)
    if pending_op[0] != RMW:
        return shapes[-1:] if len(shapes) == 2 else shapes  # a pending write half: the W
    if later:
        return shapes if atomic else shapes[:1]
    return shapes[:1] if pending_op[8] else shapes


def overtaking_literal(problem: Problem, th, positions, earlier_op, later_op) -> Literal:
    """Fences at ``positions`` of compiled thread ``th`` that keep ``later_op`` behind ``earlier_op``."""
    code = th.code[later_op[3]]
    later = pending_shapes(th.thread.instrs[later_op[3]], later_op, True, code[0] == I_RMW and code[8])
    earlier = pending_shapes(th.thread.instrs[earlier_op[3]], earlier_op, False, False)
    lits: set = set()
    for x in earlier:
        for y in later:
            lits |= problem.literal(th.tid, positions, x, y)
    return frozenset(lits)


class TraceEncoder:
    """Turns violating traces of a program (or of a fenced version of it) into requirements."""

    def __init__(self, program: Program, problem: Problem):
        self.program = program
        self.problem = problem

    def requirement(self, explored: Explored, target: int, back: list[list[int]] | None = None) -> Requirement:
        """The requirement of the trace leading to final state ``target`` (OR over its overtakings)."""
        m = explored.machine
        steps = path_to(explored.outcome, target)
        states = [s for s, _ in steps[1:]] + [explored.outcome.state_list[target]]
        visited: list[list[int]] = [list(range(0, th.skip_nops(0) + 1)) for th in m.threads]
        issued: list[list[tuple[bool, int, int]]] = [[] for _ in m.threads]  # (fence?, instr, visit)
        literals = set()
        for (state, tr), after in zip(steps, states):
            t = tr.tid
            th = m.threads[t]
            pc, regs, pending = state[1][t]
            if tr.action == ISSUE:
                ins = th.thread.instrs[pc]
                nxt = pc + 1
                if isinstance(ins, Branch):
                    env = {n: v for n, v in zip(th.reg_names, regs) if v.__class__ is not tuple}
                    if ins.cond is None or evaluate(ins.cond, env):
                        nxt = ins.target
                if len(after[1][t][2]) > len(pending):
                    issued[t].append((isinstance(ins, Fence), pc, len(visited[t]) - 1))
                visited[t].extend(range(nxt, th.skip_nops(nxt) + 1))
                continue
            p = tr.pos
            op = pending[p]
            vb = issued[t][p][2]
            for j in range(p):
                fence, _, va = issued[t][j]
                if fence:
                    continue
                seen = visited[t][va + 1:vb + 1]
                if back is not None:
                    seen = [back[t][q] for q in seen]
                lit = overtaking_literal(self.problem, th, seen, pending[j], op)
                if lit:
                    literals.add(lit)
            _realign(issued[t], p, not (op[0] == RMW and tr.outcome == RMW_READ), after[1][t][2])
        return any_of(sorted(literals, key=sorted))

    def requirements(self, explored: Explored, back: list[list[int]] | None = None,
                     limit: int = MAX_TRACES) -> list[Requirement]:
        """Requirements of (up to ``limit``) traces to the violating final states, nearest first."""
        out = []
        for target in sorted(explored.outcome.target_ids)[:limit]:
            out.append(self.requirement(explored, target, back))
        return out


def _realign(issued: list, p: int, removed: bool, pending_after: tuple) -> None:
    """Keep ``issued`` parallel to the pending list after a perform (fences may be dropped too)."""
    if removed:
        del issued[p]
    i = 0
    for o in pending_after:
        while i < len(issued) and issued[i][0] and not (o[0] == FENCE and issued[i][1] == o[3]):
            del issued[i]
        i += 1
    del issued[len(pending_after):]
