"""Event classes as predicates on event shapes, and the check that table classes partition accesses."""

from __future__ import annotations

from typing import Callable

from ..core.errors import ModelError
from ..core.events import EventShape
from .bdd import FALSE, TRUE, Bdd, TooLarge
from .ir import SET, Expr, Model, fence_tags

Predicate = Callable[[EventShape], bool]


def set_predicate(expr: Expr, model: Model, _seen: frozenset = frozenset()) -> Predicate:
    """Compile a set expression into a predicate on event shapes."""
    op = expr.op
    if op == "universe":
        return lambda s: True
    if op == "name":
        return _name_predicate(expr.name, model, _seen, expr)
    args = [set_predicate(a, model, _seen) for a in expr.args]
    if op == "union":
        return lambda s: any(p(s) for p in args)
    if op == "inter":
        return lambda s: all(p(s) for p in args)
    if op == "diff":
        a, rest = args[0], args[1:]
        return lambda s: a(s) and not any(b(s) for b in rest)
    if op == "compl":
        (a,) = args
        return lambda s: not a(s)
    raise ModelError(f"'{expr}' is not a set expression", expr.pos)


def _name_predicate(name: str, model: Model, seen: frozenset, expr: Expr) -> Predicate:
    if name == "R":
        return lambda s: s.kind == "R"
    if name == "W":
        return lambda s: s.kind == "W"
    if name == "F":
        return lambda s: s.kind == "F"
    if name == "M":
        return lambda s: s.kind != "F"
    if name == "RMW":
        return lambda s: s.rmw
    if name == "IW":
        return lambda s: s.init
    if name in model.classes:
        if name in seen:
            raise ModelError(f"class '{name}' is defined in terms of itself", expr.pos)
        return set_predicate(model.classes[name], model, seen | {name})
    for group in model.lets:
        for b in group.bindings:
            if b.name == name and b.expr.type == SET and not group.recursive:
                return set_predicate(b.expr, model, seen | {name})
    for f in model.fences.values():
        if name in f.spellings:
            spellings = {s.lower() for s in f.spellings}
            return lambda s, sp=spellings: s.kind == "F" and any(t in sp for t in fence_tags(s.fence))
    # an annotation (known or declared)
    return lambda s: name in s.annots


def shape_text(s: EventShape) -> str:
    parts = [{"R": "read", "W": "write"}[s.kind]]
    if s.rmw:
        parts.insert(0, "atomic (RMW)")
    if s.annots:
        parts.append("annotated " + ", ".join(sorted(s.annots)))
    else:
        parts.append("with no annotation")
    return " ".join(parts)


def check_partition(model: Model) -> None:
    """The table's rows, and its columns, must each partition the memory accesses."""
    errors = partition_errors(model)
    if errors:
        raise errors[0]


def partition_errors(model: Model) -> list[ModelError]:
    """Where the table's rows, or its columns, fail to partition the memory accesses.

    Each class becomes a decision diagram over the shape of an access (read or write,
    atomic or not, each annotation the classes use present or not); "exactly one row"
    is then a diagram too, built with a linear number of operations. Its least failing
    shape (reads before writes, then fewer annotations) is the one reported. This costs
    time polynomial in the size of the diagrams, not 2^annotations; diagrams past a
    budget of nodes (classes built to defeat the ordering) are an error, never a hang.
    """
    table = model.table
    bdd = Bdd()
    to_bdd = _Compiler(bdd, model)
    errors = []
    axes = [("rows", table.rows)]
    if set(table.cols) != set(table.rows):  # the same classes fail the same way: said once
        axes.append(("columns", table.cols))
    for axis, classes in axes:
        try:
            diagrams = [to_bdd.name(n) for n in classes]
            one = two = FALSE
            for d in diagrams:
                two = bdd.or_(two, bdd.and_(one, d))
                one = bdd.or_(one, d)
            bad = bdd.first_true(bdd.or_(bdd.not_(one), two))
        except TooLarge:
            errors.append(ModelError(f"the table {axis} are built from classes too intricate to check that they "
                                     f"partition the accesses ({len(to_bdd.annots)} annotations)", table.pos,
                                     hint="write the classes more simply"))
            continue
        if bad is None:
            continue
        shape = EventShape("W" if bad.get(0) else "R", bool(bad.get(1)), False,
                           frozenset(a for a, v in to_bdd.annots.items() if bad.get(v)), None)
        preds = {n: set_predicate(Expr("name", name=n, type=SET), model) for n in classes}
        owners = [n for n, p in preds.items() if p(shape)]
        if not owners:
            msg = f"the table {axis} do not cover every memory access: a {shape_text(shape)} is in no {axis[:-1]}"
        else:
            msg = (f"the table {axis} overlap: a {shape_text(shape)} is in "
                   f"{' and '.join(repr(o) for o in owners)}")
        errors.append(ModelError(msg, table.pos, hint=f"the {axis} must partition the memory accesses (R | W)"))
    return errors


class _Compiler:
    """Set expressions as decision diagrams over the shape of a memory access (as set_predicate
    reads them): variable 0 is "a write", 1 "atomic", then one per annotation, in the order
    the classes name them (so that an annotation's variable comes near those it is combined
    with, which keeps the diagrams small)."""

    def __init__(self, bdd: Bdd, model: Model):
        self.bdd = bdd
        self.model = model
        self.annots: dict[str, int] = {}
        self.done: dict[str, int] = {}

    def expr(self, e: Expr, seen: frozenset = frozenset()) -> int:
        b, op = self.bdd, e.op
        if op == "universe":
            return TRUE
        if op == "name":
            return self.name(e.name, seen, e)
        args = [self.expr(a, seen) for a in e.args]
        if op == "union":
            acc = FALSE
            for a in args:
                acc = b.or_(acc, a)
            return acc
        if op == "inter":
            acc = TRUE
            for a in args:
                acc = b.and_(acc, a)
            return acc
        if op == "diff":
            acc = args[0]
            for a in args[1:]:
                acc = b.diff(acc, a)
            return acc
        if op == "compl":
            return b.not_(args[0])
        raise ModelError(f"'{e}' is not a set expression", e.pos)

    def name(self, name: str, seen: frozenset = frozenset(), expr: Expr | None = None) -> int:
        if name in self.done:
            return self.done[name]
        b, model = self.bdd, self.model
        if name == "R":
            d = b.nvar(0)
        elif name == "W":
            d = b.var(0)
        elif name in ("F", "IW"):  # not memory accesses
            d = FALSE
        elif name == "M":
            d = TRUE
        elif name == "RMW":
            d = b.var(1)
        elif name in model.classes:
            if name in seen:
                raise ModelError(f"class '{name}' is defined in terms of itself", expr.pos if expr else None)
            d = self.expr(model.classes[name], seen | {name})
        elif (let := _set_let(model, name)) is not None:
            d = self.expr(let, seen | {name})
        elif any(name in f.spellings for f in model.fences.values()):
            d = FALSE  # a fence: never an access
        else:
            d = b.var(self.annots.setdefault(name, 2 + len(self.annots)))
        self.done[name] = d
        return d


def _set_let(model: Model, name: str) -> Expr | None:
    """The first non-recursive set binding of ``name`` (the one set_predicate reads)."""
    for group in model.lets:
        for b in group.bindings:
            if b.name == name and b.expr.type == SET and not group.recursive:
                return b.expr
    return None
