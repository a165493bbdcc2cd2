"""herd's lock.cat alone (no Linux-kernel bell), against herd7 7.58 on the Linux-kernel and C11 sets.

A model that names herd's spinlock event sets (LKR, LKW, LF) reads herd's built-ins the
Linux-kernel way (cat_linux) whether or not the kernel's bell is beside it; its
``with rfe-lf from cross(...)`` over the execution's failed trylocks is the candidates'
reads-from of those reads, its ``with rfe-ru from cross(...)`` over spin_is_locked reads
(none in mmdsl's C) is ``{0}``, computed at load time. herd7's whole outputs:
tests/axiomatic/data/stock-cats/lock-linux.herd.txt and lock-c11.herd.txt (regenerate.sh
there). herd's cats are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B;
lock.cat GPL-2.0+): skipped when absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, herd_outputs_file, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
DATA = Path(__file__).parent / "data" / "stock-cats"
pytestmark = pytest.mark.skipif(not (HERD_CATS / "lock.cat").is_file(),
                                reason=f"herd's stock models are not in {HERD_CATS}")
# spinlocks, trylocks (failed ones read a lock write: the cross), a trylock in a critical section
SAMPLE = ["MP+polocks", "MP+polockonce+trylock", "MP+trylock-in-critical", "SB+trylocks",
          "ISA2+pooncelock+pooncelock+pombonce", "MP+lockcounter"]


def _compare(files: list[str], herd: dict[str, str]) -> tuple[list, list]:
    model = lower_cat_file(HERD_CATS / "lock.cat", [HERD_CATS])
    wrong, refused = [], []
    for f in files:
        try:
            got = outcome(herd_block(check(load_litmus(ROOT / f), model), show_time=False))
        except UnsupportedError as err:
            refused.append((Path(f).name, err.message))
            continue
        if got != outcome(herd[f]):
            wrong.append((f, got[1:], outcome(herd[f])[1:]))
    return wrong, refused


def test_lock_tests_give_herds_states_counts_and_observation():
    herd = herd_outputs_file(DATA / "lock-linux.herd.txt")
    assert _compare([f"litmus/linux/tests/{n}.litmus" for n in SAMPLE], herd) == ([], [])


@pytest.mark.slow
def test_every_linux_and_c11_test_gives_herds_states_counts_and_observation():  # about 1 min of CPU
    herd = herd_outputs_file(DATA / "lock-linux.herd.txt") | herd_outputs_file(DATA / "lock-c11.herd.txt")
    # herd7 stops on two C11 tests (fig6, fig6_translated: "Procedure call atomic_store")
    files = sorted(f for f, text in herd.items() if "\nObservation " in text)
    assert len(herd) == 82 + 173 and len(files) == 82 + 171
    wrong, refused = _compare(files, herd)
    assert wrong == []
    # executions whose values come out of thin air, refused by name (herd prints them symbolically)
    assert sorted(n for n, _ in refused) == ["C13.litmus", "LB+dataonceonces.litmus", "linearisation.litmus"]
    assert all("thin air" in why for _, why in refused)


def test_a_model_naming_the_spinlock_sets_reads_them_herds_way(tmp_path):
    """Without the kernel's bell: LKR is a spin_lock's read; M leaves lock events out."""
    (tmp_path / "m.cat").write_text('"m"\nflag ~empty LKR as has-lock\nflag ~empty M & LKR as lock-in-M\n')
    model = lower_cat_file(tmp_path / "m.cat", [HERD_CATS])
    text = herd_block(check(load_litmus(ROOT / "litmus/linux/tests/MP+polocks.litmus"), model), show_time=False)
    assert "Flag has-lock\n" in text and "lock-in-M" not in text
