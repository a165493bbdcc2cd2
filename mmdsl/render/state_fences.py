"""Which out-of-order steps of an explored state graph a set of fence insertions removes.

A step of thread t performs instruction i while earlier operations j of t are still
pending (``out_of_order``). A fence of kind K inserted before instruction k of t sits
between j and i when j < k <= i (in a loop-free thread instructions are issued in
program order), and removes the step when K orders (class of j, class of i). The
pending instructions of every state are recovered from the graph alone: along any path
from the initial state, issuing a memory instruction adds it and performing it removes
it (the read half of a read-modify-write leaves its write half pending). A state's
pending list is part of the state, so every path must agree; a disagreement is an
internal error, never a silently wrong picture.
"""

from __future__ import annotations

from collections import deque

from ..core.errors import MmdslError, UnsupportedError
from ..core.events import EventShape
from ..core.program import Fence, Load, Program, Rmw, Store
from ..lang.ir import Model
from ..lang.table import compiled_fences
from .execution_view import Insertion


def removed_steps(graph, program: Program, model: Model, insertions: list[Insertion]) -> frozenset[int]:
    """Indices (into ``graph.edges``) of the out-of-order steps the insertions forbid."""
    if not insertions:
        return frozenset()
    if program.has_loops():
        raise UnsupportedError(f"{program.name}: drawing the steps fences remove needs a loop-free program "
                               "(in a loop, an instruction is issued more than once)")
    pending = _pending_per_state(graph, program)
    fences = compiled_fences(model)
    out = set()
    for index, e in enumerate(graph.edges):
        if not e.out_of_order or e.instr is None:
            continue
        i = e.instr
        earlier = [j for j in pending[e.src][e.thread] if j < i]
        later = _shape(program, e.thread, i)
        for tid, k, kind in insertions:
            if tid == e.thread and any(j < k <= i and fences.orders_pair(kind, _shape(program, tid, j), later)
                                       for j in earlier):
                out.add(index)
                break
    return frozenset(out)


def _shape(program: Program, tid: int, instr: int) -> EventShape:
    """The event class an instruction's (main) access has, for the fence declarations."""
    ins = program.threads[tid].instrs[instr]
    annots = frozenset(getattr(ins, "annots", ()))
    if isinstance(ins, Load):
        return EventShape("R", annots=annots)
    if isinstance(ins, Store):
        return EventShape("W", annots=annots)
    if isinstance(ins, Rmw):
        return EventShape("R", rmw=True, annots=annots)
    raise MmdslError(f"internal: step of {program.name} performs instruction {instr}, which is not an access")


def _pending_per_state(graph, program: Program) -> dict[int, tuple[frozenset, ...]]:
    """For every state, the instructions pending per thread (breadth first from the initial state)."""
    nthreads = len(program.threads)
    out_edges: dict[int, list] = {}
    for e in graph.edges:
        out_edges.setdefault(e.src, []).append(e)
    start = next(n.id for n in graph.nodes if n.initial)
    pending = {start: tuple(frozenset() for _ in range(nthreads))}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for e in out_edges.get(s, ()):
            nxt = _after(pending[s], e, program)
            seen = pending.get(e.dst)
            if seen is None:
                pending[e.dst] = nxt
                queue.append(e.dst)
            elif seen != nxt:
                raise MmdslError(f"internal: state {e.dst} of {program.name} is reached with two different "
                                 "pending lists (please report this)")
    return pending


def _after(before: tuple, e, program: Program) -> tuple:
    """The pending instructions after one step."""
    t = e.thread
    mine = set(before[t])
    ins = program.threads[t].instrs[e.instr] if e.instr is not None else None
    action = e.label.split(": ", 1)[1].split(" ", 1)[0] if ": " in e.label else ""
    if action == "issue":
        if isinstance(ins, (Load, Store, Rmw)):
            mine.add(e.instr)
    elif action == "perform":
        half_left = isinstance(ins, Rmw) and " R*" in f" {e.label.split(': perform ', 1)[1]}" \
            and "(no write)" not in e.label
        if not half_left:
            mine.discard(e.instr)
    elif not isinstance(ins, Fence):
        raise MmdslError(f"internal: unknown step '{e.label}' in the state graph of {program.name}")
    return tuple(frozenset(mine) if k == t else p for k, p in enumerate(before))
