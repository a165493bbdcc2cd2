"""What a cat model decides before any execution: emptiness known from the built-ins, sets of relations.

herd evaluates a model on each candidate execution; mmdsl lowers it once to the core IR.
A few cat constructs decide between alternatives on values herd computes per execution
(``match r with {} -> ... || x ++ rest -> ...``, ``with x from S``, ``assert``). When the
value is empty whatever the execution (built from sets mmdsl's events never fill, as
aarch64.cat's TLB and cache-maintenance enumerations are on litmus tests of loads and
stores), the choice is made here. So it is when the value is the same on every execution:
a set of relations (``{po, rf}``, ``r ++ S``, stdlib's ``map f S`` over one) or of tags
(``{'a, 'b}``, an enum), whose elements ``match`` takes apart and ``++`` and ``|`` build,
and a tag, which ``match t with 'a -> ... || _ -> ... end`` compares. A match over the
events or pairs of one execution (lock.cat's ``map f (LF \\ ...)``) is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ModelError, SourcePos, UnsupportedError
from .cat_parse import Node
from .ir import REL, Expr, Model


class Thunk:
    """A `let` not yet lowered: lowered on first use, then kept."""

    __slots__ = ("node", "env", "name", "pos", "value", "busy")

    def __init__(self, node: Node, env: dict, name: str, pos: SourcePos):
        self.node, self.env, self.name, self.pos = node, env, name, pos
        self.value = None
        self.busy = False


@dataclass
class Closure:
    params: list | str
    body: Node
    env: dict
    name: str = "fun"


@dataclass
class Builtin:
    name: str


@dataclass(frozen=True)
class Tags:
    """Bell tags as a value: 'a (one tag) or {'a, 'b} or an enum's tags."""
    names: frozenset


# relations a set of relations may hold (cross.cat's cross of n sets of two holds 2^n)
MAX_RELATIONS = 1024


def _bounded(items: tuple, node) -> "RelSet":
    if len(items) > MAX_RELATIONS:
        raise UnsupportedError(f"a set of more than {MAX_RELATIONS} relations is not supported by mmdsl",
                               getattr(node, "pos", None))
    return RelSet(items)


@dataclass(frozen=True)
class RelSet:
    """A cat set of relations (``{r1, r2}``), as far as mmdsl holds one: its elements."""

    items: tuple


def _bindings(model: Model) -> dict:
    return {b.name: (b.expr, g.recursive) for g in model.lets for b in g.bindings}


def statically_empty(e: Expr, model: Model, _assumed: frozenset = frozenset()) -> bool:
    """True when ``e`` is empty on every execution (False when it may not be). A recursive
    let is empty when its body is, its own names assumed empty (its least fixpoint is)."""
    op = e.op
    if op == "empty" or e.type is None:
        return True
    if op in ("inter", "seq", "product"):
        return any(statically_empty(a, model, _assumed) for a in e.args)
    if op == "union":
        return all(statically_empty(a, model, _assumed) for a in e.args)
    if op == "diff":
        return statically_empty(e.args[0], model, _assumed)
    if op in ("id", "inv", "plus", "domain", "range"):
        return statically_empty(e.args[0], model, _assumed)
    if op == "name":
        if e.name in _assumed:
            return True
        found = _bindings(model).get(e.name)
        if found is not None:
            return statically_empty(found[0], model, _assumed | {e.name} if found[1] else _assumed)
    return False


def _elements(value, low):
    """The elements of a set known before any execution (a tuple), or None."""
    if isinstance(value, RelSet):
        return value.items
    if isinstance(value, Tags):
        return tuple(Tags(frozenset({t})) for t in sorted(value.names))
    if isinstance(value, Expr) and statically_empty(value, low.model):
        return ()
    return None


def _rest(value, items: tuple):
    return Tags(frozenset().union(*(t.names for t in items))) if isinstance(value, Tags) else RelSet(items)


def match_value(low, node, env: dict):
    """``match e with {} -> a || x ++ rest -> b end`` over a set known before any execution
    (empty on every one, or of relations or tags), ``match t with 'a -> ... || _ -> ...``
    over a tag; herd's first matching clause."""
    scrutinee, cases = node.args
    value = low._value(scrutinee, env)
    if any(pat.kind == "tag" for pat, _ in cases):
        return _match_tag(low, node, value, cases, env)
    items = _elements(value, low)
    if items is None:
        raise UnsupportedError("cat 'match ... with' over the events or pairs of an execution is not supported "
                               "by mmdsl (only over a set of relations or tags, or one empty on every execution)",
                               node.pos)
    for pat, body in cases:
        if (pat.kind == "setlit" and not pat.args or pat.kind == "empty") and not items:
            return low._value(body, env)
        if pat.kind == "op" and pat.text == "add" and len(pat.args) == 2 and items:
            first, rest = pat.args
            if first.kind != "var" or rest.kind != "var":
                raise ModelError("a set pattern is 'x ++ rest', two names", pat.pos)
            inner = dict(env)
            inner[first.text], inner[rest.text] = items[0], _rest(value, items[1:])
            return low._value(body, inner)
        if not (pat.kind == "setlit" and not pat.args or pat.kind == "empty" or pat.kind == "op"):
            raise ModelError("a set pattern is '{}' or 'x ++ rest'", pat.pos)
    raise ModelError("no case of this match fits the set (it needs '{}' and 'x ++ rest')", node.pos)


def _match_tag(low, node, value, cases, env):
    if not (isinstance(value, Tags) and len(value.names) == 1):
        raise UnsupportedError("cat 'match' over tags needs one tag ('a) known before any execution", node.pos)
    (tag,) = value.names
    for pat, body in cases:
        if pat.kind == "tag" and pat.text == tag or pat.kind == "universe":
            return low._value(body, env)
        if pat.kind not in ("tag", "universe"):
            raise ModelError("a tag pattern is 'tag or _", pat.pos)
    raise ModelError(f"no case of this match fits the tag '{tag}", node.pos)


def add_value(low, node, env: dict):
    """``x ++ S``: S with x added, for S a set of relations or tags (or ``{}``)."""
    a, b = (low._value(arg, env) for arg in node.args)
    if isinstance(b, Tags) and isinstance(a, Tags):
        return Tags(a.names | b.names)
    items = _elements(b, low) if not (isinstance(b, Expr) and b.type is not None and b.op != "empty") else None
    if items is not None and not isinstance(b, Tags):
        if isinstance(a, Expr) and a.type not in (None, REL):
            raise UnsupportedError("'++' adding a set of events to a set of relations is not supported by mmdsl",
                                   node.pos)
        return _bounded((a, *(x for x in items if x != a)), node)
    raise UnsupportedError("cat '++' adding an element to the events or pairs of an execution (a set of "
                           "events, a relation) is not supported by mmdsl (only to a set of relations or tags)",
                           node.pos)


def union_values(a, b, node=None):
    """``S1 | S2`` of two sets of relations or of tags (None when they are not such sets)."""
    if isinstance(a, Tags) and isinstance(b, Tags):
        return Tags(a.names | b.names)
    left = a.items if isinstance(a, RelSet) else (() if isinstance(a, Expr) and a.type is None else None)
    right = b.items if isinstance(b, RelSet) else (() if isinstance(b, Expr) and b.type is None else None)
    if left is None or right is None or not (isinstance(a, RelSet) or isinstance(b, RelSet)):
        return None
    return _bounded((*left, *(x for x in right if x not in left)), node)


def set_literal(low, node, env: dict):
    """``{e1, e2}``: a set of relations (of events, a literal set is refused)."""
    try:
        items = tuple(low._value(a, env) for a in node.args)
    except ModelError:  # names of events or tags: not a set of relations
        items = ()
    if items and all(isinstance(v, RelSet) or isinstance(v, Expr) and v.type in (None, REL) for v in items):
        return RelSet(tuple(dict.fromkeys(items)))  # {a, a} is {a}
    raise UnsupportedError("cat set literals of events '{a, b}' are not supported by mmdsl", node.pos)


def check_assert(e: Expr, test: str, negated: bool, model: Model, pos) -> None:
    """``assert empty e``: holds when e is empty on every execution; otherwise refused."""
    if test == "empty" and not negated and statically_empty(e, model):
        return
    raise UnsupportedError("cat 'assert' of a check mmdsl cannot decide before the execution is not supported "
                           "(herd stops with an error when it fails)", pos)
