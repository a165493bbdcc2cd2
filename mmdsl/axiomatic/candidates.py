"""Candidate executions of one event structure: coherence orders and reads-from, pruned early.

Coherence is chosen location by location, then reads-from read by read. After every
choice the axioms that can only get worse as rf and co grow (acyclic / irreflexive /
empty of expressions positive in rf and co) are checked on the partial candidate, and
a failing branch is cut: no order of same-location writes against program order, no read
from a write that coherence already hides, is ever completed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Callable, Iterator

from ..core.errors import UnsupportedError
from ..core.program import Value
from ..lang.evaluate import Dynamic, Prepared
from ..relations import Rel
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


def _orders(structure: Structure, loc: str) -> Iterator[list[int]]:
    """Every coherence order of ``loc``'s writes (init first), one at a time: there are n! of them."""
    writes = structure.writes_by_loc.get(loc, [])
    init = [w for w in writes if structure.events[w].init]
    rest = [w for w in writes if not structure.events[w].init]
    return (init + list(p) for p in permutations(rest))


def _co_rows(n: int, orders: dict[str, list[int]]) -> list[int]:
    rows = [0] * n
    for order in orders.values():
        later = 0
        for w in reversed(order):
            rows[w] |= later
            later |= 1 << w
    return rows


class Enumerator:
    """Depth-first enumeration of the candidates of one structure under one prepared model."""

    def __init__(self, structure: Structure, prepared: Prepared, prune: bool = True):
        self.s = structure
        self.p = prepared
        self.prune = prune and any(pr for _, _, pr in prepared.axioms)
        self.n = structure.n
        self.candidates = 0
        s = structure
        # rf choices: writes to the same location whose value can match a pinned read
        self.choices: list[tuple[int, list[int]]] = []
        pins: dict[int, Value] = {}
        for tid, tr in enumerate(s.traces):
            for k, v in tr.pins.items():
                if k in s.read_eid[tid]:
                    pins[s.read_eid[tid][k]] = v
        self.pins = pins
        for r in s.reads:
            loc = s.events[r].loc
            opts = []
            for w in s.writes_by_loc.get(loc, []):
                if w == r:
                    continue
                if r in pins:
                    wv = s.events[w].value
                    if wv is not None and wv != pins[r]:
                        continue
                opts.append(w)
            self.choices.append((r, opts))
        self.locs = [loc for loc in sorted(s.writes_by_loc)]

    def _fails(self, rf_rows: list[int], co_rows: list[int]) -> bool:
        d = Dynamic(Rel(self.n, rf_rows), Rel(self.n, co_rows), self.s.internal)
        return self.p.first_failure(d, prunable_only=True) is not None

    def run(self, on_leaf: Callable[[Leaf, bool], None], want_forbidden: bool = False) -> None:
        """Call ``on_leaf(leaf, allowed)`` for every allowed candidate (and forbidden ones if asked)."""
        self.on_leaf = on_leaf
        self.want_forbidden = want_forbidden
        prune = self.prune and not want_forbidden
        self._prune_now = prune
        self._co({})

    # Both choices are depth-first searches over one level per location (coherence) and one
    # per read (reads-from), written as loops over an explicit stack of choice iterators so
    # that a test with thousands of locations or reads does not recurse that deep.
    def _co(self, chosen: dict[str, list[int]]) -> None:
        locs = self.locs
        if not locs:
            self._co_done(chosen)
            return
        stack = [iter(_orders(self.s, locs[0]))]  # one iterator per location chosen so far
        while stack:
            depth = len(stack) - 1
            loc = locs[depth]
            order = next(stack[-1], None)
            if order is None:  # every order of this location tried: back to the one before
                stack.pop()
                chosen.pop(loc, None)
                continue
            chosen[loc] = order
            if self._prune_now and len(order) > 2 and self._fails([0] * self.n, _co_rows(self.n, chosen)):
                continue
            if depth + 1 < len(locs):
                stack.append(iter(_orders(self.s, locs[depth + 1])))
            else:
                self._co_done(chosen)

    def _co_done(self, chosen: dict[str, list[int]]) -> None:
        co_rows = _co_rows(self.n, chosen)
        if self._prune_now and self._fails([0] * self.n, co_rows):
            return
        self._rf(0, [0] * self.n, {}, chosen, co_rows)

    def _rf(self, i: int, rf_rows: list[int], src: dict[int, int], co: dict, co_rows: list[int]) -> None:
        choices = self.choices
        if i == len(choices):
            self._leaf(rf_rows, src, co, co_rows)
            return
        at = [-1] * len(choices)  # per read from i on: the index of its current write in its options
        depth = i
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
        if values is None:
            return
        s = self.s
        for r, v in self.pins.items():
            if values[r] != v:
                return
        self.candidates += 1
        rf = Rel(self.n, rf_rows)
        corel = Rel(self.n, co_rows)
        d = Dynamic(rf, corel, s.internal)
        allowed = self.p.first_failure(d) is None
        if not allowed and not self.want_forbidden:
            return
        final = self._final(values, co)
        leaf = Leaf(dict(src), {k: list(v) for k, v in co.items()}, rf, corel, values, final, d)
        self.on_leaf(leaf, allowed)

    # ---- values --------------------------------------------------------------------
    def _values(self, src: dict[int, int]) -> dict[int, Value] | None:
        """Every event's value, resolving data dependencies; None for a cyclic (thin-air) candidate."""
        s = self.s
        values: dict[int, Value] = {}
        env: list[dict[int, Value]] = [dict() for _ in s.traces]
        visiting: set[int] = set()

        def write_value(w: int):
            v = values.get(w)
            if v is not None:
                return v
            e = s.events[w]
            if e.value is not None:
                values[w] = e.value
                return e.value
            t = s.templates[w]
            if w in visiting:
                raise _Cycle
            visiting.add(w)
            tid = e.tid
            for k in variables(t.value):  # only the reads this value is computed from
                if k not in env[tid]:
                    env[tid][k] = read_value(s.read_eid[tid][k])
            try:
                v = value_of(t.value, env[tid])
            except UnsupportedError as err:  # e.g. storing an address plus a value read
                ins = s.program.threads[tid].instrs[t.instr]
                raise err.locate(ins.pos, ins.text) from None
            visiting.discard(w)
            values[w] = v
            return v

        def read_value(r: int):
            v = values.get(r)
            if v is not None:
                return v
            if r in visiting:
                raise _Cycle
            visiting.add(r)
            v = write_value(src[r])
            visiting.discard(r)
            values[r] = v
            return v

        try:
            for r in s.reads:
                v = read_value(r)
                e = s.events[r]
                env[e.tid][s.templates[r].read] = v
            for e in s.events:
                if e.kind == "W":
                    write_value(e.eid)
        except _Cycle:
            return None
        self.env = env
        return values

    def _final(self, values: dict[int, Value], co: dict[str, list[int]]) -> dict:
        s = self.s
        final: dict = {}
        for loc, order in co.items():
            final[("mem", loc)] = values[order[-1]]
        for loc in s.program.locations:
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


def _writer_of(instrs, reg: str) -> tuple:
    """Position and text of the last instruction that writes ``reg`` (for errors)."""
    ins = next((i for i in reversed(instrs) if getattr(i, "dst", None) == reg), None)
    return (ins.pos, ins.text) if ins is not None else (None, "")


class _Cycle(Exception):
    pass
