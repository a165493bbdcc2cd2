"""Values computed through memory (counters): the domains settle, every outcome is found."""

from __future__ import annotations

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

PLAIN = """LISA counters
{ }
 P0                | P1                | P2                ;
 r[] r0 x          | r[] r0 x          | r[] r0 x          ;
 mov r1 (add r0 1) | mov r1 (add r0 1) | mov r1 (add r0 1) ;
 w[] x r1          | w[] x r1          | w[] x r1          ;
exists (x=1)
"""

ATOMIC = """LISA atomic-counters
{ }
 P0                     | P1                     | P2                     ;
 rmw[] r0 (add r0 1) x  | rmw[] r0 (add r0 1) x  | rmw[] r0 (add r0 1) x  ;
exists (x=1 \\/ x=2)
"""


def test_three_plain_increments_can_lose_updates_under_sc():
    # enumerated by hand: the last write can carry 1, 2 or 3 depending on what it read
    r = check(parse_litmus(PLAIN, "c.litmus"), load_model("sc"))
    assert {s.text() for s in r.states} == {"x=1;", "x=2;", "x=3;"}
    assert r.verdict == "Allowed"


def test_three_atomic_increments_always_sum():
    for model in ("sc", "tso", "rmo", "relaxed", "dotnet"):
        r = check(parse_litmus(ATOMIC, "a.litmus"), load_model(model))
        assert {s.text() for s in r.states} == {"x=3;"}, model
        assert r.verdict == "Forbidden"
