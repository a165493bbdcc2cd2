"""Coherence cuts: the model's own SC-per-location cycles, found with bit operations before any axiom is evaluated.

A model whose acyclicity axiom contains ``P | rf | co | fr`` for a static ``P`` (tso's and
sc's ``uniproc`` over ``kept-loc``, herd's ``acyclic po-loc | com``, sc.cat's ``po | ...``)
forbids every candidate with one of herd's five coherence patterns over same-location
pairs of ``P`` (Alglave et al., "Herding cats", 2014, sec. 4.4):

- coWW: ``w1 P w2`` and ``w2 co w1`` (so a write is placed in co only after the writes
  that must precede it);
- coRW1: ``r P w`` and ``w rf r``;
- coRW2: ``r P w2`` and ``w rf r`` with ``w2 co w``;
- coWR: ``w2 P r`` and ``w rf r`` with ``w co w2``;
- coRR: ``r1 P r2``, ``w1 rf r1``, ``w2 rf r2`` and ``w2 co w1``.

Each is a cycle of two or three edges of the axiom's relation, so cutting it is sound
whatever else the model says; each pattern is used only with the pairs of ``P`` of the
axioms that contain the dynamic relations its cycle uses (coWW needs co, coRR rf and fr
...), read off the axiom's expression through its lets. A model without such an axiom
(dotnet's ``kept-loc`` lacks the read pairs it reorders; a model with no uniproc at all)
gets no cut, or only the cuts its pairs justify. The enumerator applies them only when it
prunes; the complete candidates it keeps are checked against every axiom as before.
"""

from __future__ import annotations

from ..core.errors import ModelError
from ..lang.evaluate import Prepared
from ..lang.ir import DYNAMIC_RELATIONS, SET, Expr
from .structure import Structure

_DIRECT = {"rf": {"rf"}, "co": {"co"}, "fr": {"fr"}, "com": {"rf", "co", "fr"},
           "rfe": {"rfe"}, "rfi": {"rfi"}, "coe": {"coe"}, "coi": {"coi"}, "fre": {"fre"}, "fri": {"fri"}}
# the dynamic relations each pattern's cycle uses besides the static pair
_NEEDS = {"ww": ("co",), "rw1": ("rf",), "rw2": ("rf", "co"), "wr": ("fr",), "rr": ("rf", "fr")}


class CoherenceCuts:
    """Per structure: for each pattern the pairs (rows over event ids) it may be cut on."""

    def __init__(self, pairs: dict[str, list[int]]):
        self.ww, self.rw1, self.rw2 = pairs["ww"], pairs["rw1"], pairs["rw2"]
        self.wr, self.rr = pairs["wr"], pairs["rr"]
        self.before = _inverse(self.ww)  # write -> the writes co must place before it (coWW)
        self.into = _inverse(self.wr)  # read -> the writes P-before it (coWR)

    def sources(self, r: int, opts: list[int], co_rows: list[int]) -> list[int]:
        """The writes of ``opts`` that ``r`` may read under ``co`` (coRW1, coRW2, coWR)."""
        bad = self.rw1[r]
        later = self.rw2[r]  # writes po-after r: r's source must not be co-after any of them
        while later:
            low = later & -later
            bad |= co_rows[low.bit_length() - 1]
            later ^= low
        out = []
        for w in opts:
            if bad >> w & 1:
                continue
            if co_rows[w] & self.into[r]:  # w co-before a write P-before r: hidden from r
                continue
            out.append(w)
        return out

    def prepare_reads(self, reads: list[int]) -> list[list[tuple[int, bool]]]:
        """Per position in ``reads``: the earlier positions coRR relates it to, and whether
        the earlier read is P-before it (True) or P-after it (False)."""
        out = []
        for k, r in enumerate(reads):
            rel = []
            for j in range(k):
                r1 = reads[j]
                if self.rr[r1] >> r & 1:
                    rel.append((j, True))
                elif self.rr[r] >> r1 & 1:
                    rel.append((j, False))
            out.append(rel)
        return out


def coherence_cuts(s: Structure, p: Prepared) -> CoherenceCuts | None:
    """The cuts ``p``'s prunable acyclicity axioms justify on ``s``, or None when there are none."""
    poloc = s.rels["po-loc"].rows
    if not any(poloc):  # no two accesses of one location in one thread: nothing to cut
        return None
    parts = p.model.compiled("coherence-cut-parts", _model_parts)
    if not parts:
        return None
    n = s.n
    pairs = {k: [0] * n for k in _NEEDS}
    found = False
    memory = 0
    for e in s.events:
        if e.kind in ("R", "W"):
            memory |= 1 << e.eid
    for index, entries in parts:
        ax, compiled, prunable = p.axioms[index]
        if not prunable or compiled[0] == "c":
            continue
        env = p.scope_of(ax)[0]
        covered: dict[int, bool] = {}
        kinds: set[str] = set()
        static = [0] * n
        for guards, got, expr in entries:
            if not all(_covers(g, env, p, memory, covered) for g in guards):
                continue
            if got:
                kinds |= got
                continue
            try:
                kind, value = p.compile_expr(expr, env)
            except ModelError:  # a part the cuts cannot read is simply not used
                continue
            if kind == "c":
                static = [a | b for a, b in zip(static, value.rows)]
        rows = [a & b for a, b in zip(static, poloc)]
        if not any(rows):
            continue
        for k in ("rf", "co", "fr"):
            if {k + "e", k + "i"} <= kinds:
                kinds.add(k)
        for pattern, needs in _NEEDS.items():
            if all(k in kinds for k in needs):
                pairs[pattern] = [a | b for a, b in zip(pairs[pattern], rows)]
                found = True
    return CoherenceCuts(pairs) if found else None


def _model_parts(model) -> list[tuple[int, list]]:
    """Per acyclicity axiom (its index): the parts of its union the cuts may use, each
    (guards, dynamic relations, None) or (guards, None, a part that may be static); the
    guards are sets that must hold every access (``X ; [M]``). Once per model."""
    bound: set[str] = set()
    lets: dict[str, Expr | None] = {}
    for group in model.lets:
        for b in group.bindings:
            lets[b.name] = None if (b.name in bound or group.recursive) else b.expr
            bound.add(b.name)
    dynamic = set(_DIRECT) | {"fr", "com"} | set(DYNAMIC_RELATIONS)
    expand: dict[str, Expr] = {}
    for group in model.lets:  # the unique lets whose value depends on the candidate
        for b in group.bindings:
            if lets.get(b.name) is not None and b.expr.names() & (dynamic | set(expand)):
                expand[b.name] = b.expr
    out = []
    for index, ax in enumerate(model.axioms):
        if ax.test != "acyclic" or ax.negated:
            continue
        entries: list = []
        _terms(ax.expr, expand, bound, (), entries, 0)
        kinds = set().union(*(got for _, got, _ in entries if got))
        for k in ("rf", "co", "fr"):
            if {k + "e", k + "i"} <= kinds:
                kinds.add(k)
        if not any(all(k in kinds for k in needs) for needs in _NEEDS.values()):
            continue  # no pattern's cycle lies in this axiom's relation
        # a part naming the candidate's relations is never static: not compiled per test
        entries = [x for x in entries if x[1] or not (x[2].names() & (dynamic | set(expand)))]
        out.append((index, entries))
    return out


def _inverse(rows: list[int]) -> list[int]:
    inv = [0] * len(rows)
    for a, row in enumerate(rows):
        while row:
            low = row & -row
            inv[low.bit_length() - 1] |= 1 << a
            row ^= low
    return inv


def _terms(e: Expr, lets: dict, bound: set, guards: tuple, out: list, depth: int) -> None:
    """Collect the parts of a union ``e`` the cuts can use into ``out`` (see _model_parts).
    Any other part is left out: it only adds edges."""
    if depth > 50:
        return
    op = e.op
    if op == "union":
        for a in e.args:
            _terms(a, lets, bound, guards, out, depth + 1)
        return
    if op == "name" and e.name in _DIRECT and e.name not in bound:
        out.append((guards, frozenset(_DIRECT[e.name]), None))
        return
    if op == "name" and e.name in lets:
        _terms(lets[e.name], lets, bound, guards, out, depth + 1)
        return
    if op == "diff" and all(a.op == "name" and a.name == "id" and "id" not in bound for a in e.args[1:]):
        _terms(e.args[0], lets, bound, guards, out, depth + 1)  # no edge used is an identity
        return
    if op == "seq" and len(e.args) == 2:
        a, b = (_resolve(x, lets) for x in e.args)
        if a.op == "inv" and _is(_resolve(a.args[0], lets), "rf", bound) and _is(b, "co", bound):
            out.append((guards, frozenset({"fr"}), None))  # rf^-1 ; co (herd's cos.cat)
            return
        if b.op == "id":  # X ; [S]: X's edges that end in S, all of them when S holds every access
            _terms(a, lets, bound, guards + (b.args[0],), out, depth + 1)
            return
    if e.type != SET:
        out.append((guards, None, e))


def _resolve(e: Expr, lets: dict) -> Expr:
    """``e`` with a dynamic let's name replaced by its expression, repeatedly."""
    for _ in range(50):
        if not (e.op == "name" and e.name in lets):
            break
        e = lets[e.name]
    return e


def _is(e: Expr, name: str, bound: set) -> bool:
    """Is ``e`` the candidate's own relation ``name`` (not a let of that name)?"""
    return e.op == "name" and e.name == name and name not in bound


def _covers(s: Expr, env: dict, p: Prepared, memory: int, seen: dict) -> bool:
    """Does the set ``s`` hold every access of the structure (memo ``seen``)?"""
    key = id(s)
    if key not in seen:
        try:
            kind, value = p.compile_expr(s, env)
        except ModelError:
            kind, value = "f", None
        seen[key] = kind == "c" and isinstance(value, int) and value & memory == memory
    return seen[key]
