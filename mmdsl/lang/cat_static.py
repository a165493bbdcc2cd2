"""What a cat model decides before any execution: emptiness known from the built-ins, sets of relations.

herd evaluates a model on each candidate execution; mmdsl lowers it once to the core IR.
A few cat constructs decide between alternatives on values herd computes per execution
(``match r with {} -> ... || x ++ rest -> ...``, ``with x from S``, ``assert``). When the
value is empty whatever the execution (built from sets mmdsl's events never fill, as
aarch64.cat's TLB and cache-maintenance enumerations are on litmus tests of loads and
stores), the choice is made here; otherwise the construct is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ModelError, UnsupportedError
from .ir import REL, Expr, Model


@dataclass(frozen=True)
class RelSet:
    """A cat set of relations (``{r1, r2}``), as far as mmdsl holds one: its elements."""

    items: tuple


def _bindings(model: Model) -> dict:
    return {b.name: (b.expr, g.recursive) for g in model.lets for b in g.bindings}


def statically_empty(e: Expr, model: Model, _seen: frozenset = frozenset()) -> bool:
    """True when ``e`` is empty on every execution (False when it may not be)."""
    op = e.op
    if op == "empty" or e.type is None:
        return True
    if op in ("inter", "seq", "product"):
        return any(statically_empty(a, model, _seen) for a in e.args)
    if op == "union":
        return all(statically_empty(a, model, _seen) for a in e.args)
    if op == "diff":
        return statically_empty(e.args[0], model, _seen)
    if op in ("id", "inv", "plus", "domain", "range"):
        return statically_empty(e.args[0], model, _seen)
    if op == "name" and e.name not in _seen:
        found = _bindings(model).get(e.name)
        if found is not None and not found[1]:
            return statically_empty(found[0], model, _seen | {e.name})
    return False


def match_value(low, node, env: dict):
    """``match e with {} -> a || x ++ rest -> b end``: ``a`` when ``e`` is statically empty."""
    scrutinee, cases = node.args
    value = low._value(scrutinee, env)
    if isinstance(value, Expr) and statically_empty(value, low.model):
        for pat, body in cases:
            if pat.kind == "setlit" and not pat.args or pat.kind == "empty":
                return low._value(body, env)
    raise UnsupportedError("cat 'match ... with' is not supported by mmdsl, except over a set that is empty "
                           "on every execution (its '{}' case)", node.pos)


def set_literal(low, node, env: dict):
    """``{e1, e2}``: a set of relations (of events, a literal set is refused)."""
    try:
        items = tuple(low._value(a, env) for a in node.args)
    except ModelError:  # names of events or tags: not a set of relations
        items = ()
    if items and all(isinstance(v, Expr) and v.type is None or isinstance(v, Expr) and v.type == REL for v in items):
        return RelSet(items)
    raise UnsupportedError("cat set literals of events '{a, b}' are not supported by mmdsl", node.pos)


def with_from(value, var: str, pos) -> Expr:
    """``with x from S``: x is S's one element; a choice among several is refused."""
    if isinstance(value, RelSet) and len(value.items) == 1:
        return value.items[0]
    raise UnsupportedError(f"'with {var} from ...' choosing among relations is not supported by mmdsl (only "
                           "'with co from generate_cos(...)', or a set of one relation)", pos)


def check_assert(e: Expr, test: str, negated: bool, model: Model, pos) -> None:
    """``assert empty e``: holds when e is empty on every execution; otherwise refused."""
    if test == "empty" and not negated and statically_empty(e, model):
        return
    raise UnsupportedError("cat 'assert' of a check mmdsl cannot decide before the execution is not supported "
                           "(herd stops with an error when it fails)", pos)
