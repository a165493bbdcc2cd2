"""herd's linux-kernel.cat (with linux-kernel.bell, lock.cat) on the C11 tests of litmus/c11: herd's output.

herd makes a C11 RMW (atomic_exchange, atomic_fetch_*, a successful compare_exchange) one
event, and lock.cat's ``let fr = rf^-1 ; co`` keeps that event's pair with itself, so
every execution of a test with one fails ``coherence`` (herd7: States 0, Never 0 0).
mmdsl read linux-kernel.cat over its two-event RMWs and found executions (a2: Always 2 0);
it now reads it over merged halves on such a test (lang/cat_rmw.py, Model.kernel_locks).

The .cat and .bell files are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B,
and the Linux kernel's tools/memory-model, GPL-2.0; not copied into the repository); every
test here skips, saying so, when that folder is absent. Expectations: herd7 7.58's whole
output per test, tests/axiomatic/data/c11-lkmm (NOTE.md, regenerate.sh).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, herd_outputs_file, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.litmus.loader import parse_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
LKMM = HERD_CATS / "linux-kernel.cat"
DATA = Path(__file__).parent / "data" / "c11-lkmm" / "lkmm.c11.herd.txt"
pytestmark = pytest.mark.skipif(not LKMM.is_file() or not (HERD_CATS / "linux-kernel.bell").is_file(),
                                reason=f"herd's linux-kernel.cat and .bell are not in {HERD_CATS}")

_MODEL: list = []


def _model():
    if not _MODEL:
        _MODEL.append(load_model(str(LKMM)))
    return _MODEL[0]


# C11's memory_order_acquire/release are herd's 'Acq/'Rel annotations, not linux-kernel.bell's
# 'acquire/'release: herd's Acquire and Release hold none of them, mmdsl's (one "acq"/"rel"
# annotation for both dialects) hold them (MP+ra: herd Sometimes, mmdsl Never). Not fixed yet.
C11_ORDER_GAP = {f"litmus/c11/tests/{t}.litmus" for t in (
    "cas/MP+cas-fail-acq", "herd/c11popl15/a1", "herd/c11popl15/a3", "herd/demo/mp-c11-rel-acq",
    "rmw/MP+rel+rs-store-rlx+acq", "variants/ISA2+ra", "variants/LB+ra", "variants/MP+ra",
    "variants/S+ra", "variants/WRC+ra", "variants/WWC+ra")}
# refused by name (thin-air values with unsequenced reads, as under every cat model)
REFUSED = {"litmus/c11/tests/herd/c11popl15/linearisation.litmus", "litmus/c11/tests/herd/instructions/C13.litmus"}


def got_and_want(f: str, text: str) -> tuple:
    return outcome(herd_block(check(load_litmus(ROOT / f), _model()), show_time=False)), outcome(text)


def disagreements(every: int = 1, only=None) -> list[tuple]:
    wrong = []
    herd = sorted(herd_outputs_file(DATA).items())
    for f, text in herd[::every]:
        if f in C11_ORDER_GAP | REFUSED or (only is not None and f not in only):
            continue
        got, want = got_and_want(f, text)
        if got != want:
            wrong.append((f, got[1:], want[1:]))
    return wrong


def rmw_tests() -> list[str]:
    return [f for f, text in sorted(herd_outputs_file(DATA).items()) if "States 0\n" in text]


def test_the_data_covers_litmus_c11_and_its_rmw_tests_have_no_execution_in_herd():
    herd = herd_outputs_file(DATA)
    assert len(herd) == 171
    assert len(rmw_tests()) == 32
    assert "Observation a2 Never 0 0" in herd["litmus/c11/tests/herd/c11popl15/a2.litmus"]
    assert C11_ORDER_GAP | REFUSED <= set(herd)


def test_every_c11_rmw_test_has_no_execution_as_in_herd():
    # before: a2 Always 2 0, counter+load-store Sometimes ... against herd's Never 0 0
    assert disagreements(only=set(rmw_tests())) == []


def test_every_8th_c11_test_gives_herds_states_counts_and_observation():
    assert disagreements(every=8) == []


@pytest.mark.slow
def test_every_c11_test_gives_herds_states_counts_and_observation():
    assert disagreements() == []


@pytest.mark.xfail(strict=True, reason="C11 acquire/release read as the kernel's 'acquire/'release (C11_ORDER_GAP)")
def test_c11_acquire_release_are_not_the_kernels():
    f = "litmus/c11/tests/variants/MP+ra.litmus"
    got, want = got_and_want(f, herd_outputs_file(DATA)[f])
    assert got == want


def test_the_refused_tests_are_refused_by_name():
    for f in sorted(REFUSED):
        with pytest.raises(UnsupportedError, match="thin air"):
            check(load_litmus(ROOT / f), _model())


def test_a_c11_rmw_beside_a_spin_lock_is_refused_by_name():
    text = """C lock+faa
{}
P0(spinlock_t *l, atomic_int *x)
{
  spin_lock(l);
  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_relaxed);
  spin_unlock(l);
}
exists (0:r0=1)
"""
    with pytest.raises(UnsupportedError, match="spin_lock") as err:
        check(parse_litmus(text, "lock+faa.litmus"), _model())
    assert err.value.pos is not None and err.value.pos.line == 5
