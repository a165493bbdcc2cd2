"""Property: on generated small tests the answer is re-checked, minimum, and INFEASIBLE exactly when SC allows it."""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mmdsl.axiomatic import check
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.insert import insert_fences
from mmdsl.fences.places import program_places
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

# the one fence of each model that orders every pair (from the bundled models' documentation)
FULL = {"tso": "mfence", "pso": "membar", "rmo": "membar", "relaxed": "full", "dotnet": "MemoryBarrier"}
LOCS = ("x", "y", "z")


def _text(threads: list[list[str]], atoms: list[str]) -> str:
    nthreads = len(threads)
    rows = max(len(c) for c in threads)
    body = [" " + " | ".join(f"P{t}" for t in range(nthreads)) + " ;"]
    for i in range(rows):
        body.append(" " + " | ".join(c[i] if i < len(c) else "" for c in threads) + " ;")
    return "LISA gen\n{\n}\n" + "\n".join(body) + "\nexists (" + " /\\ ".join(atoms) + ")\n"


@st.composite
def small_tests(draw):
    """(model name, LISA test): 2-3 threads of 2-3 loads/stores, exists of a final state of the loads.

    The state is mostly one the model allows and SC does not (the interesting case),
    sometimes any state of the loads' values.
    """
    model_name = draw(st.sampled_from(sorted(FULL)))
    nthreads = draw(st.integers(2, 3))
    written: dict[str, int] = {}
    threads = []
    loads = []
    for tid in range(nthreads):
        cells = []
        for k in range(draw(st.integers(2, 3))):
            loc = draw(st.sampled_from(LOCS))
            if draw(st.booleans()):
                written[loc] = written.get(loc, 0) + 1
                cells.append(f"w[] {loc} {written[loc]}")
            else:
                cells.append(f"r[] r{k} {loc}")
                loads.append((tid, f"r{k}", loc))
        threads.append(cells)
    if not loads:
        threads[0].append("r[] r9 x")
        loads.append((0, "r9", "x"))
    every = _text(threads, [f"{t}:{r}=0" for t, r, _ in loads])
    probe = parse_litmus(every)
    weak = set(check(probe, load_model(model_name)).states) - set(check(probe, load_model("sc")).states)
    if draw(st.sampled_from(["weak", "weak", "weak", "any"])) == "weak":
        assume(weak)
        state = draw(st.sampled_from(sorted(weak, key=lambda s: s.text())))
        atoms = [f"{k[1]}:{k[2]}={v}" for k, v in state]
    else:
        chosen = draw(st.lists(st.sampled_from(loads), min_size=1, max_size=3, unique=True))
        atoms = [f"{t}:{r}={draw(st.integers(0, written.get(loc, 0)))}" for t, r, loc in chosen]
    return model_name, _text(threads, atoms)


def _allowed(program, model) -> bool:
    return check(program, model).verdict == "Allowed"


def _brute_force_minimum(program, model, kind: str) -> int | None:
    """The fewest fences of ``kind`` (every subset of places, smallest first) that forbid the outcome."""
    places = [(tp.tid, p.index) for tp in program_places(program) for p in tp.places]
    for size in range(len(places) + 1):
        for subset in combinations(places, size):
            if not _allowed(insert_fences(program, [(t, i, kind) for t, i in subset]), model):
                return size
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=small_tests())
def test_full_fence_answer_is_minimum_and_verified(case):
    model_name, text = case
    model = load_model(model_name)
    program = parse_litmus(text)
    sel = select_fences(program, model, FenceOptions(kinds=[FULL[model_name]]))
    if not _allowed(program, model):
        assert not sel.needed
        return
    if _allowed(program, load_model("sc")):
        # every pair ordered is SC, so nothing can forbid an outcome SC allows
        assert sel.status == "INFEASIBLE" and sel.remaining
        return
    assert sel.status == "OPTIMAL"
    assert not _allowed(sel.fenced, model)
    assert len(sel.fences) == _brute_force_minimum(program, model, FULL[model_name])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=small_tests())
def test_every_kind_answer_has_no_redundant_fence(case):
    model_name, text = case
    model = load_model(model_name)
    program = parse_litmus(text)
    sel = select_fences(program, model)
    if sel.status != "OPTIMAL" or not sel.needed:
        return
    insertions = sel.insertions()
    assert not _allowed(insert_fences(program, insertions), model)
    for i in range(len(insertions)):
        fewer = insertions[:i] + insertions[i + 1:]
        assert _allowed(insert_fences(program, fewer), model), f"fence {insertions[i]} is not needed"
