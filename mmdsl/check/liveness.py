"""Executions that never end: states of a C program's explored graph from which no final state
(nor any dead state) can be reached -- every thread left spins forever (GenMC's liveness violation)."""

from __future__ import annotations

from collections import deque


def spinning_forever(found) -> set[int]:
    """The states of ``found`` (explored with its edges) from which no final or dead state can be
    reached but an endless walk can: every execution through them spins forever.

    A state that can neither end nor go on forever only leads to dead ends that are no
    executions at all: paths a thread's guess (a branch or a value taken speculatively) proved
    wrong, which the search drops. Those are not livelocks, so they are pruned (backwards from
    the dead ends) before a stuck state is named."""
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
    stuck = set(range(len(found.parents))) - seen
    if not stuck:
        return stuck
    out_degree = dict.fromkeys(stuck, 0)
    for src, dst, _tr in found.edges:
        if src in stuck and dst in stuck:
            out_degree[src] += 1
    todo = deque(s for s, d in out_degree.items() if d == 0)
    while todo:
        s = todo.popleft()
        stuck.discard(s)
        for p in back.get(s, ()):
            if p in stuck:
                out_degree[p] -= 1
                if out_degree[p] == 0:
                    todo.append(p)
    return stuck


def stuck_state(found) -> int | None:
    """The first state in search order (a nearest one, breadth-first) from which no final or dead
    state is reachable in the explored graph ``found`` but an endless walk is, or None."""
    stuck = spinning_forever(found)
    return min(stuck) if stuck else None


def into_cycle(found, stuck: int) -> list[tuple[int, object]]:
    """From ``stuck``, the (state id, transition) steps of a walk that stays among states from which
    nothing ends and stops when it comes back to a state: the cycle the threads spin in."""
    forever = spinning_forever(found)
    out: dict[int, list] = {}
    for src, dst, tr in found.edges:
        if dst in forever:
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
