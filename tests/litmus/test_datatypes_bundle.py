"""The bundled data-type harnesses (litmus/datatypes) against their serial behaviour, pinned per model,
and the cheapest fences mmdsl finds under relaxed (docs/datatypes.md explains each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.explorer.spec import FAIL, PASS, check_spec
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.solver import OPTIMAL
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

FOLDER = Path(__file__).resolve().parents[2] / "litmus" / "datatypes"
HARNESSES = ["treiber-stack", "msn-queue", "two-lock-queue", "lazy-list"]
# every harness passes under sc, tso and pso and fails under relaxed
VERDICTS = {h: {"sc": PASS, "tso": PASS, "pso": PASS, "relaxed": FAIL} for h in HARNESSES}
# the cheapest fences under relaxed: (thread, source line) of each, and the total cost
FENCES = {
    "treiber-stack": ([("P0", 15), ("P0", 17)], 4),
    "msn-queue": ([("P0", 17), ("P0", 24), ("P1", 39), ("P1", 44)], 8),
    "two-lock-queue": ([("P0", 18)], 2),
    "lazy-list": ([("P0", 24)], 2),
}
FAST = {("two-lock-queue", "sc"), ("two-lock-queue", "relaxed"), ("lazy-list", "relaxed")}


def _program(name: str):
    return load_litmus(FOLDER / f"{name}.litmus")


def _check(name: str, model: str) -> None:
    res = check_spec(_program(name), load_model(model))
    assert res.verdict == VERDICTS[name][model], (name, model, [s.text() for s in res.extra])
    assert not res.bound_reached or res.verdict == FAIL


def _fences(name: str) -> None:
    sel = select_fences(_program(name), load_model("relaxed"), FenceOptions(target="serial"))
    assert sel.status == OPTIMAL
    where, cost = FENCES[name]
    assert sorted((c.place.thread, c.place.line) for c in sel.fences) == sorted(where)
    assert sel.cost == cost
    assert not any(sel.target.unwanted_state(s) for s in sel.after.states)


def test_every_harness_has_its_readme_entry():
    readme = (FOLDER / "README.md").read_text()
    assert sorted(p.stem for p in FOLDER.glob("*.litmus")) == sorted(HARNESSES)
    for name in HARNESSES:
        assert f"{name}.litmus" in readme


@pytest.mark.parametrize("name, model", sorted(FAST))
def test_fast_harness_verdicts(name, model):
    _check(name, model)


def test_fast_two_lock_queue_fences_under_relaxed():
    _fences("two-lock-queue")


@pytest.mark.slow
@pytest.mark.parametrize("name, model", sorted({(h, m) for h in HARNESSES for m in VERDICTS[h]} - FAST))
def test_harness_verdicts(name, model):
    _check(name, model)


@pytest.mark.slow
@pytest.mark.parametrize("name", [h for h in HARNESSES if h != "two-lock-queue"])
def test_harness_fences_under_relaxed(name):
    _fences(name)
