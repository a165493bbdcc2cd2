"""The axiomatic checker refuses, by name, a program whose condition is a property of every state."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

BENCHMARKS = Path(__file__).resolve().parents[2] / "litmus" / "fence-benchmarks"


def test_check_refuses_a_memorax_forbidden_tuple_instead_of_judging_final_states():
    # Peterson's loop-free prefix would have no final state at the critical section: a
    # checker that judged final states would call mutual exclusion 'held' whatever the model
    program = load_litmus(BENCHMARKS / "peterson.rmm")
    assert program.state_property
    with pytest.raises(UnsupportedError, match="axiomatic checker judges final states only"):
        check(program, load_model("tso"))
