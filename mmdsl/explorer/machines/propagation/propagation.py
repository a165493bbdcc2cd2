"""Per-thread propagation: the storage subsystem of a model whose writes reach each thread at its own time.

A model with ``propagation per-thread`` (Power, Armv7) is not multi-copy atomic, so the
explorer's one shared memory cannot run it. Its machine keeps, instead of memory, a
*storage* in the style of the Power operational model (Sarkar et al., PLDI 2011) and of
the intermediate machine of "Herding cats" (section 7):

* ``events``: the writes and light barriers in the order they were committed, each
  ``(kind, tid, loc, value, before, rmw_from)``;
* ``seen``: per thread, the mask of the events propagated to it;
* ``views``: per thread, what its reads must respect (``read_views.py``): the writes it
  read (SC per location), what reached it before its last strong fence, and per read
  still inherited by a later one, that read's view;
* ``co``: per event, the writes coherence-before it. As in the PLDI'11 model, coherence
  is a partial order built as writes propagate: a write that reaches a thread goes
  after the writes of its location that reached it before, so the writes a thread has
  seen form a chain (a read takes one of them, or the initial value: below). Writes left
  unordered when every thread is done are ordered then by propagating the rest to every
  thread, finished ones too, until each location has one last write. Coherence and the
  barriers' write-to-write order (herd's ``acyclic co | prop`` on writes) stay acyclic:
  a propagation that would close a cycle is not taken (2+2W+lwsyncs).

The storage and its operations (receive, commit, settle, coverage, acyclicity) are in
``storage.py``; this module is the machine and its transitions.

Transitions, beyond the threads' issue and perform (``transitions.py``, unchanged):

* *propagate* event ``e`` to thread ``t``: a write only once every barrier its own thread
  had seen before committing it (``before``) has reached ``t``; a barrier only once every
  event its thread had seen before it (its group A) has reached ``t``. This is fence
  cumulativity as an enabling condition: A-cumulativity (writes read before the fence go
  first) and B-cumulativity (what follows the fence, on any thread, comes after);
* *perform* a read: it takes any write of its location that reached its thread and is not
  coherence-before one its view must respect (``read_views.py``), not only the latest:
  herd orders two reads of a thread by ``hb`` only (MP+lwsync+addr-bigdetour-addr);
* *perform* a cumulative fence, once every access before it that it orders is performed
  (eieio, dmb st: the writes; herd's LB+dmb.sts is allowed): it commits a
  barrier event (a strong one's has already reached every thread; it carries its group A
  to the readers of the writes after it); a strong one (sync, dmb) is performed only when
  every event its thread has seen, and every write coherence-before one of those (herd's
  ``coe ; strong``), has reached every other thread. A write coherence-before one a thread
  has seen counts as having reached it once its barriers have. Until then, the fence holds
  the later accesses it orders (a light one only the writes: it does not order a write
  before a later read).

No event is propagated to a thread that could only be constrained by it: one with no read
or strong fence ahead gets no barrier, and no write of a location it will not write and
has seen no other write of (``read_views.useful_propagations``); the final propagations
still settle coherence.

A thread's accesses to one location are performed in program order and a read sees only
committed writes, so a read herd lets take its own thread's held-back write early (fri-rfi,
wsi-rfi, ctrl-rfi) is refused by name where an access follows it (``_refuse_early_forwarding``).
A read-modify-write is performed once every write of its location has reached its
thread; its write then stays right after the write it read (a write ordered after that
one is ordered after it too). The one-memory partial-order reduction is not applied to these
machines: propagation steps change what other threads read and what fences wait for, and
its independence argument does not cover them. Reductions exact for this machine
(``propagation_reduction.py``) take its place when ``reduce`` is set (``explore_space``).
"""

from __future__ import annotations

from ....core.errors import UnsupportedError
from ....core.events import EventShape
from ....core.program import Branch, Fence, Load, Rmw, Store
from ..table.deferred import resolve
from ..table.state import FENCE, READ, RESV, RMW, WRITE, Machine
from ..table.transitions import (
    ISSUE, LR_RESERVES, MEMO_LIMIT, MISSPECULATED, PERFORM, Semantics, Transition, _others,
    located,
)
from ..table.passing import drop_dead_fences
from ..table.reservations import reservations as _reservations
from ..table.reservations import resolve_op as _resolve_op
from .read_views import (
    accesses_ahead, may_reread, named_location, read_orders, remember_read, useful_propagations,
    with_read_choices,
)
from .propagation_reduction import (  # hwbench
    FINISH, collapsed, constant_assignment_first, finish_steps, finished, locations_ahead, settled,
    untouched_writes_left_out,
)
from .storage import (
    EV_BARRIER, EV_WRITE, FROM_INIT, _barriers, _loc_writes, commit, coverage, final_memory, maximal_writes, observed,
    place_last, propagation_acyclic, receive, settle, view, visible_write,
)

PROPAGATE, FENCE_DONE, SETTLE = 2, 3, 4  # Transition actions beyond ISSUE and PERFORM


def _refuse_early_forwarding(thread, loc_index: dict, rules) -> None:
    """Refuse a read of a location after a write of it that may be held by something that
    does not hold the read (an earlier access to the location, or a branch before the write),
    when another access follows the read (with none, taking the value early changes nothing).

    Herd lets such a read take the write's value early (``rfi`` is not ordering), before the
    write is itself ordered after what holds it (fri-rfi, wsi-rfi, ctrl-rfi shapes under
    arm.cat). This machine performs a thread's accesses to one location in program order and
    a read sees only committed writes, so it would forbid outcomes herd allows.
    """
    model = rules.model.name
    touched: set[int] = set()
    branched = False
    held: dict[int, object] = {}  # location -> the write a later read could forward from early
    suspect = None  # (such a read, its write)
    for ins in thread.instrs:
        if isinstance(ins, Branch) and ins.cond is not None:
            branched = True
            continue
        if isinstance(ins, Fence) and rules.fence_orders(ins.kind, EventShape("W"), EventShape("R")):
            held.clear()  # the fence holds the read until the write is performed
            suspect = None  # and what follows it
            continue
        if not isinstance(ins, (Load, Store, Rmw)):
            continue
        if suspect is not None:  # an access follows the read: it could go early with it
            read, w = suspect
            raise UnsupportedError(
                f"'{read.text}' reads a location its thread wrote just before ('{w.text}'), a write held back "
                f"by an earlier access to that location or a branch, and accesses follow; under model "
                f"'{model}' herd lets the read take the write's value before the write is ordered (rfi), "
                "which the explorer's per-thread propagation does not model; use the axiomatic engine",
                read.pos)
        loc = loc_index.get(named_location(thread, ins.addr))
        if loc is None:
            continue
        if isinstance(ins, Load) and loc in held:
            suspect = (ins, held[loc])
        if isinstance(ins, (Store, Rmw)):
            if loc in touched or branched:
                held[loc] = ins
            else:
                held.pop(loc, None)
        touched.add(loc)


class PropagationMachine(Machine):
    """A program compiled for a per-thread model: states hold a storage in place of memory."""

    def __init__(self, program, rules):
        super().__init__(program, rules)
        for th in self.threads:
            for k, whole in th.rules.atomic.items():
                if not whole:
                    ins = th.thread.instrs[k]
                    raise UnsupportedError(
                        f"model '{rules.model.name}' lets other accesses go between the read and the write of "
                        f"'{ins.text}'; the explorer's per-thread propagation performs a read-modify-write in "
                        "one step only", ins.pos)

        for th in self.threads:
            _refuse_early_forwarding(th.thread, self.loc_index, rules)
        # per thread and read (instruction index): the earlier reads it is performed after,
        # whose views it inherits (explorer/machines/propagation/read_views.py)
        self.read_orders = [read_orders(th.thread, rules.model) for th in self.threads]
        self.read_before = [order.before for order in self.read_orders]
        # storages keep their events in event_key order (storage.place_last), unless a thread's
        # state names an event (a load-reserved's reservation notes the write it read)
        self.canonical = not any(th.lr_desc for th in self.threads)
        self.kept_views = [order.kept() for order in self.read_orders]
        self.ahead = [accesses_ahead(th.thread, self.loc_index) for th in self.threads]
        self.ahead_locations = [locations_ahead(th.thread, self.loc_index) for th in self.threads]
        # SC per location needs the writes a thread read only if two of its reads may share a location
        self.rereads = [may_reread(th.thread, self.loc_index) for th in self.threads]

    def initial_states(self) -> list:
        n = len(self.threads)
        views = tuple((0, 0) + (0,) * len(th.thread.instrs) for th in self.threads)
        return [((mem, (), (0,) * n, (), views), threads) for mem, threads in super().initial_states()]

    def memory_values(self, mem) -> tuple:
        return final_memory(mem)

    def read_value(self, state, t: int, loc: int):
        return view(state[0], t)[loc]

    def memory_text(self, mem) -> str:
        """Final values, then what each thread sees where it differs."""
        text = " ".join(f"{loc}={v}" for loc, v in zip(self.locations, final_memory(mem)))
        latest = final_memory(mem)
        for th in self.threads:
            own = view(mem, self.threads.index(th))
            diff = [f"{loc}={v}" for loc, v, w in zip(self.locations, own, latest) if v != w]
            if diff:
                text += f" ({th.name} sees {' '.join(diff)})"
        return text

    def final_values(self, state) -> dict:
        return super().final_values((final_memory(state[0]), state[1]))


class PropagationSemantics(Semantics):
    """The threads' transitions of ``Semantics`` over a per-thread storage, plus propagation
    and the performing of cumulative fences."""

    reduce = False  # hwbench: explore_space turns on propagation_reduction's reductions

    def _orders_no_read(self, t: int, pc: int) -> bool:
        """Does the fence at ``pc`` of thread ``t`` order no read before anything (eieio)?"""
        from ....core.events import EventShape

        memo = self.__dict__.setdefault("_no_read_memo", {})
        key = (t, pc)
        if key not in memo:
            rules = self.m.rules
            kind = self.m.threads[t].thread.instrs[pc].kind
            memo[key] = not any(rules.fence_orders(kind, EventShape("R"), EventShape(b)) for b in "RW")
        return memo[key]

    def enabled(self, state):
        storage, threads = state
        n = len(threads)
        rec = self._record(storage)
        views, covers = self._storage_facts(storage, n, rec)  # hwbench: memoised per storage
        running = [not (pc >= th.length and not pending) for th, (pc, _, pending) in zip(self.m.threads, threads)]
        if self.uses_rmw:
            held = [_reservations(ts[2]) for ts in threads]
            others = [_others(held, t) for t in range(n)]
        else:
            others = [0] * n
        self.others = others
        keys = [(t, ts, views[t] if any(o[0] == RMW for o in ts[2]) else None, others[t])
                for t, ts in enumerate(threads)]
        self.keys = keys
        # what the strong fences still pending wait for (every event their thread has seen)
        awaited = 0
        for t, ts in enumerate(threads):
            if any(o[0] == FENCE and len(o) > 4 and o[4] == "strong" for o in ts[2]):
                awaited |= observed(storage, t)
        memo = self._enabled_memo
        out = []
        if not any(running):  # every thread is done: propagate until coherence is settled
            if self.reduce:  # hwbench: in one step to each final memory (propagation_reduction)
                return finish_steps(self, storage, n, self._storage_step)
            return self._final_propagations(storage, n, covers)
        for t, ts in enumerate(threads):
            trs = memo.get(keys[t])
            if trs is None:
                trs = self._thread_enabled(views[t], t, ts, others[t])
                if len(memo) > MEMO_LIMIT:
                    memo.clear()
                memo[keys[t]] = trs
            if trs is False:
                return None
            if trs is MISSPECULATED:
                return MISSPECULATED
            trs = [tr for tr in trs if self._coherent(storage, ts, tr, covers[t])]
            trs = with_read_choices(self.m, storage, t, ts, trs)
            trs += self._fence_steps(storage, t, ts, running, covers)
            if running[t] or awaited:  # a strong fence waits for every thread, finished ones too
                moves = useful_propagations(self.m, storage, t, ts, awaited, covers[t],
                                            self._propagations_memo(storage, t, awaited, covers[t], rec))
                if self.reduce:  # hwbench: propagation_reduction
                    moves = untouched_writes_left_out(self.m, storage, t, ts, awaited, covers[t], moves)
                trs += moves
            out.append(trs)
        if self.reduce:  # hwbench: a constant assignment alone when it commutes (propagation_reduction)
            return constant_assignment_first(self.m, threads, out)
        return out

    # hwbench: what enabled() computes from the storage alone, memoised (many states share a
    # storage); one record per storage, so a state's storage is hashed once for all of them
    def _record(self, storage) -> list:
        """[facts or None, propagations per (thread, awaited), storage steps] of ``storage``."""
        memo = self.__dict__.setdefault("_records", {})
        rec = memo.get(storage)
        if rec is None:
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            rec = memo[storage] = [None, {}, {}]
        return rec

    def _storage_facts(self, storage, n: int, rec=None) -> tuple:
        """(each thread's view, each thread's coverage) of ``storage``."""
        rec = rec or self._record(storage)
        if rec[0] is None:
            rec[0] = ([view(storage, t) for t in range(n)], [coverage(storage, t) for t in range(n)])
        return rec[0]

    def _propagations_memo(self, storage, t: int, awaited: int, cover: int, rec=None) -> list:
        memo = (rec or self._record(storage))[1]
        key = (t, awaited)
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._propagations(storage, t, awaited, cover)
        return list(got)

    def _storage_step(self, storage, tr: Transition):  # hwbench: a propagation or settle step, memoised
        memo = self._record(storage)[2]
        key = (tr.action, tr.tid, tr.pos, tr.source)
        got = memo.get(key)
        if got is None:
            got = receive(storage, tr.tid, tr.pos) if tr.action == PROPAGATE else settle(storage, tr.pos, tr.source)
            memo[key] = got
        return got

    @staticmethod
    def _coherent(storage, ts, tr, cover: int) -> bool:
        """A thread's accesses to one location are performed in program order and a read sees only
committed writes, so a read herd lets take its own thread's held-back write early (fri-rfi,
wsi-rfi, ctrl-rfi) is refused by name where an access follows it (``_refuse_early_forwarding``).
A read-modify-write is performed once every write of its location has reached its
        thread (it then reads the coherence-latest one, and its write goes right after)."""
        if tr.action != PERFORM or tr.source >= 0:
            return True
        op = ts[2][tr.pos]
        if op[0] == WRITE and len(op) > 5:  # a store-conditional's write: as an RMW's, right after
            took = _reserved_write(ts[2], tr.pos)  # the write its load-reserved read
            return (took is not None and not _loc_writes(storage[1], op[2]) & ~cover
                    and visible_write(storage, tr.tid, op[2]) == (-1 if took == FROM_INIT else took))
        if op[0] != RMW:
            return True
        writes = _loc_writes(storage[1], op[2])
        return not writes & ~cover

    def _final_propagations(self, storage, n: int, covers) -> list:
        """Once every thread is done, coherence left open is settled the way the storage would
        settle it: by propagating the remaining events (barriers first where a write waits for
        one) to the threads, finished ones too, until each location has one last write.

        Ordering two last writes directly (a *settle* step) would skip the barriers: under
        2+2W+lwsyncs it ordered each location against its lwsync, an outcome herd forbids
        (a write propagated to a thread brings that thread's later barriers with it).
        """
        if not any(len(maximal_writes(storage, loc)) > 1 for loc in range(len(storage[0]))):
            return [[] for _ in range(n)]
        out = [self._propagations(storage, t, 0, covers[t]) for t in range(n)]
        if not any(out):  # nothing can move (not expected): order the last writes directly
            return [self._settlements(storage)] + [[] for _ in range(n - 1)]
        return out

    @staticmethod
    def _settlements(storage) -> list:
        """Order two coherence-last writes of one location (either way), until each has one."""
        out = []
        for loc in range(len(storage[0])):
            last = maximal_writes(storage, loc)
            if len(last) > 1:
                for a in last:
                    for b in last:
                        if a != b:
                            out.append(Transition(0, SETTLE, a, b))
                return out
        return out

    def _fence_steps(self, storage, t: int, ts, running, covers) -> list:
        """Perform the first pending cumulative fence once every access before it that it orders
        is performed (all of them for sync/dmb/lwsync; only the writes for eieio, dmb st)."""
        pending = ts[2]
        for p, o in enumerate(pending):
            if o[0] == FENCE and len(o) > 4:
                ordered = self.m.threads[t].rules.fence_a[o[1]]
                for e in pending[:p]:
                    if e[0] < FENCE and (ordered >> e[1] & 1 or (e[0] == RMW and ordered >> e[4] & 1)):
                        return []  # an access the fence orders is still pending
                if o[4] == "strong":
                    mine = observed(storage, t)
                    if any(u != t and mine & ~covers[u] for u in range(len(running))):
                        return []
                return [Transition(t, FENCE_DONE, p)]
        return []

    @staticmethod
    def _propagations(storage, t: int, awaited: int, cover: int) -> list:
        """Propagate to ``t`` each event not yet there whose predecessors (``before``) are.

        A barrier changes nothing ``t`` reads: it only lets later events through. It is
        propagated when one is waiting for it -- an event not yet at ``t`` that must follow
        it, or a strong fence whose thread has seen it -- which leaves the final states as
        they are and the state space much smaller (a barrier that reaches ``t`` early only
        adds constraints on what follows).
        """
        events = storage[1]
        barriers = _barriers(events)  # without one, coherence alone cannot close a cycle
        out = []
        for i, e in enumerate(events):
            if (cover >> i) & 1 or e[4] & ~cover:
                continue
            if e[0] == EV_BARRIER and not (awaited >> i) & 1 and not any(
                    (f[4] >> i) & 1 and not (cover >> j) & 1 for j, f in enumerate(events) if j != i):
                continue
            if (e[0] == EV_WRITE and barriers and cover & _loc_writes(events, e[2]) & ~(1 << i)
                    and not propagation_acyclic(receive(storage, t, i))):  # it adds coherence edges
                continue
            out.append(Transition(t, PROPAGATE, i))
        return out

    def watches(self, state, t: int) -> int:  # the reduction is off: nothing to watch
        return 0

    def apply(self, state, tr: Transition):
        storage, threads = self._step(state, tr)
        if self.reduce and tr.action != FINISH and storage[1]:
            if all(pc >= th.length and not pending for th, (pc, _, pending) in zip(self.m.threads, threads)) \
                    and settled(storage):
                return (collapsed(storage, len(threads)), threads)  # a final state: its values alone
            storage = self._done_by_coverage(storage, threads)
        return (storage, threads)

    def _done_by_coverage(self, storage, threads):
        """``storage`` with what reached each finished thread replaced by its coverage.

        Of a finished thread's seen events the machine reads only its coverage -- propagations
        to it and a strong fence waiting for it go by coverage; its view, reads, commits and
        strong fences are over -- and coverage stays the same when the seen events are
        replaced by it (it adds only writes, each coherence-before a seen write: it is
        monotone and idempotent, now and after coherence grows). So storages that differ
        only there behave alike, and are made one."""
        seen = storage[2]
        new = seen
        covers = None
        for t, (pc, _, pending) in enumerate(threads):
            if pc >= self.m.threads[t].length and not pending:
                if covers is None:
                    covers = self._storage_facts(storage, len(threads))[1]
                cover = covers[t]
                if cover != seen[t]:
                    new = new[:t] + (cover,) + new[t + 1:]
        if new is seen:
            return storage
        return storage[:2] + (new,) + storage[3:]

    def _step(self, state, tr: Transition):
        storage, threads = state
        t = tr.tid
        if tr.action == PROPAGATE:
            return (self._storage_step(storage, tr), threads)  # hwbench: memoised
        if tr.action == SETTLE:
            return (settle(storage, tr.pos, tr.source), threads)
        if tr.action == FINISH:  # hwbench
            return (finished(storage, tr, len(threads)), threads)
        ts = threads[t]
        if tr.action == ISSUE:
            return (storage, super().apply(((), threads), tr)[1])
        pc, regs, pending = ts
        if tr.action == FENCE_DONE:
            p = tr.pos
            light = pending[p][4] == "light"
            rest = tuple(_resolve_op(e, p, None, True) for e in pending[:p] + pending[p + 1:])
            regs = tuple(resolve(v, p, None, True) if v.__class__ is tuple else v for v in regs)
            regs, rest = drop_dead_fences(self.m.threads[t].rules, regs, rest)
            # a barrier: what t has seen goes before what follows, on every thread (a strong
            # fence's has already reached every thread; it still carries its group A to the
            # reads of the writes after it: herd's prop)
            storage = commit(storage, t, EV_BARRIER, own_only=light and self._orders_no_read(t, pending[p][3]))
            if self.reduce and self.m.canonical:
                storage = place_last(storage)
            if not light:  # what reached t now binds every read after the fence
                init, events, seen, co, views = storage
                mine = views[t]
                views = views[:t] + ((mine[0], coverage(storage, t)) + mine[2:],) + views[t + 1:]
                storage = (init, events, seen, co, views)
            return (storage, threads[:t] + ((pc, regs, rest),) + threads[t + 1:])
        op = pending[tr.pos]
        kind = op[0]
        took = -2  # the write a read from storage takes (-1: the initial value)
        read = None
        if kind == READ and tr.source < 0:
            took = visible_write(storage, t, op[2]) if tr.guess is None else tr.guess
            read = storage[1][took][3] if took >= 0 else storage[0][op[2]]
        elif kind == RMW and tr.source < 0:
            took = visible_write(storage, t, op[2])
            read = view(storage, t)[op[2]]
        if took > -2:
            storage = remember_read(self.m, storage, t, ts, op[3], took)
            lr_took = (took if took >= 0 else FROM_INIT) if tr.outcome == LR_RESERVES else None
            tr = tr._replace(guess=None)  # the thread's own step depends on the value only
        elif kind == READ and tr.outcome == LR_RESERVES:  # forwarded: the own write's place is not known
            ins = self.m.threads[t].thread.instrs[op[3]]
            raise UnsupportedError(
                f"'{ins.text}' (a load-reserved) reads its own thread's pending write, and an sc may pair "
                "with it: the explorer's per-thread propagation keeps a reservation only on a committed "
                "write; use the axiomatic engine", ins.pos)
        if kind == WRITE and len(op) > 5:  # a store-conditional's write goes right after the reserved one
            took = _reserved_write(pending, tr.pos)
        key = (ts, tr, read)
        done = self._apply_memo.get(key)
        if done is None:
            try:
                done = self._apply_perform(self.m.threads[t], ts, tr, read)
            except UnsupportedError as err:
                raise located(err, self.m.threads[t], op[3]) from None
            self._remember(key, done)
        nts, write = done
        if kind == READ and tr.outcome == LR_RESERVES and took > -2:  # the reservation notes the write read
            npending = nts[2]
            o = npending[tr.pos]
            nts = (nts[0], nts[1], npending[:tr.pos] + (o + (lr_took,),) + npending[tr.pos + 1:])
        if write is not None:
            if kind == RMW:
                took = visible_write(storage, t, op[2])
            elif not (kind == WRITE and len(op) > 5):
                took = -1
            storage = commit(storage, t, EV_WRITE, op[2], write, took)
            if self.reduce and self.m.canonical:
                storage = place_last(storage)
        return (storage, threads[:t] + (nts,) + threads[t + 1:])


def _reserved_write(pending: tuple, p: int):
    """The storage write the load-reserved paired with the store-conditional write at ``p``
    read (-1: the initial value), None when its reservation is not taken yet."""
    for i in range(p - 1, -1, -1):
        o = pending[i]
        if o[0] == RESV and o[4]:
            return o[5] if len(o) > 5 else None
    return None


def received(machine, state, tr) -> tuple[int, str] | None:
    """For a step propagating a write to a thread: the writer's thread and ``W x=1``."""
    if tr.action != PROPAGATE:
        return None
    e = state[0][1][tr.pos]
    if e[0] != EV_WRITE:
        return None
    return e[1], f"W {machine.locations[e[2]]}={e[3]}"


def describe(machine, state, tr) -> str | None:
    """The words for a propagation or fence step of a trace (None for the threads' own steps)."""
    if tr.action == PROPAGATE:
        e = state[0][1][tr.pos]
        src = machine.threads[e[1]].name
        what = f"W {machine.locations[e[2]]}={e[3]}" if e[0] == EV_WRITE else "barrier"
        return f"{machine.threads[tr.tid].name}: receives {src}'s {what}"
    if tr.action == SETTLE:
        e = state[0][1]
        a, b = e[tr.pos], e[tr.source]
        return (f"coherence: {machine.threads[a[1]].name}'s W {machine.locations[a[2]]}={a[3]} before "
                f"{machine.threads[b[1]].name}'s W {machine.locations[b[2]]}={b[3]}")
    if tr.action == FINISH:  # hwbench
        values = " ".join(f"{loc}={v}" for loc, v in zip(machine.locations, tr.guess))
        return f"coherence settled by the remaining propagations: {values}"
    if tr.action == FENCE_DONE:
        o = state[1][tr.tid][2][tr.pos]
        th = machine.threads[tr.tid]
        return f"{th.name}: perform {o[4]} fence {th.thread.instrs[o[3]].text}"
    return None


__all__ = ["PropagationMachine", "PropagationSemantics", "PROPAGATE", "FENCE_DONE", "describe", "received"]
