"""Fence selection refuses per-thread propagation models (power, armv7) at the model's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["power", "armv7"])
def test_per_thread_models_are_refused_by_name_at_their_propagation_line(name):
    # before: an error with no place (the generated observation axiom has none), which
    # the fuzz test caught; now the model's `propagation per-thread` line is named
    program = load_litmus(ROOT / "litmus" / "hardware" / "SB.litmus")
    with pytest.raises(UnsupportedError) as err:
        select_fences(program, load_model(name), FenceOptions())
    assert "propagation per-thread" in err.value.message
    assert err.value.pos is not None and err.value.pos.file.endswith(f"{name}.mm") and err.value.pos.line > 1
