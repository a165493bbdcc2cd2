"""`--all-minimal`: every inclusion-minimal fence set, against brute force and on the fence benchmarks."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.encoding import Problem, holds
from mmdsl.fences.places import FenceKind, Place, ThreadPlaces
from mmdsl.fences.solver import INFEASIBLE, OPTIMAL, next_minimal, solve_minimum
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

KINDS = [FenceKind("full", 3, ("full",)), FenceKind("half", 2, ("half",)), FenceKind("cheap", 1, ("cheap",))]


def _problem(nplaces: int = 3) -> Problem:
    places = [ThreadPlaces(0, [Place(0, i + 1, "P0", i + 1, "a", "b") for i in range(nplaces)])]
    p = Problem(load_model("relaxed"), places, KINDS)
    for i in range(nplaces):
        for k in range(len(KINDS)):
            p.choice(0, i, k)
    return p


@st.composite
def requirements(draw):
    lit = st.frozensets(st.integers(0, 8), min_size=1, max_size=3)
    alt = st.frozensets(lit, min_size=1, max_size=2)
    return draw(st.lists(st.frozensets(alt, min_size=1, max_size=3), min_size=1, max_size=4))


def _minimal_by_brute_force(problem: Problem) -> list[frozenset[int]]:
    n = len(problem.choices)
    good = [frozenset(s) for size in range(n + 1) for s in combinations(range(n), size)
            if all(holds(r, set(s)) for r in problem.requirements)]
    return [s for s in good if not any(t < s for t in good)]


@settings(max_examples=60, deadline=None)
@given(reqs=requirements())
def test_every_minimal_set_matches_brute_force(reqs):
    """When the requirements are the whole truth, the enumeration gives exactly the minimal sets."""
    problem = _problem()
    for r in reqs:
        problem.add(r)
    found = [solve_minimum(problem).chosen]
    while (nxt := next_minimal(problem, found)).status != INFEASIBLE:
        assert nxt.status == OPTIMAL and not any(f <= nxt.chosen for f in found)
        found.append(nxt.chosen)
    assert sorted(map(sorted, found)) == sorted(map(sorted, _minimal_by_brute_force(problem)))


def test_peterson_has_one_minimal_set_of_full_fences_under_tso_and_pso():
    program = load_litmus("litmus/fence-benchmarks/peterson.rmm")
    tso = select_fences(program, load_model("tso"), FenceOptions(kinds=["full"], all_minimal=True))
    assert [[(c.place.tid, c.place.line) for c in s] for s in tso.alternatives] == [[(0, 20), (1, 36)]]
    pso = select_fences(program, load_model("pso"), FenceOptions(kinds=["full"], all_minimal=True))
    assert [[(c.place.tid, c.place.line) for c in s] for s in pso.alternatives] == \
        [[(0, 19), (0, 20), (1, 35), (1, 36)]]
    assert pso.alternatives_kind == "minimal" and pso.alternatives_stopped is None


def test_sb_loads_minimal_sets_include_the_optimal_ones():
    """SB+loads under TSO: every optimal placement is minimal; the minimal list holds them all."""
    program = load_litmus("litmus/fences/SB+loads.litmus")
    tso = load_model("tso")
    optimal = select_fences(program, tso, FenceOptions(all_optimal=True))
    minimal = select_fences(program, tso, FenceOptions(all_minimal=True))
    keys = [[c.key() for c in s] for s in minimal.alternatives]
    assert all([c.key() for c in s] in keys for s in optimal.alternatives)
    costs = [sum(c.cost for c in s) for s in minimal.alternatives]
    assert costs == sorted(costs)


def test_fences_cli_all_minimal():
    r = CliRunner().invoke(app, ["fences", "litmus/fence-benchmarks/dekker.rmm", "-m", "tso", "--all-minimal"])
    assert r.exit_code == 0, r.output
    assert "Minimal fence sets 1\n  #1: P0 mfence@19; P1 mfence@41" in r.output
