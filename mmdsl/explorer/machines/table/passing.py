"""Which pending operations of a thread an operation may pass: the reordering table, fences
between, open address and control guesses, forwarding from an own write; and dropping the
fences that have nothing left to hold (the one-memory machine's ordering rules)."""

from __future__ import annotations

from .deferred import placeholders, resolve
from .enabling import ALWAYS, DIFFERENT, G_ADDR, G_CTRL, G_DATA
from .reservations import resolve_op
from .state import FENCE, GUARD, RESV, RMW

def may_pass(rules, pending, p: int, ks: tuple, loc: int, src: int):
    """May descriptors ``ks`` (performed now at ``loc``) go before every earlier pending operation?

    None when not; otherwise the positions of compare-and-swaps that must commit to
    fail for it. Same-location writes at or before the forwarding
    source ``src`` are passed by forwarding (the table alone decides); fences between
    hold their pairs.
    """
    ov, fwd, fb, is_write = rules.overtake, rules.forward, rules.fence_before, rules.is_write
    held = 0  # earlier descriptors some fence between keeps before ks
    commits = ()
    unsequenced = rules.unsequenced
    me = pending[p][3]
    floor = me  # the lowest instruction between (a loop re-evaluating an expression goes back)
    fences: list = []  # with unsequenced operands: the fences between, by instruction
    for j in range(p - 1, -1, -1):
        o = pending[j]
        kind = o[0]
        if unsequenced:
            if (o[3], me) in unsequenced and o[3] < floor:
                continue  # an operand of the same expression, evaluated unsequenced (C)
            floor = min(floor, o[3])
        if kind == RESV:
            continue
        if kind == FENCE:
            row = fb[o[1]]
            if unsequenced:  # it holds only the operations sequenced before it (below)
                fences.append((o[3], row))
                continue
            for k in ks:
                held |= row[k]
                # a cumulative fence not yet performed (per-thread models): a strong one keeps
                # every access it orders after it, a light one every such write
                if len(o) > 4 and row[k] and (o[4] == "strong" or is_write[k]):
                    return None
            continue
        if kind == GUARD:  # a guess still open: the reads it waits for hold back what the model keeps
            if o[1] == G_DATA:  # a write (or CAS) already performed on a guessed value: holds nothing
                continue
            if o[1] == G_ADDR and j == p - 1 and (o[3] != pending[p][3] or _addr_waits(rules, pending, o, ks)):
                return None  # the access at the guessed address waits, unless the model drops addr
            hold = rules.hold[o[1]]
            for r in placeholders(o[4]):
                row = hold[pending[r][1]]
                for k in ks:
                    if row[k]:
                        return None
            continue
        same = o[2] == loc
        halves = (o[1], o[4]) if kind == RMW else (o[1],)
        for f_instr, row in fences:
            if (o[3], f_instr) not in unsequenced:
                for k in ks:
                    held |= row[k]
        for n, dj in enumerate(halves):
            passed = not (held >> dj) & 1
            if passed:
                row = ov[dj]
                for k in ks:
                    code = row[k]
                    if code == ALWAYS or (code == DIFFERENT and not same):
                        continue
                    if same and j <= src and is_write[dj] and fwd[dj][k]:
                        continue
                    passed = False
                    break
            if not passed:
                if n == 1 and o[8]:  # a CAS that may still fail: pass it by committing it to fail
                    commits += (j,)
                    continue
                return None
    return commits


def issued_for_sure(rules, pending, src: int) -> bool:
    """May a read forward from the pending write at ``src``? Not while the write stands on an
    open guess the model keeps it after: its address guessed (addr), or a branch before it
    still waiting for a read it depends on by ctrl. A forwarded read comes after the reads
    its write depends on (the default order axiom's ``dep ; rfi``)."""
    hold = rules.hold[G_CTRL]
    d = pending[src][1]
    for j in range(src - 1, -1, -1):
        o = pending[j]
        if o[0] != GUARD or o[4].__class__ is not tuple:
            continue
        if o[1] == G_ADDR and j == src - 1 and (o[3] != pending[src][3] or _addr_waits(rules, pending, o, (d,))):
            return False
        if o[1] == G_CTRL and any(hold[pending[r][1]][d] for r in placeholders(o[4])):
            return False
    return True


def _addr_waits(rules, pending, guard, ks) -> bool:
    """Must the access at a guessed address wait for the reads its address comes from? Yes when
    the model honours addr for some of the pairs; otherwise it is performed at the guessed
    location (value speculation, as on the Alpha), and the guard checks the guess later."""
    if not rules.speculate_values:
        return True
    hold = rules.value_hold["addr"]
    reads = placeholders(guard[4])
    if not reads:  # nothing of the thread's to wait for (an RMW's old value): as before, wait
        return True
    return any(hold[pending[r][1]][k] for r in reads for k in ks)


def holds(o, mask: int) -> bool:
    """Is a pending access among the descriptors in ``mask``?"""
    if o[0] >= FENCE:
        return False
    if (mask >> o[1]) & 1:
        return True
    return o[0] == RMW and bool((mask >> o[4]) & 1)


def drop_dead_fences(rules, regs: tuple, pending: tuple) -> tuple[tuple, tuple]:
    """Fences with nothing they order still pending before them hold nothing back: drop them."""
    for i, o in enumerate(pending):
        if o[0] == FENCE and len(o) == 4 and not any(holds(e, rules.fence_a[o[1]]) for e in pending[:i]):
            rest = tuple(resolve_op(e, i, None, True) for e in pending[:i] + pending[i + 1:])
            regs = tuple(resolve(v, i, None, True) if v.__class__ is tuple else v for v in regs)
            return drop_dead_fences(rules, regs, rest)
    return regs, pending
