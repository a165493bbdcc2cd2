"""The reduction-based check: every path through an atomic block against the seed's patterns.

Each thread carries a region position per mode along every explored path (the seed's
Fig. 4 and 5), in a search over the product of the state graph and those positions:

* independence (MC-ind): a step is independent (I) or dependent (D); a block must follow
  ``I* D? I*``. A race-free access is independent; so is a release (no step of another
  thread is ever enabled beside it on the same mutex, the ample-set definition); an acquire
  is dependent (it disables another thread's acquire) unless its mutex is race-free;
* movers (MC-mover, Lipton): a lock acquire is a right mover (R), a release a left mover
  (L), a race-free access both (B), anything else a non-mover (N); a block must follow
  ``(R|B)* N? (L|B)*``;
* movers, revised (the seed's end of section 3): an acquire or release of a lock that is
  itself thread-local or protected by another lock is both a left and right mover.

A block marked ``mover`` (the seed's stronger specification) must be ``I*`` and ``both*``.

Beside the patterns it looks for a definite witness: a read in the block that returns a
value other than the one the block last read or wrote there, which no execution running the
block without interruption can show (another thread's write came in between).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ...litmus.cprog.atomic_blocks import open_blocks
from .facts import ACCESS, ACQUIRE, LOCAL, MARKER, RELEASE, SpaceFacts

MODES = ("ind", "mover", "revised")


@dataclass
class Flags:
    """What the product search found for one block: per mode the first path breaking its pattern."""

    entered: int = 0  # product states where a thread has just entered it
    broken: dict = field(default_factory=dict)  # mode -> (product node, why)
    stale: tuple | None = None  # (product node, why): a definite witness


def classify(facts: SpaceFacts, step) -> tuple[str, str, str]:
    """The step's class in each mode: (I|D, R|L|B|N, R|L|B|N)."""
    if step.kind in (LOCAL, MARKER):
        return "I", "B", "B"
    free = facts.race_free(step.loc) is not None
    if step.kind == ACCESS:
        return ("I", "B", "B") if free else ("D", "N", "N")
    if step.kind == RELEASE:  # no other thread's step is enabled on a held mutex: independent of all
        return "I", "L", ("B" if free else "L")
    assert step.kind == ACQUIRE
    return ("I" if free else "D"), "R", ("B" if free else "R")


def _advance_ind(pos: str, cls: str) -> str:
    if cls == "I" or pos == "X":
        return pos
    return "D" if pos == "I" else "X"


def _advance_mover(pos: str, cls: str) -> str:
    if pos == "X":
        return pos
    if pos == "M":  # a mover block: only both-movers
        return "M" if cls == "B" else "X"
    if pos == "R":
        return "R" if cls in ("R", "B") else "L"
    return "L" if cls in ("L", "B") else "X"


def search_patterns(facts: SpaceFacts, blocks: list):
    """Breadth-first over (state, positions): the flags per block and the parent of each product node."""
    found = facts.found
    nthreads = len(facts.m.threads)
    out = {b.number: Flags() for b in blocks}
    starts = {b.number: ("D", "M", "M") if b.kind == "mover" else ("I", "R", "R") for b in blocks}
    succ: dict[int, list] = {}
    for e in found.edges:
        succ.setdefault(e[0], []).append(e)
    start = (0, ((),) * nthreads)
    parents = {start: None}
    frontier = deque([start])
    while frontier:
        node = frontier.popleft()
        sid, positions = node
        for edge in succ.get(sid, ()):
            step = facts.steps[edge]
            t = step.tid
            pos = positions[t]
            new = _next(facts, pos, step, starts)
            nxt_positions = positions if new is pos else positions[:t] + (new,) + positions[t + 1:]
            nxt = (edge[1], nxt_positions)
            if nxt in parents:
                continue
            parents[nxt] = (node, edge)
            frontier.append(nxt)
            if new is not pos:
                _record(out, pos, new, nxt, step, starts)
    return out, parents


def _next(facts, pos: tuple, step, starts: dict) -> tuple:
    """A thread's positions after ``step``: per open block, outermost first, (block, ind, mover, revised, view)."""
    if step.kind == MARKER:
        now = open_blocks(step.value)
        kept = tuple(p for p in pos if p[0] in now)
        return kept + tuple((b, *starts[b], ()) for b in now if b not in {p[0] for p in kept})
    if not pos or step.kind == LOCAL:
        return pos
    c_ind, c_mov, c_rev = classify(facts, step)
    return tuple((block, _advance_ind(ind, c_ind), _advance_mover(mov, c_mov), _advance_mover(rev, c_rev),
                  _seen(view, step)) for block, ind, mov, rev, view in pos)


def _seen(view: tuple, step) -> tuple:
    """The values the block has read or written, after ``step``."""
    seen = dict(view)
    if step.reads:
        seen[step.loc] = step.reads[0]
    if step.writes:
        seen[step.loc] = step.value
    return tuple(sorted(seen.items()))


def _record(out, pos: tuple, new: tuple, nxt, step, starts: dict) -> None:
    before = {p[0]: p for p in pos}
    for p in new:
        old = before.get(p[0])
        flags = out[p[0]]
        if old is None:
            flags.entered += 1
            continue
        for k, mode in enumerate(MODES, start=1):
            if p[k] == "X" and old[k] != "X" and mode not in flags.broken:
                flags.broken[mode] = (nxt, _why(step, mode, starts[p[0]][1] == "M"))
        if flags.stale is None and step.reads and step.kind == ACCESS and not step.loc.startswith("__"):
            last = dict(old[4]).get(step.loc)
            if last is not None and last != step.reads[0]:
                flags.stale = (nxt, f"read {step.loc}={step.reads[0]} where the block had seen "
                                    f"{step.loc}={last}: another thread wrote it in between")


def _why(step, mode: str, mover_block: bool = False) -> str:
    what = {ACQUIRE: "acquires", RELEASE: "releases", ACCESS: "accesses"}[step.kind]
    if mover_block:
        return f"{what} {step.loc}: " + ("a dependent step" if mode == "ind" else "not a both-mover") + \
            " in a mover block"
    if mode == "ind":
        return f"a second dependent step: {what} {step.loc}"
    return f"{what} {step.loc} after a non-mover or a release (not a left mover there)"


def product_path(parents: dict, node) -> list:
    """The edges from the initial state to product node ``node``."""
    edges = []
    while parents[node] is not None:
        node, edge = parents[node]
        edges.append(edge)
    return edges[::-1]
