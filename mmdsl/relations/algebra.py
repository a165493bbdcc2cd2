"""Binary relations over event indices 0..n-1 as rows of bitsets, and their algebra."""

from __future__ import annotations

from operator import and_, invert, or_
from typing import Iterable, Iterator


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    """The bitset holding ``indices``."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m


class Rel:
    """A relation on ``n`` points: ``rows[i]`` is the bitset of successors of ``i``.

    Instances are immutable values; every operation returns a new relation.
    """

    __slots__ = ("n", "rows")

    def __init__(self, n: int, rows: Iterable[int] | None = None):
        self.n = n
        self.rows = tuple(rows) if rows is not None else (0,) * n

    # ----- construction -------------------------------------------------
    @staticmethod
    def empty(n: int) -> "Rel":
        return Rel(n, (0,) * n)

    @staticmethod
    def identity(n: int, on: int | None = None) -> "Rel":
        """The identity on the set ``on`` (all points when omitted)."""
        if on is None:
            on = (1 << n) - 1
        return Rel(n, tuple((1 << i) if (on >> i) & 1 else 0 for i in range(n)))

    @staticmethod
    def product(n: int, left: int, right: int) -> "Rel":
        """The cartesian product ``left × right`` of two sets."""
        return Rel(n, tuple(right if (left >> i) & 1 else 0 for i in range(n)))

    @staticmethod
    def from_pairs(n: int, pairs: Iterable[tuple[int, int]]) -> "Rel":
        rows = [0] * n
        for a, b in pairs:
            rows[a] |= 1 << b
        return Rel(n, rows)

    @staticmethod
    def from_order(n: int, order: list[int]) -> "Rel":
        """The strict total order on the points of ``order``, in that order."""
        rows = [0] * n
        later = 0
        for i in reversed(order):
            rows[i] = later
            later |= 1 << i
        return Rel(n, rows)

    # ----- inspection ----------------------------------------------------
    def pairs(self) -> list[tuple[int, int]]:
        return [(i, j) for i, row in enumerate(self.rows) for j in bits(row)]

    def __contains__(self, pair: tuple[int, int]) -> bool:
        a, b = pair
        return bool((self.rows[a] >> b) & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rel) and self.n == other.n and self.rows == other.rows

    def __hash__(self) -> int:
        return hash(self.rows)

    def __repr__(self) -> str:
        return f"Rel({self.n}, {self.pairs()})"

    def __len__(self) -> int:
        return sum(row.bit_count() for row in self.rows)

    def is_empty(self) -> bool:
        return not any(self.rows)

    def domain(self) -> int:
        return mask_of(i for i, row in enumerate(self.rows) if row)

    def range(self) -> int:
        m = 0
        for row in self.rows:
            m |= row
        return m

    # ----- algebra -------------------------------------------------------
    # row-wise operations run as C-level maps over the rows (no Python loop per row)
    def __or__(self, other: "Rel") -> "Rel":
        return Rel(self.n, tuple(map(or_, self.rows, other.rows)))

    def __and__(self, other: "Rel") -> "Rel":
        return Rel(self.n, tuple(map(and_, self.rows, other.rows)))

    def __sub__(self, other: "Rel") -> "Rel":
        return Rel(self.n, tuple(map(and_, self.rows, map(invert, other.rows))))

    def complement(self) -> "Rel":
        full = (1 << self.n) - 1
        return Rel(self.n, tuple(full & ~a for a in self.rows))

    def seq(self, other: "Rel") -> "Rel":
        """Relational composition ``self ; other``."""
        orow = other.rows
        out = []
        for row in self.rows:
            acc = 0
            while row:
                low = row & -row
                acc |= orow[low.bit_length() - 1]
                row ^= low
            out.append(acc)
        return Rel(self.n, tuple(out))

    def inverse(self) -> "Rel":
        rows = [0] * self.n
        for i, row in enumerate(self.rows):
            bit = 1 << i
            while row:
                low = row & -row
                rows[low.bit_length() - 1] |= bit
                row ^= low
        return Rel(self.n, tuple(rows))

    def plus(self) -> "Rel":
        """Transitive closure (Warshall on bitsets)."""
        rows = list(self.rows)
        n = self.n
        for k in range(n):
            kbit = 1 << k
            rk = rows[k]
            if not rk:
                continue
            for i in range(n):
                if rows[i] & kbit:
                    rows[i] |= rk
            # rows[k] may have grown through itself; keep the latest value
        return Rel(n, tuple(rows))

    def star(self) -> "Rel":
        """Reflexive-transitive closure."""
        closed = self.plus().rows
        return Rel(self.n, tuple(r | (1 << i) for i, r in enumerate(closed)))

    def opt(self) -> "Rel":
        """Reflexive closure ``r?``."""
        return Rel(self.n, tuple(r | (1 << i) for i, r in enumerate(self.rows)))

    def restrict(self, domain: int, range_: int) -> "Rel":
        """``[domain] ; self ; [range_]``."""
        return Rel(
            self.n,
            tuple((row & range_) if (domain >> i) & 1 else 0 for i, row in enumerate(self.rows)),
        )

    def is_irreflexive(self) -> bool:
        return not any((row >> i) & 1 for i, row in enumerate(self.rows))


def union_all(n: int, rels: Iterable[Rel]) -> Rel:
    rows: Iterable[int] = (0,) * n
    for k, r in enumerate(rels, 1):
        rows = map(or_, rows, r.rows)  # chained lazily, consumed once by tuple()
        if k % 256 == 0:  # a chain of 200,000 maps would be consumed by as deep a C recursion
            rows = tuple(rows)
    return Rel(n, tuple(rows))
