"""herd's AArch64 ``pick`` dependencies, as extra control dependencies of the writes they reach.

A CAS compares the value it read with its register Rs, and that comparison (herd's
branching ``Commit`` event inside the instruction, joined by ``iico_ctrl``) feeds its write
and, in one of herd's two ways of a successful CAS, its result register. aarch64.cat reads
such paths as ``pick-addr-dep``, ``pick-data-dep`` and ``pick-ctrl-dep``
(aarch64deps.cat), which order a read before a write only (``pob``: ``pick-addr-dep;
[W]``, ``pick-data-dep``, ``pick-ctrl-dep; [W]``, ``pick-addr-dep; [M]; po; [W]``; with
``[IFB]; po`` also ``pick-ctrl-dep; [ISB]; po``). A read-to-write pair is exactly what
``ctrl; [W]`` gives in ``dob``, so the walker adds each pick source to the write's (or
ISB's) ``ctrl_dep``: the same ordering, with no register events.

The walker keeps, beside the real taint of each register, the reads it depends on only
through a comparison (``PICK + reg``); they flow through assignments, through a load's
address into its value, and through memory (a write then a po-later read of its location,
herd's ``lrs``), as herd's ``pick-dtrm`` does. None of this exists on a path without a
CAS (``PICK_ANY`` unset), where nothing changes.
"""

from __future__ import annotations

PICK = "%pick:"  # taints[PICK + reg]: reads the register depends on only through a comparison
PICK_ANY = "%pick"  # set once the path has a pick dependency
PICK_CTRL = "%pick-ctrl"  # reads a branch depends on by pick: later writes and fences depend on them
PICK_PO = "%pick-po"  # reads an access's address depends on by pick: later writes depend on them


def pick_of(e, taints: dict) -> int:
    """The reads ``e`` depends on by pick only (0 on a path without a CAS)."""
    if PICK_ANY not in taints:
        return 0
    m = 0
    for r in e.regs():
        m |= taints.get(PICK + r, 0)
    return m


def set_pick(taints: dict, reg: str | None, mask: int) -> None:
    """Record that ``reg`` (just written, in the caller's own copy of ``taints``) depends by pick on ``mask``."""
    if reg is None:
        return
    if mask:
        taints[PICK_ANY] = 1
        taints[PICK + reg] = mask
    elif PICK_ANY in taints:
        taints.pop(PICK + reg, None)


def write_picks(taints: dict, *exprs) -> tuple[int, int]:
    """(extra ctrl_dep, own pick) of a write whose address and value are ``exprs``: the
    reads the write is pick-ordered after, and those reaching it through its registers
    (what a later read of its location inherits, ``lrs``)."""
    if PICK_ANY not in taints:
        return 0, 0
    own = 0
    for e in exprs:
        own |= pick_of(e, taints)
    return own | taints.get(PICK_CTRL, 0) | taints.get(PICK_PO, 0), own


def read_pick(taints: dict, addr, loc: str, events: list) -> int:
    """The reads a load's value depends on by pick: through its address, and through the
    po-latest write of its thread to ``loc`` (herd's ``lrs``)."""
    if PICK_ANY not in taints:
        return 0
    m = pick_of(addr, taints)
    for ev in reversed(events):
        if ev.kind == "W" and ev.loc == loc:
            m |= ev.pick
            break
    return m


def after_access(taints: dict, addr) -> dict:
    """``taints`` after an access whose address may depend by pick on reads (later writes
    then do: ``pick-addr-dep; [M]; po; [W]``); a copy when it changes."""
    p = pick_of(addr, taints)
    if not p or taints.get(PICK_PO, 0) | p == taints.get(PICK_PO, 0):
        return taints
    taints = dict(taints)
    taints[PICK_PO] = taints.get(PICK_PO, 0) | p
    return taints


def after_branch(taints: dict, cond) -> dict:
    """``taints`` after a branch on ``cond`` (later writes and fences depend on its pick sources)."""
    p = pick_of(cond, taints)
    if not p:
        return taints
    taints = dict(taints)
    taints[PICK_CTRL] = taints.get(PICK_CTRL, 0) | p
    return taints


def fence_pick(taints: dict) -> int:
    return taints.get(PICK_CTRL, 0) if PICK_ANY in taints else 0
