"""Reservations on the explorer: RMW halves and load-reserved / store-conditional pairs.

A thread *holds* a location when another thread's write to it would break an atomicity
the model requires: the write half of a split read-modify-write is pending (RMW
atomicity), or a load-reserved it performed keeps a reservation (``RESV``) its
store-conditional will need. ``reservations`` gives the locations a thread
holds; the search lets no other thread write them. The lr/sc helpers edit a pending list
when a store-conditional or a newer load-reserved is issued.
"""

from __future__ import annotations

from .deferred import after, evaluate, resolve
from .state import CONSUMED, GUARD, HALF, PAIRED, READ, RESV, RMW, WRITE


def reservations(pending: tuple) -> int:
    """Locations a thread holds reserved: its RMW has read, its write half is pending (a mask).

    A read from memory reserves at once; a read forwarded from a pending own write
    reserves from the moment that write is performed (the write half must follow it in
    coherence with no other thread's write between).
    """
    mask = 0
    for j, o in enumerate(pending):
        kind = o[0]
        if kind == HALF:
            loc = o[2]
            if not o[5] or not any(e[2] == loc and (e[0] == WRITE or e[0] == HALF) for e in pending[:j]):
                mask |= 1 << loc
        elif kind == RESV:
            # a load-reserved's reservation: from when no own write of the location is pending before it
            loc = o[2]
            if not any(e[2] == loc and (e[0] == WRITE or e[0] == HALF) for e in pending[:j]):
                mask |= 1 << loc
    return mask


def latest_lr(th, pending) -> int:
    """The position of the thread's latest load-reserved an sc may pair with (pending or its
    reservation), or -1."""
    for i in range(len(pending) - 1, -1, -1):
        o = pending[i]
        if o[0] == RESV:
            return -1 if o[4] else i
        if o[0] == READ and o[1] in th.lr_desc:
            return -1 if o[4] & CONSUMED else i
    return -1


def store_conditional(th, c, pc: int, loc: int, regs: tuple, pending: tuple, succeeds: bool) -> tuple[tuple, tuple]:
    """Issue a store-conditional: it ends the reservation; on success it is a pending write paired with it.

    RISC-V (``c[5]`` false): its status register reads 1 at once on failure, 0 once the
    write is performed on success (a dependency on the write, as in herd). PPC ``stwcx.``
    and ARM ``STREX`` (``c[5]``): as herd computes it, the status, 1 or 0, depends on every
    register the instruction reads and on its reservation's address, not on the write: it
    is deferred until the pending reads feeding them are performed.
    """
    i = latest_lr(th, pending)
    # PPC/ARM: the status is computed before the reservations end; it rides at the end of the
    # registers so that dropping a reservation shifts its placeholders too
    status = after(_status_inputs(c, regs, pending, i), 0 if succeeds else 1) if c[5] else 1
    if succeeds:
        o = pending[i]
        pending = pending[:i] + ((o[:4] + (o[4] | CONSUMED | PAIRED,)) if o[0] == READ
                                 else o[:4] + (True,) + o[5:],) + pending[i + 1:]
        regs, pending = end_reservations(regs + (status,), pending, th.lr_desc)
        regs, status = regs[:-1], regs[-1]
        pos = len(pending)
        pending = pending + ((WRITE, c[4], loc, pc, evaluate(c[3], regs), True),)
        if c[1] is not None:
            regs = regs[:c[1]] + (status if c[5] else ("?", pos),) + regs[c[1] + 1:]
        return regs, pending
    regs, pending = end_reservations(regs + (status,), pending, th.lr_desc)
    regs, status = regs[:-1], regs[-1]
    if c[1] is not None:
        regs = regs[:c[1]] + (status,) + regs[c[1] + 1:]
    return regs, pending


def _status_inputs(c, regs: tuple, pending: tuple, i: int) -> tuple:
    """What a PPC/ARM store-conditional's status waits for: its address and value, and the
    address of its load-reserved (pending ``i``) when that was issued on a guess."""
    inputs = (evaluate(c[2], regs), evaluate(c[3], regs))
    if i > 0 and pending[i - 1][0] == GUARD and pending[i - 1][3] == pending[i][3]:
        inputs += (pending[i - 1][4],)
    return inputs


def end_reservations(regs: tuple, pending: tuple, lr_desc) -> tuple[tuple, tuple]:
    """Pending load-reserveds no longer pair with an sc; unpaired reservations are dropped."""
    pending = tuple(o[:4] + (o[4] | CONSUMED,) if o[0] == READ and o[1] in lr_desc else o for o in pending)
    return drop_reservations(regs, pending)


def drop_reservations(regs: tuple, pending: tuple) -> tuple[tuple, tuple]:
    """Drop the reservations no issued store-conditional waits for."""
    for i in range(len(pending) - 1, -1, -1):
        if pending[i][0] == RESV and not pending[i][4]:
            regs, pending = remove_entry(regs, pending, i)
    return regs, pending


def remove_entry(regs: tuple, pending: tuple, i: int) -> tuple[tuple, tuple]:
    """Remove pending entry ``i`` (no value to give), shifting the placeholders after it."""
    rest = tuple(resolve_op(e, i, None, True) for e in pending[:i] + pending[i + 1:])
    regs = tuple(resolve(v, i, None, True) if v.__class__ is tuple else v for v in regs)
    return regs, rest


def resolve_op(o, p: int, value, removed: bool):
    kind = o[0]
    if kind == WRITE or kind == HALF:
        v = o[4]
        if v.__class__ is tuple:
            return o[:4] + (resolve(v, p, value, removed),) + o[5:]
    elif kind == RMW:
        new, cond = o[5], o[6]
        if new.__class__ is tuple or cond.__class__ is tuple:
            return o[:5] + (resolve(new, p, value, removed), resolve(cond, p, value, removed)) + o[7:]
    elif kind == GUARD:
        v = o[4]
        if v.__class__ is tuple:
            return o[:4] + (resolve(v, p, value, removed),) + o[5:]
    return o
