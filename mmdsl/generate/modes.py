"""diy7's generation modes (critical, sc, ppo, default): which edge may follow which, which cycles are kept.

Read from herdtools7 7.58's ``gen/alt.ml`` (``can_precede`` and the ``choice_*`` functions,
``last_check_call``) and ``gen/top_gen.ml``/``gen/cycle.ml`` (the tests it cannot build);
pinned against diy7 7.58's own output in tests/generate/test_diy_modes.py.
"""

from __future__ import annotations

from .edges import Edge

# diy7's -mode values done here (its thin, uni, free, transitive, total and mixedcheck are not)
MODES = ("critical", "sc", "ppo", "default")
# at most this many edges inside one thread (diy7's -ins 4: four accesses, three edges between them)
MAX_INTERNAL = 3

PoSafe = frozenset  # of (same_loc, src, dst): the single program-order edges listed as safe


def po_safe_of(safe: list[Edge]) -> PoSafe:
    """sc mode's ``po_safe``: the (location, direction, direction) of each safe plain po edge."""
    return frozenset((e.same_loc, e.src, e.dst) for e in safe if e.kind == "po")


def _internal_pair_sc(a: Edge, b: Edge, po_safe: PoSafe) -> bool:
    """diy7 7.58's ``choice_sc``: two internal edges follow each other only when their composition
    is a relaxed (not safe) program order, so a cycle of them is still a minimal violation."""
    def safe(same: bool, s: str, d: str) -> bool:
        return (same, s, d) in po_safe

    def rfi(e: Edge) -> bool:
        return e.kind == "rf" and not e.external

    if b.kind == "dep" and rfi(a) or a.kind == "dep" and rfi(b):
        return True
    if a.kind == "dep" and b.kind in ("co", "fr") and not b.external:
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
    """diy7 7.58's ``choice_default``: an internal communication next to a po at different
    locations or a dependency; a dependency next to a po, both at different locations;
    ``Rfi`` next to a same-location po; otherwise two internal edges never follow each other."""
    def int_com(e: Edge) -> bool:
        return e.is_com and not e.external

    def pod_or_dep(e: Edge) -> bool:
        return e.kind == "dep" or (e.kind == "po" and not e.same_loc)

    def rfi(e: Edge) -> bool:
        return e.kind == "rf" and not e.external

    def pos(e: Edge) -> bool:
        return e.kind == "po" and e.same_loc

    if int_com(a) and pod_or_dep(b) or pod_or_dep(a) and int_com(b):
        return True
    if a.kind == "dep" and not a.same_loc and b.kind == "po" and not b.same_loc:
        return True
    if a.kind == "po" and not a.same_loc and b.kind == "dep" and not b.same_loc:
        return True
    if rfi(a) and pos(b) or pos(a) and rfi(b):
        return True
    return a.external or b.external


def may_follow(mode: str, a: Edge, b: Edge, po_safe: PoSafe = frozenset()) -> bool:
    """May edge ``b`` come right after ``a`` in a cycle of diy mode ``mode``?

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
    if mode == "critical":
        # choice_critical: co;rf and fr;rf, otherwise an internal edge next to an external one
        if a.kind in ("co", "fr") and b.kind == "rf":
            return True
        return a.external != b.external
    if mode == "sc":
        return _internal_pair_sc(a, b, po_safe)
    if mode == "default":
        return _default_pair(a, b)
    raise ValueError(mode)


def keeps_cycle(mode: str, cycle) -> bool:
    """diy's last check: no thread has more than four accesses, and outside critical mode,
    at least two threads (two external edges) and the location changes twice at least."""
    externals = sum(e.external for e in cycle)
    changes = sum(not e.same_loc for e in cycle)
    if mode != "critical" and (externals < 2 or changes < 2):
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
