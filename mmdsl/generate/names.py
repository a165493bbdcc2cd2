"""Test names as diy gives them: the shape's family (SB, MP, IRIW, ...) and what each thread has."""

from __future__ import annotations

from .edges import Edge, diy_key
from .shape import Shape

# Families by thread pattern, in diy's thread order: per thread the directions of its
# accesses and the external edge that leaves it (from herd's classic shapes; see
# tests/reference/classic/NOTE.md and the x86 corpus's test names).
FAMILIES: dict[tuple, str] = {
    (("WR", "fr"), ("WR", "fr")): "SB",
    (("WW", "rf"), ("RR", "fr")): "MP",
    (("RW", "rf"), ("RW", "rf")): "LB",
    (("WW", "co"), ("WW", "co")): "2+2W",
    (("WW", "co"), ("WR", "fr")): "R",
    (("WW", "rf"), ("RW", "co")): "S",
    (("W", "rf"), ("RR", "fr"), ("W", "rf"), ("RR", "fr")): "IRIW",
    (("W", "rf"), ("RW", "rf"), ("RR", "fr")): "WRC",
    (("WW", "rf"), ("RW", "rf"), ("RR", "fr")): "ISA2",
    (("W", "rf"), ("RR", "fr"), ("WR", "fr")): "RWC",
    (("WW", "rf"), ("RR", "fr"), ("WR", "fr")): "W+RWC",
    (("W", "rf"), ("RW", "rf"), ("RW", "co")): "WWC",
    (("WR", "fr"), ("WR", "fr"), ("WR", "fr")): "3.SB",
    (("RW", "rf"), ("RW", "rf"), ("RW", "rf")): "3.LB",
    (("WW", "co"), ("WW", "co"), ("WW", "co")): "3.2W",
    (("W", "rf"), ("RR", "fr")): "W+RR",
    (("W", "rf"), ("RW", "co")): "W+RW",
    # read off the names diy7 gave the BASIC_* tests of the x86 corpus (litmus/x86, BSD licence)
    (('WW', 'co'), ('WW', 'co'), ('WW', 'co'), ('WW', 'co')): '4.2W',
    (('RW', 'rf'), ('RW', 'rf'), ('RW', 'rf'), ('RW', 'rf')): '4.LB',
    (('WR', 'fr'), ('WR', 'fr'), ('WR', 'fr'), ('WR', 'fr')): '4.SB',
    (('W', 'rf'), ('RR', 'fr'), ('W', 'rf'), ('RW', 'co')): 'IRRWIW',
    (('W', 'rf'), ('RW', 'co'), ('W', 'rf'), ('RW', 'co')): 'IRWIW',
    (('W', 'rf'), ('RR', 'fr'), ('WR', 'fr'), ('WR', 'fr')): 'W+RR+WR+WR',
    (('W', 'rf'), ('RR', 'fr'), ('WR', 'fr'), ('WW', 'co')): 'W+RR+WR+WW',
    (('W', 'rf'), ('RR', 'fr'), ('WW', 'rf'), ('RR', 'fr')): 'W+RR+WW+RR',
    (('W', 'rf'), ('RR', 'fr'), ('WW', 'rf'), ('RW', 'co')): 'W+RR+WW+RW',
    (('W', 'rf'), ('RR', 'fr'), ('WW', 'co'), ('WR', 'fr')): 'W+RR+WW+WR',
    (('W', 'rf'), ('RR', 'fr'), ('WW', 'co'), ('WW', 'co')): 'W+RR+WW+WW',
    (('W', 'rf'), ('RW', 'rf'), ('RR', 'fr'), ('WR', 'fr')): 'W+RW+RR+WR',
    (('W', 'rf'), ('RW', 'rf'), ('RR', 'fr'), ('WW', 'co')): 'W+RW+RR+WW',
    (('W', 'rf'), ('RW', 'rf'), ('RW', 'rf'), ('RR', 'fr')): 'W+RW+RW+RR',
    (('W', 'rf'), ('RW', 'rf'), ('RW', 'rf'), ('RW', 'co')): 'W+RW+RW+RW',
    (('W', 'rf'), ('RW', 'rf'), ('RW', 'co'), ('WR', 'fr')): 'W+RW+RW+WR',
    (('W', 'rf'), ('RW', 'rf'), ('RW', 'co'), ('WW', 'co')): 'W+RW+RW+WW',
    (('W', 'rf'), ('RW', 'co'), ('WR', 'fr'), ('WR', 'fr')): 'W+RW+WR+WR',
    (('W', 'rf'), ('RW', 'co'), ('WR', 'fr'), ('WW', 'co')): 'W+RW+WR+WW',
    (('W', 'rf'), ('RW', 'co'), ('WW', 'rf'), ('RR', 'fr')): 'W+RW+WW+RR',
    (('W', 'rf'), ('RW', 'co'), ('WW', 'rf'), ('RW', 'co')): 'W+RW+WW+RW',
    (('W', 'rf'), ('RW', 'co'), ('WW', 'co'), ('WR', 'fr')): 'W+RW+WW+WR',
    (('W', 'rf'), ('RW', 'co'), ('WW', 'co'), ('WW', 'co')): 'W+RW+WW+WW',
    (('W', 'rf'), ('RR', 'fr'), ('WW', 'co')): 'WRR+2W',
    (('W', 'rf'), ('RW', 'co'), ('WW', 'co')): 'WRW+2W',
    (('W', 'rf'), ('RW', 'co'), ('WR', 'fr')): 'WRW+WR',
    (('WW', 'rf'), ('RR', 'fr'), ('WR', 'fr'), ('WR', 'fr')): 'WW+RR+WR+WR',
    (('WW', 'rf'), ('RR', 'fr'), ('WW', 'rf'), ('RR', 'fr')): 'WW+RR+WW+RR',
    (('WW', 'rf'), ('RR', 'fr'), ('WW', 'rf'), ('RW', 'co')): 'WW+RR+WW+RW',
    (('WW', 'rf'), ('RR', 'fr'), ('WW', 'co'), ('WR', 'fr')): 'WW+RR+WW+WR',
    (('WW', 'rf'), ('RW', 'rf'), ('RR', 'fr'), ('WR', 'fr')): 'WW+RW+RR+WR',
    (('WW', 'rf'), ('RW', 'rf'), ('RW', 'rf'), ('RR', 'fr')): 'WW+RW+RW+RR',
    (('WW', 'rf'), ('RW', 'rf'), ('RW', 'rf'), ('RW', 'co')): 'WW+RW+RW+RW',
    (('WW', 'rf'), ('RW', 'rf'), ('RW', 'co'), ('WR', 'fr')): 'WW+RW+RW+WR',
    (('WW', 'rf'), ('RW', 'co'), ('WR', 'fr'), ('WR', 'fr')): 'WW+RW+WR+WR',
    (('WW', 'rf'), ('RW', 'co'), ('WW', 'rf'), ('RW', 'co')): 'WW+RW+WW+RW',
    (('WW', 'rf'), ('RW', 'co'), ('WW', 'co'), ('WR', 'fr')): 'WW+RW+WW+WR',
    (('WW', 'co'), ('WR', 'fr'), ('WR', 'fr'), ('WR', 'fr')): 'WW+WR+WR+WR',
    (('WW', 'co'), ('WR', 'fr'), ('WW', 'co'), ('WR', 'fr')): 'WW+WR+WW+WR',
    (('WW', 'co'), ('WW', 'rf'), ('RR', 'fr'), ('WR', 'fr')): 'WW+WW+RR+WR',
    (('WW', 'co'), ('WW', 'rf'), ('RW', 'rf'), ('RR', 'fr')): 'WW+WW+RW+RR',
    (('WW', 'co'), ('WW', 'rf'), ('RW', 'rf'), ('RW', 'co')): 'WW+WW+RW+RW',
    (('WW', 'co'), ('WW', 'rf'), ('RW', 'co'), ('WR', 'fr')): 'WW+WW+RW+WR',
    (('WW', 'co'), ('WW', 'co'), ('WR', 'fr'), ('WR', 'fr')): 'WW+WW+WR+WR',
    (('WW', 'co'), ('WW', 'co'), ('WW', 'rf'), ('RR', 'fr')): 'WW+WW+WW+RR',
    (('WW', 'co'), ('WW', 'co'), ('WW', 'rf'), ('RW', 'co')): 'WW+WW+WW+RW',
    (('WW', 'co'), ('WW', 'co'), ('WW', 'co'), ('WR', 'fr')): 'WW+WW+WW+WR',
    (('WW', 'rf'), ('RW', 'co'), ('WR', 'fr')): 'Z6.0',
    (('WW', 'co'), ('WW', 'rf'), ('RW', 'co')): 'Z6.1',
    (('WW', 'rf'), ('RW', 'rf'), ('RW', 'co')): 'Z6.2',
    (('WW', 'co'), ('WW', 'rf'), ('RR', 'fr')): 'Z6.3',
    (('WW', 'co'), ('WR', 'fr'), ('WR', 'fr')): 'Z6.4',
    (('WW', 'co'), ('WW', 'co'), ('WR', 'fr')): 'Z6.5',
}


def _threads(cycle: list[Edge]) -> list[list[Edge]]:
    """The edges of each thread (its internal edges, then the external edge that leaves it)."""
    out, cur = [], []
    for e in cycle:
        cur.append(e)
        if e.external:
            out.append(cur)
            cur = []
    return out


def _pattern(thread: list[Edge]) -> tuple[str, str]:
    """The directions of the thread's first and last accesses (one letter for one access),
    and the kind of the edge that leaves it: a thread ``PodWW Rfi PodRR`` counts as ``WR``."""
    dirs = thread[0].src + (thread[-1].src if len(thread) > 1 else "")
    return dirs, thread[-1].kind


NAME_STYLES = ("7.55", "7.58")


def _word(e: Edge) -> str:
    if e.kind == "po":
        return "pos" if e.same_loc else "po"
    if e.kind == "fence":
        return e.fence.lower().replace("-", ".") + ("s" if e.same_loc else "")
    if e.kind == "dep":
        return e.dep.lower() + ("s" if e.same_loc else "")
    return e.name.lower()


def _descriptor(thread: list[Edge], style: str = "7.55") -> str:
    """``po``, ``mfence``, ``addr``, ``po-rfi-po``: the thread's internal edges in diy's words;
    in diy7 7.58's style, a po, fence or dependency followed by a po or fence also says the
    direction it ends on (``poR-mfence``)."""
    inner = thread[:-1]
    words = []
    for i, e in enumerate(inner):
        w = _word(e)
        if style == "7.58" and i + 1 < len(inner) and e.kind in ("po", "fence", "dep") \
                and inner[i + 1].kind in ("po", "fence"):
            w += e.dst
        words.append(w)
    return "-".join(words)


def family_rotations(cycle) -> tuple[str, list[int]] | None:
    """The family of ``cycle`` and every rotation (an edge index) that makes its first thread
    a P0 of that family, or None for a shape with no family name."""
    cycle = list(cycle)
    if all(e.same_loc for e in cycle):  # one location: diy names these CoWW, CoRR, ... (not here)
        return None
    n = len(cycle)
    family, rotations = None, []
    for i in range(n):
        if not cycle[i - 1].external:
            continue
        rot = cycle[i:] + cycle[:i]
        key = tuple(_pattern(t) for t in _threads(rot))
        if key in FAMILIES and family in (None, FAMILIES[key]):
            family = FAMILIES[key]
            rotations.append(i)
    return (family, rotations) if family else None


def family_name(cycle) -> str:
    """The family diy7 gives a cycle's test (with ``-num true``, its name before the number):
    the shape's name (``SB``, ``MP``, ...), else its threads' access directions (``WW+RW+RR``);
    the cycle is read from its first thread, as ``name_and_shape`` orders it."""
    threads = _threads(list(cycle))
    key = tuple(_pattern(t) for t in threads)
    return FAMILIES.get(key) or "+".join(p[0] for p in key)


def diy_name(shape: Shape, family: str | None, style: str = "7.55") -> str:
    """diy's name: the family, then the threads' descriptors (``MP+po+mfence``); one plural
    descriptor when all threads agree (``SB+mfences``), none when all are ``po`` (in 7.58's
    style, nor when the one descriptor is ``pos``); a shape with no family is named by its
    cycle (``PodWR-Fre-PodWR-Fre``)."""
    if family is None:
        return "-".join(e.name for e in shape.cycle)
    descs = [d for d in (_descriptor(t, style) for t in _threads(list(shape.cycle))) if d]
    if all(d == "po" for d in descs) or style == "7.58" and descs == ["pos"]:
        return family
    if len(descs) > 1 and len(set(descs)) == 1:
        return f"{family}+{descs[0]}s"
    return "+".join([family] + descs)


def name_and_shape(cycle, style: str = "7.55") -> tuple[str, Shape]:
    """The test of ``cycle`` with its threads in diy's order, and its name: of the rotations
    that start a thread, the one diy's normaliser picks (``SB+mfence+po``, not ``SB+po+mfence``);
    ``style``: diy7 7.55's names (the x86 corpus's) or 7.58's."""
    from .shape import build_shape

    cycle = list(cycle)
    found = family_rotations(cycle)
    if found is None:
        shape = build_shape(cycle)
        return diy_name(shape, None, style), shape
    family, rotations = found
    best = rotations[0]
    for r in rotations[1:]:  # diy's fold: the later of two equal rotations wins
        if _compare_rotations(cycle[best:] + cycle[:best], cycle[r:] + cycle[:r]) >= 0:
            best = r
    shape = build_shape(cycle, best)
    return diy_name(shape, family, style), shape


# the order of thread shapes in diy's normaliser (first and last access; one letter: one access)
_POINTS = ["W", "WW", "RR", "RF", "FR", "FF", "RW", "FW", "WR", "WF", "R", "F"]
def _compare_edges(a: Edge, b: Edge) -> int:
    """diy's ``compare_edges``: fences before dependencies before po and rf; else structural."""
    ka = a.kind if a.kind in ("fence", "dep") else ("porf" if a.kind in ("po", "rf") else "")
    kb = b.kind if b.kind in ("fence", "dep") else ("porf" if b.kind in ("po", "rf") else "")
    if ka == "porf" and kb in ("fence", "dep") or ka == "dep" and kb == "fence":
        return 1
    if ka in ("fence", "dep") and kb == "porf" or ka == "fence" and kb == "dep":
        return -1
    x, y = diy_key(a), diy_key(b)
    return (x > y) - (x < y)


def _compare_rotations(c1: list[Edge], c2: list[Edge]) -> int:
    """diy's ``CP.compare`` of two rotations starting a thread each: the threads' shapes in
    turn, then the first thread's internal edges (fewer first), then edge by edge."""
    p1 = [_POINTS.index(_pattern(t)[0]) for t in _threads(c1)]
    p2 = [_POINTS.index(_pattern(t)[0]) for t in _threads(c2)]
    if p1 != p2:
        return -1 if p1 < p2 else 1
    i1, i2 = len(_threads(c1)[0]) - 1, len(_threads(c2)[0]) - 1
    if i1 != i2:
        return -1 if i1 < i2 else 1
    for a, b in zip(c1, c2):
        r = _compare_edges(a, b)
        if r:
            return r
    return 0
