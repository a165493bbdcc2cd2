"""The per-thread machine's newer reductions (explorer/machines/propagation/propagation_reduction.py, storage.place_last):
a candidate-directed end-of-run search, one event order per storage, finished threads by
coverage -- each gives the final states of the exhaustive machine and the checker."""

from __future__ import annotations

import itertools

import pytest
from explorer_paths import ROOT

from mmdsl.axiomatic import check
from mmdsl.explorer import explore
from mmdsl.explorer.machines.table.enabling import model_rules
from mmdsl.explorer.explore import explore_space
from mmdsl.explorer.machines.propagation.propagation import PropagationMachine, PropagationSemantics
from mmdsl.explorer.machines.propagation.propagation_reduction import end_storage, settled_values
from mmdsl.explorer.machines.propagation.storage import (
    EV_BARRIER, EV_WRITE, commit, coverage, final_memory, maximal_writes, place_last, receive,
)
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PPC = ROOT / "litmus" / "ppc" / "tests"
PPC_GEN = PPC / "ppc-gen"


def empty_storage(locations: int, threads: int, instrs: int = 4):
    return ((0,) * locations, (), (0,) * threads, (), tuple((0, 0) + (0,) * instrs for _ in range(threads)))


def committed(order):
    """Commit ``order`` (thread, kind, location, value) into an empty storage, each event put in
    its canonical place."""
    storage = empty_storage(2, 3)
    for t, kind, loc, value in order:
        storage = place_last(commit(storage, t, kind, loc, value))
    return storage


def test_the_same_events_committed_in_two_interleavings_are_one_storage():
    a = [(0, EV_WRITE, 0, 1), (0, EV_BARRIER, -1, None), (1, EV_WRITE, 1, 2), (0, EV_WRITE, 1, 1), (2, EV_WRITE, 0, 2)]
    b = [(2, EV_WRITE, 0, 2), (1, EV_WRITE, 1, 2), (0, EV_WRITE, 0, 1), (0, EV_BARRIER, -1, None), (0, EV_WRITE, 1, 1)]
    assert committed(a) != committed([a[0]])  # (not vacuous)
    assert committed(a) == committed(b)


def test_moving_an_event_renames_every_mask_and_index():
    """Thread 1 writes x=5, thread 0 writes x=1, receives x=5 after it, commits a barrier and
    writes y=1: in canonical order thread 0's events come first (writes before its barrier),
    and the barrier the y write waits for, coherence and what each thread saw follow them."""
    steps = [(True, lambda s: commit(s, 1, EV_WRITE, 0, 5)), (True, lambda s: commit(s, 0, EV_WRITE, 0, 1)),
             (False, lambda s: receive(s, 0, [e[1] for e in s[1]].index(1))),
             (True, lambda s: commit(s, 0, EV_BARRIER)), (True, lambda s: commit(s, 0, EV_WRITE, 1, 1))]
    plain = storage = empty_storage(2, 2)
    for commits, step in steps:
        plain = step(plain)
        storage = place_last(step(storage)) if commits else step(storage)
    init, events, seen, co, _ = storage
    assert [e[:4] for e in events] == [(EV_WRITE, 0, 0, 1), (EV_WRITE, 0, 1, 1), (EV_BARRIER, 0, -1, None),
                                       (EV_WRITE, 1, 0, 5)]
    assert plain[1][2][:4] == (EV_BARRIER, 0, -1, None)  # (the plain storage keeps commit order)
    assert events[1][4] == 1 << 2  # the y write waits for the barrier, at its new index
    assert events[2][4] == 0b1001  # the barrier's group A: what thread 0 had seen (both x writes)
    assert co[3] == 1 << 0         # thread 0's x=1 before thread 1's x=5
    assert seen == (0b1111, 1 << 3)
    assert place_last(storage) == storage  # in place already: unchanged
    assert final_memory(storage) == final_memory(plain) == (5, 1)


def exhaustive_ends(semantics, storage, n, memo) -> frozenset:
    """The end-of-run search as it was: every order of the remaining propagations."""
    if storage in memo:
        return memo[storage]
    moves = [tr for trs in semantics._final_propagations(storage, n, [coverage(storage, t) for t in range(n)])
             for tr in trs]
    if not moves:
        got = frozenset((final_memory(storage),))
    else:
        got = frozenset().union(*(exhaustive_ends(semantics, end_storage(semantics._storage_step(storage, tr), n),
                                                  n, memo) for tr in moves))
    memo[storage] = got
    return got


# tests whose unreduced runs end with coherence left open, with barriers (all but S) -- 240,
# 40, 122, 66 and 12 such storages
END_SEARCH = [PPC / "herding-cats" / "2+2W+lwsyncs.litmus", PPC_GEN / "PPCp1s5_050.litmus",
              PPC_GEN / "PPCp1s5_111.litmus", PPC_GEN / "PPCp1s5_126.litmus", PPC / "classic" / "S.litmus"]


def open_ends(path, max_states: int = 200_000):
    """(semantics, thread count, each storage at which the unreduced machine has every thread
    done and coherence left open, as the end search starts from it)."""
    program, model = load_litmus(path), load_model("power")
    space = explore_space(program, model, por=False, max_states=max_states)
    machine = PropagationMachine(program, model_rules(model))
    semantics = PropagationSemantics(machine, 64)
    n = len(machine.threads)
    ends = {end_storage(st[0], n) for st in space.found.state_list
            if all(pc >= th.length and not pending for th, (pc, _, pending) in zip(machine.threads, st[1]))
            and any(len(maximal_writes(st[0], loc)) > 1 for loc in range(len(st[0][0])))}
    return semantics, n, ends


def assert_same_ends(semantics, n: int, ends) -> None:
    memo: dict = {}
    for start in ends:
        assert settled_values(semantics, start, n, semantics._storage_step) == exhaustive_ends(
            semantics, start, n, memo), start


@pytest.mark.parametrize("path", END_SEARCH, ids=lambda p: p.stem)
def test_the_candidate_directed_end_search_finds_exactly_the_exhaustive_ends(path):
    """Every storage at which the unreduced machine has all threads done: the candidate-directed
    search (pruned, first path decides) and the exhaustive search give the same final memories."""
    semantics, n, ends = open_ends(path)
    assert ends, "no storage left coherence open (the test would be vacuous)"
    assert_same_ends(semantics, n, ends)


@pytest.mark.slow
def test_the_end_search_on_a_sample_of_the_ppc_set():
    """Every 12th PPC test whose unreduced search stays under 20,000 states (the check above, on
    every end storage it reaches)."""
    from mmdsl.core.errors import MmdslError
    from mmdsl.explorer.search import StateLimit

    checked = 0
    for path in sorted(PPC.glob("*/*.litmus"))[::12]:
        try:
            semantics, n, ends = open_ends(path, 20_000)
        except (StateLimit, MmdslError):
            continue
        assert_same_ends(semantics, n, ends)
        checked += len(ends)
    assert checked > 1_000




@pytest.mark.parametrize("name, before, bound", [
    ("PPCp1s6_121", 73_348, 8_000),    # hit the 30 s limit (73,348 states, most of its time in the end search)
    ("PPCp2s6_117", 31_612, 15_000),
])
def test_the_reductions_shrink_the_ppc_gen_tests_that_hit_the_limit(name, before, bound):
    program, model = load_litmus(PPC_GEN / f"{name}.litmus"), load_model("power")
    result = explore(program, model)
    assert result.state_set() == check(program, model, collect="none").state_set()
    assert result.stats["states"] <= bound < before, result.stats["states"]


def test_a_finished_thread_is_kept_by_its_coverage():
    """MP+lwsync+addr-bigdetour-addr explored 76,796 states with the earlier reductions."""
    program, model = load_litmus(PPC / "herding-cats" / "MP+lwsync+addr-bigdetour-addr.litmus"), load_model("power")
    result = explore(program, model)
    assert result.state_set() == check(program, model, collect="none").state_set()
    assert result.stats["states"] <= 15_000


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_committing_in_any_thread_order_gives_one_storage(order):
    per_thread = {0: [(0, EV_WRITE, 0, 1), (0, EV_BARRIER, -1, None)], 1: [(1, EV_WRITE, 1, 2)], 2: [(2, EV_WRITE, 0, 2)]}
    base = committed([e for t in range(3) for e in per_thread[t]])
    assert committed([e for t in order for e in per_thread[t]]) == base
