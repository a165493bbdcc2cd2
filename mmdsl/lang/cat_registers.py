"""herd's register-level relations (iico_data, iico_ctrl, rf-reg) in a model without ``catdep``.

herd gives each instruction register events besides its memory access: an instruction
reads its source registers and writes its destination register, ``iico_data`` and
``iico_ctrl`` order the events of one instruction (a register read before the access whose
address or value it gives; a memory read before the register it loads; a CAS's read
before its write), and ``rf-reg`` joins a register write to the po-later reads of that
register. mmdsl's events are the memory accesses only. What it does have is what paths
of those relations from one memory access to another come to: a path through
``(iico_data | iico_ctrl | rf-reg)+`` from a read to a later access is a chain of register
dataflow, mmdsl's ``data`` and ``addr`` (computed from register dataflow, from reads, as
herd's are), or an atomic's read to its write (``rmw & sm``: one instruction; with it the
AArch64 SWP and RISC-V AMO tests give herd7's counts, without it they did not). A branch's register read reaches no memory event of its instruction, so
control dependencies are no such path (herd7 says Sometimes on LB+ctrls under
asl-pseudo-arch.cat, Never on LB+datas).

So the three names are exact where only such paths matter: as terms, all three of them,
of a union whose acyclicity a check asks (``acyclic iico_data | iico_ctrl | rf-reg | rf``,
asl-pseudo-arch.cat): a cycle of the union through register events is a cycle of
``data | addr | rmw & sm | the rest`` over memory events, and the other way round. Anywhere else
(composed, in a let another check reads, one without the others) the register events
themselves would be needed, and the model is refused naming the relation. Under
``catdep`` (herd's own AArch64 files) they are cat_aarch64's.
"""

from __future__ import annotations

from ..core.errors import UnsupportedError
from .ir import REL, Expr, Model

NAMES = ("iico_data", "iico_ctrl", "rf-reg")
_MARK = "herd-register:"  # the placeholder IR name of each, until resolve() places it


def lookup(name: str, pos) -> Expr | None:
    """A placeholder for one of the three names outside a catdep model, else None."""
    if name in NAMES:
        return Expr("name", name=_MARK + name, type=REL, pos=pos)
    return None


def _placeholders(e: Expr) -> set:
    return {n for n in e.names() if n.startswith(_MARK)}


def _register_paths(pos) -> Expr:
    """Paths through register events between memory events: register dataflow from a read,
    an atomic's read to its write."""
    amo = Expr("inter", (Expr("name", name="rmw", type=REL, pos=pos), Expr("name", name="sm", type=REL, pos=pos)),
               type=REL, pos=pos)
    return Expr("union", (Expr("name", name="data", type=REL, pos=pos), Expr("name", name="addr", type=REL, pos=pos),
                          amo), type=REL, pos=pos)


def _marks_of(model: Model):
    """A function: the placeholders a name reaches, through the model's lets."""
    binds = {b.name: b for g in model.lets for b in g.bindings}
    reach: dict = {}

    def marks(name: str) -> set:
        if name.startswith(_MARK):
            return {name}
        if name not in binds or name in reach:
            return reach.get(name, set())
        reach[name] = set()  # a let rec group: its members' own placeholders are enough
        reach[name] = set().union(*(marks(n) for n in binds[name].expr.names()))
        return reach[name]
    return binds, marks


def reaches(model: Model, e: Expr) -> bool:
    """Whether ``e`` reads one of the register relations (directly or through lets)."""
    return any(_marks_of(model)[1](n) for n in e.names())


def resolve(model: Model) -> None:
    """Place the register relations where they are exact (see the module's docstring);
    refuse them by name in any other check. A let or show that reaches them and no check
    reads (deps.cat's ``show rf-reg``) is dropped: herd shows register edges mmdsl has not."""
    binds, marks = _marks_of(model)
    for ax in list(model.axioms):
        found = set().union(*(marks(n) for n in ax.expr.names()))
        if not found:
            continue
        terms = ax.expr.args if ax.expr.op == "union" else (ax.expr,)
        direct = {t.name for t in terms if t.op == "name" and t.name.startswith(_MARK)}
        if ax.test == "acyclic" and not ax.negated and direct == found == {_MARK + n for n in NAMES}:
            rest = tuple(t for t in terms if not (t.op == "name" and t.name.startswith(_MARK)))
            ax.expr = Expr("union", (*rest, _register_paths(ax.pos)), type=REL, pos=ax.expr.pos)
            continue
        _refuse(sorted(found)[0], ax.expr, ax.pos)
    for f in list(model.flags):
        if set().union(*(marks(n) for n in f.expr.names())):
            model.flags.remove(f)
            model.flags_skipped.append(f.name)
    dropped = {name for name in binds if marks(name)}
    if dropped:
        for g in model.lets:
            g.bindings = [b for b in g.bindings if b.name not in dropped]
        model.lets[:] = [g for g in model.lets if g.bindings]


def _refuse(mark: str, e: Expr, pos) -> None:
    name = mark[len(_MARK):]
    raise UnsupportedError(
        f"herd's built-in '{name}' (register events: mmdsl's events are memory accesses) is supported only as "
        f"a term of `acyclic iico_data | iico_ctrl | rf-reg | ...` (with all three), where register paths are "
        f"mmdsl's data, addr and an atomic's rmw; here it is used otherwise", getattr(e, "pos", None) or pos)
