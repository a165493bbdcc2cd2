"""Fence selection reads the model's dependencies: under SPARC RMO a control dependency
does not order two loads, so MP+mb+ctrl needs membar #LoadLoad in the reader (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.explorer_selector import ExplorerSelector
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

DATA = Path(__file__).resolve().parents[1] / "explorer" / "data"


def _methods(program, model):
    return {
        "cycles": select_fences(program, model, FenceOptions()),
        "traces": ExplorerSelector(program, model, FenceOptions()).run(),
        "cut": select_fences(program, model, FenceOptions(method="cut")),
    }


@pytest.mark.parametrize("method", ["cycles", "traces", "cut"])
def test_mp_mb_ctrl_needs_a_load_load_fence_under_rmo(method):
    program = load_litmus(DATA / "MP+mb+ctrl.litmus")
    sel = _methods(program, load_model("rmo"))[method]
    assert sel.status == "OPTIMAL"
    assert [(c.place.tid, c.kind.name) for c in sel.fences] == [(1, "ll")]
    assert sel.cost == 2
    assert sel.after.verdict == "Forbidden"


@pytest.mark.parametrize("method", ["cycles", "traces", "cut"])
def test_lb_ctrls_needs_no_fence_under_rmo(method):
    """A control dependency does keep a store after the load (ctrl: R * W)."""
    program = load_litmus(DATA / "LB+ctrls.litmus")
    sel = _methods(program, load_model("rmo"))[method]
    assert sel.fences == [] and sel.cost == 0
