"""A read may read from an earlier data-dependent write of its own thread (no false thin-air cycle)."""

from __future__ import annotations

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

# P0 reads y, writes back what it read, reads y again; P1 writes y=1 twice.
# Under SC, enumerating the interleavings by hand gives exactly four final states:
#   a b c d e          -> r0=0 r1=0 y=1
#   a b c, then P1 ... -> the same;  d a b c e -> r0=1 r1=1 y=1
#   a d e b c          -> r0=0 r1=0 y=0  (P0's write of 0 is the last one)
#   a d b e c / a b d c e ... -> r0=0 r1=1 y=1
WRITE_BACK = """LISA write-back
{
}
 P0       | P1      ;
 r[] r0 y | w[] y 1 ;
 w[] y r0 | w[] y 1 ;
 r[] r1 y |         ;
locations [0:r0; 0:r1; y;]
exists (0:r0=0 /\\ 0:r1=0 /\\ y=0)
"""


def test_write_back_under_sc_has_the_four_interleaving_outcomes():
    result = check(parse_litmus(WRITE_BACK), load_model("sc"))
    assert {s.text() for s in result.states} == {
        "0:r0=0; 0:r1=0; y=0;",
        "0:r0=0; 0:r1=0; y=1;",
        "0:r0=0; 0:r1=1; y=1;",
        "0:r0=1; 0:r1=1; y=1;",
    }
    assert result.verdict == "Allowed"


# Two atomic increments: the value domain of x grows by one per write (0, 1, 2), which
# the domain fixpoint must follow to the end instead of giving up.
FAA = """LISA FAA
{
}
 P0                    | P1                    ;
 rmw[] r0 (add r0 1) x | rmw[] r0 (add r0 1) x ;
locations [x;]
exists (0:r0=0 /\\ 1:r0=0)
"""

LOCKED_INCREMENTS = """C locked-increments
{ counter = 0; l = 0; }

P0(int *counter, spinlock_t *l)
{
    spin_lock(l);
    *counter = *counter + 1;
    spin_unlock(l);
}

P1(int *counter, spinlock_t *l)
{
    spin_lock(l);
    *counter = *counter + 1;
    spin_unlock(l);
}

exists (counter=1)
"""


def test_two_fetch_and_adds_under_sc_end_at_2_with_different_old_values():
    result = check(parse_litmus(FAA), load_model("sc"))
    assert {s.text() for s in result.states} == {"0:r0=0; 1:r0=1; x=2;", "0:r0=1; 1:r0=0; x=2;"}


def test_increments_under_a_lock_are_never_lost_under_sc():
    result = check(parse_litmus(LOCKED_INCREMENTS), load_model("sc"))
    assert {s.text() for s in result.states} == {"counter=2;"}


# p holds the address of x, and x is named nowhere else: x must still be a location with
# its initial write (herd: one execution, the second read takes x's initial 0 -- or the
# 1 P1 writes through its own copy of the pointer)
POINTER_ONLY_IN_INIT = """LISA pointer-in-init
{ p = x; 1:r5 = x; }
 P0         | P1        ;
 r[] r0 p   | w[] r5 1  ;
 r[] r1 r0  |           ;
exists (0:r1=1)
"""


def test_a_location_known_only_as_a_pointer_value_is_initialised():
    result = check(parse_litmus(POINTER_ONLY_IN_INIT), load_model("sc"))
    assert {s.text() for s in result.states} == {"0:r1=0;", "0:r1=1;"}
    assert (result.positive, result.negative) == (1, 1)
    single = POINTER_ONLY_IN_INIT.replace("1:r5 = x; ", "").replace("| w[] r5 1  ", "|           ")
    result = check(parse_litmus(single), load_model("sc"))
    assert {s.text() for s in result.states} == {"0:r1=0;"}
