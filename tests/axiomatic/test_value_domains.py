"""Values computed through memory (counters): the domains settle, every outcome is found."""

from __future__ import annotations

import pytest

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


# P0 reads x, then writes 1 through EBX = x + EAX. The domain of x is {0, 1} (the write
# stores 1), so the checker also walks the path where EAX = 1 -- whose address x+1 is not
# supported. But no execution takes it: the read cannot take P0's own later write
# (coherence), so EAX = 0 and the write goes to x (by hand; the explorer agrees).
ADDRESS_ONLY_BAD_ON_AN_IMPOSSIBLE_PATH = """X86 off
{ 0:EBX=x; }
 P0           ;
 MOV EAX,[x]  ;
 ADD EBX,EAX  ;
 MOV [EBX],$1 ;
locations [x;]
exists (0:EAX=1)
"""


def test_an_unsupported_value_on_a_path_no_execution_takes_is_no_error():
    from mmdsl.explorer import explore

    program = parse_litmus(ADDRESS_ONLY_BAD_ON_AN_IMPOSSIBLE_PATH, "off.litmus")
    for run in (check, explore):
        result = run(program, load_model("sc"))
        assert {s.text() for s in result.states} == {"0:EAX=0; x=1;"}, run


def test_an_unsupported_value_an_execution_computes_is_reported_where_it_is_computed():
    from mmdsl.core.errors import UnsupportedError
    from mmdsl.explorer import explore

    # now another thread writes 1 to x first: EAX = 1 happens, and so does x+1
    text = ADDRESS_ONLY_BAD_ON_AN_IMPOSSIBLE_PATH.replace(" P0           ;", " P0           | P1         ;")
    text = text.replace(" MOV EAX,[x]  ;", " MOV EAX,[x]  | MOV [x],$1 ;")
    text = text.replace(" ADD EBX,EAX  ;", " ADD EBX,EAX  |            ;")
    text = text.replace(" MOV [EBX],$1 ;", " MOV [EBX],$1 |            ;")
    program = parse_litmus(text, "off.litmus")
    for run in (check, explore):
        with pytest.raises(UnsupportedError, match="only \\+0") as info:
            run(program, load_model("sc"))
        assert info.value.pos.line in (5, 6), run  # the ADD (explorer) or the store through EBX
    # a register holding x plus a value read, never used as an address: still located
    never_used = "X86 fin\n{ 0:EBX=x; y=1; }\n P0 ;\n MOV EAX,[y] ;\n ADD EBX,EAX ;\nexists (0:EAX=1)\n"
    with pytest.raises(UnsupportedError, match="ADD EBX,EAX") as info:
        check(parse_litmus(never_used, "fin.litmus"), load_model("sc"))
    assert (info.value.pos.line, info.value.pos.col) == (5, 2)
