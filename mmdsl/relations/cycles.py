"""Acyclicity tests, shortest cycles and topological orders of bitset relations."""

from __future__ import annotations

from .algebra import Rel


def is_acyclic(rel: Rel) -> bool:
    """True when ``rel`` has no cycle (Kahn's algorithm on bitset rows)."""
    rows = rel.rows
    alive = 0
    for i, row in enumerate(rows):
        if row:
            alive |= 1 << i  # a point with no successor at all is on no cycle
    # repeatedly remove points with no successor among the alive points, highest first:
    # events are numbered in program order, so a pass removes a whole po-ordered chain
    changed = True
    while alive and changed:
        changed = False
        m = alive
        while m:
            i = m.bit_length() - 1
            bit = 1 << i
            m ^= bit
            if not (rows[i] & alive):
                alive ^= bit
                changed = True
    return alive == 0


def topological_order(rel: Rel) -> list[int] | None:
    """A linear order of all points compatible with ``rel``, or None if cyclic."""
    rows = rel.rows
    n = rel.n
    preds = [0] * n
    for i, row in enumerate(rows):
        m = row
        while m:
            low = m & -m
            preds[low.bit_length() - 1] |= 1 << i
            m ^= low
    order: list[int] = []
    placed = 0
    remaining = (1 << n) - 1
    while remaining:
        progress = False
        m = remaining
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if not (preds[i] & ~placed):
                order.append(i)
                placed |= low
                remaining ^= low
                progress = True
        if not progress:
            return None
    return order


def find_cycle(rel: Rel) -> list[int] | None:
    """A shortest cycle of ``rel`` as a list of points ``[a, b, ..., z]`` (z -> a closes it).

    Returns None when ``rel`` is acyclic. Breadth-first search from every point, so the
    cycle returned is one of minimal length, and ties go to the lowest starting point
    (deterministic output for diagrams and reports).
    """
    rows = rel.rows
    best: list[int] | None = None
    for start in range(rel.n):
        if (rows[start] >> start) & 1:
            return [start]
        parent = {start: -1}
        frontier = [start]
        depth = 1
        found = None
        while frontier and found is None and (best is None or depth < len(best)):
            nxt = []
            for u in frontier:
                m = rows[u]
                if (m >> start) & 1:
                    found = u
                    break
                while m:
                    low = m & -m
                    v = low.bit_length() - 1
                    m ^= low
                    if v not in parent:
                        parent[v] = u
                        nxt.append(v)
            frontier = nxt
            depth += 1
        if found is not None:
            path = []
            u = found
            while u != -1:
                path.append(u)
                u = parent[u]
            path.reverse()
            if best is None or len(path) < len(best):
                best = path
    return best


def reflexive_points(rel: Rel) -> int:
    """The set of points related to themselves."""
    m = 0
    for i, row in enumerate(rel.rows):
        if (row >> i) & 1:
            m |= 1 << i
    return m
