"""The reordering table and fence declarations compiled for fast per-pair questions."""

from __future__ import annotations

from ..core.events import EventShape
from ..relations import Rel
from .ir import ADDR_PO_CTRL, DYNAMIC_DEPENDENCIES, SET, Cell, Expr, FenceDecl, Model, ctrl_fence_of
from .partition import set_predicate


def _named(name: str) -> Expr:
    return Expr("name", name=name, type=SET)


class CompiledTable:
    """Row/column classification of accesses and the cell for each class pair."""

    def __init__(self, model: Model):
        table = model.table
        self.model = model
        self.rows = list(table.rows)
        self.cols = list(table.cols)
        self.row_preds = [set_predicate(_named(r), model) for r in self.rows]
        self.col_preds = [set_predicate(_named(c), model) for c in self.cols]
        self.cells = [[table.cells[(r, c)] for c in self.cols] for r in self.rows]
        self._row_cache: dict[EventShape, int] = {}
        self._col_cache: dict[EventShape, int] = {}

    def row_of(self, shape: EventShape) -> int:
        r = self._row_cache.get(shape)
        if r is None:
            r = next(i for i, p in enumerate(self.row_preds) if p(shape))
            self._row_cache[shape] = r
        return r

    def col_of(self, shape: EventShape) -> int:
        c = self._col_cache.get(shape)
        if c is None:
            c = next(i for i, p in enumerate(self.col_preds) if p(shape))
            self._col_cache[shape] = c
        return c

    def cell(self, earlier: EventShape, later: EventShape) -> Cell:
        return self.cells[self.row_of(earlier)][self.col_of(later)]

    def keeps(self, earlier: EventShape, later: EventShape, same_loc: bool, dependent: bool) -> bool:
        return self.cell(earlier, later).keeps(same_loc, dependent)

    def kept_at_same_location(self, earlier: EventShape, later: EventShape, dependent: bool) -> bool:
        """Does a same-location pair keep its order (for per-location coherence)?

        A write followed by a read of the same location counts as kept when the model
        forwards: the read then takes the write's value or a newer one.
        """
        if self.model.forwarding and earlier.kind == "W" and later.kind == "R":
            return True
        return self.keeps(earlier, later, True, dependent)


class CompiledDependencies:
    """The model's `dependencies` block as predicates: which relation keeps which class pairs."""

    def __init__(self, model: Model):
        self.model = model
        self.rules: dict[str, list] = {}
        for rule in model.dependencies:
            self.rules.setdefault(rule.name, []).extend(
                (set_predicate(a, model), set_predicate(b, model)) for a, b in rule.pairs)

    def keeps(self, relation: str, earlier: EventShape, later: EventShape) -> bool:
        """Does a ``relation`` dependency (addr, data, ctrl, addr;po) of ``later`` on ``earlier`` count?"""
        return any(a(earlier) and b(later) for a, b in self.rules.get(relation, ()))

    def honoured(self) -> list[str]:
        return list(self.rules)


def dependency_relation(model: Model, shapes: list[EventShape], rels: dict[str, Rel]) -> Rel:
    """``dep``: the pairs related by a dependency the model honours for their classes.

    ``rels`` holds the static ``addr``, ``data``, ``ctrl`` and ``po`` of the execution.
    """
    n = len(shapes)
    deps = compiled_dependencies(model)
    out = Rel.empty(n)
    for name, pairs in deps.rules.items():
        fence = ctrl_fence_of(name)
        if name in DYNAMIC_DEPENDENCIES:  # not static: they look at rf and co (lang/defaults.py)
            continue
        if name == "addr;po":
            if rels["addr"].is_empty():  # most tests have no dependency of a kind: nothing to restrict
                continue
            base = rels["addr"].seq(rels["po"])
        elif fence is not None:  # ctrl+isync: a branch on the read, then that fence, then the access
            if rels["ctrl"].is_empty():
                continue
            fences = 0
            for i, s in enumerate(shapes):
                if s.kind == "F" and model.fence_for(fence) in model.fences_for(s.fence):
                    fences |= 1 << i
            base = rels["ctrl"].restrict((1 << n) - 1, fences).seq(rels["po"])
            if name.startswith(ADDR_PO_CTRL):  # addr;po;ctrl+isync: that read after an address-dependent access
                base = rels["addr"].seq(rels["po"]).seq(base)
        else:
            base = rels[name]
        if base.is_empty():
            continue
        out = out | _restrict_pairs(base, _class_masks(shapes, pairs))
    return out


def _class_masks(shapes: list[EventShape], pairs) -> list[tuple[int, int]]:
    """(earlier, later) event masks of a rule's class-pair predicates."""
    out = []
    for a_pred, b_pred in pairs:
        left = right = 0
        for i, s in enumerate(shapes):
            if a_pred(s):
                left |= 1 << i
            if b_pred(s):
                right |= 1 << i
        out.append((left, right))
    return out


def _restrict_pairs(rel: Rel, masks: list[tuple[int, int]]) -> Rel:
    out = Rel.empty(rel.n)
    for left, right in masks:
        out = out | rel.restrict(left, right)
    return out


def po_rdw(model: Model, shapes: list[EventShape], rels: dict[str, Rel], ppo: Rel) -> Rel:
    """``po-rdw``: the same-location pairs an ``rdw`` line keeps (its classes, an ``i``/``di`` cell
    the table does not keep anyway); ``po-rdw & (fre ; rfe)`` is herd's rdw for them."""
    n = len(shapes)
    if model.table is None or not any(rule.name == "rdw" for rule in model.dependencies):
        return Rel.empty(n)
    pairs = compiled_dependencies(model).rules["rdw"]
    table = compiled_table(model)
    cand = _restrict_pairs(rels["po"] & rels["loc"], _class_masks(shapes, pairs))
    rows = [0] * n
    for i in range(n):
        m = cand.rows[i] & ~ppo.rows[i]
        while m:
            low = m & -m
            j = low.bit_length() - 1
            m ^= low
            if table.keeps(shapes[i], shapes[j], True, True):
                rows[i] |= low
    return Rel(n, rows)


class CompiledFences:
    """For each fence kind a test can use: the (earlier, later) set predicates it orders.

    A kind the model does not declare (herd: a fence event of the set named after its
    tag) orders nothing; ``lang/fence_use.py`` says so once per test.
    """

    def __init__(self, model: Model):
        self.model = model
        self.orders: dict[str, list] = {}
        for f in model.fences.values():
            self.orders[f.name] = [(set_predicate(a, model), set_predicate(b, model)) for a, b in f.orders]
        self._by_kind: dict[str, list] = {}

    def decls(self, kind: str) -> list[FenceDecl]:
        """The declarations a fence event of ``kind`` belongs to (none for an undeclared kind)."""
        return self.model.fences_for(kind)

    def kind_orders(self, kind: str, cumulativity: str | None = None) -> list:
        """Every (earlier, later) predicate pair a fence of ``kind`` orders (only its declarations
        that are ``cumulative CUMULATIVITY`` when that is given)."""
        key = (kind, cumulativity)
        out = self._by_kind.get(key)
        if out is None:
            out = self._by_kind[key] = [p for f in self.decls(kind) for p in self.orders[f.name]
                                        if cumulativity is None or f.cumulativity == cumulativity]
        return out

    def orders_pair(self, kind: str, earlier: EventShape, later: EventShape) -> bool:
        return any(a(earlier) and b(later) for a, b in self.kind_orders(kind))


def table_relations(model: Model, shapes: list[EventShape], po: Rel, loc: Rel, dep: Rel,
                    accesses: int) -> tuple[Rel, Rel]:
    """``ppo`` (pairs the table keeps) and ``kept-loc`` over the events of one execution."""
    n = len(shapes)
    if model.table is None:
        return Rel.empty(n), (po & loc).restrict(accesses, accesses)
    table = compiled_table(model)
    ppo = [0] * n
    kept = [0] * n
    for i in range(n):
        if not (accesses >> i) & 1:
            continue
        later = po.rows[i] & accesses
        si = shapes[i]
        while later:
            low = later & -later
            j = low.bit_length() - 1
            later ^= low
            same = bool((loc.rows[i] >> j) & 1)
            dependent = bool((dep.rows[i] >> j) & 1)
            sj = shapes[j]
            if table.keeps(si, sj, same, dependent):
                ppo[i] |= low
            if same and table.kept_at_same_location(si, sj, dependent):
                kept[i] |= low
    return Rel(n, ppo), Rel(n, kept)


def fence_relation(model: Model, shapes: list[EventShape], po: Rel, cumulativity: str | None = None) -> Rel:
    """Pairs (a, b) with a fence f between them (a po f po b) whose kind orders them
    (only fences declared ``cumulative CUMULATIVITY`` when that is given)."""
    n = len(shapes)
    fences = compiled_fences(model)
    rows = [0] * n
    po_inv = None
    for f, shape in enumerate(shapes):
        if shape.kind != "F":
            continue
        if po_inv is None:
            po_inv = po.inverse()
        before = po_inv.rows[f]
        after = po.rows[f]
        for a_pred, b_pred in fences.kind_orders(shape.fence, cumulativity):
            later = 0
            m = after
            while m:
                low = m & -m
                j = low.bit_length() - 1
                m ^= low
                if shapes[j].kind != "F" and b_pred(shapes[j]):
                    later |= low
            if not later:
                continue
            m = before
            while m:
                low = m & -m
                i = low.bit_length() - 1
                m ^= low
                if shapes[i].kind != "F" and a_pred(shapes[i]):
                    rows[i] |= later
    return Rel(n, rows)


def compiled_table(model: Model) -> CompiledTable:
    return model.compiled("table", CompiledTable)


def compiled_dependencies(model: Model) -> CompiledDependencies:
    return model.compiled("dependencies", CompiledDependencies)


def compiled_fences(model: Model) -> CompiledFences:
    return model.compiled("fences", CompiledFences)
