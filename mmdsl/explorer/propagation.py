"""Per-thread propagation: the storage subsystem of a model whose writes reach each thread at its own time.

A model with ``propagation per-thread`` (Power, Armv7) is not multi-copy atomic, so the
explorer's one shared memory cannot run it. Its machine keeps, instead of memory, a
*storage* in the style of the Power operational model (Sarkar et al., PLDI 2011) and of
the intermediate machine of "Herding cats" (section 7):

* ``events``: the writes and light barriers in the order they were committed, each
  ``(kind, tid, loc, value, before)``; the writes to a location in this order are its
  coherence order (a write reaches its coherence point when its thread performs it);
* ``seen``: per thread, the mask of the events propagated to it. A thread's read of a
  location takes the coherence-latest write to it among those it has seen (else the
  initial value); a thread sees its own events at once.

Transitions, beyond the threads' issue and perform (``transitions.py``, unchanged):

* *propagate* event ``e`` to thread ``t``: a write only once every barrier its own thread
  had seen before committing it (``before``) has reached ``t``; a barrier only once every
  event its thread had seen before it (its group A) has reached ``t``. This is fence
  cumulativity as an enabling condition: A-cumulativity (writes read before the fence go
  first) and B-cumulativity (what follows the fence, on any thread, comes after);
* *perform* a cumulative fence, once every access before it is performed: a light one
  (lwsync, eieio) commits a barrier event; a strong one (sync, dmb) is performed only when
  every event its thread has seen has reached every thread still running, and commits
  nothing (it is then everywhere). Until then, the fence holds the later accesses it
  orders (a light one only the writes: it does not order a write before a later read).

A read-modify-write reads and writes the coherence-latest write of its location (its
thread must have seen it). The partial-order reduction is not applied to these machines:
propagation steps change what other threads read and what fences wait for, and the
reduction's independence argument does not cover them (``explore_space`` turns it off).
"""

from __future__ import annotations

from ..core.errors import UnsupportedError
from .deferred import resolve
from .state import FENCE, READ, RMW, Machine
from .transitions import (
    ISSUE, MEMO_LIMIT, MISSPECULATED, PERFORM, Semantics, Transition, _drop_dead_fences, _others,
    _reservations, _resolve_op, located,
)

PROPAGATE, FENCE_DONE = 2, 3  # Transition actions beyond ISSUE and PERFORM
EV_WRITE, EV_BARRIER = 0, 1


def view(storage, t: int) -> tuple:
    """The value of each location thread ``t`` reads now: its coherence-latest seen write."""
    init, events, seen = storage
    mine = seen[t]
    if not mine:
        return init
    values = list(init)
    for i, e in enumerate(events):
        if e[0] == EV_WRITE and (mine >> i) & 1:
            values[e[2]] = e[3]
    return tuple(values)


def visible_write(storage, t: int, loc: int) -> int:
    """Index of the write of ``loc`` thread ``t`` reads (-1: the initial value)."""
    _, events, seen = storage
    mine = seen[t]
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e[0] == EV_WRITE and e[2] == loc and (mine >> i) & 1:
            return i
    return -1


def last_write(storage, loc: int) -> int:
    """Index of the coherence-latest write of ``loc`` (-1: the initial value)."""
    events = storage[1]
    for i in range(len(events) - 1, -1, -1):
        if events[i][0] == EV_WRITE and events[i][2] == loc:
            return i
    return -1


def final_memory(storage) -> tuple:
    """Each location's final value: its coherence-latest write."""
    init, events, _ = storage
    values = list(init)
    for e in events:
        if e[0] == EV_WRITE:
            values[e[2]] = e[3]
    return tuple(values)


def _barriers(events) -> int:
    mask = 0
    for i, e in enumerate(events):
        if e[0] == EV_BARRIER:
            mask |= 1 << i
    return mask


def _covered(events, i: int) -> int:
    """Event ``i`` and, for a write, every coherence-earlier write of its location: a thread that
    sees a write can never read an older one, so those count as having reached it too."""
    e = events[i]
    mask = 1 << i
    if e[0] == EV_WRITE:
        for j in range(i):
            if events[j][0] == EV_WRITE and events[j][2] == e[2]:
                mask |= 1 << j
    return mask


def receive(storage, t: int, i: int):
    """Event ``i`` reaches thread ``t``."""
    init, events, seen = storage
    return (init, events, seen[:t] + (seen[t] | _covered(events, i),) + seen[t + 1:])


def commit(storage, t: int, kind: int, loc: int = -1, value=None):
    """Thread ``t`` commits a write (or a light barrier): coherence-last, seen by ``t`` at once."""
    init, events, seen = storage
    # a write waits for the barriers its thread had seen; a barrier for every event (group A)
    before = seen[t] & _barriers(events) if kind == EV_WRITE else seen[t]
    return receive((init, events + ((kind, t, loc, value, before),), seen), t, len(events))


class PropagationMachine(Machine):
    """A program compiled for a per-thread model: states hold a storage in place of memory."""

    def initial_states(self) -> list:
        n = len(self.threads)
        return [((mem, (), (0,) * n), threads) for mem, threads in super().initial_states()]

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

    def enabled(self, state):
        storage, threads = state
        n = len(threads)
        views = [view(storage, t) for t in range(n)]
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
                awaited |= storage[2][t]
        memo = self._enabled_memo
        out = []
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
            trs = [tr for tr in trs if self._coherent(storage, ts, tr)]
            trs += self._fence_steps(storage, t, ts, running)
            if running[t]:
                trs += self._propagations(storage, t, awaited)
            out.append(trs)
        return out

    @staticmethod
    def _coherent(storage, ts, tr) -> bool:
        """A read-modify-write reads the coherence-latest write of its location (atomicity)."""
        if tr.action != PERFORM or tr.source >= 0:
            return True
        op = ts[2][tr.pos]
        if op[0] != RMW:
            return True
        return visible_write(storage, tr.tid, op[2]) == last_write(storage, op[2])

    def _fence_steps(self, storage, t: int, ts, running) -> list:
        """Perform the first pending cumulative fence once every access before it is performed."""
        pending = ts[2]
        for p, o in enumerate(pending):
            if o[0] == FENCE and len(o) > 4:
                if o[4] == "strong":
                    mine = storage[2][t]
                    if any(running[u] and u != t and mine & ~storage[2][u] for u in range(len(running))):
                        return []
                return [Transition(t, FENCE_DONE, p)]
            if o[0] < FENCE:  # an access before the fence is still pending
                return []
        return []

    @staticmethod
    def _propagations(storage, t: int, awaited: int) -> list:
        """Propagate to ``t`` each event not yet there whose predecessors (``before``) are.

        A barrier changes nothing ``t`` reads: it only lets later events through. It is
        propagated when one is waiting for it -- an event not yet at ``t`` that must follow
        it, or a strong fence whose thread has seen it -- which leaves the final states as
        they are and the state space much smaller (a barrier that reaches ``t`` early only
        adds constraints on what follows).
        """
        _, events, seen = storage
        mine = seen[t]
        out = []
        for i, e in enumerate(events):
            if (mine >> i) & 1 or e[4] & ~mine:
                continue
            if e[0] == EV_BARRIER and not (awaited >> i) & 1 and not any(
                    (f[4] >> i) & 1 and not (mine >> j) & 1 for j, f in enumerate(events[i + 1:], i + 1)):
                continue
            out.append(Transition(t, PROPAGATE, i))
        return out

    def watches(self, state, t: int) -> int:  # the reduction is off: nothing to watch
        return 0

    def apply(self, state, tr: Transition):
        storage, threads = state
        t = tr.tid
        if tr.action == PROPAGATE:
            return (receive(storage, t, tr.pos), threads)
        ts = threads[t]
        if tr.action == ISSUE:
            return (storage, super().apply(((), threads), tr)[1])
        pc, regs, pending = ts
        if tr.action == FENCE_DONE:
            p = tr.pos
            light = pending[p][4] == "light"
            rest = tuple(_resolve_op(e, p, None, True) for e in pending[:p] + pending[p + 1:])
            regs = tuple(resolve(v, p, None, True) if v.__class__ is tuple else v for v in regs)
            regs, rest = _drop_dead_fences(self.m.threads[t].rules, regs, rest)
            if light:
                storage = commit(storage, t, EV_BARRIER)
            return (storage, threads[:t] + ((pc, regs, rest),) + threads[t + 1:])
        op = pending[tr.pos]
        kind = op[0]
        read = view(storage, t)[op[2]] if (kind == READ or kind == RMW) and tr.source < 0 else None
        key = (ts, tr, read)
        done = self._apply_memo.get(key)
        if done is None:
            try:
                done = self._apply_perform(self.m.threads[t], ts, tr, read)
            except UnsupportedError as err:
                raise located(err, self.m.threads[t], op[3]) from None
            self._remember(key, done)
        nts, write = done
        if write is not None:
            storage = commit(storage, t, EV_WRITE, op[2], write)
        return (storage, threads[:t] + (nts,) + threads[t + 1:])


def describe(machine, state, tr) -> str | None:
    """The words for a propagation or fence step of a trace (None for the threads' own steps)."""
    if tr.action == PROPAGATE:
        e = state[0][1][tr.pos]
        src = machine.threads[e[1]].name
        what = f"W {machine.locations[e[2]]}={e[3]}" if e[0] == EV_WRITE else "barrier"
        return f"{machine.threads[tr.tid].name}: receives {src}'s {what}"
    if tr.action == FENCE_DONE:
        o = state[1][tr.tid][2][tr.pos]
        th = machine.threads[tr.tid]
        return f"{th.name}: perform {o[4]} fence {th.thread.instrs[o[3]].text}"
    return None


__all__ = ["PropagationMachine", "PropagationSemantics", "PROPAGATE", "FENCE_DONE", "describe"]
