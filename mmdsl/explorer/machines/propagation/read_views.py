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
last strong fence. ``read_orders`` gives the ``hb`` predecessors, compiled from the
model's table and dependency lines: the earlier reads a read is always kept after -- a
dependency the model names for the pair (address through registers, a branch followed by
a ``ctrl+FENCE`` fence ...), the same location where the table keeps it, a fence that
orders read-to-read pairs -- closed transitively; and those it is kept after by the
write it takes (``must_taking``): the model's ``rdw`` (a newer write of another thread
than an earlier read of the location took), ``rfi`` (its own write, whose address or
value came from the read) and ``detour`` (another thread's write coherence-after an own
write kept after the read by ``ppo``). A read of its own thread's write inherits no
barriers from it: herd's ``rfi`` is in neither ``prop`` nor ``hb``.
"""

from __future__ import annotations

from typing import NamedTuple

from ....core.errors import UnsupportedError
from ....core.events import EventShape
from ....core.program import Assign, BinOp, Branch, Const, Fence, Load, Reg, Rmw, Store, StoreCond
from ..table.enabling import instruction_shapes, model_rules
from ...reduction import LOCATION_OPS
from ..table.state import FENCE, READ, RMW, control_successors
from .storage import EV_BARRIER, EV_WRITE, _bits, _loc_writes
from ..table.transitions import PERFORM

def named_location(thread, expr) -> str | None:
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


_UNKNOWN = object()  # a register whose location the thread's code does not fix


def access_locations(thread) -> dict[int, str | None]:
    """Per memory access (instruction index), the location its address names, following the
    thread's assignments (``xor r3,r1,r1; add r3,r3,r4``: ``r4``'s location; a value read
    from memory names none); None when no single location is named."""
    held: dict[str, object] = {}  # register -> the location it holds (None: a value, no location)

    def walk(x, out: set) -> bool:
        if isinstance(x, Const) and isinstance(x.value, str):
            out.add(x.value)
        elif isinstance(x, Reg):
            v = held[x.name] if x.name in held else thread.reg_init.get(x.name)
            if v is _UNKNOWN:
                return False
            if isinstance(v, str):
                out.add(v)
        elif isinstance(x, BinOp) and x.op in LOCATION_OPS:
            return walk(x.left, out) and walk(x.right, out)
        return True

    jumps = [(b, ins.target) for b, ins in enumerate(thread.instrs) if isinstance(ins, Branch)]
    looping = any(target <= b for b, target in jumps)

    def assign(k: int, reg: str, value) -> None:
        """An assignment every path runs replaces the register's location; one a branch may
        jump over (or in a loop) merges with it, and two different ones make it unknown."""
        if not looping and not any(b < k < target for b, target in jumps):
            held[reg] = value
        else:
            init = thread.reg_init.get(reg)
            prior = held[reg] if reg in held else init if isinstance(init, str) else None
            held[reg] = value if prior == value else _UNKNOWN

    out: dict[int, str | None] = {}
    for k, ins in enumerate(thread.instrs):
        if isinstance(ins, Assign):
            names: set = set()
            ok = walk(ins.expr, names)
            assign(k, ins.dst, (next(iter(names)) if len(names) == 1 else _UNKNOWN if names else None)
                   if ok else _UNKNOWN)
            continue
        if getattr(ins, "addr", None) is not None:
            names = set()
            out[k] = next(iter(names)) if walk(ins.addr, names) and len(names) == 1 else None
        if getattr(ins, "dst", None) is not None:
            assign(k, ins.dst, None)
    return out


class ReadOrder(NamedTuple):
    """Per read of a thread (instruction index), the earlier reads whose views it inherits:
    always (``before``, closed transitively), or only by the write it takes (``rdw``: a
    newer write of another thread than the earlier read of its location took; ``rfi``: its
    own thread's write; ``detour``: another thread's write, coherence-after its own).
    ``inherits``: per read, all of them; ``by_write``: the reads with an ``rdw``, ``rfi``
    or ``detour`` source."""

    reads: list[int]
    before: dict[int, set[int]]
    rdw: dict[int, set[int]]
    rfi: dict[int, set[int]]
    detour: dict[int, set[int]]
    inherits: dict[int, frozenset] = {}
    by_write: frozenset = frozenset()

    def kept(self) -> set[int]:
        """The reads whose views a later read may inherit."""
        return set().union(*self.inherits.values())

    def sources(self, k: int) -> frozenset:
        """Every read whose view read ``k`` may inherit."""
        return self.inherits.get(k, frozenset())


def read_order(thread, model) -> tuple[list[int], dict[int, set[int]]]:
    """The thread's plain reads (instruction indices) and, per read, the earlier reads the
    machine performs it after (transitively), whatever the writes they take."""
    order = read_orders(thread, model)
    return order.reads, order.before


def read_orders(thread, model) -> ReadOrder:
    """The thread's plain reads and, per read, the earlier reads whose views it inherits,
    compiled from the model's table and its dependency lines as the checker reads them
    (``lang/table.py``, ``lang/defaults.py``): a pair the table keeps -- at one location,
    or by a dependency the model names for the pair's classes (addr, ctrl, addr;po,
    ctrl+FENCE, addr;po;ctrl+FENCE) --, a fence that orders read-to-read pairs; and, by the
    write the read takes, the model's ``rdw``, ``rfi`` and ``detour`` lines (herd's
    ``po-loc & (fre ; rfe)`` in ii0, ``(addr | data) ; rfi`` and ``(ppo & R * W) ; po-loc &
    (coe ; rfe)``)."""
    rules = model_rules(model)
    table, deps = rules.table, rules.deps
    names = {rule.name for rule in model.dependencies}
    ctrl_fences = {name[5:] for name in names if name.startswith("ctrl+")}
    # addr;po;ctrl+FENCE (herd's cc ; ci): a ctrl+FENCE from a read also orders the reads
    # that gave an earlier access its address
    addr_po_ctrl = {name[13:] for name in names if name.startswith("addr;po;ctrl+")}
    fence_deps = [name for name in names if name.startswith("ctrl+") or name.startswith("addr;po;ctrl+")]
    taint: dict[str, set[int]] = {}  # register -> the reads its value comes from
    reads: list[int] = []
    order = ReadOrder(reads, {}, {}, {}, {})
    where = access_locations(thread)
    _refuse_unknown_locations(thread, model, where, names & {"rdw", "rfi", "detour"})
    own_rfi: dict[str, set[int]] = {}  # location -> the reads its latest own write's address or value come from
    own_ppo: dict[str, set[int]] = {}  # location -> the reads its own writes so far are kept after (ppo)
    branched: set[int] = set()  # reads a branch so far tests
    ctrl_done: set[int] = set()  # reads a branch tests, followed by a ctrl+FENCE fence
    fenced: set[int] = set()  # reads before a fence that orders read-to-read pairs
    addressed: set[int] = set()  # reads that gave an access so far its address
    addr_po: dict[int, set[int]] = {}  # read -> the reads that addressed an access before it

    def kept_after(shape, loc, addr_from: set[int], data_from: set[int], po_addressed: set[int]) -> set[int]:
        """The earlier reads an access of ``shape`` at ``loc`` is kept after by the table (ppo)."""
        out = set()
        for j in reads:
            earlier = instruction_shapes(thread.instrs[j])[0]
            dependent = ((j in addr_from and deps.keeps("addr", earlier, shape))
                         or (j in data_from and deps.keeps("data", earlier, shape))
                         or (j in branched and deps.keeps("ctrl", earlier, shape))
                         or (j in po_addressed and deps.keeps("addr;po", earlier, shape))
                         or (j in ctrl_done and any(deps.keeps(n, earlier, shape) for n in fence_deps)))
            same = loc is not None and where[j] == loc
            if table.keeps(earlier, shape, same, dependent):
                out.add(j)
        return out

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
            if any(d.name in addr_po_ctrl for d in decls) or ins.kind in addr_po_ctrl:
                ctrl_done |= set().union(*(addr_po.get(b, set()) for b in branched))
            if rules.fence_orders(ins.kind, EventShape("R"), EventShape("R")):
                fenced |= set(reads)
            continue
        if isinstance(ins, Assign):
            taint[ins.dst] = set().union(*(taint.get(r, set()) for r in ins.expr.regs()))
            continue
        addr_from = set().union(*(taint.get(r, set()) for r in ins.addr.regs())) if getattr(
            ins, "addr", None) is not None else set()
        if isinstance(ins, Store):
            wloc = where[k]
            if wloc is not None:
                data_from = set().union(*(taint.get(r, set()) for r in ins.value.regs()))
                own_rfi[wloc] = addr_from | data_from
                own_ppo[wloc] = own_ppo.get(wloc, set()) | kept_after(
                    instruction_shapes(ins)[0], wloc, addr_from, data_from, addressed)
        elif not isinstance(ins, Load) and getattr(ins, "addr", None) is not None:
            wloc = where[k]
            if wloc is not None:
                own_rfi[wloc] = set()
        if getattr(ins, "addr", None) is not None:
            if isinstance(ins, Load):
                addr_po[k] = set(addressed)
            addressed |= addr_from
        if not isinstance(ins, Load):
            if getattr(ins, "dst", None) is not None:  # a read-modify-write or a status: no view to inherit
                taint[ins.dst] = set()
            continue
        loc = where[k]
        shape = instruction_shapes(ins)[0]
        dep = kept_after(shape, loc, addr_from, set(), addr_po[k]) | fenced
        if loc is not None:
            if "rdw" in names:
                rdw = {j for j in reads if j not in dep and where[j] == loc
                       and deps.keeps("rdw", instruction_shapes(thread.instrs[j])[0], shape)}
                if rdw:
                    order.rdw[k] = rdw
            if "rfi" in names and own_rfi.get(loc):
                order.rfi[k] = {j for j in own_rfi[loc] if deps.keeps(
                    "rfi", instruction_shapes(thread.instrs[j])[0], shape)}
            if "detour" in names and own_ppo.get(loc):
                order.detour[k] = {j for j in own_ppo[loc] if deps.keeps(
                    "detour", instruction_shapes(thread.instrs[j])[0], shape)}
        closed = set(dep)
        for j in dep:
            closed |= order.before.get(j, set())
        order.before[k] = closed
        reads.append(k)
        if ins.dst is not None:
            taint[ins.dst] = {k}
    by_write = frozenset(order.rdw) | frozenset(order.rfi) | frozenset(order.detour)
    inherits = {k: frozenset(order.before[k] | order.rdw.get(k, set()) | order.rfi.get(k, set())
                             | order.detour.get(k, set())) for k in reads}
    return order._replace(inherits=inherits, by_write=by_write)


def _refuse_unknown_locations(thread, model, where: dict, lines: set) -> None:
    """The model's ``rdw``, ``rfi`` and ``detour`` lines ask whether two accesses of a thread
    share a location: refuse by name an access whose location the code does not fix, when
    another access of the thread could share it."""
    if not lines:
        return
    accesses = [k for k, loc in where.items() if isinstance(thread.instrs[k], (Load, Store, Rmw, StoreCond))]
    for k in accesses:
        if where[k] is None and len(accesses) > 1 and (
                isinstance(thread.instrs[k], Load) or any(isinstance(thread.instrs[j], Load) for j in accesses)):
            ins = thread.instrs[k]
            line = " / ".join(sorted(lines))
            raise UnsupportedError(
                f"'{ins.text}' accesses a location the thread's code does not fix, and model '{model.name}' "
                f"has {line} dependency lines, which order a read by the accesses of its location before it; "
                "the explorer's per-thread propagation decides those pairs from the code only; "
                "use the axiomatic engine", ins.pos)


def union_ahead(thread, own: list) -> list[frozenset]:
    """Per pc (and the end): the union of ``own`` (a frozenset per instruction) over the
    instructions the thread may still run from there, that one included."""
    succs = control_successors(thread)
    ahead = [frozenset()] * (len(own) + 1)
    changed = True
    while changed:
        changed = False
        for pc in range(len(own) - 1, -1, -1):
            mine = own[pc].union(*(ahead[q] for q in succs[pc]))
            if mine != ahead[pc]:
                ahead[pc] = mine
                changed = True
    return ahead


def accesses_ahead(thread, loc_index: dict) -> list[tuple[bool, frozenset]]:
    """Per pc (and the end): may the thread still read from there, and the locations it may
    still write (-1: one not known statically)."""
    reads, writes = [], []
    for ins in thread.instrs:
        reads.append(frozenset({True}) if isinstance(ins, (Load, Rmw, StoreCond)) else frozenset())
        loc = named_location(thread, ins.addr) if isinstance(ins, (Store, Rmw, StoreCond)) else None
        writes.append(frozenset({loc_index.get(loc, -1) if loc is not None else -1})
                      if isinstance(ins, (Store, Rmw, StoreCond)) else frozenset())
    return [(bool(r), w) for r, w in zip(union_ahead(thread, reads), union_ahead(thread, writes))]


def may_reread(thread, loc_index: dict) -> bool:
    """May two reads of ``thread`` access one location (a location not known statically may)?"""
    seen: set = set()
    for ins in thread.instrs:
        if isinstance(ins, (Load, Rmw)) or (isinstance(ins, StoreCond)):
            loc = named_location(thread, ins.addr)
            if loc is None or loc in seen:
                return True
            seen.add(loc)
    return False


def prerequisites(events, i: int) -> int:
    """The events that reach every thread before event ``i``: its barriers, their group A, and
    so on (the writes herd's ``prop`` puts before a write)."""
    mask = 0
    work = [i]
    while work:
        for b in _bits(events[work.pop()][4]):
            if not (mask >> b) & 1:
                mask |= 1 << b
                work.append(b)
    return mask


def read_choices(storage, t: int, loc: int, must: int) -> list[int]:
    """The writes of ``loc`` a read of ``t`` may take (event indices, -1 the initial value):
    those that reached ``t`` and are not coherence-before a write the read must respect
    (``must``: herd's ``irreflexive fre ; prop ; hb*`` and SC per location)."""
    _, events, seen, co = storage[:4]
    writes = _loc_writes(events, loc)
    need = must & writes
    out = [] if need else [-1]
    for w in _bits(seen[t] & writes):
        if not any((co[x] >> w) & 1 for x in _bits(need)):
            out.append(w)
    return out


def must(machine, storage, t: int, k: int) -> int:
    """What a read of ``t`` at instruction ``k`` must respect, whatever it takes: the writes
    and barriers its ``hb`` predecessors on the thread saw (with what the writes they read
    needed), the writes ``t`` read or wrote (SC per location), what reached ``t`` before
    its last strong fence."""
    mine = storage[4][t]
    must = mine[0] | mine[1]
    for j in machine.read_before[t].get(k, ()):
        must |= mine[2 + j]
    for i, e in enumerate(storage[1]):
        if e[1] == t and e[0] == EV_WRITE:
            must |= 1 << i
    return must


def must_taking(machine, storage, t: int, k: int, w: int) -> int:
    """What the read of ``t`` at ``k`` must respect beyond ``must`` when it takes write ``w``
    (-1: the initial value): the views of the reads the model's ``rdw``, ``rfi`` and
    ``detour`` lines put before it for that write."""
    if w < 0:
        return 0
    order = machine.read_orders[t]
    mine = storage[4][t]
    extra = 0
    if storage[1][w][1] == t:  # its own thread's write (the latest of the location): rfi
        for j in order.rfi.get(k, ()):
            extra |= mine[2 + j]
        return extra
    for j in order.detour.get(k, ()):  # another thread's, coherence-after the own writes: detour
        extra |= mine[2 + j]
    for j in order.rdw.get(k, ()):  # a newer write than j took (j's view holds the one j took)
        if not (mine[2 + j] >> w) & 1:
            extra |= mine[2 + j]
    return extra


def with_read_choices(machine, storage, t: int, ts, trs: list) -> list:
    """A read from storage may take any write its view allows, not only the latest to
    reach its thread (``guess``: the event index, -1 the initial value)."""
    out = []
    for tr in trs:
        if tr.action != PERFORM or tr.source >= 0 or ts[2][tr.pos][0] != READ:
            out.append(tr)
            continue
        op = ts[2][tr.pos]
        k = op[3]
        base = must(machine, storage, t, k)
        dynamic = k in machine.read_orders[t].by_write
        for w in read_choices(storage, t, op[2], base):
            if dynamic:
                extra = must_taking(machine, storage, t, k, w) & ~base
                if extra and w not in read_choices(storage, t, op[2], base | extra):
                    continue
            out.append(tr._replace(guess=w))
    return out


def remember_read(machine, storage, t: int, ts, k: int, w: int):
    """Thread ``t`` (state ``ts``) reads at instruction ``k`` write ``w`` (-1: the initial
    value). A view is kept only while a read still to be performed inherits it. A write of
    the thread itself brings no barriers: herd's ``rfi`` is not in ``prop`` nor ``hb``."""
    required = must(machine, storage, t, k)
    if k in machine.read_orders[t].by_write:
        required |= must_taking(machine, storage, t, k, w)
    init, events, seen, co, views = storage
    mine = views[t]
    reread = machine.rereads[t] and w >= 0
    if not reread and not machine.kept_views[t]:
        return storage
    new = list(mine)
    if reread:  # SC per location: the write alone
        new[0] |= 1 << w
    if machine.kept_views[t]:
        if k in machine.kept_views[t]:
            took = 0
            if w >= 0:
                took = 1 << w if events[w][1] == t else (1 << w) | prerequisites(events, w)
            new[2 + k] = required | took
        order = machine.read_orders[t]
        later = [o[3] for o in ts[2] if o[0] == READ and o[3] != k] + [
            j for j in order.before if j >= ts[0]]
        needed = set().union(*(order.sources(j) for j in later))
        for j in machine.kept_views[t] - needed:
            new[2 + j] = 0
    new = tuple(new)
    if new == mine:
        return storage
    return (init, events, seen, co, views[:t] + (new,) + views[t + 1:])


def useful_propagations(machine, storage, t: int, ts, awaited: int, cover: int, trs: list) -> list:
    """Leave out the propagations to a thread that can only add constraints: one that will
    not read again nor perform a strong fence, of a barrier, or of a write of a location
    it will not write and of which no other write has reached it (an event there would
    only hold back its later writes and barriers; the final propagations still settle
    coherence) -- unless a strong fence pending on some thread waits for that event
    (``awaited``) or the event must reach the thread before one it waits for (its
    ``prerequisites``): propagating those enables the fence."""
    if not trs:
        return trs
    pc, _, pending = ts
    reads, writes = machine.ahead[t][min(pc, len(machine.ahead[t]) - 1)]
    if reads:
        return trs
    writes = set(writes)
    for o in pending:
        if o[0] in (READ, RMW) or (o[0] == FENCE and len(o) > 4 and o[4] == "strong"):
            return trs
        if o[0] < FENCE:
            writes.add(o[2])
    if -1 in writes:
        return trs
    events = storage[1]
    needed = awaited  # what a pending strong fence waits for, and what must reach t before it
    for i in _bits(awaited & ~cover):
        needed |= prerequisites(events, i)
    out = []
    for tr in trs:
        if (needed >> tr.pos) & 1:
            out.append(tr)
            continue
        e = events[tr.pos]
        if e[0] == EV_BARRIER:
            continue
        if e[2] in writes or cover & _loc_writes(events, e[2]) & ~(1 << tr.pos):
            out.append(tr)
    return out


__all__ = ["ReadOrder", "read_order", "read_orders", "must_taking", "accesses_ahead", "union_ahead", "may_reread", "prerequisites", "read_choices", "must",
           "with_read_choices", "remember_read", "useful_propagations"]
