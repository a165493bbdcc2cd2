"""Reductions of the per-thread propagation machine that keep every final state (explorer/machines/propagation/propagation.py).

The multi-copy-atomic reduction (``reduction.py``) does not apply here: propagation steps
change what other threads read and what fences wait for. Reductions that are exact for
this machine take its place when the reduction is on (``explore(por=True)``): the two
below, a candidate-directed end-of-run search (``settled_values``), writes held back from
a thread that will not touch their location (``untouched_writes_left_out``), and in
``propagation.py`` one canonical event order per storage (``storage.place_last``) and
finished threads kept by their coverage:

* **Settling at once.** Once every thread is done, the machine only propagates the events
  left until each location has one coherence-last write; nothing of the threads changes,
  and of the storage only the final values are observed. The many orders of those
  propagations (and the states that differ only in which thread saw what) are collapsed:
  the values every order can end with are computed by a search over the storage alone
  (memoised on the storage, shared by every state with that storage) and the state goes
  in one *finish* step to a storage holding just those values (a state whose locations
  each have one last write already is final as it is). The final states are
  exactly those of the full machine: the same propagation steps, from the same storage.
* **Constant assignments first.** Issuing an assignment whose value is already known
  (``li r3,1``, not a register waiting on a read) changes only its thread's pc and that
  register (neither its old value nor its new one waits on a read): it reads no memory,
  adds nothing to the pending list, and no other step reads the register's old value or
  is enabled or disabled by it -- performing a pending access or fence resolves only the
  registers still waiting, and which fences are dropped depends on the pending list alone
  -- provided the thread holds no reservation (an issue may end it) and stays running
  after it (propagations go only to running threads). It is
  then independent of every other step, and stays enabled until taken, so on its own it
  is a persistent set (Godefroid, LNCS 1032, def. 4.1): exploring only it keeps every
  deadlock, and final states are deadlocks.

They are pinned by the agreement of the explorer with and without reduction (and with the
axiomatic checker) in tests/explorer/test_propagation_reduction.py, test_propagation_canonical.py
and test_whole_sets_agree.py.
"""

from __future__ import annotations

import itertools

from ..table.state import FENCE, I_ASSIGN, I_STORE, RESV
from ..table.deferred import evaluate, is_deferred
from .read_views import access_locations, prerequisites, union_ahead
from .storage import EV_WRITE, _bits, _loc_writes, _order_after, coverage, final_memory, maximal_writes, propagation_acyclic
from ..table.transitions import ISSUE, MEMO_LIMIT, Transition

FINISH = 5  # a Transition action beyond propagation.py's PROPAGATE, FENCE_DONE and SETTLE


def finish_steps(sem, storage, n: int, step) -> list:
    """Once every thread is done: one finish step per set of final values the remaining
    propagations can end with (none when coherence is settled already: then the state is final)."""

    if not storage[1] or settled(storage):
        return [[] for _ in range(n)]  # collapsed, or settled (apply collapses it): a final state
    ends = settled_values(sem, end_storage(storage, n), n, step)
    return [[Transition(0, FINISH, 0, guess=values) for values in sorted(ends, key=repr)]] + [[] for _ in range(n - 1)]


def settled(storage) -> bool:
    """Whether each location has one coherence-last write."""
    return not any(len(maximal_writes(storage, loc)) > 1 for loc in range(len(storage[0])))


def collapsed(storage, n: int) -> tuple:
    """A settled storage once every thread is done: its final memory alone (nothing is left
    to read or propagate that could change it), so final states differ only in values."""
    return (final_memory(storage), (), (0,) * n, (), ())


def end_storage(storage, n: int) -> tuple:
    """``storage`` as the end of a run sees it: no views (no read is left) and each thread's
    seen events replaced by its coverage. A thread's coverage is all the end-of-run
    propagations read of what reached it (``_propagations`` and ``receive`` go by coverage; a
    barrier is covered only when seen), and coverage is idempotent, so storages that differ
    only there end alike and share one search."""
    init, events, _, co = storage[:4]
    return (init, events, tuple(coverage(storage, t) for t in range(n)), co, ())


def settled_values(sem, storage, n: int, step) -> frozenset:
    """The final memories reachable from ``storage`` (an ``end_storage``) by the machine's
    end-of-run propagations (``sem._final_propagations``), each step applied by
    ``step(storage, transition)``.

    Rather than every order of those propagations, each candidate end -- one coherence-last
    write per location among its maximal writes -- is decided on its own: it is refused at
    once when ordering the other maximal writes before the chosen ones would close a cycle
    of ``co | prop`` (no storage the machine reaches has one, and coherence only grows), and
    otherwise searched for depth-first, leaving any state in which a chosen write has become
    coherence-before another write of its location (coherence only grows: that end is lost
    there). The first path found decides it; a state from which a candidate cannot be
    reached is remembered as such. The ends are exactly those of the full search: a
    candidate is reachable or the whole (pruned) space below was searched without finding
    it.
    """
    memo = sem.__dict__.setdefault("settled_memo", {})  # per search
    got = memo.get(storage)
    if got is not None:
        return got
    dead = sem.__dict__.setdefault("settled_dead", set())  # (storage, candidate) found unreachable
    choices = [(loc, maximal_writes(storage, loc)) for loc in range(len(storage[0]))]
    choices = [(loc, last) for loc, last in choices if len(last) > 1]
    ends: set = set()
    settled_part = final_memory(storage)  # the locations with one last write already
    for pick in itertools.product(*(last for _, last in choices)):
        candidate = tuple(zip((loc for loc, _ in choices), pick))
        values = list(settled_part)
        for loc, w in candidate:
            values[loc] = storage[1][w][3]
        values = tuple(values)
        if values in ends or not _may_end_with(storage, choices, candidate):
            continue
        if _reaches(sem, storage, n, step, candidate, dead):
            ends.add(values)
    got = frozenset(ends)
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    if len(dead) > MEMO_LIMIT:
        dead.clear()
    memo[storage] = got
    return got


def _may_end_with(storage, choices, candidate) -> bool:
    """Whether ordering every other maximal write of each location before the chosen one
    leaves ``co | prop`` acyclic (a necessary condition for reaching that end)."""
    events, co = storage[1], storage[3]
    for (loc, last), (_, w) in zip(choices, candidate):
        others = 0
        for o in last:
            if o != w:
                others |= 1 << o
        co = _order_after(events, co, w, others)
    return propagation_acyclic((storage[0], events, storage[2], co, ()))


def _lost(storage, candidate) -> bool:
    """Whether a chosen last write is already coherence-before another write."""
    co = storage[3]
    return any((c >> w) & 1 for _, w in candidate for c in co)


def _reaches(sem, storage, n: int, step, candidate, dead: set) -> bool:
    """Whether the end-of-run propagations can take ``storage`` to ``candidate``'s last writes."""
    if _lost(storage, candidate):
        return False
    key = (storage, candidate)
    if key in dead:
        return False
    # an end_storage's seen events are its coverage already (coverage is idempotent)
    moves = [tr for trs in sem._final_propagations(storage, n, list(storage[2])) for tr in trs]
    if not moves:
        reached = all(maximal_writes(storage, loc) == [w] for loc, w in candidate)
        if not reached:
            dead.add(key)
        return reached
    for tr in moves:
        if _reaches(sem, end_storage(step(storage, tr), n), n, step, candidate, dead):
            return True
    dead.add(key)
    return False


def finished(storage, tr: Transition, n: int) -> tuple:
    """The collapsed storage after a finish step: the final values, no events."""
    return (tr.guess, (), (0,) * n, (), ())  # no read is left: the views are dropped too


def constant_assignment_first(machine, threads, out: list) -> list:
    """``out`` (per thread, its enabled steps) cut to one constant assignment when a thread has
    one that is independent of every other step (see the module docstring); else ``out``."""
    for t, ts in enumerate(threads):
        pc, regs, pending = ts
        th = machine.threads[t]
        if pc >= th.length or len(out[t]) == 0:
            continue
        code = th.code[pc]
        if code[0] == I_ASSIGN:
            if is_deferred(regs[code[1]]) or is_deferred(evaluate(code[2], regs)):
                continue
        elif code[0] == I_STORE:
            if is_deferred(evaluate(code[1], regs)) or is_deferred(evaluate(code[2], regs)):
                continue
        else:
            continue
        if th.skip_nops(pc + 1) >= th.length and not pending:  # the thread would finish
            continue
        if any(o[0] == RESV for o in pending):  # issuing may end a reservation
            continue
        mine = [tr for tr in out[t] if tr.action == ISSUE]
        if len(mine) == 1:
            return [mine if u == t else [] for u in range(len(out))]
    return out


def locations_ahead(thread, loc_index: dict) -> list[frozenset]:
    """Per pc (and the end): the locations the thread may still read or write (-1: one its
    code does not fix)."""
    where = access_locations(thread)
    return union_ahead(thread, [
        frozenset({loc_index.get(where[k], -1) if where[k] is not None else -1}) if k in where else frozenset()
        for k in range(len(thread.instrs))])


def untouched_writes_left_out(machine, storage, t: int, ts, awaited: int, cover: int, trs: list) -> list:
    """``trs`` (propagations to thread ``t``) without those of a write of a location ``t``
    will not access while no write of that location has reached ``t`` and none is waited for.

    Such a write reaching ``t`` orders no write (``receive`` puts it after the writes of its
    location already at ``t``: none), changes no value ``t`` reads, and enables nothing on
    its own: what it adds -- a member of the group A of ``t``'s later barriers, an event
    ``t``'s strong fences wait for -- only holds steps back. What it does enable is kept,
    for every write of its location at once: a strong fence pending on some thread that
    waits for one (``awaited``), and the delivery to ``t`` of an event one must precede (it
    is among the ``prerequisites`` of an event not yet at ``t``). From then on, and once a
    write of the location has reached ``t``, all its writes may go to ``t`` in any order,
    so a run of the full machine that sent one earlier is matched by the same run sending
    it then, before the others, with the same coherence; the remaining propagations settle
    the rest at the end. The machine without these steps takes a subset of the full
    machine's steps, so it reaches no final state the full machine does not.
    """
    if not trs:
        return trs
    pc, _, pending = ts
    table = machine.ahead_locations[t]
    near = set(table[min(pc, len(table) - 1)])
    for o in pending:
        if o[0] < FENCE:
            near.add(o[2] if isinstance(o[2], int) else -1)
    if -1 in near:
        return trs
    events = storage[1]
    needed = awaited
    for j in _bits(~cover & ((1 << len(events)) - 1)):
        needed |= prerequisites(events, j)
    out = []
    for tr in trs:
        e = events[tr.pos]
        if e[0] == EV_WRITE and e[2] not in near and not _loc_writes(events, e[2]) & (cover | needed):
            continue
        out.append(tr)
    return out
