"""Executions that never end: states of a C program's explored graph from which no final state
(nor any dead state) can be reached -- every thread left spins forever (GenMC's liveness violation)."""

from __future__ import annotations

from collections import deque


def stuck_state(found) -> int | None:
    """The first state in search order (a nearest one, breadth-first) from which no final or dead
    state is reachable in the explored graph ``found`` (kept with its edges), or None."""
    back: dict[int, list[int]] = {}
    for src, dst, _tr in found.edges:
        back.setdefault(dst, []).append(src)
    ends = set(found.final_ids) | set(found.deadlock_ids)
    seen = set(ends)
    todo = deque(ends)
    while todo:
        s = todo.popleft()
        for p in back.get(s, ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    n = len(found.parents)
    return next((s for s in range(n) if s not in seen), None)


def into_cycle(found, stuck: int) -> list[tuple[int, object]]:
    """From ``stuck``, the (state id, transition) steps of a walk that stays among states from which
    nothing ends and stops when it comes back to a state: the cycle the threads spin in."""
    out: dict[int, list] = {}
    for src, dst, tr in found.edges:
        out.setdefault(src, []).append((dst, tr))
    walk, seen, s = [], {stuck}, stuck
    while True:
        nxt = out.get(s)
        if not nxt:
            return walk
        dst, tr = nxt[0]
        walk.append((s, tr))
        if dst in seen:
            return walk
        seen.add(dst)
        s = dst


def spinning(machine, state) -> list[tuple[str, str, str]]:
    """Each thread not finished in ``state``: (thread, where its pc is, the source text there)."""
    out = []
    for t, (pc, _regs, pending) in zip(machine.threads, state[1]):
        pc = t.skip_nops(pc)
        if pc >= t.length and not pending:
            continue
        ins = t.thread.instrs[min(pc, t.length - 1)]
        out.append((t.thread.name, str(ins.pos), ins.text))
    return out
