"""The core IR's arithmetic: C's integer operators, and what addresses allow."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.core.program import apply_op


@pytest.mark.parametrize("a, b, quotient, remainder", [
    # ISO C 6.5.5: the quotient is truncated toward zero and (a/b)*b + a%b == a
    (7, 2, 3, 1),
    (-7, 2, -3, -1),
    (7, -2, -3, 1),
    (-7, -2, 3, -1),
    (-(2 ** 63), 3, -3074457345618258602, -2),  # exact at the 64-bit edge, no float on the way
])
def test_division_and_remainder_follow_c(a, b, quotient, remainder):
    assert apply_op("div", a, b) == quotient
    assert apply_op("mod", a, b) == remainder
    assert quotient * b + remainder == a


def test_address_arithmetic_only_adds_zero():
    assert apply_op("add", "x", 0) == "x" and apply_op("add", 0, "x") == "x"
    assert apply_op("sub", "x", 0) == "x"
    with pytest.raises(UnsupportedError):
        apply_op("sub", 0, "x")  # 0 - &x is not the address of x
    with pytest.raises(UnsupportedError):
        apply_op("add", "x", 1)
