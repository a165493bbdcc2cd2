"""Which earlier reads of its thread a read inherits its view from, under a per-thread model.

The per-thread machine (``propagation.py``) lets writes reach each thread at its own time.
Had every read of a thread taken the latest write to reach it, the thread's reads would
see one view growing in time, and with cumulative fences that orders in time two reads
herd leaves unordered. If read ``b`` takes the initial value of a location
(``b fre W``), ``W`` is before a barrier and ``W'`` after it on another thread
(``W prop W'``), and a read ``a`` of the same thread takes ``W'``, then ``b`` was
performed before ``W`` reached the thread, which was before ``W'`` did, which was before
``a``. Herd's ``ppc.cat`` / ``arm.cat`` ask only ``irreflexive fre ; prop ; hb*``: one
such segment closed by ``hb``. Two segments closed by two ``ppo`` pairs of one thread
made a cycle in the machine's time that herd's axioms do not have:

    a1 -ppo-> b1 -fre;prop;rfe-> a2 -ppo-> b2 -fre;prop;rfe-> a1

(``MP+lwsync+addr-bigdetour-addr``: ``Ry -addr-> Rz`` and ``Rw -addr-> Rx``, with
``Rz fre Wz lwsync Ww rfe Rw`` and ``Rx fre Wx lwsync Wy rfe Ry``: herd allows the
outcome, the machine forbade it, 15 of 16 states).

So each read has its own view: it may take any write that reached its thread and is not
coherence-before a write it must respect -- what its ``hb`` predecessors on the thread
saw, each with the writes and barriers the write it read needed first (``prop``), the
writes its thread read or wrote (SC per location), and what reached the thread before its
last strong fence. ``read_order`` gives the ``hb`` predecessors: the earlier reads the
machine performs a read after -- an address dependency (through registers), a branch on
the earlier read followed by a ``ctrl+FENCE`` fence, a fence that orders read-to-read
pairs, or the same location -- closed transitively.
"""

from __future__ import annotations

from ..core.events import EventShape
from ..core.program import Assign, BinOp, Branch, Const, Fence, Load, Reg
from .enabling import model_rules
from .reduction import LOCATION_OPS


def _location(thread, expr) -> str | None:
    """The location an address names when it is a constant or an initialised register, alone
    or plus an offset register (``lwzx r4,r3,%z``: a dependency idiom)."""
    names: set[str] = set()

    def walk(x):
        if isinstance(x, Const) and isinstance(x.value, str):
            names.add(x.value)
        elif isinstance(x, Reg) and isinstance(thread.reg_init.get(x.name), str):
            names.add(thread.reg_init[x.name])
        elif isinstance(x, BinOp) and x.op in LOCATION_OPS:
            walk(x.left)
            walk(x.right)

    walk(expr)
    return next(iter(names)) if len(names) == 1 else None


def read_order(thread, model) -> tuple[list[int], dict[int, set[int]]]:
    """The thread's plain reads (instruction indices) and, per read, the earlier reads the
    machine performs it after (transitively)."""
    rules = model_rules(model)
    ctrl_fences = {rule.name[5:] for rule in model.dependencies if rule.name.startswith("ctrl+")}
    taint: dict[str, set[int]] = {}  # register -> the reads its value comes from
    reads: list[int] = []
    before: dict[int, set[int]] = {}
    branched: set[int] = set()  # reads a branch so far tests
    ctrl_done: set[int] = set()  # reads a branch tests, followed by a ctrl+FENCE fence
    fenced: set[int] = set()  # reads before a fence that orders read-to-read pairs
    for k, ins in enumerate(thread.instrs):
        if isinstance(ins, Branch):
            if ins.cond is not None:
                for r in ins.cond.regs():
                    branched |= taint.get(r, set())
            continue
        if isinstance(ins, Fence):
            decls = model.fences_for(ins.kind)
            if any(d.name in ctrl_fences for d in decls) or ins.kind in ctrl_fences:
                ctrl_done |= branched
            if rules.fence_orders(ins.kind, EventShape("R"), EventShape("R")):
                fenced |= set(reads)
            continue
        if isinstance(ins, Assign):
            taint[ins.dst] = set().union(*(taint.get(r, set()) for r in ins.expr.regs()))
            continue
        if not isinstance(ins, Load):
            if getattr(ins, "dst", None) is not None:  # a read-modify-write or a status: no view to inherit
                taint[ins.dst] = set()
            continue
        deps = set().union(*(taint.get(r, set()) for r in ins.addr.regs())) | ctrl_done | fenced
        loc = _location(thread, ins.addr)
        if loc is not None:
            deps |= {j for j in reads if _location(thread, thread.instrs[j].addr) == loc}
        closed = set(deps)
        for j in deps:
            closed |= before.get(j, set())
        before[k] = closed
        reads.append(k)
        if ins.dst is not None:
            taint[ins.dst] = {k}
    return reads, before


__all__ = ["read_order"]
