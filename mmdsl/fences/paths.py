"""The path a thread took in an execution: which instructions ran, in order, and when each event ran."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import MmdslError
from ..core.events import Event
from ..core.program import (
    Assign, Assume, Branch, Fence, Load, Nop, Rmw, Store, Thread, evaluate,
)

MAX_STEPS = 100_000


@dataclass
class ThreadPath:
    """``visited[s]`` is the instruction run at step ``s``; ``step[eid]`` the step of each event."""

    visited: list[int]
    step: dict[int, int]

    def between(self, a: int, b: int) -> list[int]:
        """The positions control reaches after event ``a`` and up to (the instruction of) event ``b``."""
        return self.visited[self.step[a] + 1:self.step[b] + 1]


def _mismatch(thread: Thread, pc: int, what: str) -> MmdslError:
    return MmdslError(f"internal: replaying {thread.name} at instruction {pc + 1} found {what}; "
                      "the execution does not follow the program (please report this)")


def replay(thread: Thread, events: list[Event]) -> ThreadPath:
    """Run ``thread`` again with the values its reads took in an execution.

    ``events`` are the thread's events in program order (reads carry their values); the
    replay follows the same branches the execution took, so it knows which positions a
    fence inserted there would have run at.
    """
    regs = dict(thread.reg_init)
    visited: list[int] = []
    step: dict[int, int] = {}
    k = 0  # next event
    pc = 0
    instrs = thread.instrs

    def take(kind: str, pc: int) -> Event:
        nonlocal k
        if k >= len(events) or events[k].kind != kind or events[k].instr != pc:
            raise _mismatch(thread, pc, f"no {kind} event")
        ev = events[k]
        k += 1
        step[ev.eid] = len(visited) - 1
        return ev

    while pc < len(instrs):
        if len(visited) > MAX_STEPS:
            raise _mismatch(thread, pc, "a path longer than the execution")
        visited.append(pc)
        ins = instrs[pc]
        if isinstance(ins, Load):
            ev = take("R", pc)
            if ins.dst:
                regs[ins.dst] = ev.value
        elif isinstance(ins, Store):
            take("W", pc)
        elif isinstance(ins, Rmw):
            ev = take("R", pc)
            if k < len(events) and events[k].kind == "W" and events[k].instr == pc and events[k].rmw:
                take("W", pc)
            if ins.dst:
                regs[ins.dst] = ev.value
        elif isinstance(ins, Fence):
            take("F", pc)
        elif isinstance(ins, Assign):
            regs[ins.dst] = evaluate(ins.expr, regs)
        elif isinstance(ins, Branch):
            if ins.cond is None or evaluate(ins.cond, regs):
                pc = ins.target
                continue
        elif not isinstance(ins, (Assume, Nop)):
            raise _mismatch(thread, pc, f"instruction {type(ins).__name__}")
        pc += 1
    if k != len(events):
        raise _mismatch(thread, pc, "events left over")
    return ThreadPath(visited, step)

