"""`with x from linearisations(S, r)` in cat models: an order chosen per candidate, and the checks that depend on it.

herd runs the rest of a model once for each total order x of the events of S that
extends r (on the candidate at hand), and a candidate is an execution when some run
passes every check. mmdsl lowers this to:

- a let ``x = chosen(S, r)`` (IR op ``chosen``): the order being tried;
- one check, named ``x-linearisation``, in place of the checks written after the
  ``with`` that depend on x (through lets or directly): ``empty choose(...)`` (IR op
  ``choose``), whose value is empty when some linear extension of r on S makes all of
  them hold. With no such check it still asks that one exists (r acyclic on S).

The evaluator (lang/evaluate.py's ``Prepared``, through ``compile_choice`` below)
enumerates the linear extensions of r's transitive closure (as herd's: paths through
events outside S count) for each candidate, stopping at the first that passes; checks
that do not depend on x stay as they were. Such a check is never used to prune partial
candidates (an order that fails now may pass once rf and co grow). herd counts an
execution per passing order, and so does the checker: an allowed candidate counts once
per order of ``Prepared.passing_orders`` (axiomatic/checker.py), as herd's witness counts
do; past COUNTED_ORDERS orders to count, once, with a warning.
"""

from __future__ import annotations

from ..core.errors import ModelError, SourcePos, UnsupportedError
from ..relations import Rel, is_acyclic
from .ir import REL, Axiom, Expr, Model

# linear extensions tried per candidate at most: past that the test is refused by name
MAX_ORDERS = 200_000
# orders tried per allowed candidate to count herd's executions; past that the candidate
# counts once (Prepared.uncounted, a warning) and the verdict stands
COUNTED_ORDERS = 20_000


class TooManyOrders(Exception):
    """More than COUNTED_ORDERS orders to count on one candidate."""


def chosen_order(ir: str, s: Expr, r: Expr, pos: SourcePos | None) -> Expr:
    """The IR of the order x of ``with x from linearisations(s, r)``."""
    return Expr("chosen", (s, r), type=REL, name=ir, pos=pos)


def group_choices(model: Model, choices: list[tuple[str, int, SourcePos | None]]) -> None:
    """Replace, for each choice, the checks that depend on it by one ``choose`` check."""
    for ir, start, pos in choices:
        dependent = {ir}
        for g in model.lets:
            for b in g.bindings:
                if b.expr.names() & dependent:
                    dependent.add(b.name)
        group = [k for k, ax in enumerate(model.axioms) if k >= start and ax.expr.names() & dependent]
        others = {c for c, _, _ in choices if c != ir}
        for k in group:
            both = model.axioms[k].expr.names() & others
            if both:
                raise UnsupportedError(f"a check that depends on two choices of 'with ... from' "
                                       f"('{ir}' and '{sorted(both)[0]}') is not supported by mmdsl",
                                       model.axioms[k].pos)
        checks = tuple(Expr("check", (model.axioms[k].expr,), type=REL,
                            name=("~" if model.axioms[k].negated else "") + model.axioms[k].test,
                            pos=model.axioms[k].pos) for k in group)
        names = ", ".join(model.axioms[k].name for k in group) or "none"
        name = ir.rstrip("'")
        among = any(b.name == ir and b.expr.op == "among" for g in model.lets for b in g.bindings)
        what = f"some value of {name} from its set" if among else f"some total order {name} from linearisations(...)"
        combined = Axiom(f"{name}-{'choice' if among else 'linearisation'}", "empty",
                         Expr("choose", checks, type=REL, name=ir, pos=pos),
                         pos=pos, doc=f"{what} passes the checks that depend on it ({names})")
        at = group[0] if group else len(model.axioms)
        kept = [ax for k, ax in enumerate(model.axioms) if k not in set(group)]
        kept.insert(min(at, len(kept)), combined)
        model.axioms[:] = kept


def linear_extensions(n: int, members: int, rows: list[int], pos: SourcePos | None = None):
    """Each total order of the events in ``members`` that extends the relation ``rows``
    (restricted to them), as rows of the strict order; none when it has a cycle there.
    Past MAX_ORDERS, refused by name at ``pos`` (the ``with``)."""
    elems = [i for i in range(n) if (members >> i) & 1]
    preds = {i: 0 for i in elems}
    for i in elems:
        row = rows[i] & members & ~(1 << i)
        while row:
            low = row & -row
            preds[low.bit_length() - 1] |= 1 << i
            row ^= low
    left, free = members, [e for e in elems if preds[e] == 0]
    while free:  # a cycle leaves some events never free: no extension, found before any walk
        e = free.pop()
        left &= ~(1 << e)
        for f in elems:
            if (preds[f] >> e) & 1 and (left >> f) & 1 and preds[f] & left == 0 and f not in free:
                free.append(f)
    if left:
        return
    count = 0
    order: list[int] = []

    def walk(placed: int):
        nonlocal count
        if len(order) == len(elems):
            count += 1
            if count > MAX_ORDERS:
                raise UnsupportedError(f"more than {MAX_ORDERS} linear extensions for one candidate "
                                       "(with x from linearisations(S, r)): too many for mmdsl", pos)
            out = [0] * n
            later = 0
            for e in reversed(order):
                out[e] = later
                later |= 1 << e
            yield out
            return
        for e in elems:
            if not (placed >> e) & 1 and preds[e] & ~placed == 0:
                order.append(e)
                yield from walk(placed | (1 << e))
                order.pop()

    yield from walk(0)


def chosen_among(ir: str, items: tuple, pos: SourcePos | None) -> Expr:
    """The IR of x in ``with x from S``, S a set of relations known before any execution
    (``{r1, r2}``, ``cross(...)`` or ``map`` over such sets): one of ``items`` per run."""
    return Expr("among", items, type=REL, name=ir, pos=pos)


def compile_choice(prep, e: Expr, env: dict) -> tuple:
    """The evaluator's (lang/evaluate.py ``Prepared``, ``prep``) compiled form of
    ``chosen(S, r)`` and ``among(r1, ...)``: the order or relation being tried (set by
    ``choose``); and of ``choose(checks)``: empty when some choice (a linear extension of r
    on S; one of the relations' values on the candidate, each distinct value once, as
    herd's sets of values) makes every check hold. ``choose`` also registers, in
    ``prep.order_sets``, the passing choices of a candidate, which herd counts as executions."""
    if e.op in ("chosen", "among"):
        if e.op == "among":
            prep.choices[e.name] = ("among", [prep._compile(a, env) for a in e.args])
        else:
            rmw = prep.rels.get("rmw")
            if rmw is not None and not rmw.is_empty() and not any(a.name == "one-event-rmw"
                                                                  for a in prep.model.axioms):
                raise UnsupportedError(
                    "'with x from linearisations(S, r)' on a test with a read-modify-write or an exclusive "
                    "pair is not supported by mmdsl outside a C model: herd orders such an access as one "
                    "event, mmdsl's order would place its read and its write apart", e.pos)
            prep.choices[e.name] = ("orders", prep._compile(e.args[0], env), prep._compile(e.args[1], env))

        def outside(d, name=e.name):
            raise ModelError(f"the relation '{name}' chosen by 'with ... from' is used outside the checks "
                             "after it", e.pos)
        return ("f", outside)
    kind, *spec = prep.choices[e.name]
    slot = prep.slot_of[e.name]
    later = {slot}
    for k in range(slot + 1, len(prep.slot_fns)):
        if any(t in later for t in prep.slot_deps[k]):
            later.add(k)
    token, n = prep.token, prep.n
    keys = [(token, k) for k in sorted(later)]
    checks = [(prep._compile(c.args[0], env), c.name.lstrip("~"), c.name.startswith("~")) for c in e.args]
    tests = {"acyclic": is_acyclic, "irreflexive": Rel.is_irreflexive,
             "empty": lambda v: (v == 0) if isinstance(v, int) else v.is_empty()}
    tried_rows = _among_rows(n, spec[0]) if kind == "among" else _order_rows(prep, n, e, *spec)

    def passing(d, limit: int = 0):
        """Each choice that makes every check hold (its rows); past ``limit`` choices tried
        (0: MAX_ORDERS, then refused), stops with TooManyOrders."""
        cache = d.cache
        try:
            for tried, (rows, value) in enumerate(tried_rows(d)):
                if limit and tried >= limit:
                    raise TooManyOrders
                for key in keys:
                    cache.pop(key, None)
                cache[keys[0]] = value
                if all(tests[test]((v if k == "c" else v(d))) != neg for (k, v), test, neg in checks):
                    yield tuple(rows)
        finally:
            for key in keys:
                cache.pop(key, None)

    def some_order(d) -> Rel:
        orders = passing(d)
        found = next(orders, None) is not None
        orders.close()  # puts the candidate's cache back (the generator's finally)
        return Rel.empty(n) if found else Rel.identity(n)

    # herd runs the rest of the model once per choice: an allowed candidate is as many
    # executions as there are passing choices (see passing_orders)
    prep.order_sets[e.name] = lambda d: list(passing(d, COUNTED_ORDERS))
    return ("f", some_order)


def _among_rows(n: int, items: list):
    """The candidate's distinct values of the relations ``items`` (compiled): (rows, value)."""
    def rows_of(d):
        seen = set()
        for k, v in items:
            value = v if k == "c" else v(d)
            rows = tuple(value.rows)
            if rows not in seen:
                seen.add(rows)
                yield rows, value
    return rows_of


def _order_rows(prep, n: int, e: Expr, s: tuple, r: tuple):
    """The linear extensions of r on S (compiled) on a candidate: (rows, value). In a C11
    model (cat_rmw) on a test with RMWs, herd's events are ordered, each RMW once (by its
    read), and the order is read over both halves."""
    (sk, sv), (rk, rv) = s, r
    rmw = prep.rels.get("rmw")
    eq = None
    second_halves = 0
    if rmw is not None and not rmw.is_empty():
        eq = Rel.identity(n) | rmw | rmw.inverse()
        for row in rmw.rows:
            second_halves |= row

    def rows_of(d):
        members = sv if sk == "c" else sv(d)
        # herd extends r's transitive closure (paths through events outside S count)
        base = (rv if rk == "c" else rv(d)).plus()
        if eq is not None:
            members &= ~second_halves
        if any((base.rows[i] >> i) & 1 for i in range(n) if (members >> i) & 1):
            return  # a cycle through S: no order
        for rows in linear_extensions(n, members, list(base.rows), e.pos):
            yield rows, (Rel(n, rows) if eq is None else eq.seq(Rel(n, rows)).seq(eq))
    return rows_of
