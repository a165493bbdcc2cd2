"""herd's Linux-kernel model in the cat loader: linux-kernel.bell's tags and lock.cat's lock events.

herd runs ``linux-kernel.cat`` with ``linux-kernel.bell`` (its tags: ``'once``, ``'acquire``,
``'mb``, ``'rcu-lock`` ...) and ``linux-kernel.def`` (the C primitives as events carrying those
tags). mmdsl's C dialect makes the same events (``mmdsl/litmus/c_builtins.py`` follows
linux-kernel.def and herd's C semantics: ``xchg()`` is ``F[mb]; R[once]; W[once]; F[mb]``,
``xchg_acquire`` an acquire read and a once write, ``atomic_inc`` a ``'noreturn`` read ...),
and this module says which of its events each tag's set is (``TAG_SETS``).

``lock.cat`` (included by linux-kernel.cat) treats lock events herd's way: herd's built-in
``R``, ``W``, ``rf`` and ``co`` leave them out, the model puts them back (``let W = W | LKW``,
``let co = (co | critical | (critical^-1 ; co))+``, ``let rf = rf | rf-lf | ...``), and the
reads-from of failed ``spin_trylock``s is chosen with ``with rfe-lf from cross(map ...)``.
mmdsl's candidates already order and read-from every lock event (a ``spin_lock`` is a
blocking read-modify-write, ``spin_unlock`` a write of 0), so in a Linux-kernel model
(one whose bell declares these tags) the built-ins are herd's views of them
(``lookup``): ``W`` without unlocks, ``M`` and ``FW`` without lock events (herd's
lock.cat flags lock events among ``M`` and final writes), ``rf`` without reads of lock events, the ``co`` that
``generate_cos`` gives without unlocks; and ``with x from cross(map f S)`` where each
``f r`` is the singleton relations of ``(A * {r}) & ...`` (every element of S picks one
pair: herd's lock.cat) is the candidate's reads-from restricted to those pairs, with an
axiom that each element of S has one (``cross_choice``). The model's rebuilt ``rf`` and
``co`` are then the candidate's own.
"""

from __future__ import annotations

from ..core.errors import ModelError, SourcePos, UnsupportedError
from .cat_parse import Node
from .cat_static import Thunk
from .ir import REL, SET, Axiom, Binding, Expr, FenceDecl, LetGroup, render_expr


def _n(name: str, typ: str = SET) -> Expr:
    return Expr("name", name=name, type=typ)


def _op(op: str, *args: Expr, typ: str = SET) -> Expr:
    return Expr(op, tuple(args), type=typ)


_R, _W, _M, _F = _n("R"), _n("W"), _n("M"), _n("F")
_RMW_REL = _n("rmw", REL)
_LOCK, _UNLOCK = _n("lock"), _n("unlock")
_IN_RMW = _op("union", _op("domain", _RMW_REL), _op("range", _RMW_REL))
# the smp_mb()s around a cmpxchg: none in herd when it does not write (c_builtins._rmw)
_LEAD = _op("inter", _F, _n("cmpxchg-mb"))
_PO = _n("po", REL)
_PO_NEXT = _op("diff", _PO, _op("seq", _PO, _PO, typ=REL), typ=REL)
_LEAD_OK = _op("union",  # the fence just before a read that writes, or just after its write
               _op("domain", _op("seq", _op("id", _LEAD, typ=REL), _PO_NEXT, _op("id", _op("domain", _RMW_REL), typ=REL),
                                 typ=REL)),
               _op("range", _op("seq", _op("id", _op("range", _RMW_REL), typ=REL), _PO_NEXT, _op("id", _LEAD, typ=REL),
                                typ=REL)))

FENCE_KINDS = {  # herd's fence tags (linux-kernel.def's __fence{t}) -> the C dialect's fence kinds
    "wmb": "wmb", "rmb": "rmb", "mb": "mb", "barrier": "barrier", "rcu-lock": "rcu-lock",
    "rcu-unlock": "rcu-unlock", "sync-rcu": "sync-rcu", "before-atomic": "before-atomic",
    "after-atomic": "after-atomic", "after-spinlock": "after-spinlock",
    "after-unlock-lock": "after-unlock-lock",
}
# herd's access tags -> the events carrying them. A kernel RMW's read and write carry
# herd's tags separately: xchg() and the other fully ordered ones (annotation mb) are
# once/once between two fences, _acquire an acquire read and a once write, _release a once
# read and a release write, atomic_inc() & co a 'noreturn read and a once write
ACCESS_TAGS = {
    "once": _op("union",
                _op("diff", _op("inter", _M, _op("union", _n("once"), _n("mb"))), _op("inter", _R, _n("noreturn"))),
                _op("inter", _R, _n("rel"), _IN_RMW), _op("inter", _W, _n("acq"), _IN_RMW)),
    "acquire": _op("inter", _R, _n("acq")),
    "release": _op("inter", _W, _n("rel")),
    "noreturn": _op("inter", _R, _n("noreturn")),
}
# SRCU: the C dialect has no srcu_* primitives (refused by name), so no event carries them
NO_EVENT_TAGS = {"srcu-lock", "srcu-unlock", "sync-srcu"}
LKMM_TAGS = set(FENCE_KINDS) | set(ACCESS_TAGS) | NO_EVENT_TAGS


# herd's built-in sets of spinlock events (herd's C makes them for spin_lock, spin_trylock)
SPINLOCK_SETS = {"LKR", "LKW", "LF"}


def names_spinlock_sets(stmts: list, here, statements_of) -> bool:
    """Whether the model (with the files it includes) names herd's spinlock event sets
    (lock.cat does): then herd's built-ins are read the Linux-kernel way (``lookup``) even
    without the kernel's bell. ``statements_of`` as in cat_own_co.computes_co_itself."""
    seen: set = set()

    def names(obj) -> bool:
        if isinstance(obj, Node):
            return obj.kind == "var" and obj.text in SPINLOCK_SETS or names(obj.args)
        if isinstance(obj, dict):
            return any(names(v) for v in obj.values())
        if isinstance(obj, (list, tuple)):
            return any(names(v) for v in obj)
        return False

    def walk(body, folder) -> bool:
        for st in body:
            if st.kind == "include":
                got = statements_of(st.data["file"], folder)
                if got is not None and got[2] not in seen:
                    seen.add(got[2])
                    if walk(got[0], got[1]):
                        return True
            elif names(st.data):
                return True
        return False

    return walk(stmts, here)


def set_name(tag: str) -> str:
    """herd's name for the set of events tagged ``tag``: the tag capitalised ('rcu-lock -> Rcu-lock)."""
    return tag[:1].upper() + tag[1:]


def tag_set(tag: str, model, pos: SourcePos) -> Expr:
    """The set of events carrying herd's Linux-kernel tag ``tag``."""
    if tag in ACCESS_TAGS:
        return _with_pos(ACCESS_TAGS[tag], pos)
    if tag in NO_EVENT_TAGS:
        return Expr("empty", type=SET, pos=pos)
    decl = f"lkmm-{tag}-fences"
    if decl not in model.fences:
        model.fences[decl] = FenceDecl(decl, [FENCE_KINDS[tag]], [], 0, f"herd's Linux-kernel fence tag '{tag}")
    fences = Expr("name", name=decl, type=SET, pos=pos)
    if tag == "mb":  # less the fences around the cmpxchgs that did not write
        return Expr("diff", (fences, _op("diff", _LEAD, _LEAD_OK)), type=SET, pos=pos)
    return fences


def _with_pos(e: Expr, pos: SourcePos) -> Expr:
    return Expr(e.op, e.args, type=e.type, name=e.name, pos=pos)


# herd's built-ins, as a Linux-kernel model sees them (see the module docstring)
_LKR = _op("inter", _R, _LOCK, _op("domain", _RMW_REL))
_NOT_LOCK_READ = _op("compl", _op("inter", _R, _LOCK))
# herd's final writes: the last write in co of each location (lock events included), when
# it is a memory access (not a lock event, which herd's M leaves out)
_FW = _op("diff", _op("diff", _W, _op("domain", _n("co", REL))), _op("union", _LOCK, _UNLOCK))
BUILTINS = {
    "LKR": _LKR,                                                   # a spin_lock's (or a successful trylock's) read
    "LF": _op("diff", _op("inter", _R, _LOCK), _op("domain", _RMW_REL)),  # a failed spin_trylock's read
    "RL": Expr("empty", type=SET),  # spin_is_locked(): refused by the C dialect, so none
    "RU": Expr("empty", type=SET),
    "RMW": _op("diff", _IN_RMW, _LOCK),                            # herd's kernel RMWs (not the lock's)
    "W": _op("diff", _W, _UNLOCK),                                  # herd's W: unlocks join after co
    "M": _op("diff", _M, _op("union", _LOCK, _UNLOCK)),             # herd's M: no lock event
    "FW": _FW,                                                      # herd's FW: not a lock event
    "rf": _op("inter", _n("rf", REL), _op("product", _op("universe"), _NOT_LOCK_READ, typ=REL), typ=REL),
}


def lookup(name: str, pos: SourcePos) -> Expr | None:
    """A Linux-kernel model's view of a herd built-in, or None for the general one."""
    e = BUILTINS.get(name)
    return None if e is None else _with_pos(e, pos)


def generated_co(pos: SourcePos) -> Expr:
    """The co that lock.cat's ``with co from generate_cos(...)`` gives: without unlocks."""
    not_ul = _op("compl", _UNLOCK)
    return Expr("inter", (_n("co", REL), _op("product", not_ul, not_ul, typ=REL)), type=REL, pos=pos)


_LKW = _op("inter", _W, _LOCK, _op("range", _RMW_REL))  # a spin_lock's (or a successful trylock's) write
_PO_LOC = _n("po-loc", REL)
# lock.cat's critical: a lock write -> the unlock that releases it (no lock write between)
_CRITICAL = _op("diff", _op("seq", _op("id", _LKW, typ=REL), _PO_LOC, _op("id", _UNLOCK, typ=REL), typ=REL),
                _op("seq", _PO_LOC, _op("id", _op("union", _LKW, _UNLOCK), typ=REL), _PO_LOC, typ=REL), typ=REL)
_LOCK_RMW = _op("seq", _op("id", _LKR, typ=REL), _RMW_REL, typ=REL)  # a lock's read -> its write
LOCK_ATOMICITY = "lock-atomicity"


def lock_atomicity(pos: SourcePos) -> Axiom:
    """A spin_lock's read reads the write just before its own in co (IW or an unlock); an
    unlock follows its lock write in co; a failed trylock in a critical section reads its lock.

    herd computes that read's rf from co (lock.cat: ``[IW | UL] ; singlestep(co) ;
    lk-rmw^-1``) and never chooses it; mmdsl's candidates do, so without this check several
    candidates (the lock's read from an earlier unlock) would count as one herd execution.
    The candidate enumerator cuts the first two early (``lock_order``)."""
    rf, co = _n("rf", REL), _n("co", REL)
    next_in_co = _op("diff", co, _op("seq", co, co, typ=REL), typ=REL)
    read_from = _op("seq", rf, _op("id", _LKR, typ=REL), _RMW_REL, typ=REL)  # the write read -> the lock's write
    # and an unlock comes right after the lock write it releases (lock.cat's critical), as
    # herd merges unlocks into co: other places of the unlock in co are the same execution
    lkw = _op("id", _LKW, typ=REL)
    ul = _op("id", _UNLOCK, typ=REL)
    # and a failed trylock inside its thread's critical section reads that section's lock
    # write (lock.cat's rfi-lf, which herd puts in rf whatever else the read could read)
    lf = _op("diff", _op("inter", _R, _LOCK), _op("domain", _RMW_REL))
    rfi_lf = _op("diff", _op("seq", lkw, _PO_LOC, _op("id", lf, typ=REL), typ=REL),
                 _op("seq", lkw, _PO_LOC, ul, _PO_LOC, typ=REL), typ=REL)
    into_rfi_lf = _op("inter", rf, _op("product", _op("universe"), _op("range", rfi_lf), typ=REL), typ=REL)
    wrong = _op("union", _op("diff", read_from, next_in_co, typ=REL), _op("diff", _CRITICAL, next_in_co, typ=REL),
                _op("diff", into_rfi_lf, rfi_lf, typ=REL), typ=REL)
    return Axiom(LOCK_ATOMICITY, "empty", Expr(wrong.op, wrong.args, type=REL, pos=pos), pos=pos,
                 doc="a lock's read reads the write just before the lock's write in co, as herd builds it")


def lock_order(prepared):
    """(critical, lock read -> its write) of a prepared model with ``lock_atomicity``, both
    static relations, or None: a candidate breaks that axiom when a pair of ``critical``
    is not next to each other in co, or a lock's read reads another write than the one just
    before the lock's write in co, so the enumerator may cut it as soon as that is known."""
    for ax, _, _ in prepared.axioms:  # the name first: most models have no such axiom to render
        if ax.name != LOCK_ATOMICITY or ax.negated or ax.test != "empty":
            continue
        if render_expr(ax.expr) != render_expr(lock_atomicity(None).expr):
            continue
        env, _ = prepared.scope_of(ax)
        if "rf" in env or "co" in env:  # not the candidate's own rf and co
            return None
        critical = prepared._compile(_CRITICAL, env)
        lock_rmw = prepared._compile(_LOCK_RMW, env)
        if critical[0] != "c" or lock_rmw[0] != "c":
            return None
        return critical[1], lock_rmw[1]
    return None


def within_generated(base: Expr, pos: SourcePos) -> Expr:
    """``base`` less its pairs with an unlock (stdlib's co0 puts them after the initial write)."""
    not_ul = _op("compl", _UNLOCK)
    return Expr("inter", (base, _op("product", not_ul, not_ul, typ=REL)), type=REL, pos=pos)


# ----- with x from cross(map f S) ---------------------------------------------------------
def _fun_def(node: Node):
    """``let f x = body in rest`` -> (f, [x], body, rest), or None."""
    if node.kind != "letin":
        return None
    rec, binds, rest = node.args
    if rec or len(binds) != 1 or binds[0]["params"] is None or len(binds[0]["params"]) != 1:
        return None
    return binds[0]["name"], binds[0]["params"][0], binds[0]["expr"], rest


def _map_call(node: Node, fname: str):
    """``map fname ARG`` -> ARG, or None."""
    if node.kind == "app" and node.args[0].kind == "app":
        inner = node.args[0]
        if inner.args[0].kind == "var" and inner.args[0].text == "map" and inner.args[1].kind == "var" \
                and inner.args[1].text == fname:
            return node.args[1]
    return None


def _singleton(node: Node, param: str) -> bool:
    """``p ++ 0``: the set holding the one pair p."""
    return (node.kind == "op" and node.text == "add" and node.args[0].kind == "var" and node.args[0].text == param
            and node.args[1].kind == "empty")


def _replace_singleton(node: Node, var: str, placeholder: str) -> Node:
    """``{var}`` -> ``placeholder`` (a name bound to a set) throughout ``node``."""
    if node.kind == "setlit" and len(node.args) == 1 and node.args[0].kind == "var" and node.args[0].text == var:
        return Node("var", node.pos, (), placeholder)
    if not node.args or not all(isinstance(a, Node) for a in node.args):
        return node
    return Node(node.kind, node.pos, tuple(_replace_singleton(a, var, placeholder) for a in node.args), node.text)


def _columns_only(e: Expr, hole: str, under_ok: bool = True) -> bool:
    """True when ``hole`` occurs in ``e`` only as the right operand of a product, under
    intersections and unions: then ``e[hole := S]`` restricted to column r is ``e[hole := {r}]``."""
    if e.op == "name":
        return e.name != hole
    if e.op == "product":
        return _columns_only(e.args[0], hole, False) and (e.args[1].op == "name" and e.args[1].name == hole
                                                          or _columns_only(e.args[1], hole, False))
    if e.op in ("inter", "union") and under_ok:
        return all(_columns_only(a, hole, True) for a in e.args)
    return hole not in e.names()


def _substitute(e: Expr, hole: str, value: Expr) -> Expr:
    if e.op == "name":
        return value if e.name == hole else e
    if not e.args:
        return e
    return Expr(e.op, tuple(_substitute(a, hole, value) for a in e.args), type=e.type, name=e.name, pos=e.pos)


def cross_choice(low, st, env: dict) -> dict:
    """``with x from cross(C)`` where C is ``map f S`` and ``f r`` is ``map (fun p -> p ++ 0) E_r``:
    each r of S picks one pair of E_r. Read as reads-from (herd's lock.cat: each failed
    trylock reads from one lock write): x is the candidate's rf within E_S, and each r of S
    must have such a pair (an axiom). Anything else is refused by name."""
    d, outer_env = st.data, env
    refuse = UnsupportedError(f"'with {d['var']} from cross(...)' is not supported by mmdsl over a set "
                              "computed from the execution's events, except cross(map f S) with f r the "
                              "singleton relations of (A * {r}) & ... (one reads-from pair per read of S) "
                              "in a model reading herd's kernel lock events", st.pos)
    if not low.lkmm:
        raise refuse
    arg = d["expr"].args[1]
    seen = 0
    while arg.kind == "var" and seen < 20:  # follow the let that names it
        bound = env.get(arg.text)
        if not isinstance(bound, Thunk):
            raise refuse
        arg, env = bound.node, bound.env
        seen += 1
    outer = _fun_def(arg)
    if outer is None:
        raise refuse
    f, r, body, rest = outer
    s_node = _map_call(rest, f)
    inner = _fun_def(body)
    if s_node is None or inner is None:
        raise refuse
    g, p, g_body, g_rest = inner
    e_node = _map_call(g_rest, g)
    if e_node is None or not _singleton(g_body, p):
        raise refuse
    s = low._typed(low._expr(s_node, env), st.pos, SET)
    if s.type != SET:
        raise ModelError("cross(map f S): S must be a set of events", s_node.pos)
    hole = "lkmm.cross.r"
    inner_env = dict(env)
    inner_env[hole] = Expr("name", name=hole, type=SET, pos=st.pos)
    e = low._typed(low._expr(_replace_singleton(e_node, r, hole), inner_env), st.pos, REL)
    if e.type != REL or not _columns_only(e, hole):
        raise refuse
    pairs = _substitute(e, hole, s)
    choice = Expr("inter", (Expr("name", name="rf", type=REL, pos=st.pos), pairs), type=REL, pos=st.pos)
    ir = low._ir_name(d["var"])
    low.model.lets.append(LetGroup([Binding(ir, choice, st.pos)]))
    x = Expr("name", name=ir, type=REL, pos=st.pos)
    missing = Expr("diff", (s, Expr("range", (x,), type=SET, pos=st.pos)), type=SET, pos=st.pos)
    low.model.axioms.append(Axiom(f"{d['var']}-choice", "empty", missing, pos=st.pos,
                                  doc="each element of the set picks one pair (herd's cross over singletons)"))
    new = dict(outer_env)
    new[d["var"]] = x
    return new
