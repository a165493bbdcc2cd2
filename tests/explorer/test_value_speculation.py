"""Value speculation (models that drop addr/data dependencies): agreement with the checker,
the CheckFence-style value ranges."""

from __future__ import annotations

import pytest
from explorer_paths import classic_tests, data_tests

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.explorer.machines.table.ranges import ValueRanges
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

LB_COUNTER = """C counter
{ x = 0; y = 0; }
P0(int *x, int *y) { int r0 = *x; *y = r0 + 1; }
P1(int *x, int *y) { int r1 = *y; *x = r1 + 1; }
exists (0:r0=2 /\\ 1:r1=1)
"""

@pytest.mark.parametrize("path", classic_tests()[::4] + data_tests(), ids=lambda p: p.stem)
def test_checkfence_agrees_with_the_checker(path):
    program = load_litmus(path)
    model = load_model("checkfence")
    try:
        expected = check(program, model, collect="none").state_set()
    except UnsupportedError as err:  # LB+datas: a value cycle the checker refuses (thin air)
        pytest.skip(err.message)
    assert explore(program, model).state_set() == expected


def test_ranges_bound_values_by_the_operations_of_loop_free_code():
    """Two increments in the code: no value of an execution passes through more than two,
    so x and y range over 0..2 (CheckFence's bound), and LB's counter outcome is explored."""
    program = parse_litmus(LB_COUNTER)
    ranges = ValueRanges(program, sorted(program.locations))
    assert ranges.limit == 2
    assert set(ranges.guesses(0, 1)) == {1, 2}
    # every execution without a value cycle (r0 = r1 + 1 and r1 = r0 + 1 has no solution)
    found = explore(program, load_model("checkfence")).state_set()
    assert sorted(s.text() for s in found) == ["0:r0=0; 1:r1=0;", "0:r0=0; 1:r1=1;", "0:r0=1; 1:r1=0;"]

