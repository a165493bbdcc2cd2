"""Bounds of a model's relations on a partial execution: what every completion keeps, and at most reaches.

An axiom that is not monotone (``axioms.AxiomPlan.at_end``: a difference or a complement
of growing relations, a negated check) cannot be tested on a partial execution as it
stands: a pair may leave its relation when rf or co grow. It can be tested on a **lower
bound**, a relation every completion of the partial execution contains, computed
alongside an upper bound that contains the relation in every completion:

* rf: at least the pairs added; at most those and, for each read not added yet, every
  write it may read from (the enumerator's choices);
* co: at least the order among the placed writes, and each location's initial write
  before the writes not placed yet (they go after it); at most that and every pair with an
  unplaced write (other than one into an initial write);
* the operators: a monotone one (union, sequence, intersection, closures, inverse,
  product, ``[S]``, domain and range) takes lower bounds to a lower bound and upper to
  upper; ``A \\ B`` is at least ``lo(A) \\ hi(B)`` and at most ``hi(A) \\ lo(B)``; a
  complement swaps the bounds; a ``let rec`` group is iterated to its least fixpoint on
  each bound (cat's recursive lets are monotone in their own names); anything else
  (``with x from linearisations``) is unknown: empty at least, everything at most.

Each bound is computed only where it is needed (the lower one of what an axiom tests, the
upper one of what a difference takes away), and a let that is monotone (bound once) is
taken from the checker's own compiled value (``Prepared``) on the partial execution, whose
cache the monotone checks of the same step have already filled.

So when the lower bound fails an ``acyclic``, ``irreflexive`` or ``empty`` check (or the
upper bound a negated one), no completion passes the axiom and the step is not enabled.
The lets are followed in the model's order, each axiom seeing the lets written before it
(herd's scoping, as ``Prepared`` does), and each let's bounds are computed once per
partial execution. Nothing is recognised by model: riscv.mm's ``Model`` (rule 2's ``\\
rsw``) and linux-kernel.cat's ``happens-before``, ``propagation`` and ``rcu`` are cut this
way; with exact bounds on a complete execution the test is the axiom itself.
"""

from __future__ import annotations

from typing import Callable

from ....lang.evaluate import _OPS, _SET_OPS, DYNAMIC, Dynamic, Prepared, axiom_check
from ....lang.ir import SET, Expr, Model
from ....relations import Rel

# operators whose value can only grow with their operands (diff and compl are handled apart)
MONOTONE = frozenset({"union", "seq", "inter", "inv", "plus", "star", "opt", "product", "id", "domain", "range"})


class Context:
    """One partial execution's two candidates (its lower and upper rf / co) and the lets' bounds."""

    __slots__ = ("lo", "hi", "cache")

    def __init__(self, lo: Dynamic, hi: Dynamic):
        self.lo = lo
        self.hi = hi
        self.cache: dict = {}


class Bounds:
    """The non-monotone axioms of one prepared model, as tests on a partial execution's bounds."""

    def __init__(self, model: Model, prepared: Prepared):
        self.p = prepared
        n = prepared.n
        self.full_rel = Rel.product(n, prepared.full, prepared.full)
        counts: dict[str, int] = {}
        for group in model.lets:
            for b in group.bindings:
                counts[b.name] = counts.get(b.name, 0) + 1
        self.once = {nm for nm, k in counts.items() if k == 1}
        self.tests: list[tuple[object, Callable]] = []  # (axiom, may_hold(ctx) -> bool)
        self.values: list[tuple[object, Callable]] = []  # (axiom, fn(ctx) -> (lower, upper) of its relation)
        wanted = {ax.scope for ax, _ in prepared.other_tests if ax.scope is not None}
        env: dict[str, tuple] = {}
        scopes: dict[int, dict] = {}
        for k, group in enumerate(model.lets):
            if k in wanted:
                scopes[k] = dict(env)
            if group.recursive:
                self._bind_rec(group, env)
            else:
                for b in group.bindings:
                    env[b.name] = self._let(b.name, self._compile(b.expr, env))
        for ax, _ in prepared.other_tests:
            got = self._compile(ax.expr, scopes.get(ax.scope, env) if ax.scope is not None else env)
            if got[0] == "f":
                lo, hi = got[1], got[2]
                self.values.append((ax, lambda ctx, lo=lo, hi=hi: (lo(ctx), hi(ctx))))
                self.tests.append((ax, _bounded_test(ax, hi if ax.negated else lo)))

    # ----- compilation: ('c', value), ('f', lower(ctx), upper(ctx)) or ('u',) unknown -------------
    def _unknown(self, is_set: bool) -> tuple:
        return (0, self.p.full) if is_set else (Rel.empty(self.p.n), self.full_rel)

    def _let(self, name: str, compiled: tuple) -> tuple:
        """A let's bounds, each computed once per context; a monotone let bound once is the
        checker's own value on each of the context's two candidates."""
        if compiled[0] != "f":
            return compiled
        p = self.p
        if name in self.once and p.polarity.get(name) and name in p.env and p.env[name][0] == "f":
            value = p.env[name][1]
            return ("f", lambda ctx: value(ctx.lo), lambda ctx: value(ctx.hi))
        return ("f", _cached(compiled[1]), _cached(compiled[2]))

    def _compile(self, e: Expr, env: dict) -> tuple:
        p, op = self.p, e.op
        is_set = e.type == SET
        if op == "name":
            name = e.name
            if name in env:
                return env[name]
            if name in DYNAMIC:
                return ("f", lambda ctx: ctx.lo.get(name), lambda ctx: ctx.hi.get(name))
            if is_set:
                return ("c", p.sets(name))
            rel = p.rels.get(name)
            return ("u",) if rel is None else ("c", rel)
        if op == "empty":
            return ("c", 0 if is_set else Rel.empty(p.n))
        if op == "universe":
            return ("c", p.full)
        fn = (_SET_OPS if is_set else _OPS).get(op)
        if fn is None or (op not in MONOTONE and op not in ("diff", "compl")):
            return ("u",)
        parts = [self._compile(a, env) for a in e.args]
        n, full = p.n, p.full
        if all(part[0] == "c" for part in parts):
            return ("c", fn(n, full, [part[1] for part in parts]))
        if any(part[0] == "c" and _empty(part[1]) for part in (parts if op in ("seq", "inter") else parts[:1])) \
                and op in ("seq", "inter", "diff"):
            return ("c", 0 if is_set else Rel.empty(n))  # empty whatever the rest (as Prepared finds too)
        los, his = [], []
        for part, arg in zip(parts, e.args):
            if part[0] == "c":
                los.append(lambda ctx, v=part[1]: v)
                his.append(los[-1])
            elif part[0] == "f":
                los.append(part[1])
                his.append(part[2])
            else:
                lo_u, hi_u = self._unknown(arg.type == SET)
                los.append(lambda ctx, v=lo_u: v)
                his.append(lambda ctx, v=hi_u: v)
        if op == "diff":  # at least lo(A) \ hi(B...), at most hi(A) \ lo(B...)
            lo_parts, hi_parts = [los[0]] + his[1:], [his[0]] + los[1:]
        elif op == "compl":
            lo_parts, hi_parts = his, los
        else:
            lo_parts, hi_parts = los, his
        if op in ("seq", "inter"):  # operands computed left to right, none once the value is empty
            step = _STEP[op, is_set]
            return ("f", lambda ctx: _fold(step, lo_parts, ctx), lambda ctx: _fold(step, hi_parts, ctx))
        return ("f", lambda ctx: fn(n, full, [g(ctx) for g in lo_parts]),
                lambda ctx: fn(n, full, [g(ctx) for g in hi_parts]))

    def _bind_rec(self, group, env: dict) -> None:
        """A ``let rec`` group: each bound the least fixpoint of the bindings on that bound."""
        names = [b.name for b in group.bindings]
        cells: tuple[dict, dict] = ({}, {})
        inner = dict(env)
        for nm in names:
            inner[nm] = ("f", lambda ctx, nm=nm: cells[0][nm], lambda ctx, nm=nm: cells[1][nm])
        compiled = [self._compile(b.expr, inner) for b in group.bindings]
        if any(c[0] == "u" for c in compiled):
            for nm in names:
                env[nm] = ("u",)
            return
        n = self.p.n
        empty = {nm: (0 if b.expr.type == SET else Rel.empty(n)) for nm, b in zip(names, group.bindings)}
        limit = 4 * n * n + 8
        key = object()

        def solve(ctx: Context) -> tuple[dict, dict]:
            """Both bounds iterated together from empty: each iterate's bounds hold herd's iterate
            (the bounds of an operator hold it for any operands within theirs), so once they
            stop changing they hold its fixpoint too."""
            got = ctx.cache.get(key)
            if got is not None:
                return got
            current = (dict(empty), dict(empty))
            for _ in range(limit):
                for side in (0, 1):
                    cells[side].clear()
                    cells[side].update(current[side])
                nxt = tuple({nm: c[1 + side](ctx) if c[0] == "f" else c[1] for nm, c in zip(names, compiled)}
                            for side in (0, 1))
                if nxt == current:
                    break
                current = nxt
            else:  # no fixpoint: say nothing rather than something wrong
                unknown = [self._unknown(b.expr.type == SET) for b in group.bindings]
                current = tuple({nm: u[side] for nm, u in zip(names, unknown)} for side in (0, 1))
            ctx.cache[key] = current
            return current

        for nm in names:
            env[nm] = ("f", lambda ctx, nm=nm: solve(ctx)[0][nm], lambda ctx, nm=nm: solve(ctx)[1][nm])


_STEP = {("seq", False): Rel.seq, ("inter", False): Rel.__and__, ("inter", True): int.__and__}


def _empty(value) -> bool:
    return value == 0 if isinstance(value, int) else value.is_empty()


def _fold(step: Callable, getters: list[Callable], ctx: Context):
    acc = getters[0](ctx)
    for g in getters[1:]:
        if _empty(acc):
            return acc
        acc = step(acc, g(ctx))
    return acc


def _cached(fn: Callable) -> Callable:
    key = object()

    def get(ctx: Context):
        got = ctx.cache.get(key)
        if got is None:
            got = ctx.cache[key] = fn(ctx)
        return got

    return get


def _bounded_test(ax, bound: Callable) -> Callable:
    """``may_hold(ctx)``: False when no completion can pass ``ax`` (its lower bound fails it,
    or for a negated axiom its upper bound passes the test it negates)."""
    check = axiom_check(ax)
    if ax.negated:  # holds when the test fails: impossible once even the upper bound passes it
        return lambda ctx: not check(bound(ctx))
    return lambda ctx: check(bound(ctx))
