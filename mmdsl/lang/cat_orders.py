"""`with x from ...` in cat models: orders herd generates, read as the checker's coherence orders.

herd runs the rest of a model once for each choice of ``x`` in the set after ``from``.
mmdsl does so where the choices are orders its candidates already enumerate:

- ``with co from generate_cos(base)``: co ranges over the checker's coherence orders
  (each location's writes in a total order, its initial write first) that contain
  ``base``. For co0 that is every one of them; for a larger base (herd's cos-opt.cat) an
  axiom ``empty base \\ co`` named co-generation keeps only those.
- ``with x from generate_orders(S, base)`` (herd's cross.cat: for each location, a total
  order of the events of S there, extending base) with S a set of writes (C11's
  ``mo``, over ``W & (A | IW)``): x is the candidate's co restricted to S, ``co & (S * S)``.
  Each candidate's co gives one such order and every order is given by some co, so the
  choices are the same; a base other than co0 becomes an axiom ``empty (base & (S * S)) \\ x``.
  With S empty (C11's locks, ``LS``, which mmdsl's C dialect never makes) the one choice
  is the empty order. The generated orders are listed in ``Model.generated_orders``: herd
  counts one execution per value of them, so candidates that differ only in how writes
  outside S are ordered count once (axiomatic/checker.py, ``herd_execution``).

- ``with x from linearisations(S, r)``: x ranges, per candidate, over the total orders of
  S that extend r; the checks after it that depend on x hold when some such order makes
  them all hold (lang/cat_choice.py).

- ``with x from S``, S a set of relations mmdsl computes before any execution (``{r1, r2}``,
  ``cross(...)`` of such sets, ``map``, ``++``, ``{}``): x ranges, per candidate, over the
  distinct values of its elements, as herd's (lang/cat_choice.py); herd's lock.cat's
  ``cross`` over the events of an execution, in a Linux-kernel model: cat_linux.

Anything else (an order over reads or fences, a set computed from the execution's events)
is refused by name.
"""

from __future__ import annotations

from ..core.errors import ModelError, UnsupportedError
from . import cat_linux as L
from . import cat_choice as C
from . import cat_static as S
from .cat_parse import Node, Stmt
from .cat_static import Thunk
from .ir import REL, SET, Axiom, Binding, Expr, LetGroup

_WRITE_SETS = {"W", "IW"}


def _within_writes(e: Expr, lets: dict) -> bool:
    """True when the set expression ``e`` holds writes only, whatever the test."""
    if e.op == "name":
        if e.name in _WRITE_SETS:
            return True
        bound = lets.get(e.name)
        return bound is not None and bound.type == SET and _within_writes(bound, lets)
    if e.op == "inter":
        return any(_within_writes(a, lets) for a in e.args)
    if e.op == "diff":
        return _within_writes(e.args[0], lets)
    if e.op == "union":
        return all(_within_writes(a, lets) for a in e.args)
    return False


def _callee(e: Node) -> str | None:
    if e.kind == "app" and e.args[0].kind == "var":
        return e.args[0].text
    return None


class CatOrders:
    """The `with x from ...` half of the cat lowerer (a CatLowerer mixin)."""

    def _with(self, st: Stmt, env: dict) -> dict:
        d = st.data
        e = d["expr"]
        callee = _callee(e)
        if callee == "cross":
            chosen = self._among(st, env)  # cross over sets known before any execution
            if chosen is not None:
                return chosen
            if self.lkmm:  # reads-from of a Linux-kernel model's lock reads: cat_linux.cross_choice
                return L.cross_choice(self, st, env)
            raise self.refused_choice
        if d["var"] == "co" and callee == "generate_cos":
            new = dict(env)
            co = Expr("name", name="co", type=REL, pos=st.pos)
            if self.lkmm:  # lock.cat generates co without unlocks, then merges them in: see cat_linux
                co = L.generated_co(st.pos)
                self.generated.add("co")
                self.model.axioms.append(L.lock_atomicity(st.pos))
            if not self._is_co0(e.args[1], env):
                base = self._typed(self._expr(e.args[1], env), st.pos, REL)
                if base.type != REL:
                    raise ModelError("generate_cos expects a relation", e.args[1].pos)
                if self.lkmm:  # the base's pairs among the events co is generated over
                    base = L.within_generated(base, st.pos)
                self._generation_axiom("co-generation", Expr("diff", (base, co), type=REL, pos=st.pos), st)
            new["co"] = co
            self.model.generated_orders.append("co")
            return new
        if callee == "generate_orders":
            return self._generate_orders(st, env)
        if callee == "linearisations":
            return self._linearisations(st, env)
        if callee != "generate_cos":
            chosen = self._among(st, env)
            if chosen is not None:
                return chosen
            raise self.refused_choice
        raise UnsupportedError(f"'with {d['var']} from generate_cos(...)' bound to another name than co "
                               "is not supported by mmdsl (only "
                               "generate_cos(...), generate_orders(S, base) over writes, which the "
                               "checker's coherence orders enumerate, and linearisations(S, r))", st.pos)

    def _among(self, st: Stmt, env: dict) -> dict | None:
        """``with x from S``, S a set of relations known before any execution (``{r1, r2}``,
        ``cross(...)``, ``map f ...`` over such sets, ``{}``): x is one of them per run, the
        checks after it that depend on x hold when some value of them does (cat_choice);
        None when S is not such a set (``refused_choice`` then says why)."""
        d = st.data
        try:
            value = self._value(d["expr"], env)
        except UnsupportedError as err:
            callee = _callee(d["expr"])
            self.refused_choice = UnsupportedError(
                f"'with {d['var']} from {callee + '(...)' if callee else '...'}' is not supported by mmdsl over "
                f"a set of choices it cannot compute before the execution ({err.message})", st.pos)
            return None
        if isinstance(value, Expr) and (value.type is None or value.op == "empty") and value.type != REL:
            items: tuple = ()  # herd: an empty set of choices, no execution
        elif isinstance(value, S.RelSet) and all(isinstance(v, Expr) for v in value.items):
            items = tuple(Expr("empty", type=REL, pos=v.pos) if v.type is None else v for v in value.items)
        elif isinstance(value, Expr):  # herd: "set expected"
            raise ModelError(f"'with {d['var']} from S': S is a set of events or a relation, not a set of "
                             "relations", st.pos)
        else:
            self.refused_choice = UnsupportedError(f"'with {d['var']} from S' choosing among sets of relations "
                                                   "(or tags) is not supported by mmdsl", st.pos)
            return None
        new = dict(env)
        if len(items) == 1:  # one choice: x is it
            new[d["var"]] = items[0]
            return new
        ir = self._ir_name(d["var"])
        self.model.lets.append(LetGroup([Binding(ir, C.chosen_among(ir, items, st.pos), st.pos)]))
        self.choices.append((ir, len(self.model.axioms), st.pos))
        new[d["var"]] = Expr("name", name=ir, type=REL, pos=st.pos)
        return new

    def _generate_orders(self, st: Stmt, env: dict) -> dict:
        d = st.data
        arg = self._value(st.data["expr"].args[1], env)
        if not isinstance(arg, tuple) or len(arg) != 2:
            raise ModelError("generate_orders takes a set and a relation: generate_orders(S, base)",
                             st.data["expr"].args[1].pos)
        s, base = arg
        if not isinstance(s, Expr) or s.type == REL:
            raise ModelError("generate_orders: its first argument is a set of events", st.pos)
        new = dict(env)
        if s.type is None:  # no such events: the one order is the empty one
            new[d["var"]] = Expr("empty", type=REL, pos=st.pos)
            self.generated.add(d["var"])
            return new
        lets = {b.name: b.expr for g in self.model.lets if not g.recursive for b in g.bindings}
        if not _within_writes(s, lets):
            raise UnsupportedError(f"'with {d['var']} from generate_orders(S, ...)' with S not only writes "
                                   f"('{s}') is not supported by mmdsl: only orders of writes are the "
                                   "checker's coherence orders", st.pos)
        square = Expr("product", (s, s), type=REL, pos=st.pos)
        order = Expr("inter", (Expr("name", name="co", type=REL, pos=st.pos), square), type=REL, pos=st.pos)
        ir = self._ir_name(d["var"])
        self.model.lets.append(LetGroup([Binding(ir, order, st.pos)]))
        x = Expr("name", name=ir, type=REL, pos=st.pos)
        argnode = st.data["expr"].args[1]
        base_node = argnode.args[1] if argnode.kind == "tuple" and len(argnode.args) == 2 else None
        from_co0 = base_node is not None and self._is_co0(base_node, env)
        if not from_co0 and not (isinstance(base, Expr) and base.type is None):
            if not isinstance(base, Expr) or base.type == SET:
                raise ModelError("generate_orders: its second argument is a relation", st.pos)
            within = Expr("inter", (base, square), type=REL, pos=st.pos)
            self._generation_axiom(f"{d['var']}-generation", Expr("diff", (within, x), type=REL, pos=st.pos), st)
        new[d["var"]] = x
        self.generated.add(d["var"])
        self.model.generated_orders.append(ir)
        return new

    def _linearisations(self, st: Stmt, env: dict) -> dict:
        """``with x from linearisations(S, r)``: x a total order of S extending r, chosen per
        candidate; the checks that depend on it become one (see cat_choice)."""
        d = st.data
        argnode = st.data["expr"].args[1]
        arg = self._value(argnode, env)
        if not isinstance(arg, tuple) or len(arg) != 2:
            raise ModelError("linearisations takes a set and a relation: linearisations(S, r)", argnode.pos)
        s, r = arg
        if not isinstance(s, Expr) or s.type == REL:
            raise ModelError("linearisations: its first argument is a set of events", st.pos)
        if not isinstance(r, Expr) or r.type == SET:
            raise ModelError("linearisations: its second argument is a relation", st.pos)
        if s.type is None:
            s = Expr("empty", type=SET, pos=st.pos)
        if r.type is None:
            r = Expr("empty", type=REL, pos=st.pos)
        ir = self._ir_name(d["var"])
        self.model.lets.append(LetGroup([Binding(ir, C.chosen_order(ir, s, r, st.pos), st.pos)]))
        self.choices.append((ir, len(self.model.axioms), st.pos))
        new = dict(env)
        new[d["var"]] = Expr("name", name=ir, type=REL, pos=st.pos)
        return new

    def _generation_axiom(self, base_name: str, expr: Expr, st: Stmt) -> None:
        k = sum(1 for a in self.model.axioms if a.name.startswith(base_name))
        name = base_name if not k else f"{base_name}#{k + 1}"
        self.model.axioms.append(Axiom(name, "empty", expr, pos=st.pos,
                                       doc="the generated order contains the base it extends"))

    def _is_co0(self, node: Node, env: dict, hops: int = 0) -> bool:
        if node.kind != "var" or hops > 20:
            return False
        if node.text == "co0":
            return True
        v = env.get(node.text)
        return isinstance(v, Thunk) and self._is_co0(v.node, v.env, hops + 1)
