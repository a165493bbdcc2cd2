"""Per-thread explorer: a cumulative fence that orders no read (eieio, dmb st) orders no read.

Before: the fence waited for every access before it (so LB+dmb.sts was forbidden) and its
barrier's group A held every write its thread had seen (so eieio was A-cumulative and
WRC+eieio+sync forbidden). herd7 7.58 allows both (data/write-only-fences/*.herd.out).
"""

from __future__ import annotations

import pytest
from explorer_paths import DATA

from mmdsl.axiomatic import check
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

HERE = DATA / "write-only-fences"


@pytest.mark.parametrize("name,model", [("WRC+eieio+sync", "power"), ("LB+dmb.sts", "armv7")])
def test_herd_allows_and_both_engines_agree(name, model):
    herd = (HERE / f"{name}.herd.out").read_text()
    assert f"Observation {name} Sometimes" in herd
    program = load_litmus(HERE / f"{name}.litmus")
    explored = explore(program, load_model(model))
    assert explored.verdict == "Allowed"
    assert set(explored.states) == set(check(program, load_model(model)).states)
