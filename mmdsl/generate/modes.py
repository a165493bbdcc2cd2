"""diy7's generation modes (sc, ppo, default): which edge may follow which, and which cycles are kept.

Read from herdtools7's ``gen/alt.ml`` (``Filter.can_precede`` and the ``choice_*`` functions)
and its ``last_check_call``; critical mode is :func:`mmdsl.generate.cycles.follows`.
"""

from __future__ import annotations

from .edges import Edge

MODES = ("critical", "sc", "ppo", "default")
# diy7's -mode spellings that name these modes (thin, uni, free, transitive, total, mixedcheck are not here)
MODE_ALIASES = {m: m for m in MODES}
# at most this many edges inside one thread (diy7's -ins 4: four accesses, three edges between them)
MAX_INTERNAL = 3

PoSafe = frozenset  # of (same_loc, src, dst): the single program-order edges listed as safe


def po_safe_of(safe: list[Edge]) -> PoSafe:
    """sc mode's ``po_safe``: the (location, direction, direction) of each safe plain po edge."""
    return frozenset((e.same_loc, e.src, e.dst) for e in safe if e.kind == "po")


def _internal_pair_sc(a: Edge, b: Edge, po_safe: PoSafe) -> bool:
    """diy's ``choice_sc``: two internal edges follow each other only when their composition
    is a relaxed (not safe) program order, so a cycle of them is still a minimal violation."""
    def safe(same: bool, s: str, d: str) -> bool:
        return (same, s, d) in po_safe

    def is_rfi_or_poswr(e: Edge) -> bool:
        return (e.kind == "rf" and not e.external) or (e.kind == "po" and e.same_loc and e.src == "W" and e.dst == "R")

    if b.kind == "dep" and is_rfi_or_poswr(a) or a.kind == "dep" and is_rfi_or_poswr(b):
        return True
    if a.kind == "dep" and ((b.kind in ("co", "fr") and not b.external)
                            or (b.kind == "po" and b.same_loc and b.dst == "W")):
        return not safe(a.same_loc, a.src, b.dst)
    both_same = a.same_loc and b.same_loc
    if a.kind == "po" and b.kind == "dep":
        return not safe(a.same_loc, a.src, a.dst) and not safe(both_same, a.src, b.dst)
    if a.kind == "dep" and b.kind == "po":
        return not safe(b.same_loc, b.src, b.dst) and not safe(both_same, a.src, b.dst)
    if a.kind == "po" and b.kind == "po":
        return not safe(both_same, a.src, b.dst)
    if a.kind == "rf" and not a.external and b.kind == "po":
        return safe(b.same_loc, b.src, b.dst) and not safe(b.same_loc, a.src, b.dst)
    if a.kind == "po" and b.kind == "rf" and not b.external:
        return safe(a.same_loc, a.src, a.dst) and not safe(a.same_loc, a.src, b.dst)
    return a.external or b.external


def _default_pair(a: Edge, b: Edge) -> bool:
    """diy's ``choice_default``: an internal communication (or same-location po that acts as
    one) next to a po at different locations or a dependency; a dependency next to a po, both
    at different locations; ``Rfi``/``PosWR`` next to a same-location po."""
    def int_com(e: Edge) -> bool:  # Coi, Rfi, Fri and the po edges that stand for them
        if e.is_com:
            return not e.external
        return e.kind == "po" and e.same_loc and (e.src, e.dst) in (("W", "W"), ("W", "R"), ("R", "W"))

    def pod_or_dep(e: Edge) -> bool:
        return e.kind == "dep" or (e.kind == "po" and not e.same_loc)

    def rfi_like(e: Edge) -> bool:
        return (e.kind == "rf" and not e.external) or (e.kind == "po" and e.same_loc and e.src == "W" and e.dst == "R")

    if int_com(a) and pod_or_dep(b) or pod_or_dep(a) and int_com(b):
        return True
    if a.kind == "dep" and not a.same_loc and b.kind == "po" and not b.same_loc:
        return True
    if a.kind == "po" and not a.same_loc and b.kind == "dep" and not b.same_loc:
        return True
    if rfi_like(a) and b.kind == "po" and b.same_loc or a.kind == "po" and a.same_loc and rfi_like(b):
        return True
    return a.external or b.external


def may_follow(mode: str, a: Edge, b: Edge, po_safe: PoSafe = frozenset()) -> bool:
    """May edge ``b`` come right after ``a`` in a cycle of diy mode ``mode`` (not critical)?

    As diy's ``can_precede``: the directions meet; ``co;co``, ``fr;co`` and ``rf;fr`` only
    between an internal and an external edge; otherwise the mode's choice.
    """
    if a.dst != b.src:
        return False
    if (a.kind, b.kind) in (("co", "co"), ("fr", "co"), ("rf", "fr")):
        return a.external != b.external
    if mode == "ppo":
        # choice_free && the edge is not repeated && a control dependency to a read leaves the thread
        if a == b:
            return False
        return not (a.kind == "dep" and a.dep == "Ctrl" and a.dst == "R" and not b.external)
    if mode == "sc":
        return _internal_pair_sc(a, b, po_safe)
    if mode == "default":
        return _default_pair(a, b)
    raise ValueError(mode)


def keeps_cycle(mode: str, cycle) -> bool:
    """diy's last check in sc, ppo and default modes: at least two threads (two external
    edges), the location changes at least twice, and no thread has more than four accesses."""
    externals = sum(e.external for e in cycle)
    changes = sum(not e.same_loc for e in cycle)
    if externals < 2 or changes < 2:
        return False
    run = longest = 0
    for e in list(cycle) + list(cycle):  # read twice: a thread may wrap around the end
        run = 0 if e.external else run + 1
        longest = max(longest, run)
    return longest <= MAX_INTERNAL


def _events(cycle) -> tuple[list[int], list[int]]:
    """Each event's location segment and value, as diy's test builder gives them: event ``i``
    is the source of edge ``i``; a location per stretch between ``d`` edges; along it the
    writes take 1, 2, ... and a read the value of the last write before it (0: the initial)."""
    n = len(cycle)
    start = next(i for i in range(n) if not cycle[i - 1].same_loc)
    seg, value = [0] * n, [0] * n
    s, current = 0, 0
    for j in range(n):
        i = (start + j) % n
        if j and not cycle[i - 1].same_loc:
            s, current = s + 1, 0
        if cycle[i].src == "W":
            current += 1
        seg[i], value[i] = s, current
    return seg, value


def buildable(mode: str, cycle) -> bool:
    """Would diy's test builder (default ``-obs avoid``) write this cycle's test?

    No location may have more than two writes (their coherence order would need an
    observer thread); outside ppo mode, no thread may end with an access to the location
    it starts with at an earlier point of that location's coherence ("po vs. com").
    """
    if all(e.same_loc for e in cycle):
        return True  # coherence shapes (-oneloc): one location, judged by the caller
    seg, value = _events(cycle)
    writes: dict[int, int] = {}
    for i, e in enumerate(cycle):
        if e.src == "W":
            writes[seg[i]] = writes.get(seg[i], 0) + 1
    if any(c > 2 for c in writes.values()):
        return False
    if mode == "ppo":
        return True
    n = len(cycle)
    for i in range(n):  # each thread starts after an external edge
        if not cycle[i - 1].external:
            continue
        j = i
        while not cycle[j].external:
            j = (j + 1) % n
        if j != i and seg[i] == seg[j] and value[j] < value[i]:
            return False
    return True
