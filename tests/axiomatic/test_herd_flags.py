"""A cat model's `flag` checks are reported as herd reports them: a `Flag NAME` line.

herd7 prints `Flag NAME` (after the witness counts) for each flag of the model that holds
on some execution the model allows: `Flag data-race` for the Linux-kernel tests with
racing plain accesses, `Flag Assuming-common-inner-shareable-domain` for AArch64 tests
with shareability options. Expectations: herd7 7.58's outputs committed beside the tests
(litmus/linux/ORIGIN.md, litmus/aarch64/ORIGIN.md). herd's cats are read from
../shared/reference/herd-cats; the tests skip when it is absent.
"""

from __future__ import annotations

import pytest
from refdata import ROOT, SHARED_REFERENCE, outcome

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
LINUX = ROOT / "litmus" / "linux" / "tests"
AARCH64 = ROOT / "litmus" / "aarch64" / "tests"
pytestmark = pytest.mark.skipif(not (HERD_CATS / "linux-kernel.bell").is_file(),
                                reason=f"herd's cats are not in {HERD_CATS}")


def _flags(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Flag ")]


def _disagreements(model, pairs) -> list:
    out = []
    for test, expected in pairs:
        want = _flags(expected.read_text())
        got = _flags(herd_block(check(load_litmus(test), model), show_time=False))
        if got != want:
            out.append((test.name, got, want))
    return out


def _linux(names):
    return [(LINUX / f"{n}.litmus", LINUX / f"{n}.litmus.linux-kernel.expected") for n in names]


def test_the_data_race_flag_is_printed_where_herd_prints_it():
    model = load_model(str(HERD_CATS / "linux-kernel.cat"))
    # two racing tests, and tests without a race (locks: lock.cat's flags are not reported)
    names = ["MP+plains", "MP+poonceplain+poonceplain", "MP+pooncerelease+poacquireonce", "MP+polocks",
             "SB+xchgs", "RCU+sync+read"]
    assert _disagreements(model, _linux(names)) == []
    text = herd_block(check(load_litmus(LINUX / "MP+plains.litmus"), model), show_time=False)
    assert "Positive: 1 Negative: 3\nFlag data-race\nCondition exists" in text
    # lock.cat's validity flags are reported (herd's M leaves lock events out: cat_linux),
    # but lock-final, which reads FW (herd's holds the observed locations' final writes only)
    assert {"data-race", "mixed-accesses", "mixed-lock-accesses", "unpaired-LKW", "unmatched-unlock"} <= \
        {f.name for f in model.flags}
    # and the bell's srcu-bad-nesting: different-values of srcu-rscs, empty without SRCU events
    assert "srcu-bad-nesting" in {f.name for f in model.flags}
    assert model.flags_skipped == ["lock-final"]


def test_lock_cats_flags_fire_where_herd_fires_them():
    """A plain write to a spinlock: herd7 7.58 (-conf linux-kernel.cfg's bell, macros,
    variant) prints Flag mixed-lock-accesses, and not lock-final (the lock is not observed).
    Its witness counts (2 2) are not mmdsl's (1 1): see docs/cat.md."""
    model = load_model(str(HERD_CATS / "linux-kernel.cat"))
    data = ROOT / "tests" / "axiomatic" / "data" / "lock-flags"
    text = herd_block(check(load_litmus(data / "LockMixed.litmus"), model), show_time=False)
    herd = (data / "LockMixed.herd.txt").read_text()
    assert "Flag mixed-lock-accesses\n" in text and "lock-final" not in text
    assert "Flag mixed-lock-accesses\n" in herd and "lock-final" not in herd
    (states, ok, _, observation), want = outcome(text), outcome(herd)
    assert (states, ok, observation) == (want[0], want[1], want[3])


def test_aarch64_flags_are_printed_where_herd_prints_them():
    model = load_model(str(HERD_CATS / "aarch64.cat"))
    hand = AARCH64 / "hand"
    names = ["MP+dmb.ishst+dmb.ishld", "SB+dsb.sys", "MP+dmb.oshst+addr-x"]
    pairs = [(hand / f"{n}.litmus", hand / f"{n}.litmus.aarch64.expected") for n in names]
    assert _disagreements(model, pairs) == []
    assert _flags(pairs[0][1].read_text()) == ["Flag Assuming-common-inner-shareable-domain"]


@pytest.mark.slow
def test_every_linux_test_gives_herds_flags():  # about 3 s of CPU
    model = load_model(str(HERD_CATS / "linux-kernel.cat"))
    names = [f.name[:-len(".litmus")] for f in sorted(LINUX.glob("*.litmus"))]
    assert _disagreements(model, _linux(names)) == []
