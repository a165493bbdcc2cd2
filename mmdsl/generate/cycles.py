"""diy cycles: which sequences of edges make a cycle in each diy7 mode, and their enumeration in diy's order."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..core.errors import MmdslError
from ..core.limits import TimeLimitError, seconds_text
from .edges import Edge, cycle_text, diy_sorted
from .modes import MAX_INTERNAL, buildable, keeps_cycle, may_follow, po_safe_of


@dataclass(frozen=True)
class Bounds:
    """How far to search: edges per cycle, threads (at least two), tests at most, seconds."""

    size: int = 6
    threads: int = 4
    max_count: int = 1000
    timeout: float | None = None
    exact_threads: bool = False  # diy's -eprocs: exactly ``threads`` threads
    one_location: bool = False  # diy's -oneloc: also cycles on a single location (coherence shapes)
    mode: str = "default"  # diy's -mode: default, critical, sc or ppo (see modes.py)
    mix: bool = False  # a cycle may use several relax edges (diy's -mix true)

    def check(self) -> None:
        if not 2 <= self.size <= 16:
            raise MmdslError(f"--size {self.size}: a cycle has between 2 and 16 edges")
        if not 2 <= self.threads <= 8:
            raise MmdslError(f"--threads {self.threads}: between 2 and 8 threads")
        if self.max_count < 1:
            raise MmdslError(f"--max {self.max_count}: at least one test")
        from .modes import MODES

        if self.mode not in MODES:
            raise MmdslError(f"unknown mode '{self.mode}'", expected=", ".join(MODES))


def follows(a: Edge, b: Edge) -> bool:
    """May edge ``b`` come right after ``a`` in a critical cycle (diy7's ``-mode critical``)?

    The directions must meet; two internal edges never follow each other (one would do: the
    cycle would not be critical), nor two external ones, except ``fr;rf`` and ``co;rf``; and
    ``co;co``, ``fr;co``, ``rf;fr`` only between an internal and an external edge (``Rfi Fre``:
    a read of an own write that another thread then overwrites).
    """
    return may_follow("critical", a, b)


def location_changes(cycle) -> int:
    return sum(not e.same_loc for e in cycle)


def thread_count(cycle) -> int:
    return sum(e.external for e in cycle)


def encodable_cut(cycle) -> int | None:
    """For a cycle on one location: the index of an edge into a write that is not a
    coherence edge (the tests's coherence order starts after it), or None."""
    for i, e in enumerate(cycle):
        if e.dst == "W" and e.kind != "co":
            return i
    return None


def is_valid(cycle, bounds: Bounds | None = None) -> bool:
    """Is ``cycle`` (a list of edges, read cyclically) a critical cycle diy would generate?

    With ``bounds``, also: within its thread count, and on two locations at least unless
    ``bounds.one_location``; without, a cycle on one location is valid (a coherence shape).
    """
    n = len(cycle)
    if n < 2:
        return False
    if any(not follows(cycle[i], cycle[(i + 1) % n]) for i in range(n)):
        return False
    threads = thread_count(cycle)
    if threads < 2:
        return False
    if bounds is not None and (threads > bounds.threads or (bounds.exact_threads and threads != bounds.threads)):
        return False
    changes = location_changes(cycle)
    if changes == 1:
        return False  # the location changes once and never comes back
    if changes == 0:
        if bounds is not None and not bounds.one_location:
            return False  # diy refuses a test on one location without -oneloc
        if encodable_cut(cycle) is None:
            return False
    return True


def well_formed(cycle) -> bool:
    """Can ``cycle`` be made a test at all, whatever the mode: the directions of consecutive
    edges meet, ``co;co``, ``fr;co`` and ``rf;fr`` only between an internal and an external
    edge (diy's rule for every mode), two threads at least, and the location changes never or
    twice at least (on one location, some edge into a write is not a coherence edge)."""
    n = len(cycle)
    if n < 2:
        return False
    for i in range(n):
        a, b = cycle[i], cycle[(i + 1) % n]
        if a.dst != b.src:
            return False
        if (a.kind, b.kind) in (("co", "co"), ("fr", "co"), ("rf", "fr")) and a.external == b.external:
            return False
    changes = location_changes(cycle)
    if thread_count(cycle) < 2 or changes == 1:
        return False
    return changes > 0 or encodable_cut(cycle) is not None


def canonical(cycle) -> tuple:
    """The rotation of ``cycle`` that sorts first (how two rotations are told to be one cycle)."""
    n = len(cycle)
    rotations = [tuple(cycle[i:] + cycle[:i]) for i in range(n)]
    return min(rotations, key=lambda r: [e.name for e in r])


def enumerate_cycles(relax: list[Edge], safe: list[Edge], bounds: Bounds) -> list[tuple]:
    """Every cycle of diy7's mode ``bounds.mode`` of at most ``bounds.size`` edges
    drawn from ``relax`` and ``safe``, each once (its canonical rotation), in the order diy7
    meets them (which numbers its tests), at most ``bounds.max_count``, the smallest (sizes
    are searched in turn, and the search stops after the first size that reaches the count).

    With ``relax`` edges, each cycle uses one at least: with ``bounds.mix`` any of them,
    without (diy7's default) one relax edge, maybe several times, and safe edges only.

    Raises TimeLimitError past ``bounds.timeout`` seconds.
    """
    bounds.check()
    pool = list(dict.fromkeys(list(relax) + list(safe)))
    if not pool:
        raise MmdslError("no edges to build cycles from", hint="give --relax and/or --safe")
    if not any(e.external for e in pool):
        raise MmdslError("no external communication edge (Rfe, Fre, Coe) among the edges: "
                         "a cycle needs one between each two threads")
    deadline = time.monotonic() + bounds.timeout if bounds.timeout else None
    seen: set[tuple] = set()
    found: list[tuple] = []
    mode = bounds.mode
    po_safe = po_safe_of([e for e in safe if e not in relax])

    def fits(a: Edge, b: Edge) -> bool:
        return may_follow(mode, a, b, po_safe)

    def closes(path: list[Edge]) -> bool:
        t = thread_count(path)
        if t > bounds.threads or (bounds.exact_threads and t != bounds.threads) or t < 2:
            return False
        changes = location_changes(path)
        if changes == 1:  # diy: "cannot get changing loc"
            return False
        if changes == 0:  # coherence shapes: mmdsl's --one-location (diy7 writes none)
            return bounds.one_location and encodable_cut(path) is not None and keeps_cycle("critical", path)
        return keeps_cycle(mode, path) and buildable(mode, path)

    steps = 0
    order: dict[tuple, tuple] = {}  # cycle -> its place in diy's depth-first search

    def search(roots: list[Edge], children: list[Edge], length: int, group: int) -> None:
        """diy's search (alt.ml's ``zyva``): from each root, edges are put in front of the
        path, children in list order; a path closing into a cycle is one test. Only cycles
        of ``length`` edges are kept; the index path orders them as diy meets them. A cycle
        with an earlier root is met first from that root, so later roots skip it."""
        n = len(children)
        index = {e: k for k, e in enumerate(children)}
        external = [e.external for e in children]
        follow = [[fits(children[a], children[b]) for b in range(n)] for a in range(n)]

        def grow(path: list[int], key: tuple, threads: int, run: int, before: list[list[int]]) -> None:
            nonlocal steps
            steps += 1
            if deadline is not None and steps % 2048 == 0 and time.monotonic() > deadline:
                raise TimeLimitError(f"cycle enumeration ran past {seconds_text(bounds.timeout)} s")
            if len(path) == length:
                if follow[path[-1]][path[0]]:
                    cycle = [children[k] for k in path]
                    if closes(cycle):
                        canon = canonical(cycle)
                        if canon not in seen:
                            seen.add(canon)
                            found.append(canon)
                            order[canon] = key
                return
            for b in before[path[0]]:
                t = threads + external[b]
                r = 0 if external[b] else run + 1
                if t > bounds.threads or r > MAX_INTERNAL:
                    continue
                path.insert(0, b)
                grow(path, key + (b,), t, r, before)
                path.pop(0)

        for i, root in enumerate(roots):
            earlier = {index[e] for e in roots[:i]}
            before = [[b for b in range(n) if b not in earlier and follow[b][a]] for a in range(n)]
            k = index[root]
            grow([k], (group, i), external[k], 0 if external[k] else 1, before)

    relax_sorted, plain = diy_sorted(relax), diy_sorted(e for e in safe if e not in relax)
    if not relax:
        groups = [(plain, plain)]
    elif bounds.mix:
        groups = [(relax_sorted, relax_sorted + plain)]
    else:  # one relax edge at a time, diy's default
        groups = [([r], [r] + plain) for r in relax_sorted]
    # size by size, so that the search stops once a size has given max_count cycles
    for length in range(2, bounds.size + 1):
        for g, (roots, children) in enumerate(groups):
            search(roots, children, length, g)
        if len(found) >= bounds.max_count:
            break
    found.sort(key=lambda c: (len(c), thread_count(c), cycle_text(c)))
    return sorted(found[: bounds.max_count], key=order.__getitem__)
