"""From a cycle to a test: threads of accesses, locations, written values and the final condition."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import MmdslError
from .cycles import encodable_cut, well_formed
from .edges import Edge, cycle_text

LOCATION_NAMES = "xyzabcdefghijklmnopqstuvw"


@dataclass
class Access:
    """One access of the test: a read into the thread's ``reg``-th register, or a write of ``value``."""

    dir: str
    loc: str
    value: int = 0  # written, or expected to be read (when ``pinned``)
    pinned: bool = False  # does the final condition name what this read sees?
    reg: int = -1
    before: Edge | None = None  # the program-order edge from the previous access of the thread


@dataclass
class Shape:
    """A test made from a cycle: ``threads`` of accesses, and the final values of ``finals``."""

    cycle: tuple
    threads: list[list[Access]] = field(default_factory=list)
    finals: dict[str, int] = field(default_factory=dict)  # location -> last value in coherence order
    locations: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return cycle_text(self.cycle)


def _thread_rotation(cycle) -> list[Edge]:
    """The cycle rotated to start on the first access of a thread (after an external edge),
    at the rotation that puts a thread with most program-order edges first (as diy's P0)."""
    n = len(cycle)
    cands = [i for i in range(n) if cycle[i - 1].external]
    return list(cycle[cands[0]:]) + list(cycle[:cands[0]])


def build_shape(cycle, rotation: int | None = None) -> Shape:
    """The test of ``cycle``: event ``i`` is the source of edge ``i``; threads are cut at
    external edges; locations change at ``d`` edges; writes of each location take 1, 2, ...
    in coherence order (the order along the cycle); a read's value is that of the write it
    reads from (rf), or the one before the write it is overwritten by (fr)."""
    cycle = list(cycle)
    if not well_formed(cycle):
        raise MmdslError(f"'{cycle_text(cycle)}' is not a cycle a test can be made of")
    if rotation is None:
        cycle = _thread_rotation(cycle)
    else:
        cycle = cycle[rotation:] + cycle[:rotation]
        if not cycle[-1].external:
            raise MmdslError("a test's thread must start after an external edge")
    n = len(cycle)
    # threads and program order
    tid, index = [0] * n, [0] * n
    t, k = 0, 0
    for i in range(n):
        tid[i], index[i] = t, k
        if cycle[i].external:
            t, k = t + 1, 0
        else:
            k += 1
    # locations: segments between location changes (cyclic); on one location, start after the cut
    if all(e.same_loc for e in cycle):
        start = (encodable_cut(cycle) + 1) % n
    else:
        start = next(i for i in range(n) if not cycle[i - 1].same_loc)
    seg_of = [0] * n
    seg = 0
    order = [(start + j) % n for j in range(n)]
    for j, i in enumerate(order):
        if j and not cycle[i - 1].same_loc:
            seg += 1
        seg_of[i] = seg
    # name locations by first appearance in thread order
    names: dict[int, str] = {}
    for i in range(n):
        if seg_of[i] not in names:
            if len(names) >= len(LOCATION_NAMES):
                raise MmdslError("too many locations for one test")
            names[seg_of[i]] = LOCATION_NAMES[len(names)]
    # values: writes in coherence order along each segment's path
    value = [0] * n
    count: dict[int, int] = {}
    for i in order:
        if cycle[i].src == "W":
            count[seg_of[i]] = count.get(seg_of[i], 0) + 1
            value[i] = count[seg_of[i]]
    shape = Shape(tuple(cycle))
    regs = [0] * (t + 1)
    threads: list[list[Access]] = [[] for _ in range(t)]
    for i in range(n):
        e_in, e_out = cycle[i - 1], cycle[i]
        acc = Access(e_out.src, names[seg_of[i]])
        if acc.dir == "W":
            acc.value = value[i]
        else:
            acc.reg = regs[tid[i]]
            regs[tid[i]] += 1
            if e_in.kind == "rf":
                acc.value, acc.pinned = value[(i - 1) % n], True
            elif e_out.kind == "fr":
                acc.value, acc.pinned = value[(i + 1) % n] - 1, True
        if index[i] > 0:
            acc.before = e_in
        threads[tid[i]].append(acc)
    shape.threads = threads
    shape.locations = list(names.values())
    for s, c in count.items():
        if c >= 2:
            shape.finals[names[s]] = c
    return shape
