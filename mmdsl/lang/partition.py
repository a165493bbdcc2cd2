"""Event classes as predicates on event shapes, and the check that table classes partition accesses."""

from __future__ import annotations

from itertools import product
from typing import Callable

from ..core.errors import ModelError
from ..core.events import EventShape
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
        a, b = args
        return lambda s: a(s) and not b(s)
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


def _annotations_in(expr: Expr, model: Model, seen: set[str]) -> set[str]:
    out: set[str] = set()
    for n in expr.names():
        if n in ("R", "W", "F", "M", "RMW", "IW", "_"):
            continue
        if n in model.classes:
            if n not in seen:
                seen.add(n)
                out |= _annotations_in(model.classes[n], model, seen)
            continue
        if any(n in f.spellings for f in model.fences.values()):
            continue
        lets = [b for g in model.lets for b in g.bindings if b.name == n]
        if lets:
            if n not in seen:
                seen.add(n)
                out |= _annotations_in(lets[-1].expr, model, seen)
            continue
        out.add(n)
    return out


def access_shapes(annotations: set[str]):
    """Every shape a memory access (not an initial write) can have over ``annotations``."""
    names = sorted(annotations)
    for kind, rmw in product(("R", "W"), (False, True)):
        for flags in product((False, True), repeat=len(names)):
            annots = frozenset(n for n, f in zip(names, flags) if f)
            yield EventShape(kind, rmw, False, annots, None)


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
    table = model.table
    for axis, names in (("rows", table.rows), ("columns", table.cols)):
        preds = {n: set_predicate(Expr("name", name=n, type=SET), model) for n in names}
        used: set[str] = set()
        for n in names:
            used |= _annotations_in(Expr("name", name=n, type=SET), model, set())
        for shape in access_shapes(used):
            owners = [n for n, p in preds.items() if p(shape)]
            if len(owners) == 1:
                continue
            if not owners:
                msg = f"the table {axis} do not cover every memory access: a {shape_text(shape)} is in no {axis[:-1]}"
            else:
                msg = (f"the table {axis} overlap: a {shape_text(shape)} is in "
                       f"{' and '.join(repr(o) for o in owners)}")
            raise ModelError(msg, table.pos, hint=f"the {axis} must partition the memory accesses (R | W)")
