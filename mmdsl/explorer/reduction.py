"""Partial-order reduction: persistent sets built from whole threads, which preserve every final state.

At a state, a set S of threads is *closed* when no thread outside S can, now or later,
perform a memory operation that conflicts with an enabled transition of a thread in S
(a write to a location it touches, or any access to a location it writes), nor enable a
disabled operation of a thread in S (a lock or committed compare-and-swap waiting for a
value, a write waiting for another thread's reservation). The enabled transitions of a
closed S then form a persistent set: every transition outside it, along any path that
avoids it, is independent of it. Exploring only persistent sets reaches every
*deadlock* of the full state graph (Godefroid, Partial-Order Methods for the
Verification of Concurrent Systems, LNCS 1032, thm. 4.3), and final states are
deadlocks (every thread finished, nothing pending), so the set of final states is
unchanged. Only final states are observed, so no cycle proviso is needed.

Issues, and reads served by forwarding, touch no shared memory, so a thread that can
only do such steps forms a closed set alone: local work is done first, one thread at a
time. A thread's future accesses are the instructions reachable from its pc (a static
backward pass over the control-flow graph) plus its pending operations.
"""

from __future__ import annotations

from ..core.program import BinOp, Const, Load, Rmw, Store, StoreCond
from .machines.table.state import FENCE, HALF, RESV, RMW, WRITE, Machine, control_successors
from .machines.table.transitions import MEMO_LIMIT, READS, WRITES, Semantics

LOCATION_OPS = ("add", "sub", "or", "xor")  # the operators core.program.apply_op lets a location through


def static_location(e, loc_index: dict[str, int]) -> int | None:
    """The only location an address expression can denote, or None when it comes from a register.

    Addresses support only ``+0`` arithmetic, so an address whose location-carrying part
    names exactly one location (``y + r1``, the diy idiom for an address dependency) can
    only be that one. Only the operators that pass a location through (``+ - | ^`` with 0)
    carry it; a location under any other operator (``(x == r1) + r2``) yields a number.
    """
    names: set[str] = set()

    def walk(x):
        if isinstance(x, Const) and isinstance(x.value, str):
            names.add(x.value)
        elif isinstance(x, BinOp) and x.op in LOCATION_OPS:
            walk(x.left)
            walk(x.right)

    walk(e)
    if len(names) == 1:
        return loc_index.get(next(iter(names)))
    return None


class Reduction:
    """Chooses a persistent set of enabled transitions at each state."""

    def __init__(self, machine: Machine, semantics: Semantics):
        self.m = machine
        self.sem = semantics
        self.all_locations = (1 << len(machine.locations)) - 1
        self.future = [self._future(th) for th in machine.threads]
        self._info: dict = {}

    def _future(self, th) -> list[tuple[int, int]]:
        """Per pc: (reads, writes) location masks of the instructions reachable from it."""
        instrs = th.thread.instrs
        n = len(instrs)
        own = []
        for ins in instrs:
            r = w = 0
            if isinstance(ins, (Load, Store, Rmw, StoreCond)):
                loc = static_location(ins.addr, self.m.loc_index)
                mask = self.all_locations if loc is None else 1 << loc
                if isinstance(ins, (Load, Rmw)):
                    r = mask
                if isinstance(ins, (Store, Rmw, StoreCond)):
                    w = mask
            own.append((r, w))
        succs = control_successors(th.thread)
        fut = own + [(0, 0)]
        changed = True
        while changed:  # backward fixpoint (loops)
            changed = False
            for pc in range(n - 1, -1, -1):
                r, w = own[pc]
                for s in succs[pc]:
                    r |= fut[s][0]
                    w |= fut[s][1]
                if (r, w) != fut[pc]:
                    fut[pc] = (r, w)
                    changed = True
        return fut

    def _footprint(self, state, u: int) -> tuple[int, int]:
        pc, _, pending = state[1][u]
        r, w = self.future[u][pc]
        for o in pending:
            kind = o[0]
            if kind == RESV:
                w |= 1 << o[2]  # a reservation: releasing it may enable another thread's write
            if kind >= FENCE:  # fences and guards touch no memory
                continue
            bit = 1 << o[2]
            if kind == WRITE or kind == HALF:
                w |= bit
            elif kind == RMW:
                r |= bit
                w |= bit
            else:
                r |= bit
        return r, w

    def _thread_info(self, state, t: int, trs: list) -> tuple[int, int, int, int]:
        """(reads, writes, future reads, future writes) of thread ``t`` as location masks.

        The first two are what its enabled steps read (or, for a disabled operation that
        another thread's write may enable, wait on) and write; the last two every access it
        may still perform.
        """
        r = w = 0
        for tr in trs:
            access = tr[5]
            if access == READS:
                r |= 1 << tr[6]
            elif access == WRITES:
                w |= 1 << tr[6]
        if self.m.uses_rmw:
            r |= self.sem.watches(state, t)
        fr, fw = self._footprint(state, t)
        return r, w, fr, fw

    def choose(self, state, enabled: list[list]) -> list:
        """A persistent subset of the enabled transitions (all of them when no thread set is smaller)."""
        n = len(enabled)
        active = [t for t in range(n) if enabled[t]]
        if len(active) <= 1:
            return [tr for trs in enabled for tr in trs]
        info = self._infos(state, enabled)
        local = None  # a thread whose enabled steps touch no shared memory: closed alone
        for t in active:
            inf = info[t]
            if not (inf[0] or inf[1]) and (local is None or len(enabled[t]) < len(enabled[local])):
                local = t
        if local is not None:
            return enabled[local]
        if n == 2:  # the common case, without the general closure below
            return self._choose_of_two(info, enabled)
        # conflicts[t]: the threads that may interfere with what t does or waits on
        conflicts = [0] * n
        touched = [(1 << u, inf[2] | inf[3], inf[3]) for u, inf in enumerate(info)]  # (bit, any access, writes)
        for t in range(n):
            nr, nw, _, _ = info[t]
            if not (nr or nw):
                continue
            m = 0
            for bit, fa, fw in touched:
                if (nw & fa) or (nr & fw):
                    m |= bit
            conflicts[t] = m & ~(1 << t)
        sizes = [len(trs) for trs in enabled]
        best = 0
        best_size = 0
        for t0 in sorted(active, key=sizes.__getitem__):
            if best and sizes[t0] >= best_size:
                break
            closed = frontier = 1 << t0
            while frontier:
                grown = 0
                t = 0
                while frontier:
                    if frontier & 1:
                        grown |= conflicts[t]
                    frontier >>= 1
                    t += 1
                frontier = grown & ~closed
                closed |= frontier
            size = 0
            for t in active:
                if (closed >> t) & 1:
                    size += sizes[t]
            if not best or size < best_size:
                best, best_size = closed, size
        return [tr for t in active if (best >> t) & 1 for tr in enabled[t]]

    @staticmethod
    def _choose_of_two(info, enabled: list[list]) -> list:
        """``choose`` for two threads, both with enabled steps that touch shared memory."""
        a, b = enabled
        first, second = (0, 1) if len(a) <= len(b) else (1, 0)
        for t in (first, second):
            nr, nw, _, _ = info[t]
            _, _, fr, fw = info[1 - t]
            if not ((nw & (fr | fw)) or (nr & fw)):  # closed alone
                return enabled[t]
        return a + b

    def _infos(self, state, enabled: list[list]) -> list:
        """Per thread, ``_thread_info``, memoised on the thread's state: in the record the table
        machine's ``enabled()`` just looked up (its key hashed once), else by its memo key."""
        records = self.sem.records
        n = len(enabled)
        info = []
        if len(records) == n:
            for t in range(n):
                rec = records[t]
                inf = rec[1]
                if inf is None:
                    inf = rec[1] = self._thread_info(state, t, enabled[t])
                info.append(inf)
            return info
        memo = self._info
        keys = self.sem.keys  # the memo keys of this state's threads (set by enabled())
        for t in range(n):
            inf = memo.get(keys[t])
            if inf is None:
                inf = self._thread_info(state, t, enabled[t])
                if len(memo) > MEMO_LIMIT:
                    memo.clear()
                memo[keys[t]] = inf
            info.append(inf)
        return info
