"""Relation algebra on bitsets, checked against a naive set-of-pairs model with hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmdsl.relations import Rel, find_cycle, is_acyclic, topological_order

N = 7
pairs_st = st.sets(st.tuples(st.integers(0, N - 1), st.integers(0, N - 1)), max_size=20)


def naive_closure(pairs: set) -> set:
    closure = set(pairs)
    while True:
        new = {(a, d) for a, b in closure for c, d in closure if b == c} - closure
        if not new:
            return closure
        closure |= new


@given(pairs_st, pairs_st)
def test_union_inter_diff_seq_inverse(p, q):
    a, b = Rel.from_pairs(N, p), Rel.from_pairs(N, q)
    assert set((a | b).pairs()) == p | q
    assert set((a & b).pairs()) == p & q
    assert set((a - b).pairs()) == p - q
    assert set(a.seq(b).pairs()) == {(x, z) for x, y in p for y2, z in q if y == y2}
    assert set(a.inverse().pairs()) == {(y, x) for x, y in p}


@given(pairs_st)
def test_closures(p):
    a = Rel.from_pairs(N, p)
    assert set(a.plus().pairs()) == naive_closure(p)
    ident = {(i, i) for i in range(N)}
    assert set(a.star().pairs()) == naive_closure(p) | ident
    assert set(a.opt().pairs()) == p | ident
    assert set(a.complement().pairs()) == {(i, j) for i in range(N) for j in range(N)} - p


@given(pairs_st)
@settings(max_examples=300)
def test_acyclicity_cycle_and_order_agree(p):
    a = Rel.from_pairs(N, p)
    cyclic = any(x == y for x, y in naive_closure(p))
    assert is_acyclic(a) == (not cyclic)
    assert a.plus().is_irreflexive() == (not cyclic)
    cycle = find_cycle(a)
    order = topological_order(a)
    if cyclic:
        assert order is None and cycle
        for i, x in enumerate(cycle):  # every step of the cycle is an edge
            assert (x, cycle[(i + 1) % len(cycle)]) in a
        assert len(set(cycle)) == len(cycle)
    else:
        assert cycle is None
        rank = {x: i for i, x in enumerate(order)}
        assert sorted(order) == list(range(N))
        assert all(rank[x] < rank[y] for x, y in p)


def test_shortest_cycle_is_found():
    r = Rel.from_pairs(6, [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 4)])
    assert find_cycle(r) == [4, 5]


def test_products_identity_and_order():
    r = Rel.product(4, 0b0011, 0b1100)
    assert set(r.pairs()) == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert set(Rel.identity(4, 0b0101).pairs()) == {(0, 0), (2, 2)}
    assert set(Rel.from_order(4, [2, 0, 3]).pairs()) == {(2, 0), (2, 3), (0, 3)}
    assert r.domain() == 0b0011 and r.range() == 0b1100
    assert r.restrict(0b0001, 0b0100).pairs() == [(0, 2)]
