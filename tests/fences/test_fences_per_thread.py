"""Fence selection under per-thread propagation models (power, armv7): which route, and what is refused.

Loop-free tests run on the axiomatic checker (test_fences_hardware.py); programs with
loops, state properties and --spec serial on the explorer with grown failing sets
(test_fences_per_thread_explorer.py); --method cut, whose edges are the one-memory
machine's overtakings, is refused by name at the model's `propagation per-thread` line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["power", "armv7"])
def test_per_thread_models_select_on_the_checker(name):
    # before issue 11 part 4: refused at the propagation line
    program = load_litmus(ROOT / "litmus" / "hardware" / "SB.litmus")
    sel = select_fences(program, load_model(name), FenceOptions())
    assert sel.status == "OPTIMAL" and sel.engine == "axiomatic" and sel.after.verdict == "Forbidden"


@pytest.mark.parametrize("name", ["power", "armv7"])
def test_the_explorer_path_is_refused_by_name_at_the_propagation_line(name):
    program = load_litmus(ROOT / "litmus" / "hardware" / "SB.litmus")
    with pytest.raises(UnsupportedError) as err:
        select_fences(program, load_model(name), FenceOptions(method="cut"))
    assert "propagation per-thread" in err.value.message and "--method cut" in err.value.message
    assert err.value.pos is not None and err.value.pos.file.endswith(f"{name}.mm") and err.value.pos.line > 1
