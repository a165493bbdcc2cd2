"""The per-thread storage subsystem (``propagation.py``'s memory): which events reached which
thread, coherence built as writes propagate, barriers and their groups, acyclicity of
``co | prop``, and the final memory.

A storage is ``(init, events, seen, co, views)``: ``events`` the committed writes and
barriers, each ``(kind, tid, loc, value, before, rmw_from)``; ``seen`` per thread the mask
of events that reached it; ``co`` per event the writes coherence-before it; ``views`` per
thread what its reads must respect (``read_views.py``).
"""

from __future__ import annotations

EV_WRITE, EV_BARRIER = 0, 1  # the kinds of a storage's events


def _loc_writes(events, loc: int) -> int:
    """The writes of ``loc`` among ``events`` (a mask)."""
    mask = 0
    for i, e in enumerate(events):
        if e[0] == EV_WRITE and e[2] == loc:
            mask |= 1 << i
    return mask


def _bits(mask: int):
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def coverage(storage, t: int) -> int:
    """The events that have reached ``t``, and every write coherence-before one of them whose
    barriers have reached ``t`` (``t`` can never read such a write: it counts as arrived; one
    whose barriers have not must still arrive, after them, for what waits on it)."""
    _, events, seen, co = storage[:4]
    mine = seen[t]
    mask = mine
    for j in _bits(mine):
        for i in _bits(co[j] & ~mask):
            if not events[i][4] & ~mine:
                mask |= 1 << i
    return mask


def observed(storage, t: int) -> int:
    """What a strong fence of ``t`` waits for: the events that reached ``t`` and every write
    coherence-before one of them (herd's ``coe ; strong``)."""
    _, _, seen, co = storage[:4]
    mask = seen[t]
    for j in _bits(seen[t]):
        mask |= co[j]
    return mask


def visible_write(storage, t: int, loc: int) -> int:
    """Index of the write of ``loc`` thread ``t`` reads (-1: the initial value): the
    coherence-latest of those that reached it (they form a chain)."""
    _, events, seen, co = storage[:4]
    mine = seen[t] & _loc_writes(events, loc)
    best = -1
    m = mine
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        if not any((co[j] >> i) & 1 for j in _bits(mine) if j != i):
            best = i
    return best


def view(storage, t: int) -> tuple:
    """The value of each location thread ``t`` reads now."""
    init, events, seen, _ = storage[:4]
    if not seen[t]:
        return init
    values = list(init)
    for loc in range(len(init)):
        w = visible_write(storage, t, loc)
        if w >= 0:
            values[loc] = events[w][3]
    return tuple(values)


def maximal_writes(storage, loc: int) -> list[int]:
    """The writes of ``loc`` no other write is coherence-after."""
    _, events, _, co = storage[:4]
    writes = _loc_writes(events, loc)
    after = 0
    for j in _bits(writes):
        after |= co[j]
    return list(_bits(writes & ~after))


def final_memory(storage) -> tuple:
    """Each location's final value: its coherence-last write (the first maximal one until
    the order is settled)."""
    init, events, _, _ = storage[:4]
    values = list(init)
    for loc in range(len(init)):
        last = maximal_writes(storage, loc)
        if last:
            values[loc] = events[last[0]][3]
    return tuple(values)


def _barriers(events) -> int:
    mask = 0
    for i, e in enumerate(events):
        if e[0] == EV_BARRIER:
            mask |= 1 << i
    return mask


def _order_after(events, co: tuple, x: int, preds: int) -> tuple:
    """Make write ``x`` coherence-after ``preds`` (and what is before them), keeping the order
    transitive and each read-modify-write's write right after the write its read took: a
    write after that one is after the RMW's write too, and one before the RMW's write is
    before that one."""
    co = list(co)
    work = [(x, preds)]
    while work:
        x, p = work.pop()
        for q in _bits(p):
            p |= co[q]
        grown = True
        while grown:  # RMW atomicity: after the write an RMW read means after the RMW's write
            grown = False
            for i, e in enumerate(events):
                if e[0] == EV_WRITE and e[5] >= 0 and i != x and (p >> e[5]) & 1 and not (p >> i) & 1:
                    p |= (1 << i) | co[i]
                    grown = True
        if not p & ~co[x]:
            continue
        r = events[x][5] if events[x][0] == EV_WRITE else -1
        if r >= 0:  # and before an atomic write means before the write it stays right after
            before = p & ~(1 << r) & ~co[r]
            if before:
                work.append((r, before))
        co[x] |= p
        for y, c in enumerate(co):
            if (c >> x) & 1:
                work.append((y, co[x]))
    return tuple(co)


def receive(storage, t: int, i: int):
    """Event ``i`` reaches thread ``t``: a write becomes coherence-after the writes of its
    location that reached ``t`` before it."""
    init, events, seen, co, views = storage
    e = events[i]
    if e[0] == EV_WRITE:
        # after the writes of its location already there, but those already after it
        # (it arrives unseen: the thread reads a later one)
        earlier = coverage(storage, t) & _loc_writes(events, e[2]) & ~(1 << i)
        for j in _bits(earlier):
            if (co[j] >> i) & 1:
                earlier &= ~(1 << j)
        co = _order_after(events, co, i, earlier)
    return (init, events, seen[:t] + (seen[t] | (1 << i),) + seen[t + 1:], co, views)


def propagation_acyclic(storage) -> bool:
    """Whether coherence and the write-to-write propagation order of the barriers are acyclic
    (herd's propagation axiom, ``acyclic co | prop``, on writes): a write committed after a
    barrier follows every write of the barrier's group A (what its thread had seen), so no
    chain of coherence edges may lead from it back to one of those. Propagation alone keeps
    this per thread; two threads' barriers can still close a cycle through writes that never
    reach each other (2+2W+lwsyncs), which this check refuses.
    """
    _, events, _, co = storage[:4]
    n = len(events)
    groups: dict[int, int] = {}

    def group_a(b: int) -> int:  # the writes a barrier (transitively) orders before it
        if b not in groups:
            mask = 0
            for k in _bits(events[b][4]):
                mask |= group_a(k) if events[k][0] == EV_BARRIER else (1 << k)
            groups[b] = mask
        return groups[b]

    succ = [0] * n
    any_prop = False
    for w, e in enumerate(events):
        if e[0] != EV_WRITE:
            continue
        for c in _bits(co[w]):  # c coherence-before w
            succ[c] |= 1 << w
        for b in _bits(e[4]):
            for a in _bits(group_a(b)):
                if a != w:
                    succ[a] |= 1 << w
                    any_prop = True
    if not any_prop:
        return True
    state = [0] * n  # 0 new, 1 on the path, 2 done
    for root in range(n):
        if state[root]:
            continue
        stack = [(root, iter(_bits(succ[root])))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state[nxt] == 1:
                return False
            elif state[nxt] == 0:
                state[nxt] = 1
                stack.append((nxt, iter(_bits(succ[nxt]))))
    return True


FROM_INIT = -2  # rmw_from of a store-conditional's write whose load-reserved read the initial value


def commit(storage, t: int, kind: int, loc: int = -1, value=None, rmw_from: int = -1, own_only: bool = False):
    """Thread ``t`` commits a write (or a light barrier), seen by ``t`` at once.

    ``rmw_from``: the write an atomic write must stay right after (-1: none; ``FROM_INIT``:
    the initial value, so every later write of its location goes after it). ``own_only``:
    a barrier whose group A is only ``t``'s own events (a fence that orders no read, such
    as eieio: herd's ``rfe;fence`` gives it no writes of other threads)."""
    init, events, seen, co, views = storage
    # a write waits for the barriers its thread had seen; a barrier for every event (group A)
    before = seen[t] & _barriers(events) if kind == EV_WRITE else seen[t]
    if own_only:
        before &= sum(1 << i for i, e in enumerate(events) if e[1] == t)
    grown = (init, events + ((kind, t, loc, value, before, rmw_from),), seen, co + (0,), views)
    if kind == EV_WRITE:
        first = 0
        for i, e in enumerate(events):
            if e[0] == EV_WRITE and e[2] == loc and e[5] == FROM_INIT:
                first |= 1 << i
        if first:
            grown = (init, grown[1], seen, _order_after(grown[1], grown[3], len(events), first), views)
    return receive(grown, t, len(events))


def _moved(mask: int, p: int, n: int) -> int:
    """``mask`` with bit ``n`` moved to ``p`` and bits ``p..n-1`` one up (see ``place_last``)."""
    low = mask & ((1 << p) - 1)
    mid = (mask >> p) & ((1 << (n - p)) - 1)
    return low | (mid << (p + 1)) | (((mask >> n) & 1) << p)


def event_key(e) -> tuple:
    """The order of a canonical storage's events: thread, kind, location, value."""
    return (e[1], e[0], e[2], repr(e[3]))


def place_last(storage):
    """The same storage with its last committed event moved to its place among the others by
    ``event_key`` (ties in commit order), every mask and index renamed to match.

    Which index an event has means nothing to the machine (every relation is a mask over the
    events, and no step reads the commit order), so this is a renaming: a storage reached by
    committing the same events in another interleaving of the threads becomes the same
    storage, and the search visits it once. Storages kept this way from the empty one are
    sorted, so the last event's place is found by its key alone.
    """
    init, events, seen, co, views = storage
    n = len(events) - 1
    last = event_key(events[n])
    p = n
    while p > 0 and event_key(events[p - 1]) > last:
        p -= 1
    if p == n:
        return storage
    order = list(range(p)) + [n] + list(range(p, n))  # new index -> old index

    def index(i: int) -> int:
        return i if i < p or i > n else (p if i == n else i + 1)

    events = tuple((e[0], e[1], e[2], e[3], _moved(e[4], p, n), index(e[5]) if e[5] >= 0 else e[5])
                   for e in (events[i] for i in order))
    co = tuple(_moved(co[i], p, n) for i in order)
    seen = tuple(_moved(m, p, n) for m in seen)
    views = tuple(tuple(_moved(m, p, n) for m in v) for v in views)
    return (init, events, seen, co, views)


def settle(storage, a: int, b: int):
    """At the end: write ``a`` goes coherence-before write ``b`` (two last writes of one location)."""
    init, events, seen, co, views = storage
    return (init, events, seen, _order_after(events, co, b, 1 << a), views)
