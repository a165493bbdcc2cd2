"""The one evaluator of the model IR: axioms over a candidate, with static parts computed once."""

from __future__ import annotations

from operator import and_, or_
from typing import Callable

from ..core.errors import ModelError
from ..relations import Rel, find_cycle, is_acyclic, reflexive_points, union_all
from .cat_choice import TooManyOrders, compile_choice
from .ir import DYNAMIC_RELATIONS, SET, Axiom, Expr, Model

DYNAMIC = frozenset(DYNAMIC_RELATIONS)


class Dynamic:
    """The relations of one candidate that depend on rf and co, computed on demand."""

    __slots__ = ("rf", "co", "internal", "cache")

    def __init__(self, rf: Rel, co: Rel, internal: Rel):
        self.rf = rf
        self.co = co
        self.internal = internal
        self.cache: dict = {}  # relation name -> value; (token, slot) -> a let's value (Prepared)

    def get(self, name: str) -> Rel:
        c = self.cache.get(name)
        if c is not None:
            return c
        if name == "rf":
            c = self.rf
        elif name == "co":
            c = self.co
        elif name == "fr":  # rf^-1 ; co in one pass: a read before every write co-after its source
            rows = [0] * self.rf.n
            co = self.co.rows
            for w, row in enumerate(self.rf.rows):
                if row:
                    later = co[w]
                    while row:
                        low = row & -row
                        rows[low.bit_length() - 1] |= later
                        row ^= low
            c = Rel(self.rf.n, rows)
        elif name == "com":
            c = self.rf | self.co | self.get("fr")
        else:
            base, where = name[:-1], name[-1]
            rel = self.get(base)
            c = (rel & self.internal) if where == "i" else (rel - self.internal)
        self.cache[name] = c
        return c


class Prepared:
    """A model's axioms specialised to one event structure (static relations fixed)."""

    def __init__(self, model: Model, n: int, sets: Callable[[str], int], rels: dict[str, Rel]):
        self.model = model
        self.n = n
        self.sets = sets
        self.rels = rels
        self.full = (1 << n) - 1
        self.env: dict[str, tuple] = {}
        self.choices: dict[str, tuple] = {}  # linearisations: name -> compiled (S, r)
        self.order_sets: dict[str, Callable] = {}  # linearisations: name -> passing orders of d
        self.uncounted = False  # some candidate had more than COUNTED_ORDERS orders to count
        # dynamic let values, computed once per candidate and kept in its cache under
        # (self.token, slot); a slot's value needs those of the slots it names first
        self.token = object()
        self.slot_of: dict[str, int] = {}  # a name bound now to a slot
        self.slot_fns: list[Callable] = []
        self.slot_deps: list[list[int]] = []
        # an axiom sees the lets written before it (herd's scoping), so a later `let` that
        # rebinds a name it uses does not change it: compile it with the names of its scope
        self.scopes: dict[int, tuple[dict, dict]] = {}
        self._bind_lets({ax.scope for ax in model.axioms if ax.scope is not None})
        self.axioms: list[tuple[Axiom, tuple, bool]] = []
        # (axiom, holds(d) -> bool) of the prunable axioms and of the others, in model order
        self.prunable_tests: list[tuple[Axiom, Callable]] = []
        self.other_tests: list[tuple[Axiom, Callable]] = []
        for ax in model.axioms:
            env, polarity = self.scope_of(ax)
            compiled = self._compile(ax.expr, env)
            prunable = (not ax.negated) and self._positive(ax, polarity)
            self.axioms.append((ax, compiled, prunable))
            (self.prunable_tests if prunable else self.other_tests).append((ax, _axiom_test(ax, compiled)))
        # (flag, holds(d)) of the model's `flag` checks: reported, never forbidding
        self.flag_tests: list[tuple[Axiom, Callable]] = [
            (f, _axiom_test(f, self._compile(f.expr, self.env))) for f in model.flags]
        # (check, compiled) of the model's `undefined_unless` checks, compiled when first asked
        self._undefined: list | None = None

    def undefined(self) -> list[tuple[Axiom, tuple]]:
        """(check, compiled value) of each `undefined_unless` check of the model (``mmdsl check``)."""
        if self._undefined is None:
            self._undefined = [(u, self._compile(u.expr, self.env)) for u in self.model.undefined]
        return self._undefined

    def _positive(self, ax: Axiom, polarity: dict) -> bool:
        """``_positive_in_dynamic`` of an axiom, kept with the model per polarity of its lets
        (the same on most structures: worked out once, not per test)."""
        memo = self.model.compiled("positive-axioms", lambda m: {})
        key = (id(ax), tuple(sorted(polarity.items())))
        got = memo.get(key)
        if got is None:
            got = memo[key] = _positive_in_dynamic(ax.expr, polarity)
        return got

    # ----- compilation --------------------------------------------------------
    def _bind_lets(self, scopes: set[int]) -> None:
        # polarity[name]: True when the name depends on dynamic relations only positively
        self.polarity: dict[str, bool] = {}
        for k, group in enumerate(self.model.lets):
            if k in scopes:
                self.scopes[k] = (dict(self.env), dict(self.polarity))
            if not group.recursive:
                for b in group.bindings:
                    self._bind(b.name, b.expr)
                    if self.env[b.name][0] == "c":  # a static let is a constant: positive anywhere
                        self.polarity.pop(b.name, None)
                    else:
                        self.polarity[b.name] = _positive_in_dynamic(b.expr, self.polarity)
            else:
                for b in group.bindings:
                    self.slot_of.pop(b.name, None)
                self._bind_rec(group)

    def _bind(self, name: str, expr: Expr) -> None:
        """Bind a let: a static value, or a slot of the candidate's cache (see _slot_value).

        A chain of lets, each built on the one before, is then evaluated one let at a
        time in order, not by nested calls: a thousand of them do not exhaust the stack.
        """
        kind, value = self._compile(expr)
        if kind == "c":
            self.slot_of.pop(name, None)
            self.env[name] = (kind, value)
            return
        slot = len(self.slot_fns)
        self.slot_fns.append(value)
        self.slot_deps.append(sorted({self.slot_of[n] for n in expr.names() if n in self.slot_of}))
        self.slot_of[name] = slot
        key = (self.token, slot)

        def get(d: Dynamic, key=key, slot=slot):
            v = d.cache.get(key)
            return v if v is not None else self._slot_value(d, slot)

        self.env[name] = ("f", get)

    def _slot_value(self, d: Dynamic, slot: int):
        """The value of a dynamic let on candidate ``d``: first those it names, then itself."""
        cache, token = d.cache, self.token
        stack = [slot]
        while stack:
            s = stack[-1]
            if (token, s) in cache:
                stack.pop()
                continue
            missing = [t for t in self.slot_deps[s] if (token, t) not in cache]
            if missing:
                stack.extend(missing)
                continue
            cache[(token, s)] = self.slot_fns[s](d)
            stack.pop()
        return cache[(token, slot)]

    def scope_of(self, ax: Axiom) -> tuple[dict, dict]:
        """The names (compiled values and polarities) visible where ``ax`` is written."""
        return self.scopes.get(ax.scope, (self.env, self.polarity))

    def _bind_rec(self, group) -> None:
        names = [b.name for b in group.bindings]
        for nm in names:
            self.polarity[nm] = True
        # the group's names are positive unless some binding is not: refine to a fixpoint
        # (a binding may use a later one of the group that turns out not to be positive)
        changed = True
        while changed:
            changed = False
            for b in group.bindings:
                if self.polarity[b.name] and not _positive_in_dynamic(b.expr, self.polarity):
                    self.polarity[b.name] = False
                    changed = True
        n = self.n
        exprs = [b.expr for b in group.bindings]
        cell: dict[str, Rel] = {}

        def solve(d: Dynamic | None) -> dict[str, Rel]:
            current = {nm: (0 if e.type == SET else Rel.empty(n)) for nm, e in zip(names, exprs)}  # sets: bitmasks
            for _ in range(4 * n * n + 8):
                cell.clear()
                cell.update(current)
                nxt = {}
                for nm, e in zip(names, exprs):
                    kind, val = compiled[nm]
                    nxt[nm] = val if kind == "c" else val(d)
                if nxt == current:
                    return current
                current = nxt
            raise ModelError(f"let rec {', '.join(names)} did not reach a fixpoint (it is not monotone: "
                             f"an approximation takes back what an earlier one added)", group.bindings[0].pos)

        # recursive names read the current approximation from `cell`
        for nm in names:
            self.env[nm] = ("f", lambda d, nm=nm: cell[nm])
        compiled = {nm: self._compile(e) for nm, e in zip(names, exprs)}
        static = all(not (_dynamic_names(e, self.env_dynamic()) - set(names)) for e in exprs)
        if static:
            sol = solve(None)
            for nm in names:
                self.env[nm] = ("c", sol[nm])
        else:
            # the fixpoint of the candidate seen last; the candidate itself is kept (not its
            # id(), which a new candidate may reuse once the old one is freed)
            memo: list = [None, None]

            def value(d: Dynamic, nm: str) -> Rel:
                if memo[0] is not d:
                    memo[1] = dict(solve(d))
                    memo[0] = d
                return memo[1][nm]

            for nm in names:
                self.env[nm] = ("f", lambda d, nm=nm: value(d, nm))

    def env_dynamic(self) -> set[str]:
        return {k for k, v in self.env.items() if v[0] == "f"} | set(DYNAMIC)

    def _compile(self, e: Expr, env: dict | None = None) -> tuple:
        """('c', value) for a static expression, ('f', fn(dynamic) -> value) otherwise.

        Names are looked up in ``env`` (by default every let of the model).
        """
        if env is None:
            env = self.env
        op = e.op
        n = self.n
        if op == "name":
            name = e.name
            if name in env:
                return env[name]
            if name in DYNAMIC:
                return ("f", _dynamic_getter(name))
            if e.type == SET:
                return ("c", self.sets(name))
            rel = self.rels.get(name)
            if rel is None:
                raise ModelError(f"relation '{name}' is not available here", e.pos)
            return ("c", rel)
        if op == "empty":
            return ("c", 0 if e.type == SET else Rel.empty(n))
        if op in ("chosen", "among", "choose"):  # with x from linearisations(S, r) or a set: lang/cat_choice.py
            return self._compile_choice(e, env)
        if op == "universe":
            return ("c", self.full)
        parts = [self._compile(a, env) for a in e.args]
        full = self.full
        fn = _SET_OPS[op] if e.type == SET else _OPS[op]
        if all(k == "c" for k, _ in parts):
            return ("c", fn(n, full, [v for _, v in parts]))
        if e.type != SET and _empty_whatever_else(op, parts):
            return ("c", Rel.empty(n))  # e.g. rmw & (fre ; coe) in a test without read-modify-writes
        if e.type != SET and op in ("seq", "diff"):
            parts = _without_neutral(op, n, parts)
            if len(parts) == 1:
                return parts[0]
        special = _specialised(op, e.type == SET, n, full, parts)
        if special is not None:
            return ("f", special)
        getters = [(lambda d, v=v: v) if k == "c" else v for k, v in parts]
        return ("f", lambda d: fn(n, full, [g(d) for g in getters]))

    def compile_expr(self, e: Expr, env: dict | None = None) -> tuple:
        """``e`` compiled in ``env`` (by default every let): ('c', value) or ('f', fn(dynamic))."""
        return self._compile(e, env)

    def _compile_choice(self, e: Expr, env: dict) -> tuple:
        """``chosen(S, r)``, ``among(r1, ...)`` and ``choose(checks)`` (with x from ...): cat_choice.compile_choice."""
        return compile_choice(self, e, env)

    # ----- checking ------------------------------------------------------------
    def passing_orders(self, d: Dynamic) -> list[tuple]:
        """The choices herd makes on the allowed candidate ``d``, one per execution it counts:
        herd runs the checks after a ``with x from linearisations(...)`` once per order and
        counts each order that passes them (a tuple of the orders' rows, one per such
        ``with``); ``[()]`` for a model without one."""
        out: list[tuple] = [()]
        for orders in self.order_sets.values():
            try:
                out = [o + (x,) for o in out for x in orders(d)]
            except TooManyOrders:  # the verdict stands; the count is the candidate's, once
                self.uncounted = True
                return [("uncounted",)]
        return out

    def generated_orders(self, d: Dynamic, names) -> tuple:
        """The values on ``d`` of the orders ``names`` a cat model generates (Model.generated_orders)."""
        out = []
        for name in names:
            v = self.value(self.env[name], d) if name in self.env else d.get(name)
            out.append(tuple(v.rows))
        return tuple(out)

    def value(self, compiled: tuple, d: Dynamic):
        kind, v = compiled
        return v if kind == "c" else v(d)

    def holds(self, ax: Axiom, compiled: tuple, d: Dynamic) -> bool:
        v = self.value(compiled, d)
        if ax.test == "acyclic":
            ok = is_acyclic(v)
        elif ax.test == "irreflexive":
            ok = v.is_irreflexive()
        else:
            ok = (v == 0) if isinstance(v, int) else v.is_empty()
        return ok != ax.negated

    def first_failure(self, d: Dynamic, prunable_only: bool = False, skip_prunable: bool = False) -> Axiom | None:
        """The first axiom ``d`` violates (None when it is allowed); only the prunable axioms
        with ``prunable_only``, only the others with ``skip_prunable`` (known to hold)."""
        if prunable_only or skip_prunable:
            for ax, test in (self.prunable_tests if prunable_only else self.other_tests):
                if not test(d):
                    return ax
            return None
        for ax, compiled, _ in self.axioms:
            if not self.holds(ax, compiled, d):
                return ax
        return None

    def failures(self, d: Dynamic) -> list[tuple[Axiom, object]]:
        """Every violated axiom with its relation (for explanations)."""
        out = []
        for ax, compiled, _ in self.axioms:
            if not self.holds(ax, compiled, d):
                out.append((ax, self.value(compiled, d)))
        return out


def _dynamic_getter(name: str) -> Callable:
    """The compiled value of a dynamic relation's name: rf and co read directly, the others
    (fr, com, rfe, coi ...) through the candidate's cache."""
    if name == "rf":
        return lambda d: d.rf
    if name == "co":
        return lambda d: d.co
    return lambda d: d.get(name)


def axiom_check(ax: Axiom) -> Callable:
    """The check an axiom makes of its value (``acyclic``, ``irreflexive``, ``empty``), negation aside."""
    if ax.test == "acyclic":
        return is_acyclic
    if ax.test == "irreflexive":
        return Rel.is_irreflexive

    def empty(value) -> bool:
        return (value == 0) if isinstance(value, int) else value.is_empty()

    return empty


def _axiom_test(ax: Axiom, compiled: tuple) -> Callable:
    """``holds(d)`` of one axiom, as ``Prepared.holds`` decides it, with the test chosen once."""
    kind, v = compiled
    negated = ax.negated
    check = axiom_check(ax)
    if kind == "c":
        result = check(v) != negated
        return lambda d: result
    if negated:
        return lambda d: not check(v(d))
    return lambda d: check(v(d))


def witness_of(ax: Axiom, value) -> list[int]:
    """The events that show an axiom fails: a cycle, reflexive points or a non-empty part."""
    if ax.negated:
        return []
    if ax.test == "acyclic":
        return find_cycle(value) or []
    if ax.test == "irreflexive":
        m = reflexive_points(value)
        return [i for i in range(value.n) if (m >> i) & 1][:1]
    if isinstance(value, int):
        return [i for i in range(value.bit_length()) if (value >> i) & 1]
    pairs = value.pairs()
    return list(pairs[0]) if pairs else []


def _dynamic_names(e: Expr, dyn: set[str]) -> set[str]:
    return {n for n in e.names() if n in dyn}


def _positive_in_dynamic(e: Expr, polarity: dict[str, bool], positive: bool = True) -> bool:
    """True when growing rf/co can only grow the value of ``e`` (so a partial check may prune)."""
    if e.op in ("chosen", "among", "choose"):  # a choice per candidate: never prunes (cat_choice)
        return False
    if e.op == "name":
        dyn = e.name in DYNAMIC or (e.name in polarity)
        if not dyn:
            return True
        if e.name in polarity and not polarity[e.name]:
            return False
        return positive
    if e.op == "compl":
        return _positive_in_dynamic(e.args[0], polarity, not positive)
    if e.op == "diff":
        return (_positive_in_dynamic(e.args[0], polarity, positive)
                and all(_positive_in_dynamic(a, polarity, not positive) for a in e.args[1:]))
    return all(_positive_in_dynamic(a, polarity, positive) for a in e.args)


# ----- operators on relations and sets ----------------------------------------------
def _empty_whatever_else(op: str, parts: list[tuple]) -> bool:
    """Is a relation empty on every candidate because a static operand is empty? An
    intersection or a sequence with an empty operand, a difference from an empty relation:
    the dynamic rest need not be computed at all (the value is the same empty relation)."""
    if op in ("inter", "seq"):
        return any(k == "c" and v.is_empty() for k, v in parts)
    if op == "diff":
        return parts[0][0] == "c" and parts[0][1].is_empty()
    return False


def _without_neutral(op: str, n: int, parts: list[tuple]) -> list[tuple]:
    """``parts`` less the static operands that change nothing: an identity in a sequence,
    an empty relation taken away (cat_rmw's reading of a C model on a test without RMWs)."""
    if op == "seq":
        ident = Rel.identity(n)
        kept = [p for p in parts if not (p[0] == "c" and p[1] == ident)]
        return kept or parts[:1]
    return parts[:1] + [p for p in parts[1:] if not (p[0] == "c" and p[1].is_empty())]


def _specialised(op: str, is_set: bool, n: int, full: int, parts: list[tuple]) -> Callable | None:
    """A direct function for a dynamic expression of a common shape, or None (the generic one).

    Unions and intersections fold their static operands into one value at compile time
    (both are associative and commutative, so the value is the same) and combine rows with
    C-level maps; unary operators and two-part sequences call the operation directly,
    without building an argument list per candidate.
    """
    consts = [v for k, v in parts if k == "c"]
    fns = [v for k, v in parts if k != "c"]
    if op in ("union", "inter") and not is_set:
        combine = or_ if op == "union" else and_
        base = None
        if consts:
            base = (union_all(n, consts) if op == "union" else _inter_all(n, full, consts)).rows
        first, rest = (base, fns) if base is not None else (None, fns)

        def rows_op(d: Dynamic, first=first, rest=rest, combine=combine) -> Rel:
            if first is None:
                rows = rest[0](d).rows
                more = rest[1:]
            else:
                rows, more = first, rest
            for k, g in enumerate(more, 1):
                rows = map(combine, rows, g(d).rows)
                if k % 256 == 0:  # a long chain of lazy maps is consumed by as deep a C recursion
                    rows = tuple(rows)
            return Rel(n, tuple(rows))

        return rows_op
    if op in ("union", "inter") and is_set:
        const = 0 if op == "union" else full
        for v in consts:
            const = (const | v) if op == "union" else (const & v)
        if op == "union":
            def set_union(d: Dynamic) -> int:
                acc = const
                for g in fns:
                    acc |= g(d)
                return acc
            return set_union

        def set_inter(d: Dynamic) -> int:
            acc = const
            for g in fns:
                acc &= g(d)
            return acc
        return set_inter
    if is_set:
        return None
    if op == "seq" and len(parts) == 2:
        (ka, a), (kb, b) = parts
        if ka == "c":
            return lambda d: a.seq(b(d))
        if kb == "c":
            return lambda d: a(d).seq(b)
        return lambda d: a(d).seq(b(d))
    if op == "diff" and len(parts) == 2:
        (ka, a), (kb, b) = parts
        if ka == "c":
            return lambda d: a - b(d)
        if kb == "c":
            return lambda d: a(d) - b
        return lambda d: a(d) - b(d)
    if len(parts) == 1 and op in _UNARY:
        method = _UNARY[op]
        (_, g), = parts
        return lambda d: method(g(d))
    return None


_UNARY = {"inv": Rel.inverse, "plus": Rel.plus, "star": Rel.star, "opt": Rel.opt, "compl": Rel.complement}


def _seq_all(n, full, vals):
    acc = vals[0]
    for v in vals[1:]:
        acc = acc.seq(v)
    return acc


def _inter_all(n, full, vals):
    acc = vals[0]
    for v in vals[1:]:
        acc = acc & v
    return acc


_OPS = {
    "union": lambda n, full, vals: union_all(n, vals),
    "seq": _seq_all,
    "inter": _inter_all,
    "diff": lambda n, full, vals: vals[0] - union_all(n, vals[1:]) if len(vals) > 2 else vals[0] - vals[1],
    "compl": lambda n, full, vals: vals[0].complement(),
    "inv": lambda n, full, vals: vals[0].inverse(),
    "plus": lambda n, full, vals: vals[0].plus(),
    "star": lambda n, full, vals: vals[0].star(),
    "opt": lambda n, full, vals: vals[0].opt(),
    "product": lambda n, full, vals: Rel.product(n, vals[0], vals[1]),
    "id": lambda n, full, vals: Rel.identity(n, vals[0]),
}


def _set_union(n, full, vals):
    acc = 0
    for v in vals:
        acc |= v
    return acc


def _set_inter(n, full, vals):
    acc = full
    for v in vals:
        acc &= v
    return acc


_SET_OPS = {
    "union": _set_union,
    "inter": _set_inter,
    "diff": lambda n, full, vals: vals[0] & ~_set_union(n, full, vals[1:]),
    "compl": lambda n, full, vals: full & ~vals[0],
    # a relation's domain and range (herd's cat functions)
    "domain": lambda n, full, vals: _domain(vals[0]),
    "range": lambda n, full, vals: _union_rows(vals[0]),
}


def _domain(r: Rel) -> int:
    out = 0
    for i, row in enumerate(r.rows):
        if row:
            out |= 1 << i
    return out


def _union_rows(r: Rel) -> int:
    out = 0
    for row in r.rows:
        out |= row
    return out
