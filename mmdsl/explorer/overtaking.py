"""Out-of-order performs in model terms: which events of which instructions a step overtakes.

A perform step of thread t is out of order when operations t issued earlier are still
pending: it *overtakes* each of them. An ``Overtaking`` names one such pair by its
instructions and the events that take part -- what a fence between the two would have to
order to forbid the step (fence selection reads these; it needs nothing else of the
explorer's state layout):

* the performed operation moves both halves of a read-modify-write performed in one step,
  the read half of one performed in two, the write half of a pending write half, else
  its one event;
* an overtaken read-modify-write not yet read holds the later operation back by both
  halves, except a compare-and-swap that may still fail, which is passed by committing it
  to fail, so only its read half holds.

Along a trace an overtaking also carries ``passed``: the positions control reached after
issuing the overtaken operation, up to and including the performed one's instruction
(every issue step is an instruction executed, branches followed as taken, skipped labels
included) -- where a fence inserted in the program would have been issued between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.events import EventShape
from ..core.program import Branch, evaluate
from .machines.table.state import FENCE, I_RMW, RMW, Machine
from .machines.table.transitions import ISSUE, PERFORM, RMW_READ


@dataclass(frozen=True)
class Overtaking:
    """A perform of instruction ``later`` while instruction ``earlier`` of thread ``tid`` is pending."""

    tid: int
    earlier: int  # instruction index of the overtaken operation
    later: int  # instruction index of the performed operation
    earlier_events: tuple[EventShape, ...]  # the overtaken operation's events that hold the later back
    later_events: tuple[EventShape, ...]  # the events the perform moves
    passed: tuple[int, ...] | None = None  # along a trace: positions control reached between the two issues


def _later_events(machine: Machine, tid: int, op) -> tuple[EventShape, ...]:
    th = machine.threads[tid]
    shapes = th.rules.shapes
    if op[0] == RMW:
        code = th.code[op[3]]
        atomic = code[0] == I_RMW and code[8]
        return (shapes[op[1]], shapes[op[4]]) if atomic else (shapes[op[1]],)
    return (shapes[op[1]],)


def _earlier_events(machine: Machine, tid: int, op) -> tuple[EventShape, ...]:
    shapes = machine.threads[tid].rules.shapes
    if op[0] == RMW and not op[8]:
        return (shapes[op[1]], shapes[op[4]])
    return (shapes[op[1]],)


def step_overtakings(machine: Machine, state, tr) -> list[Overtaking]:
    """The overtakings of transition ``tr`` taken from ``state`` (none for an issue or an in-order perform)."""
    if tr.action != PERFORM:
        return []
    t = tr.tid
    pending = state[1][t][2]
    op = pending[tr.pos]
    later = _later_events(machine, t, op)
    return [Overtaking(t, o[3], op[3], _earlier_events(machine, t, o), later)
            for o in pending[:tr.pos] if o[0] < FENCE]


def trace_overtakings(machine: Machine, steps: list, final_state) -> list[Overtaking]:
    """Every overtaking along a trace, with the positions control passed between each pair's issues.

    ``steps`` are the (state before, transition) pairs from the initial state to ``final_state``.
    """
    visited = [list(range(0, th.skip_nops(0) + 1)) for th in machine.threads]
    # per thread, parallel to its pending list: (fence?, instruction, index in visited of its issue)
    issued: list[list[tuple[bool, int, int]]] = [[] for _ in machine.threads]
    afters = [s for s, _ in steps[1:]] + [final_state]
    out: list[Overtaking] = []
    for (state, tr), after in zip(steps, afters):
        t = tr.tid
        th = machine.threads[t]
        pc, regs, pending = state[1][t]
        if tr.action == ISSUE:
            ins = th.thread.instrs[pc]
            nxt = pc + 1
            if isinstance(ins, Branch):
                if tr.guess is not None:  # issued on a guess (the path shows it was right)
                    if tr.guess:
                        nxt = ins.target
                else:
                    env = {n: v for n, v in zip(th.reg_names, regs) if v.__class__ is not tuple}
                    if ins.cond is None or evaluate(ins.cond, env):
                        nxt = ins.target
            for o in after[1][t][2][len(pending):]:  # a guard, then the access or fence itself
                issued[t].append((o[0] >= FENCE, pc, len(visited[t]) - 1))
            visited[t].extend(range(nxt, th.skip_nops(nxt) + 1))
            continue
        p = tr.pos
        op = pending[p]
        vb = issued[t][p][2]
        later = _later_events(machine, t, op)
        for j in range(p):
            fence, _, va = issued[t][j]
            if fence:
                continue
            out.append(Overtaking(t, pending[j][3], op[3], _earlier_events(machine, t, pending[j]), later,
                                  tuple(visited[t][va + 1:vb + 1])))
        _realign(issued[t], p, not (op[0] == RMW and tr.outcome == RMW_READ), after[1][t][2])
    return out


def _realign(issued: list, p: int, removed: bool, pending_after: tuple) -> None:
    """Keep ``issued`` parallel to the pending list after a perform (fences and guards may be dropped too)."""
    if removed:
        del issued[p]
    i = 0
    for o in pending_after:
        while i < len(issued) and issued[i][0] and not (o[0] >= FENCE and issued[i][1] == o[3]):
            del issued[i]
        i += 1
    del issued[len(pending_after):]
