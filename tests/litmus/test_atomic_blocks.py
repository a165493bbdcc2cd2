"""Atomic blocks: C ``atomic { ... }`` and ``cas2``, Memorax ``locked { ... }``; the model says what they order."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.core.program import AtomicBegin, AtomicEnd
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def c_test(body0: str, body1: str, cond: str, init: str = "x = 0; y = 0;") -> str:
    return (f"C T\n{{ {init} }}\n\nP0(int *x, int *y)\n{{\n{body0}\n}}\n\n"
            f"P1(int *x, int *y)\n{{\n{body1}\n}}\n\n{cond}\n")


def final_states(text: str, model: str, name: str = "t.litmus") -> set:
    ex = explore(parse_litmus(text, name), load_model(model))
    return {s.text() for s in ex.result.state_set()}


def verdict(text: str, model: str, name: str = "t.litmus") -> str:
    return explore(parse_litmus(text, name), load_model(model)).result.verdict


# two increments of x, each also copying the old value of x to y: atomic, no increment is lost
INC = "atomic { int r = *x; *x = r + 1; *y = r; }"
RACY = "int r = *x; *x = r + 1; *y = r;"


@pytest.mark.parametrize("model", ["sc", "tso", "pso", "pso-cas"])
def test_an_atomic_block_over_two_locations_is_indivisible(model):
    assert verdict(c_test(INC, INC, "exists (x=1)"), model) == "Forbidden"
    # y holds the value of x the last block read: 1 (both blocks ran, the second saw 1)
    assert verdict(c_test(INC, INC, "exists (~(x=2 /\\ y=1))"), model) == "Forbidden"
    assert verdict(c_test(RACY, RACY, "exists (x=1)"), model) == "Allowed"


def test_lowering_brackets_the_block():
    p = parse_litmus(c_test(INC, INC, "exists (x=1)"), "t.litmus")
    instrs = p.threads[0].instrs
    begin = next(i for i in instrs if isinstance(i, AtomicBegin))
    assert isinstance(instrs[begin.end], AtomicEnd)


CAS2 = "int ok = cas2(x, y, 0, 0, 1, 2);"


@pytest.mark.parametrize("model", ["sc", "tso", "pso-cas"])
def test_cas2_reports_success_and_writes_both_words_or_neither(model):
    # P1 writes y first: P0's cas2 either succeeds (and writes both) or fails (and writes neither)
    states = final_states(c_test(CAS2, "*y = 5;", "exists (0:ok=1 /\\ x=1 /\\ y=5)"), model)
    assert states == {"0:ok=1; x=1; y=5;", "0:ok=0; x=0; y=5;"}


def test_a_cas_that_is_no_fence_comes_from_the_model():
    # store buffering through atomic blocks: each thread's store, then an atomic read of the other
    # location. tso: an RMW waits for earlier stores (a fence); pso-cas (McSPIN's PSO): it does not.
    sb = c_test("*x = 1; int a; atomic { a = *y; }", "*y = 1; int b; atomic { b = *x; }",
                "exists (0:a=0 /\\ 1:b=0)")
    assert verdict(sb, "tso") == "Forbidden"
    assert verdict(sb, "pso") == "Forbidden"
    assert verdict(sb, "pso-cas") == "Allowed"
    # at the same location the store is performed first (coherence), in every model
    same = c_test("*x = 1; int a; atomic { a = *x; }", "", "exists (0:a=0)")
    assert verdict(same, "pso-cas") == "Forbidden"


def test_nothing_later_passes_an_atomic_block():
    # MP with the writer's flag inside an atomic block and the data store before it
    mp = c_test("*x = 1; atomic { *y = 1; }", "int r0 = *y; int r1 = *x;", "exists (1:r0=1 /\\ 1:r1=0)")
    assert verdict(mp, "tso") == "Forbidden"
    assert verdict(mp, "pso-cas") == "Allowed"  # the earlier store may be performed after the block


LOOSE = """model loose "PSO where later stores may pass an RMW"
class Ld = R \\ RMW
class St = W \\ RMW
class At = RMW
reorder {
          Ld   St   At
    Ld    -    -    -
    St    Y    d    d
    At    -    d    -
}
forwarding own-writes
"""


def test_a_model_letting_accesses_pass_an_atomic_block_is_refused(tmp_path):
    (tmp_path / "loose.mm").write_text(LOOSE)
    with pytest.raises(UnsupportedError, match="before an earlier atomic block"):
        explore(parse_litmus(c_test(INC + " *y = 3;", "", "exists (x=1)"), "t.litmus"),
                load_model(str(tmp_path / "loose.mm")))


def test_the_checker_reads_a_block_as_one_event_of_the_global_order():
    # the block reads y then x; the other thread writes y then x: under sc a non-atomic pair of
    # reads may see x new and y old, a block may not (tests/explorer/test_agreement_atomic_blocks.py)
    racy = c_test("int a; int b; b = *y; a = *x;", "*y = 1; *x = 1;", "exists (0:a=1 /\\ 0:b=0)")
    block = c_test("int a; int b; atomic { b = *y; a = *x; }", "*y = 1; *x = 1;", "exists (0:a=1 /\\ 0:b=0)")
    sc = load_model("sc")
    assert check(parse_litmus(racy, "t.litmus"), sc).verdict == "Allowed"
    assert check(parse_litmus(block, "t.litmus"), sc).verdict == "Forbidden"


RMM = """forbidden
  BAD *
data
  x = 0 : [0:2]
  y = 0 : [0:2]
process
registers
  $a = 0 : [0:2]
  $b = 0 : [0:2]
text
  locked { read: $a := x; read: $b := y; write: x := $a + 1; write: y := $b + 1 };
  read: $a := x; read: $b := y;
  if $a != $b then goto BAD;
  goto END;
  BAD: goto BAD;
  END: nop
process
registers
  $c = 0 : [0:2]
text
  locked { read: x = 0; write: x := 2 or read: $c := y; write: y := 2 }
"""


def reachable(text: str, model: str) -> bool:
    return explore(parse_litmus(text, "t.rmm"), load_model(model), order="bfs", first=True).positive


@pytest.mark.parametrize("model", ["sc", "tso", "pso-cas"])
def test_rmm_locked_blocks_with_alternatives(model):
    # process 0 increments x and y in one block, then reads them; process 1 either sets x to 2
    # (only while x is 0) or y to 2: after process 0's block, y := 2 alone makes them differ
    assert reachable(RMM, model)
    # both set in one block: only while x is 0, before process 0's block, which then cannot
    # store 3 (outside the domain [0:2], so it waits): never split
    same = RMM.replace("locked { read: x = 0; write: x := 2 or read: $c := y; write: y := 2 }",
                       "locked { read: x = 0; write: x := 2; write: y := 2 }")
    assert not reachable(same, model)
