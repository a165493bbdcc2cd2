"""An atomic block (``core.program.AtomicBegin``) run as one step of the one-memory machine.

The block is performed when it is issued: its loads read memory (or the block's own
earlier writes), its stores write memory, its branches and ``assume``s are decided on
those values, all in one transition. That is exact because

* no later access of the thread may go before the block: the model's table keeps every
  access after an RMW (``ThreadRules._check_atomic_blocks`` refuses a model that does
  not), and later instructions are issued after it;
* the block goes before an earlier pending operation only where the table lets an RMW
  event of it (class ``RMW``) pass that operation, location by location, with the fences
  between holding their pairs (``passing.may_pass`` for each location it touches); an
  earlier pending write to a location the block touches is therefore performed first,
  which is also what coherence asks;
* a block reading a value an earlier pending read has not delivered yet waits, as does one
  whose ``assume`` fails (a blocking compare-and-swap) or that would write a location
  another thread holds reserved (RMW atomicity).
"""

from __future__ import annotations

from .deferred import evaluate
from .passing import may_pass
from .state import (
    I_ASSIGN, I_ASSUME, I_BRANCH, I_LOAD, I_NOP, I_STORE, READ, Machine,
)


def run_block(m: Machine, th, pc: int, regs: tuple, mem: tuple, log: list | None = None):
    """Execute the block starting at ``pc`` on ``mem``.

    Returns None when it must wait (a register still waits for a pending read, or an
    ``assume`` fails), else ``(regs, writes, touched)``: the registers after it, the
    values it writes (location index -> value, the last write of each) and every location
    it reads or writes, in order of first access. ``log`` gets each access, ("R" or "W",
    location index, value), for traces.
    """
    end = th.code[pc][1]
    writes: dict[int, object] = {}
    touched: dict[int, None] = {}
    k = pc + 1
    regs = list(regs)
    while k < end:
        c = th.code[k]
        op = c[0]
        nxt = k + 1
        if op == I_LOAD or op == I_STORE:
            addr = evaluate(c[1] if op == I_STORE else c[2], regs)
            if addr.__class__ is tuple:
                return None
            loc = m.location(addr, th, k)
            touched[loc] = None
            if op == I_LOAD:
                value = writes[loc] if loc in writes else mem[loc]
                if c[1] is not None:
                    regs[c[1]] = value
                if log is not None:
                    log.append(("R", loc, value))
            else:
                value = evaluate(c[2], regs)
                if value.__class__ is tuple:
                    return None
                writes[loc] = value
                if log is not None:
                    log.append(("W", loc, value))
        elif op == I_ASSIGN:
            value = evaluate(c[2], regs)
            if value.__class__ is tuple:
                return None
            regs[c[1]] = value
        elif op == I_BRANCH:
            cond = None if c[1] is None else evaluate(c[1], regs)
            if cond.__class__ is tuple:
                return None
            if c[1] is None or cond:
                nxt = c[2]
        elif op == I_ASSUME:
            cond = evaluate(c[1], regs)
            if cond.__class__ is tuple or not cond:
                return None
        elif op != I_NOP:  # pragma: no cover - the front ends emit nothing else inside a block
            raise ValueError(op)
        k = nxt
    return tuple(regs), writes, list(touched)


def block_may_go(th, pending: tuple, pc: int, touched: list, writes: dict, reserved: int) -> bool:
    """May the block at ``pc`` be performed now, before every pending operation of its thread?"""
    rules = th.rules
    for loc in writes:
        if (reserved >> loc) & 1:
            return False
    descs = tuple(d for k in range(pc + 1, th.code[pc][1]) for d in rules.halves.get(k, ()))
    if not pending:
        return True
    if not descs:  # a block without accesses: nothing of it to order
        return True
    for loc in touched:
        probe = pending + ((READ, descs[0], loc, pc, 0),)
        commits = may_pass(rules, probe, len(pending), descs, loc, -1)
        if commits is None or commits:  # (never by committing a pending CAS to fail)
            return False
    return True
