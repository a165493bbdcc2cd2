"""Dependencies as ordering devices: the model's priced dependency lines, where each can go, how it is written.

A line of a model's ``dependencies`` block with ``cost N`` (``addr : R * M cost 1``) is a
device fence selection may insert instead of a fence: a dependency from a load to a later
access of its thread, written in diy's idioms by the test's dialect
(``litmus/asm_dependencies.py``). Only ``addr``, ``data``, ``ctrl`` and ``ctrl+FENCE`` can be
inserted (``addr;po`` is what an ``addr`` gives, not a thing of its own).
"""

from __future__ import annotations

from ..core.errors import MmdslError, UnsupportedError
from ..core.events import Execution
from ..core.program import Program
from ..lang.ir import Model
from ..lang.table import compiled_dependencies
from .places import MAX_COST, FenceKind, Place, _text, fence_kinds

INSERTABLE = ("addr", "data", "ctrl")


def insertable(name: str) -> bool:
    return name in INSERTABLE or (name.startswith("ctrl+") and len(name) > 5)


def acts_as_device(model: Model) -> bool:
    """Whether the cycle encoding (``cycles.py``) cannot express what selection may insert under ``model``.

    That encoding is exact when every device orders a fixed set of pairs, its fence's
    ``orders``. A priced dependency does not: an ``addr`` also orders its load before every
    later write (``addr;po``) and a read that takes the written value (``(dep | rmw) ;
    rfi``); nor does a fence that completes a ``ctrl+FENCE`` line (an ``isb`` after a
    branch the test has orders pairs its ``orders`` never names). Such models go to the
    grow-and-cut loop of ``propagation.py``, which asks the checker instead.
    """
    return any((r.cost is not None and insertable(r.name)) or "ctrl+" in r.name for r in model.dependencies)


def dependency_kinds(model: Model, kinds: list[str] | None = None,
                     costs: dict[str, int] | None = None) -> list[FenceKind]:
    """The model's priced, insertable dependencies, restricted by ``kinds`` (when it names any), costs overridden."""
    out = []
    named = {k.strip() for k in kinds or ()}
    for rule in model.dependencies:
        if rule.cost is None or not insertable(rule.name) or any(k.name == rule.name for k in out):
            continue
        if kinds is not None and rule.name not in named:
            continue
        cost = (costs or {}).get(rule.name, rule.cost)
        if not 1 <= cost <= MAX_COST:
            raise UnsupportedError(f"--cost {rule.name}={cost}: costs are positive integers up to {MAX_COST}")
        out.append(FenceKind(rule.name, cost, (rule.name,), rule.doc, dependency=True))
    return out


def dependency_names(model: Model) -> set[str]:
    """The names of the model's priced, insertable dependencies (``--kinds``, ``--cost`` may name them)."""
    return {r.name for r in model.dependencies if r.cost is not None and insertable(r.name)}


def split_kinds(model: Model, kinds: list[str] | None, costs: dict[str, int]) -> tuple[list[FenceKind],
                                                                                        list[FenceKind]]:
    """``--kinds`` and ``--cost`` over fences and priced dependencies: (fence kinds, dependency kinds)."""
    deps = dependency_names(model)
    fence_names = [k for k in kinds or () if k.strip() not in deps]
    fence_costs = {k: n for k, n in costs.items() if k not in deps}
    dep_costs = {k: n for k, n in costs.items() if k in deps}
    if kinds is not None and not fence_names:
        if not kinds:
            raise UnsupportedError("--kinds names nothing")
        return [], dependency_kinds(model, kinds, dep_costs)
    return fence_kinds(model, fence_names or None, fence_costs), dependency_kinds(model, kinds, dep_costs)


def dependency_slots(program: Program, model: Model, executions: list[Execution],
                     kinds: list[FenceKind]) -> list[tuple[int, int, int, int]]:
    """Every (thread, load index, access index, kind index) a dependency of that kind could join.

    The pairs come from the executions' events (load then later access of one thread, the
    model's classes for the line), kept where the test's dialect can write the dependency.
    """
    from ..litmus import dialect_for
    from ..litmus.asm_dependencies import DependencyInsertion

    try:
        dialect = dialect_for(program.arch)
    except MmdslError:
        return []
    can = getattr(dialect, "can_write_dependency", None)
    if can is None or not kinds:
        return []
    deps = compiled_dependencies(model)
    seen: set[tuple[int, int, int, int]] = set()
    for x in executions:
        by_thread: dict[int, list] = {}
        for e in x.events:
            if e.tid >= 0 and e.kind != "F":
                by_thread.setdefault(e.tid, []).append(e)
        for tid, evs in by_thread.items():
            for i, a in enumerate(evs):
                if a.kind != "R" or a.rmw:
                    continue
                for b in evs[i + 1:]:
                    if b.instr <= a.instr or b.rmw:
                        continue
                    for k, kind in enumerate(kinds):
                        if deps.keeps(kind.name, a.shape, b.shape):
                            seen.add((tid, a.instr, b.instr, k))
    out = []
    for tid, src, tgt, k in sorted(seen):
        if can(program, DependencyInsertion(tid, src, tgt, kinds[k].name)):
            out.append((tid, src, tgt, k))
    return out


def target_place(program: Program, tid: int, source: int, target: int) -> Place:
    """The place a dependency is shown at: before its access, ``before`` naming the load it starts from."""
    t = program.threads[tid]
    ins = t.instrs[target]
    return Place(tid, target, t.name, ins.pos.line if ins.pos else None, _text(t.instrs[source]), _text(ins))
