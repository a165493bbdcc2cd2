"""Candidate executions of one event structure: coherence orders and reads-from, pruned early.

Coherence is chosen location by location, each order built write by write from its
start, then reads-from read by read. After every choice the axioms that can only get
worse as rf and co grow (acyclic / irreflexive / empty of expressions positive in rf and
co) are checked on the partial candidate, and a failing branch is cut: a coherence prefix
is already a part of every order that extends it (its writes come before every write not
placed yet), so an order of same-location writes against program order is cut at the
first write placed out of order, not after all n! orders (herd's -optace idea, done by
the model's own axioms), and no read from a write that coherence already hides is ever
completed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Callable

from ..core.errors import UnsupportedError
from ..core.program import Load, Value
from ..lang.cat_linux import lock_order
from ..lang.evaluate import Dynamic, Prepared
from ..relations import Rel
from .coherence_cuts import coherence_cuts
from .structure import Structure
from .symbolic import value_of, variables


@dataclass
class Leaf:
    """A complete candidate: rf source per read, co per location, and the values it implies."""

    rf_src: dict[int, int]  # read eid -> write eid
    co_orders: dict[str, list[int]]  # location -> writes in coherence order (init first)
    rf: Rel
    co: Rel
    values: dict[int, Value]  # event eid -> value (reads and writes)
    final: dict  # ("reg", tid, name) / ("mem", loc) -> value
    dynamic: Dynamic


def _co_rows(n: int, orders: dict[str, list[int]]) -> list[int]:
    rows = [0] * n
    for order in orders.values():
        later = 0
        for w in reversed(order):
            rows[w] |= later
            later |= 1 << w
    return rows


def own_co_locations(program) -> set:
    """herd's observed locations (the condition's, the filter's and `locations [...]`): those
    it picks a final write of when the model computes co itself."""
    keys = list(program.condition.keys()) + list(program.observed)
    if program.filter is not None:
        keys += list(program.filter.keys())
    return {k[1] for k in keys if k[0] == "mem"}


def _refuse_c_rmws(s: Structure, reason: str) -> None:
    """herd makes a C read-modify-write one event, both R and W; a model that computes co
    itself, or generates it from pco (Model.c_rmw_refusal), names no C set, so mmdsl would
    read it over its two events, and decide otherwise (counter+cas-sc: herd Never under
    uniproccat.cat)."""
    e = next((e for e in s.events if e.rmw and e.tid >= 0), None)
    if e is not None:
        ins = s.program.threads[e.tid].instrs[e.instr]
        raise UnsupportedError(f"a C read-modify-write under a herd model that {reason}: herd "
                               "makes it one event, which such a model (no C set) is not read over in "
                               "mmdsl").locate(ins.pos, ins.text)


def read_pins(s: Structure) -> dict[int, Value]:
    """Each read event whose path assumes the value it reads (the paths' pins): that value."""
    pins: dict[int, Value] = {}
    for tid, tr in enumerate(s.traces):
        for k, v in tr.pins.items():
            if k in s.read_eid[tid]:
                pins[s.read_eid[tid][k]] = v
    return pins


def rf_choices(s: Structure, pins: dict[int, Value]) -> list[tuple[int, list[int]]]:
    """Per read, the writes it may read from: those to its location whose value can match its pin."""
    out = []
    for r in s.reads:
        opts = []
        for w in s.writes_by_loc.get(s.events[r].loc, []):
            if w == r:
                continue
            if r in pins:
                wv = s.events[w].value
                if wv is not None and wv != pins[r]:
                    continue
            opts.append(w)
        out.append((r, opts))
    return out


class Enumerator:
    """Depth-first enumeration of the candidates of one structure under one prepared model."""

    def __init__(self, structure: Structure, prepared: Prepared, prune: bool = True,
                 wanted: dict | None = None, thin_air: bool = False):
        """``wanted``: final values (("reg", tid, name) / ("mem", loc) -> value) every leaf of
        interest has; leaves without them are cut early (verdict-only runs, see ``wanted_values``).
        ``thin_air``: the structure has a path only a value out of thin air takes (see
        ``threads.thin_air_traces``); an allowed leaf whose values no written constant
        determines is refused (see ``_undetermined``)."""
        self.thin_air = thin_air
        self.s = structure
        self.p = prepared
        self.prune = prune and any(pr for _, _, pr in prepared.axioms)
        self.n = structure.n
        self.candidates = 0  # complete candidates whose values are consistent (leaves)
        self.partial = 0  # partial candidates checked against the prunable axioms
        s = structure
        pins = self.pins = read_pins(s)
        self.last_value: dict[str, Value] = {}  # location -> the value its co-last write must have
        self.hopeless = False  # no leaf of this structure can have the wanted values
        if wanted:
            self._want(wanted)
        self.choices = rf_choices(s, pins)  # after _want, whose pins they honour too
        self.locs = [loc for loc in sorted(s.writes_by_loc)]
        writes = [e for e in s.events if e.kind == "W"]
        self._consts = ({e.eid: e.value for e in writes} if all(e.value is not None for e in writes)
                        else None)  # see _values
        self._read_slots = [(r, s.events[r].tid, s.templates[r].read) for r in s.reads]
        self.locations = s.locations
        self._checked: Dynamic | None = None  # the last partial check, and its answer
        self._failed = False
        self._locks(prepared)
        # a herd model that computes co itself (lang.cat_own_co): co only picks final writes
        self.own_co = own_co_locations(s.program) if getattr(prepared.model, "own_co", False) else None
        # the model's own coherence cycles, cut with bit operations (see coherence_cuts)
        self.cuts = coherence_cuts(s, prepared) if self.prune and self.own_co is None else None
        self.rr = self.cuts.prepare_reads([r for r, _ in self.choices]) if self.cuts else None
        refusal = getattr(prepared.model, "c_rmw_refusal", "")
        if refusal and s.program.arch == "C":
            _refuse_c_rmws(s, refusal)

    def _want(self, wanted: dict) -> None:
        """Turn wanted final values into pinned reads and co-last values where they are direct."""
        s = self.s
        for key, value in wanted.items():
            if key[0] == "mem":
                self.last_value[key[1]] = value
                continue
            _, tid, reg = key
            if tid >= len(s.traces) or reg not in s.traces[tid].regs:
                continue
            sym = s.traces[tid].regs[reg]
            if not isinstance(sym, tuple):
                if sym != value:
                    self.hopeless = True
            elif sym[0] == "v" and sym[1] in s.read_eid[tid]:
                r = s.read_eid[tid][sym[1]]
                if self.pins.get(r, value) != value:
                    self.hopeless = True
                self.pins[r] = value

    def _locks(self, prepared: Prepared) -> None:
        """herd's lock.cat, when the model has it (``cat_linux.lock_atomicity``): an unlock
        comes right after its lock write in co, and a lock's read reads the write right
        before its lock's write. Both are cut as the candidate is built (``_lock_next_ok``,
        ``_lock_need``): a lock with k critical sections then has k! coherence orders, not
        (2k)!, and its reads one source each, as herd generates them."""
        self.lock_after: list[int] | None = None  # event -> bits of the writes co must put right after it
        self.lock_before: list[int] = []  # event -> bits of the writes co must put right before it
        self.lock_reads: dict[int, int] = {}  # a lock's read -> bits of its lock write
        self._need: dict[int, int] = {}  # for the current co: a lock's read -> its one source (-1: none)
        found = lock_order(prepared) if self.prune else None
        if found is None:
            return
        critical, lock_rmw = found
        if critical.is_empty() and lock_rmw.is_empty():
            return
        self.lock_after = list(critical.rows)
        self.lock_before = [0] * self.n
        for a, row in enumerate(critical.rows):
            for b in range(self.n):
                if row >> b & 1:
                    self.lock_before[b] |= 1 << a
        self.lock_reads = {r: row for r, row in enumerate(lock_rmw.rows) if row}

    def _lock_next_ok(self, order: list[int], w: int) -> bool:
        """May ``w`` come right after ``order`` in co (lock.cat's critical pairs side by side)?"""
        prev = order[-1] if order else None
        if prev is not None and self.lock_after[prev] & ~(1 << w):
            return False  # prev's unlock must come next
        before = self.lock_before[w]
        return not (before and before != (0 if prev is None else 1 << prev))

    def _lock_need(self, chosen: dict[str, list[int]]) -> dict[int, int]:
        """The one write each lock's read may read in this co: the one right before its lock's write."""
        pred: dict[int, int] = {}
        for order in chosen.values():
            for k in range(1, len(order)):
                pred[order[k]] = order[k - 1]
        need = {}
        for r, writes in self.lock_reads.items():
            sources = {pred.get(w, -1) for w in range(self.n) if writes >> w & 1}
            need[r] = sources.pop() if len(sources) == 1 else -1
        return need

    def _last_ok(self, loc: str, last: int) -> bool:
        """Can ``last`` end ``loc``'s coherence order when a final value is wanted there?"""
        want = self.last_value.get(loc)
        if want is None:
            return True
        v = self.s.events[last].value
        return v is None or v == want

    def _fails(self, rf_rows: list[int], co_rows: list[int]) -> bool:
        rf, co = Rel(self.n, rf_rows), Rel(self.n, co_rows)
        last = self._checked
        if last is not None and last.co.rows == co.rows and last.rf.rows == rf.rows:
            # the same rf and co as the check just made: a coherence order completed by
            # placing its last-but-one write was already checked as that prefix (with one
            # write left, the prefix's rows are the whole order's), so _co_done need not redo it
            return self._failed
        self.partial += 1
        d = Dynamic(rf, co, self.s.internal)
        self._checked = d  # a leaf right after this check reuses it (see _leaf)
        self._failed = self.p.first_failure(d, prunable_only=True) is not None
        return self._failed

    def run(self, on_leaf: Callable[[Leaf, bool], None], want_forbidden: bool = False) -> None:
        """Call ``on_leaf(leaf, allowed)`` for every allowed candidate (and forbidden ones if asked)."""
        self.on_leaf = on_leaf
        self.want_forbidden = want_forbidden
        prune = self.prune and not want_forbidden
        self._prune_now = prune
        if self.hopeless:
            return
        if self.own_co is not None:
            self._final_writes()
            return
        self._co({})

    def _final_writes(self) -> None:
        """herd's candidates for a model that computes co itself: reads-from and one final
        write per observed location, nothing per other location. Each choice is one order
        (the other writes in event order, the final one last); the co the model sees is
        only its FW (``W \\ domain(co)``), so an unobserved location's writes are each given a
        co successor (a square, not an order) to leave it no final write, as herd does."""
        s = self.s
        per_loc = []
        for loc in self.locs:
            writes = s.writes_by_loc.get(loc, [])
            inits = [w for w in writes if s.events[w].init]
            rest = [w for w in writes if not s.events[w].init]
            if loc not in self.own_co or not rest:
                per_loc.append([inits + rest])
            else:
                per_loc.append([inits + [x for x in rest if x != w] + [w] for w in rest
                                if self._last_ok(loc, w)])
        for combo in product(*per_loc):
            chosen = dict(zip(self.locs, combo))
            rows = _co_rows(self.n, {k: v for k, v in chosen.items() if k in self.own_co})
            for loc, order in chosen.items():
                if loc not in self.own_co:
                    square = sum(1 << w for w in order)
                    for w in order:
                        rows[w] = square
            self._co_done(chosen, rows)

    # Both choices are depth-first searches over one level per location (coherence) and one
    # per read (reads-from), written as loops over an explicit stack of choice iterators so
    # that a test with thousands of locations or reads does not recurse that deep.
    def _co(self, chosen: dict[str, list[int]]) -> None:
        locs = self.locs
        if not locs:
            self._co_done(chosen)
            return
        # One level per location; within a location one level per position of its order.
        # A frame is (location index, the order so far, writes not placed yet, next index).
        s = self.s
        inits, rests = [], []
        for loc in locs:
            writes = s.writes_by_loc.get(loc, [])
            inits.append([w for w in writes if s.events[w].init])
            rests.append([w for w in writes if not s.events[w].init])
        stack = [(0, list(inits[0]), rests[0], 0)]
        cuts = self.cuts if self._prune_now else None
        while stack:
            li, order, rest, k = stack.pop()
            loc = locs[li]
            if not rest:  # this location's order is complete
                if order and not self._last_ok(loc, order[-1]):
                    continue
                chosen[loc] = order
                if li + 1 < len(locs):
                    stack.append((li + 1, list(inits[li + 1]), rests[li + 1], 0))
                else:
                    self._co_done(chosen)
                continue
            if k == len(rest):  # every write tried at this position
                continue
            stack.append((li, order, rest, k + 1))  # the next write at this position, later
            w = rest[k]
            if self.lock_after is not None and self._prune_now and not self._lock_next_ok(order, w):
                continue  # lock.cat: an unlock right after its lock write (see _locks)
            prefix = order + [w]
            remaining = rest[:k] + rest[k + 1:]
            if cuts is not None and cuts.before[w] and any(cuts.before[w] >> x & 1 for x in remaining):
                continue  # coWW: a write that must come before w in co is not placed yet
            if remaining and loc in self.last_value and not any(self._last_ok(loc, x) for x in remaining):
                continue  # -q: none of the writes left can end the order with the wanted value
            if self._prune_now and remaining and len(prefix) + len(remaining) > 2:
                chosen[loc] = prefix + remaining  # rows below keep only the prefix's edges
                if self._fails([0] * self.n, self._co_prefix_rows(chosen, loc, len(prefix))):
                    continue
            stack.append((li, prefix, remaining, 0))
        for loc in locs:
            chosen.pop(loc, None)

    def _co_prefix_rows(self, chosen: dict[str, list[int]], loc: str, placed: int) -> list[int]:
        """co rows of the locations before ``loc`` and of ``loc``'s first ``placed`` writes:
        each placed write before every later write, the unplaced ones still unordered."""
        done = {k: v for k, v in chosen.items() if self.locs.index(k) < self.locs.index(loc)}
        rows = _co_rows(self.n, done)
        order = chosen[loc]
        later = 0
        for w in order[placed:]:
            later |= 1 << w
        for w in reversed(order[:placed]):
            rows[w] |= later
            later |= 1 << w
        return rows

    def _co_done(self, chosen: dict[str, list[int]], co_rows: list[int] | None = None) -> None:
        co_rows = _co_rows(self.n, chosen) if co_rows is None else co_rows
        if self._prune_now and self._fails([0] * self.n, co_rows):
            return
        if self.lock_after is not None and self._prune_now:
            self._need = self._lock_need(chosen)
        choices = self.choices
        rr = None
        if self.cuts is not None and self._prune_now:  # sources coherence leaves each read
            choices = [(r, self.cuts.sources(r, opts, co_rows)) for r, opts in choices]
            if any(not opts for _, opts in choices):
                return
            rr = self.rr
        self._rf(choices, rr, [0] * self.n, {}, chosen, co_rows)

    def _rf(self, choices: list, rr: list | None, rf_rows: list[int], src: dict[int, int], co: dict,
            co_rows: list[int]) -> None:
        """Reads-from, read by read, for the reads' options in ``choices``; ``rr``: per read
        the earlier reads coRR relates it to (see coherence_cuts), None for no such cut."""
        if not choices:
            self._leaf(rf_rows, src, co, co_rows)
            return
        at = [-1] * len(choices)  # per read: the index of its current write in its options
        chosen = [0] * len(choices)  # per read: its current write
        need = self._need if self.lock_after is not None and self._prune_now else None
        depth = i = 0
        while depth >= i:
            r, opts = choices[depth]
            bit = 1 << r
            if at[depth] >= 0:  # undo the current choice of this read
                rf_rows[opts[at[depth]]] &= ~bit
            at[depth] += 1
            if at[depth] == len(opts):
                at[depth] = -1
                src.pop(r, None)
                depth -= 1
                continue
            w = opts[at[depth]]
            if need and need.get(r, w) != w:
                continue  # lock.cat: a lock's read reads the write just before its lock's write
            if rr is not None and rr[depth] and _co_rr(rr[depth], chosen, w, co_rows):
                continue  # coRR: two reads see their writes against coherence
            chosen[depth] = w
            rf_rows[w] |= bit
            src[r] = w
            if self._prune_now and self._fails(rf_rows, co_rows):
                continue
            if depth + 1 == len(choices):
                self._leaf(rf_rows, src, co, co_rows)
            else:
                depth += 1

    def _leaf(self, rf_rows, src, co, co_rows) -> None:
        values = self._values(src)
        if values is None:  # a value cycle: no value is determined (out of thin air)
            self._thin_air(rf_rows, co_rows)
            return
        s = self.s
        for r, v in self.pins.items():
            if values[r] != v:
                return
        self.candidates += 1
        if self._prune_now:
            # the last partial check (the last read's choice in _rf, or _co_done when there
            # are no reads) was on exactly this rf and co, and passed: the prunable axioms
            # hold, only the others are left to check, on the same relations and cache
            d = self._checked
            rf, corel = d.rf, d.co
            allowed = self.p.first_failure(d, skip_prunable=True) is None
        else:
            rf = Rel(self.n, rf_rows)
            corel = Rel(self.n, co_rows)
            d = Dynamic(rf, corel, s.internal)
            allowed = self.p.first_failure(d) is None
        if not allowed and not self.want_forbidden:
            return
        if allowed and self.thin_air:
            cycle = self._undetermined(src)
            if cycle:
                raise thin_air_error(s, cycle)
            twice = _reads_twice(s.program)
            if twice is not None:
                raise UnsupportedError(
                    "this test has executions whose values come out of thin air, and a statement "
                    "that reads memory twice: herd leaves those reads unsequenced (no sb between "
                    "them) where mmdsl orders them, which decides whether such an execution is "
                    "allowed").locate(twice.pos, twice.text)
        final = self._final(values, co)
        if self.own_co is not None:  # the orders chosen, not the rows that hid unobserved final writes
            corel = Rel(self.n, _co_rows(self.n, co))
        leaf = Leaf(dict(src), {k: list(v) for k, v in co.items()}, rf, corel, values, final, d)
        self.on_leaf(leaf, allowed)

    def _thin_air(self, rf_rows, co_rows) -> None:
        """A candidate whose values feed each other through a cycle of reads-from and data
        (C13: ``r1 = y; x = r1`` against ``r4 = x; y = r4``): nothing determines them, herd
        reports such an execution with a symbolic value. Forbidden by the model (every model
        with a no-thin-air axiom), it is no execution; allowed, the test is refused by name."""
        if self._prune_now:
            d = self._checked  # the prunable axioms hold on exactly this rf and co (see _leaf)
            allowed = self.p.first_failure(d, skip_prunable=True) is None
        else:
            d = Dynamic(Rel(self.n, rf_rows), Rel(self.n, co_rows), self.s.internal)
            allowed = self.p.first_failure(d) is None
        if allowed:
            raise thin_air_error(self.s, self.cycle)

    def _undetermined(self, src: dict[int, int]) -> list[int] | None:
        """A cycle of reads-from and data through which values feed each other when no read
        is pinned, or None. A path pinned to a value out of thin air gets its writes' values
        from the pin (``r0 = x; if (r0 == 2) y = r0;`` writes 2); herd finds such a value
        only when a constant written on the cycle determines it (cyc's ``*y = 1``), and
        leaves it undetermined (a symbolic value, or no execution) otherwise."""
        s = self.s

        def sources(eid: int) -> list[int]:
            e = s.events[eid]
            if e.kind == "R":
                return [src[eid]]
            t = s.templates[eid]
            if t is None:
                return []
            raw = t.value if t.raw is None else t.raw
            return [s.read_eid[e.tid][k] for k in sorted(variables(raw)) if k in s.read_eid[e.tid]]

        state: dict[int, int] = {}  # 1: on the current path, 2: no cycle through it
        for start in s.reads:
            if start in state:
                continue
            path: dict[int, None] = {start: None}
            state[start] = 1
            stack = [(start, iter(sources(start)))]
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    stack.pop()
                    state[node] = 2
                    path.pop(node)
                    continue
                seen = state.get(nxt)
                if seen == 1:
                    return _cycle_from(path, nxt)
                if seen is None:
                    state[nxt] = 1
                    path[nxt] = None
                    stack.append((nxt, iter(sources(nxt))))
        return None

    # ---- values --------------------------------------------------------------------
    def _values(self, src: dict[int, int]) -> dict[int, Value] | None:
        """Every event's value, resolving data dependencies; None for a cyclic (thin-air) candidate.

        The two resolvers are methods, not nested functions calling each other: such a pair
        is a reference cycle per candidate, garbage only the cycle collector frees."""
        s = self.s
        if self._consts is not None:  # every write's value is a constant: a read has its source's
            values = dict(self._consts)
            env = [dict() for _ in s.traces]
            for r, tid, slot in self._read_slots:
                env[tid][slot] = values[r] = values[src[r]]
            self.env = env
            return values
        values: dict[int, Value] = {}
        env: list[dict[int, Value]] = [dict() for _ in s.traces]
        visiting: dict[int, None] = {}  # the events being resolved, in order (a stack)
        state = (src, values, env, visiting)
        try:
            for r in s.reads:
                v = self._read_value(r, state)
                e = s.events[r]
                env[e.tid][s.templates[r].read] = v
            for e in s.events:
                if e.kind == "W":
                    self._write_value(e.eid, state)
        except _Cycle as cycle:
            self.cycle = cycle.events
            return None
        self.env = env
        return values

    def _write_value(self, w: int, state):
        src, values, env, visiting = state
        v = values.get(w)
        if v is not None:
            return v
        s = self.s
        e = s.events[w]
        if e.value is not None:
            values[w] = e.value
            return e.value
        t = s.templates[w]
        if w in visiting:
            raise _Cycle(_cycle_from(visiting, w))
        visiting[w] = None
        tid = e.tid
        for k in variables(t.value):  # only the reads this value is computed from
            if k not in env[tid]:
                env[tid][k] = self._read_value(s.read_eid[tid][k], state)
        try:
            v = value_of(t.value, env[tid])
        except UnsupportedError as err:  # e.g. storing an address plus a value read
            ins = s.program.threads[tid].instrs[t.instr]
            raise err.locate(ins.pos, ins.text) from None
        visiting.pop(w, None)
        values[w] = v
        return v

    def _read_value(self, r: int, state):
        src, values, env, visiting = state
        v = values.get(r)
        if v is not None:
            return v
        if r in visiting:
            raise _Cycle(_cycle_from(visiting, r))
        visiting[r] = None
        v = self._write_value(src[r], state)
        visiting.pop(r, None)
        values[r] = v
        return v

    def _final(self, values: dict[int, Value], co: dict[str, list[int]]) -> dict:
        s = self.s
        final: dict = {}
        for loc, order in co.items():
            final[("mem", loc)] = values[order[-1]]
        for loc in self.locations:
            final.setdefault(("mem", loc), s.program.init.get(loc, 0))
        for tid, tr in enumerate(s.traces):
            env = self.env[tid]
            for reg, sym in tr.regs.items():
                if reg.startswith("%") and reg in ("%old", "%zf", "%tmp", "%tmp2"):
                    continue
                try:
                    final[("reg", tid, reg)] = value_of(sym, env) if isinstance(sym, tuple) else sym
                except UnsupportedError as err:  # e.g. an address plus a value read, never used
                    raise err.locate(*_writer_of(s.program.threads[tid].instrs, reg)) from None
        return final


def _co_rr(related: list[tuple[int, bool]], chosen: list[int], w: int, co_rows: list[int]) -> bool:
    """Does reading ``w`` contradict coherence with an earlier read's write ``chosen[j]``?"""
    for j, before in related:
        other = chosen[j]
        if other != w and (co_rows[w] >> other & 1 if before else co_rows[other] >> w & 1):
            return True
    return False


def _writer_of(instrs, reg: str) -> tuple:
    """Position and text of the last instruction that writes ``reg`` (for errors)."""
    ins = next((i for i in reversed(instrs) if getattr(i, "dst", None) == reg), None)
    return (ins.pos, ins.text) if ins is not None else (None, "")


class _Cycle(Exception):
    """Values that feed each other: ``events``, the cycle's reads and writes in order."""

    def __init__(self, events: list[int]):
        super().__init__()
        self.events = events


def _cycle_from(visiting: dict[int, None], start: int) -> list[int]:
    stack = list(visiting)
    return stack[stack.index(start):]


def _reads_twice(program):
    """The first C statement that reads memory twice (``t = load(x) + *y``), or None."""
    if program.arch != "C":
        return None
    for t in program.threads:
        seen = set()
        for ins in t.instrs:
            if isinstance(ins, Load) and ins.pos is not None:
                if ins.pos in seen:
                    return ins
                seen.add(ins.pos)
    return None


def thin_air_error(structure: Structure, cycle: list[int]) -> UnsupportedError:
    """The refusal of a test with an allowed execution whose values come out of thin air."""
    s = structure
    steps = []
    for eid in cycle:
        e = s.events[eid]
        who = "init" if e.tid < 0 else s.program.threads[e.tid].name
        steps.append(f"{who} {e.kind} {e.loc}")
    first = next((s.events[e] for e in cycle if s.events[e].tid >= 0), None)
    ins = s.program.threads[first.tid].instrs[first.instr] if first is not None else None
    err = UnsupportedError(
        "this test has executions whose values come out of thin air (cycle: "
        + " -> ".join(steps + steps[:1]) + "), which mmdsl does not enumerate; herd reports them "
        "with symbolic values (a model with a no-thin-air axiom, such as rc11.cat's "
        "'acyclic sb | rf', forbids them)")
    return err.locate(ins.pos, ins.text) if ins is not None else err
