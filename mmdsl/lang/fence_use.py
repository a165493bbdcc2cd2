"""Fences of a test that its model does not declare: herd's tag sets, which then order nothing.

In herd a fence instruction is an event of set ``F`` and of one set per tag
(``f[lw]`` is in ``lw``; ``f[dmb,all,sy]`` in ``dmb``, ``all`` and ``sy``). A model
that declares none of the tags as a fence (``fence NAME aka A, B``) and names none of
them as a set in its rules gives such a fence nothing to order: the checker, the
explorer, fence selection and the diagrams all treat it as a fence that orders no pair.
That is herd's behaviour, not an error, but it may hide a misspelt fence, so every
engine's result carries one warning per such kind (``TestResult.warnings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import SourcePos
from ..core.program import Fence, Program
from .ir import REL, Model, fence_tags

ALL_FENCES = "F"


@dataclass(frozen=True)
class UndeclaredFence:
    """A fence kind of the test the model neither declares nor names, and where it is first used."""

    kind: str
    text: str  # the instruction as written (``f[lw]``, ``smp_rmb()``)
    pos: SourcePos | None
    uses: int

    def message(self, model: Model, through_f: bool) -> str:
        where = f"{self.pos}: " if self.pos else ""
        uses = f", {self.uses} uses" if self.uses > 1 else ""
        effect = ("only the model's rules on every fence (set F) apply to it" if through_f
                  else "it orders nothing under this model")
        return (f"{where}warning: model '{model.name}' has no fence '{self.kind}' "
                f"(used by '{self.text}'{uses}); {effect}")


def model_names(model: Model) -> set[str]:
    """Every name the model's classes, lets, axioms and fence declarations refer to.

    Walked with an explicit stack: a long valid expression must not exhaust Python's.
    """
    todo = [*model.classes.values(), *(b.expr for g in model.lets for b in g.bindings),
            *(ax.expr for ax in model.axioms), *(e for f in model.fences.values() for pair in f.orders for e in pair)]
    names: set[str] = set()
    while todo:
        e = todo.pop()
        if e.op == "name":
            if e.type != REL:  # a relation (dep, rfi, ...) is not a fence tag of the same name
                names.add(e.name)
        else:
            todo.extend(e.args)
    return names


def _names(model: Model) -> set[str]:
    return model.compiled("names-used", model_names)


def undeclared_fences(program: Program, model: Model) -> list[UndeclaredFence]:
    """The fence kinds of ``program`` that ``model`` neither declares nor names, in order of first use."""
    names = model.compiled("names-used-lower", lambda m: {n.lower() for n in _names(m)})
    found: dict[str, UndeclaredFence] = {}
    # (fence kind, annotations) -> does the model name or declare the kind, or name one of the
    # annotations (a C fence's memory order: rc11.cat's SC): decided once per fence and model
    orders: dict[tuple, bool] = model.compiled("fence-kinds-known", lambda m: {})
    for thread in program.threads:
        for ins in thread.instrs:
            if not isinstance(ins, Fence):
                continue
            known = orders.get((ins.kind, ins.annots))
            if known is None:
                known = orders[(ins.kind, ins.annots)] = bool(model.fences_for(ins.kind)) or any(
                    t in names for t in fence_tags(ins.kind)) or any(a.lower() in names for a in ins.annots)
            if known:
                continue
            seen = found.get(ins.kind)
            if seen is None:
                found[ins.kind] = UndeclaredFence(ins.kind, ins.text or ins.kind, ins.pos, 1)
            else:
                found[ins.kind] = UndeclaredFence(seen.kind, seen.text, seen.pos, seen.uses + 1)
    return list(found.values())


def fence_warnings(program: Program, model: Model) -> list[str]:
    """One warning per fence kind of ``program`` that orders nothing under ``model``."""
    through_f = ALL_FENCES in _names(model)
    return [u.message(model, through_f) for u in undeclared_fences(program, model)]


def ignored_constructs(program: Program, model: Model) -> tuple[str, ...]:
    """What of ``program`` gives ``model`` nothing to say: ``fence lwsync`` for each fence kind
    it neither declares nor names, ``annotation rel`` for each access annotation it neither
    declares nor names. Two models that ignore different things of a test do not judge the
    same program (`mmdsl diff-models` leaves such a test out)."""
    names = model.compiled("names-used-lower", lambda m: {n.lower() for n in _names(m)})
    declared = {a.lower() for a in model.annotations}
    found = [f"fence {u.kind}" for u in undeclared_fences(program, model)]
    seen: set[str] = set()
    for thread in program.threads:
        for ins in thread.instrs:
            if isinstance(ins, Fence):
                continue
            for a in sorted(getattr(ins, "annots", ()) or ()):
                if a not in seen and a.lower() not in names and a.lower() not in declared:
                    seen.add(a)
                    found.append(f"annotation {a}")
    return tuple(found)
