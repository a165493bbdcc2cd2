"""Steps and traces: issue/perform steps in words, out-of-order performs marked, and state texts."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.program import Assign, Assume, AtomicBegin, Branch, Fence, Load, Nop, Rmw, Store, StoreCond
from .machines.table.deferred import deferred_text, is_deferred, with_old
from .machines.table.state import FENCE, GUARD, HALF, KIND_TEXT, READ, RMW, WRITE, Machine
from .machines.table.transitions import ISSUE, LR_RESERVES, PERFORM, RMW_FAIL, RMW_READ, RMW_WHOLE, SC_SUCCEEDS, Transition


@dataclass(frozen=True)
class Step:
    """One transition of a trace: ``P0: perform W x=1``."""

    tid: int
    action: str  # "issue" | "perform"
    instr: int  # index of the instruction in its thread
    label: str  # "P0: perform W x=1", "P1: issue r0 = x"
    out_of_order: bool  # performed while an earlier operation of its thread is pending
    overtaken: tuple[str, ...] = ()  # the earlier pending operations it goes before
    received: tuple[int, str] | None = None  # a write reaching this thread: its writer's thread, ``W x=1``

    def text(self) -> str:
        if self.out_of_order:
            return f"{self.label}  (before {', '.join(self.overtaken)})"
        return self.label


def _tags(annots) -> str:
    return "".join(f"[{a}]" for a in sorted(set(annots) - {"atomic"}))


def _guess_text(guess) -> str:
    """A guess a thread went on with: a branch ``taken`` / ``not taken``, or an address."""
    if guess is True:
        return "taken"
    if guess is False:
        return "not taken"
    return f"address {guess}"


def instr_text(ins) -> str:
    """An instruction in a neutral notation: ``r0 = y``, ``x = 1``, ``r1 = rmw x (old + 1)``."""
    if isinstance(ins, Load):
        return f"{ins.dst or '_'} = {ins.addr}{_tags(ins.annots)}"
    if isinstance(ins, Store):
        return f"{ins.addr}{_tags(ins.annots)} = {ins.value}"
    if isinstance(ins, Rmw):
        new = str(ins.new).replace("%old", "old")
        text = f"{ins.dst or '_'} = rmw{_tags(ins.annots)} {ins.addr} := {new}"
        if ins.cond is not None:
            cond = str(ins.cond).replace("%old", "old")
            text += f" {'when' if ins.blocking else 'if'} {cond}"
        return text
    if isinstance(ins, StoreCond):
        return f"{ins.dst or '_'} = sc{_tags(ins.annots)} {ins.addr} := {ins.value}"
    if isinstance(ins, Fence):
        return f"fence {ins.kind}"
    if isinstance(ins, Assign):
        return f"{ins.dst} = {ins.expr}"
    if isinstance(ins, Branch):
        if ins.choice:
            return f"either goto {ins.target} or go on"
        return f"goto {ins.target}" if ins.cond is None else f"if {ins.cond} goto {ins.target}"
    if isinstance(ins, Assume):
        return f"assume {ins.cond}"
    if isinstance(ins, Nop):
        return "nop"
    return type(ins).__name__


class Describer:
    """Words for transitions, pending operations and states of one compiled program."""

    def __init__(self, machine: Machine):
        self.m = machine

    def _loc(self, i: int) -> str:
        return self.m.locations[i]

    def _annots(self, t: int, instr: int) -> str:
        return _tags(getattr(self.m.threads[t].thread.instrs[instr], "annots", ()))

    def op_text(self, t: int, op, pending=None) -> str:
        """``W x=1``, ``R y``, ``RMW x``, ``W* x=2``, ``F[mfence]``."""
        kind = op[0]
        if kind == FENCE:
            return f"F[{self.m.threads[t].thread.instrs[op[3]].kind}]"
        if kind == GUARD:
            return f"guess[{_guess_text(op[5])} at {op[3] + 1}]"
        tag = self._annots(t, op[3])
        head = f"{KIND_TEXT[kind]}{tag} {self._loc(op[2])}"
        if kind in (WRITE, HALF):
            return f"{head}={self.value_text(t, op[4], pending)}"
        return head

    def value_text(self, t: int, v, pending) -> str:
        if not is_deferred(v):
            return str(v)
        names = {}
        if pending is not None:
            for p, o in enumerate(pending):
                if o[0] in (READ, RMW):
                    names[p] = f"<{KIND_TEXT[o[0]]} {self._loc(o[2])}>"
        return deferred_text(v, names)

    def step(self, state, tr: Transition) -> Step:
        t = tr.tid
        th = self.m.threads[t]
        pc, _, pending = state[1][t]
        if tr.action > PERFORM:  # a per-thread machine's propagation or fence step
            from .machines.propagation.propagation import describe, received

            return Step(t, "propagate", pc, describe(self.m, state, tr), False,
                        received=received(self.m, state, tr))
        if tr.action == ISSUE and isinstance(th.thread.instrs[pc], AtomicBegin):  # performed as issued
            from .machines.table.atomic_block import run_block

            log: list = []
            run_block(self.m, th, pc, state[1][t][1], state[0], log)
            what = ", ".join(f"{k} {self._loc(loc)}={v}" for k, loc, v in log) or "no access"
            overtaken = tuple(self.op_text(t, o, pending) for o in pending if o[0] < FENCE)
            return Step(t, "perform", pc, f"{th.name}: perform atomic block: {what}", bool(overtaken), overtaken)
        if tr.action == ISSUE:
            ins = th.thread.instrs[pc]
            guess = f" (guessing {_guess_text(tr.guess)})" if tr.guess is not None else ""
            if isinstance(ins, StoreCond):
                guess += " (succeeds)" if tr.outcome == SC_SUCCEEDS else " (fails)"
            if getattr(ins, "choice", False):  # a nondeterministic choice, not a guess
                guess = " (goes to the target)" if tr.guess else " (goes on)"
            return Step(t, "issue", pc, f"{th.name}: issue {instr_text(ins)}{guess}", False)
        op = pending[tr.pos]
        loc = self._loc(op[2])
        tag = self._annots(t, op[3])
        kind = op[0]
        if kind == READ:
            value = pending[tr.source][4] if tr.source >= 0 else self.m.read_value(state, t, op[2])
            what = f"R{tag} {loc}={value}" + (" (forwarded)" if tr.source >= 0 else "")
            if tr.outcome == LR_RESERVES:
                what += " (reserves)"
        elif kind in (WRITE, HALF):
            what = f"{KIND_TEXT[kind]}{tag} {loc}={op[4]}"
        else:
            old = pending[tr.source][4] if tr.source >= 0 else self.m.read_value(state, t, op[2])
            fwd = " (forwarded)" if tr.source >= 0 else ""
            if tr.outcome == RMW_WHOLE:
                what = f"RMW{tag} {loc}={old}->{with_old(op[5], old)}"
            elif tr.outcome == RMW_FAIL:
                what = f"R*{tag} {loc}={old}{fwd} (no write)"
            else:
                assert tr.outcome == RMW_READ
                what = f"R*{tag} {loc}={old}{fwd}"
        overtaken = tuple(self.op_text(t, o, pending) for o in pending[:tr.pos] if o[0] < FENCE)
        return Step(t, "perform", op[3], f"{th.name}: perform {what}", bool(overtaken), overtaken)

    def state_short(self, state) -> str:
        """``x=1 y=0 | P0@2 [W x=1] | P1 done``."""
        mem, threads = state
        parts = [self.m.memory_text(mem)]
        for th, (pc, _, pending) in zip(self.m.threads, threads):
            where = "done" if pc >= th.length else f"@{pc}"
            ops = ", ".join(self.op_text(th.tid, o, pending) for o in pending)
            parts.append(f"{th.name} {where}" + (f" [{ops}]" if ops else ""))
        return " | ".join(parts)

    def state_detail(self, state) -> str:
        """Memory, then per thread its pc, registers and pending list, one line each."""
        mem, threads = state
        lines = ["memory: " + self.m.memory_text(mem)]
        for th, (pc, regs, pending) in zip(self.m.threads, threads):
            where = "done" if pc >= th.length else f"at {pc}: {instr_text(th.thread.instrs[pc])}"
            shown = [(n, v) for n, v in zip(th.reg_names, regs) if not n.startswith("%")]
            reg_text = " ".join(f"{n}={self.value_text(th.tid, v, pending)}" for n, v in shown)
            ops = ", ".join(self.op_text(th.tid, o, pending) for o in pending) or "-"
            lines.append(f"{th.name} {where}; regs {reg_text or '-'}; pending {ops}")
        return "\n".join(lines)


def trace_text(steps: list[Step], final_text: str | None = None) -> str:
    """The numbered steps of a trace, out-of-order performs marked with ``*``."""
    lines = []
    width = len(str(len(steps)))
    for i, s in enumerate(steps, 1):
        mark = "*" if s.out_of_order else " "
        lines.append(f"  {i:>{width}}{mark} {s.text()}")
    if final_text is not None:
        lines.append(f"  final: {final_text}")
    return "\n".join(lines) + "\n"
