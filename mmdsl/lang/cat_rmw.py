"""herd's one-event C read-modify-writes in a lowered cat model: every value read over merged halves.

herd's C makes an RMW (atomic_exchange, atomic_fetch_add, a successful
compare_exchange, spin_lock) one event that is both a read and a write; mmdsl's C dialect
gives it a read and a write joined by ``rmw``. A C cat model (rc11.cat, the c11_*.cat
family, which writes ``R & W`` itself) is therefore read over the classes of the
equivalence ``EQ = id | rmw | rmw^-1``, herd's events:

- a base set ``S`` becomes the events whose class meets it (``R`` and ``W`` both hold
  both halves of an RMW, so ``R & W`` is herd's one-event RMWs);
- a base relation ``r`` becomes ``EQ ; (r \\ X) ; EQ`` with ``X = rmw | rmw^-1``: the
  pairs between two classes (the read-to-write pair of one RMW, its po or fr, is no
  pair in herd, where it is one event); ``id`` becomes ``EQ``, so ``[S]``, ``r?`` and
  ``r*`` keep their meaning; ``rf`` keeps an RMW's read of its own write (see _OWN_READ);
- everything else (union, ``;``, ``\\``, ``&``, ``*``, ``~``, ``^-1``, ``+``, domain,
  range) commutes with this reading, so a check over the merged relations (acyclic,
  irreflexive, empty) holds exactly when herd's holds over its events.

Each base name's reading becomes a let of its own, first in the model: ``herd-po``,
``herd-rf``, ``herd-W`` ... and ``herd-id`` for EQ (check-model shows ``acyclic herd-po |
herd-rf``; a candidate computes ``herd-rf`` once). Names bound by the model's own lets are
left alone (their definitions are rewritten). On
a test without an RMW, ``EQ`` is the identity and ``X`` empty, which the evaluator drops
at compile time: the model is then evaluated as it was.

Only a C11 RMW or a spin_lock is one event in herd (``Rmw.one_event``; the relation
``ONE_EVENT_RMW``): linux-kernel.def's xchg, cmpxchg ... are two, as are an X86 xchg or a
RISC-V AMO. herd's C makes a C11 RMW one event under every model, so a model naming no C
set (sc.cat, uniproc.cat) gets this reading too, as a copy (``one_event_reading``) the
checker runs on a C test with such an RMW (Model.one_event_rmw_model).
"""

from __future__ import annotations

from copy import deepcopy

from ..core.errors import UnsupportedError
from .ir import ONE_EVENT_RMW, REL, SET, Axiom, Binding, Expr, LetGroup, Model


def _n(name: str, typ: str = REL) -> Expr:
    return Expr("name", name=name, type=typ)


# the rmw pairs merged into one event: every pair under a C11 cat model (rc11.cat ...), and
# only the pairs of a C11 RMW or a spin_lock (ONE_EVENT_RMW) under any other (sc.cat ...):
# herd's C makes atomic_fetch_add, atomic_exchange, a successful compare_exchange one event,
# but linux-kernel.def's xchg, cmpxchg, atomic_*_return two, as mmdsl does; an x86 xchg or a
# RISC-V AMO is two events in herd too
ALL_RMW = _n("rmw")
C11_RMW = _n(ONE_EVENT_RMW)
_BOTH_HALVES = "RMW"  # what ``rename`` maps herd's RMW placeholder to


def _cross(pairs: Expr) -> Expr:
    """X: the two halves of a merged RMW, either way."""
    return Expr("union", (pairs, Expr("inv", (pairs,), type=REL)), type=REL)


def _eq(pairs: Expr) -> Expr:
    """EQ, named ``herd-id`` once lifted (each use a node of its own, see _tag)."""
    return _tag(Expr("union", (_n("id"), _cross(pairs)), type=REL), "id")
# rf keeps an RMW's read of its own write: herd has no such candidate (merge_rmw_halves
# adds a check that rules it out), and the merged reading makes it a reads-from loop on
# one event, not a pair that vanishes
_OWN_READ = {"rf", "rfi"}


def merge_rmw_halves(model: Model, rename: dict[str, str] | None = None, pairs: Expr = ALL_RMW,
                     with_flags: bool = False) -> None:
    """Rewrite ``model``'s lets and axioms (and flags, ``with_flags``) in place to read over
    herd's one-event RMWs, the ``pairs`` (ALL_RMW or C11_RMW) merged.

    ``rename`` maps a placeholder set name to the base set it stands for (herd's RMW).
    """
    _merge(model, rename, with_flags, pairs)


def one_event_reading(model: Model) -> Model:
    """A copy of ``model`` (a herd model naming no C set, its RMW placeholder unresolved) read
    over herd's one-event C11 RMWs, flags too: what the checker runs on a C test with one."""
    from .cat_builtins import HERD_RMW

    copy = deepcopy(model)
    copy.derived = {}
    merge_rmw_halves(copy, {HERD_RMW: "RMW"}, pairs=C11_RMW, with_flags=True)
    return copy


def has_one_event_rmw(program, locks: bool = True) -> bool:
    """Whether a C program has an RMW herd makes one event (a C11 one: core.program.Rmw.one_event;
    a spin_lock too unless ``locks`` is False: under linux-kernel.cat a lock is lock.cat's events)."""
    return program.arch == "C" and any(getattr(i, "one_event", False) and (locks or not _is_lock(i))
                                       for t in program.threads for i in t.instrs)


def _is_lock(ins) -> bool:
    return "lock" in getattr(ins, "annots", ()) and type(ins).__name__ == "Rmw"


def refuse_c11_rmw_with_locks(program) -> None:
    """Under linux-kernel.cat a test with both a C11 RMW (one herd event, merged) and a
    spin_lock (lock.cat's events, not merged) is refused at the lock: the merged reading
    (ONE_EVENT_RMW) would merge the lock's halves too."""
    if not has_one_event_rmw(program, locks=False):
        return
    for t in program.threads:
        for ins in t.instrs:
            if _is_lock(ins):
                raise UnsupportedError("a spin_lock or spin_trylock in a test with a C11 read-modify-write "
                                       "under linux-kernel.cat (herd: one event each; mmdsl merges only "
                                       "one kind)").locate(ins.pos, ins.text)


def refuse_c_locks(program) -> None:
    """herd's C spin_lock/spin_trylock outside its Linux-kernel model are events of their own
    (herd7 7.58 under sc.cat: MP+lockcounter Sometimes, SB+polocks 3 executions), which
    mmdsl's read-modify-write of the lock does not reproduce: refused at the first one."""
    for t in program.threads:
        for ins in t.instrs:
            if _is_lock(ins):
                raise UnsupportedError("a C spin_lock or spin_trylock under a herd model other than "
                                       "linux-kernel.cat: herd makes its own lock events, which mmdsl "
                                       "does not reproduce there").locate(ins.pos, ins.text)


def _merge(model: Model, rename: dict[str, str] | None, with_flags: bool, pairs: Expr) -> None:
    bound = {b.name for g in model.lets for b in g.bindings}
    rename = rename or {}
    lifted: dict[str, Binding] = {}
    for g in model.lets:
        for b in g.bindings:
            b.expr = _named(merged(b.expr, bound, rename, pairs), bound, lifted)
    for ax in model.axioms + model.undefined + (model.flags if with_flags else []):
        ax.expr = _named(merged(ax.expr, bound, rename, pairs), bound, lifted)
    # each base name read over herd's events is a let of its own, first: check-model shows
    # `herd-po`, and a candidate's `herd-rf` is computed once
    model.lets[:0] = [LetGroup([b]) for b in lifted.values()]
    for ax in model.axioms + model.undefined + (model.flags if with_flags else []):
        if ax.scope is not None:
            ax.scope += len(lifted)
    # herd has no candidate where an RMW reads its own write (one event): nor does mmdsl
    own = Expr("inter", (_n("rf"), Expr("inv", (pairs,), type=REL)), type=REL)
    model.axioms.append(Axiom("one-event-rmw", "empty", own, default=True,
                              doc="herd's one-event C RMWs: an RMW does not read its own write"))


def _named(e: Expr, bound: set, lifted: dict[str, Binding]) -> Expr:
    """``e`` with each base name's merged reading (tagged by ``merged``) replaced by a let."""
    if e.op == "name" or not e.args:
        return e
    if e.name and e.name.startswith(_LIFT):
        base = e.name[len(_LIFT):]
        if base not in lifted:
            name = f"herd-{base}"
            while name in bound:
                name += "'"
            bound.add(name)
            inner = Expr(e.op, tuple(_named(a, bound, lifted) for a in e.args), type=e.type)
            lifted[base] = Binding(name, inner, None)
        return Expr("name", name=lifted[base].name, type=e.type, pos=e.pos)
    args = tuple(_named(a, bound, lifted) for a in e.args)
    if all(a is b for a, b in zip(args, e.args)):
        return e
    return Expr(e.op, args, type=e.type, name=e.name, pos=e.pos)


_LIFT = "herd reading of "  # a merged reading of a base name carries this and the name (see _named)


def _tag(e: Expr, base: str) -> Expr:
    e.name = _LIFT + base
    return e


def merged(e: Expr, bound: set, rename: dict[str, str] | None = None, pairs: Expr = ALL_RMW) -> Expr:
    """``e`` read over the classes of EQ (see the module docstring)."""
    rename = rename or {}
    op = e.op
    if op == "name":
        if e.name in bound:
            return e
        name = rename.get(e.name, e.name)
        if name == _BOTH_HALVES:  # herd's RMW: the events of an RMW that happened (a failed CAS is a read)
            return _tag(Expr("union", (Expr("domain", (pairs,), type=SET), Expr("range", (pairs,), type=SET)),
                             type=SET, pos=e.pos), "RMW")
        if e.type == SET:
            base = Expr("name", name=name, type=SET, pos=e.pos)
            # the events whose class meets the set: range([S] ; EQ)
            return _tag(Expr("range", (Expr("seq", (Expr("id", (base,), type=REL), _eq(pairs)), type=REL),),
                             type=SET, pos=e.pos), name)
        if name == "id":
            return _eq(pairs)
        if name == "com":
            return Expr("union", tuple(merged(_n(r), bound, None, pairs) for r in ("rf", "co", "fr")),
                        type=REL, pos=e.pos)
        base = Expr("name", name=name, type=REL, pos=e.pos)
        if name in _OWN_READ:
            return _tag(Expr("seq", (_eq(pairs), base, _eq(pairs)), type=REL, pos=e.pos), name)
        return _tag(Expr("seq", (_eq(pairs), Expr("diff", (base, _cross(pairs)), type=REL), _eq(pairs)),
                         type=REL, pos=e.pos), name)
    if not e.args:
        return e
    args = tuple(merged(a, bound, rename, pairs) for a in e.args)
    if op == "id":  # [S] over classes: the pairs of one class meeting S
        return Expr("seq", (Expr("id", args, type=REL), _eq(pairs)), type=REL, pos=e.pos)
    if op == "opt":
        return Expr("union", (args[0], _eq(pairs)), type=REL, pos=e.pos)
    if op == "star":
        return Expr("union", (Expr("plus", args, type=REL), _eq(pairs)), type=REL, pos=e.pos)
    return Expr(op, args, type=e.type, name=e.name, pos=e.pos)
