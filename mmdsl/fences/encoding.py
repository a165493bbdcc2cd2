"""The fence-selection problem as plain data: Boolean choices and OR-of-AND requirements.

Pure problem building (no solver here). A *choice* is one Boolean decision: put a fence
of one kind at one place of one thread. A *literal* is "some chosen fence orders this
program-order pair": the OR of the choices at the places control passes between the two
accesses whose kind orders the pair. An *alternative* is an AND of literals (every pair
of one cycle ordered); a *requirement* is an OR of alternatives (one cycle closed is
enough). Explorer traces give requirements whose alternatives are single literals. A
*cut graph* (the min-cut method) asks that no path of a state graph from its initial
node to a violating one keep all its edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..core.events import EventShape
from ..lang.ir import Model
from ..lang.table import compiled_fences
from .places import FenceKind, Place, ThreadPlaces

Literal = frozenset  # of choice indices
Alternative = frozenset  # of Literals
Requirement = frozenset  # of Alternatives


@dataclass
class CutGraph:
    """A state graph to cut: no path from ``initial`` to a ``violating`` node may survive.

    ``edges`` are (source, target, literal): the literal holds the choices whose fence
    removes the edge (empty: the edge cannot be cut).
    """

    nodes: int
    initial: int
    edges: list[tuple[int, int, Literal]]
    violating: frozenset[int]


@dataclass(frozen=True)
class Choice:
    """Put a fence of ``kind`` at ``place``."""

    place: Place
    kind: FenceKind
    kind_index: int = 0  # the kind's position among the kinds in use (declaration order)
    # a dependency (kind.dependency): the IR index of the load it starts from; ``place`` is
    # the access it reaches (its ``before`` the load's text)
    source: int = -1

    @property
    def cost(self) -> int:
        return self.kind.cost

    @property
    def is_dependency(self) -> bool:
        return self.kind.dependency

    def key(self) -> tuple:
        """Canonical order: thread, place, then kind in declaration order (fences before dependencies)."""
        if self.source < 0:
            return (self.place.tid, self.place.index, self.kind_index)
        return (self.place.tid, self.place.index, self.kind_index, self.source)


class Problem:
    """Choices (created on demand, in a canonical order) and the requirements on them."""

    def __init__(self, model: Model, places: list[ThreadPlaces], kinds: list[FenceKind]):
        self.model = model
        self.places = places
        self.kinds = kinds
        self.choices: list[Choice] = []
        self._index: dict[tuple[int, int, int], int] = {}
        self.requirements: list[Requirement] = []
        self.cuts: list[CutGraph] = []
        self._seen: set[Requirement] = set()
        self._orders = compiled_fences(model)
        self._kind_cache: dict[tuple[EventShape, EventShape], tuple[int, ...]] = {}

    # ----- choices and literals ----------------------------------------------------
    def choice(self, tid: int, place: int, kind: int) -> int:
        """The index of the choice (thread ``tid``, its ``place``-th place, ``kind``-th kind)."""
        key = (tid, place, kind)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.choices)
            self.choices.append(Choice(self.places[tid].places[place], self.kinds[kind], kind))
        return i

    def device(self, place: Place, kind: FenceKind, kind_index: int, source: int) -> int:
        """The index of the choice "a ``kind`` dependency from the load at ``source`` to ``place``'s access"."""
        key = (place.tid, place.index, kind_index, source)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.choices)
            self.choices.append(Choice(place, kind, kind_index, source))
        return i

    def all_choices(self) -> list[int]:
        """Every kind at every place (to test whether any fence set can help at all)."""
        return [self.choice(tp.tid, p, k) for tp in self.places for p in range(len(tp.places))
                for k in range(len(self.kinds))]

    def ordering_kinds(self, earlier: EventShape, later: EventShape) -> tuple[int, ...]:
        """The kinds (indices) whose fences order an (earlier, later) pair of these shapes."""
        key = (earlier, later)
        ks = self._kind_cache.get(key)
        if ks is None:
            ks = tuple(k for k, kind in enumerate(self.kinds)
                       if self._orders.orders_pair(kind.name, earlier, later))
            self._kind_cache[key] = ks
        return ks

    def literal(self, tid: int, positions: Iterable[int], earlier: EventShape, later: EventShape) -> Literal:
        """Fences that order (earlier, later) when placed at one of ``positions`` (IR indices)."""
        kinds = self.ordering_kinds(earlier, later)
        if not kinds:
            return frozenset()
        rep = self.places[tid].rep
        out = set()
        for pos in positions:
            p = rep.get(pos)
            if p is not None:
                out.update(self.choice(tid, p, k) for k in kinds)
        return frozenset(out)

    # ----- requirements --------------------------------------------------------------
    def add(self, requirement: Requirement) -> bool:
        """Add a requirement; False when it was already there."""
        if requirement in self._seen:
            return False
        self._seen.add(requirement)
        self.requirements.append(requirement)
        return True

    def cost(self, chosen: Iterable[int]) -> int:
        return sum(self.choices[i].cost for i in chosen)

    def sorted_choices(self, chosen: Iterable[int]) -> list[Choice]:
        return sorted((self.choices[i] for i in chosen), key=Choice.key)


def holds(requirement: Requirement, chosen: set[int]) -> bool:
    """Does the fence set ``chosen`` satisfy the requirement?"""
    return any(all(lit & chosen for lit in alt) for alt in requirement)


def any_of(literals: Iterable[Literal]) -> Requirement:
    """A requirement met as soon as one of the literals is (an explorer trace, a refinement)."""
    return frozenset(frozenset((lit,)) for lit in literals if lit)
