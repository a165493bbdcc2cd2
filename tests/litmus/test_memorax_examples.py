"""Memorax's own example files, read as they are: Memorax's verdicts under tso (its sb) and pso (its hsb)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.runner import run_test

DATA = Path(__file__).parent / "data" / "memorax"
VIPS = ["barnes2", "cholesky", "radiosity", "raytrace", "volrend"]


def verdict(name: str, model: str, **kw) -> str:
    found = explore(load_litmus(DATA / f"{name}.rmm"), load_model(model), order="bfs", first=True, **kw)
    return "Allowed" if found.positive else "Forbidden"


@pytest.mark.parametrize("name, model, want", [
    ("peterson", "tso", "Allowed"), ("peterson", "sc", "Forbidden"),
    ("burns", "pso", "Allowed"), ("sense_rev_bar", "tso", "Forbidden"),
    ("bakery.bound2", "sc", "Forbidden"), ("bakery.bound2", "tso", "Allowed"),
])
def test_a_sample_gives_memoraxs_verdicts(name, model, want):
    assert verdict(name, model) == want


def test_clh_reads_through_its_macro():
    program = load_litmus(DATA / "clh.rmm")
    assert len(program.threads) == 2 and program.condition.text() == "~exists (0:at=CS /\\ 1:at=CS)"


def test_the_unbounded_bakery_is_found_broken_under_tso_though_its_space_is_endless():
    # Memorax refuses this file (its analyses need finite domains); a breadth-first search
    # that stops at the first violation still answers it
    assert verdict("bakery", "tso", max_states=100_000) == "Allowed"


@pytest.mark.parametrize("name", VIPS)
def test_the_vips_m_files_are_refused_by_name(name):
    with pytest.raises(UnsupportedError, match="VIPS-M"):
        load_litmus(DATA / "splash2" / f"{name}.rmm")


@pytest.mark.slow
def test_the_whole_folder_holds_memoraxs_verdicts():
    """Every file and model of the manifest, each stopped at its first violation (``run -q``)."""
    suite = load_suite(DATA)
    assert len(suite.tests) == 10
    for entry in suite.tests:
        for model in ("sc", "tso", "pso"):
            want = suite.expect[(entry.key, model)].word
            got = run_test(entry.path, model, engine="explorer", collect="verdict")
            assert ("Allowed" if got.positive else "Forbidden") == want, (entry.key, model)
