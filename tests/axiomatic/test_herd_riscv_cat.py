"""herd's stock riscv.cat, loaded unchanged, gives herd's Observation on the RISC-V corpus.

riscv.cat and its includes (riscv-defs.cat, cos-opt.cat, cross.cat, stdlib.cat) are read
from ../shared/reference/herd-cats (herdtools7, CeCILL-B; not copied into the
repository); every test here skips, saying so, when that folder is absent. Expectations:
the corpus's verdicts.csv (herd7 7.58 under this very riscv.cat).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from refdata import SHARED_REFERENCE, riscv_corpus

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus, parse_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
RISCV_CAT = HERD_CATS / "riscv.cat"
pytestmark = pytest.mark.skipif(not RISCV_CAT.is_file(), reason=f"herd's riscv.cat is not in {HERD_CATS}")

ROWS = {r["path"]: r for r in riscv_corpus()}

# the corpus tests tests/axiomatic/test_riscv_model.py pins for models/riscv.mm, and more:
# one per mechanism riscv.cat reads through a built-in set
PINNED = [
    "tests/HAND/LR-SC-diff-loc1.litmus",         # sc to another location than its lr fails
    "tests/HAND/LR-SC-diff-loc4.litmus",
    "tests/HAND/ISA-DEP-WW-DATA.litmus",         # a successful sc's status depends on its write
    "tests/HAND/LB+data+datapx-dataxp.litmus",   # X: lr and sc
    "tests/HAND/Andy25.litmus",
    "tests/HAND/PPOLDSTLD02.litmus",
    "tests/FENCE.TSO/RMW/RR+RR+rmw-fence.tsos.litmus",  # an AMO is one event in herd; Fence.tso
    "tests/HAND/MP+fence.rw.rw+data-amoswap-addr.litmus",
    "tests/HAND/ISA-Rel-Acq.litmus",             # Acq, Rel
    "tests/SINGLE_INST/amoswap.w.aq.rl.litmus",  # an AMO cannot read its own write (Always)
    "tests/HAND/ISA03.litmus",
    "tests/SAFE/MP+[ws-rf]-ctrlfencei+ctrlfencei.litmus",  # fence.i orders nothing
]


def riscv_cat():
    return load_model(str(RISCV_CAT))


def _wrong(paths: list[str]) -> list[tuple]:
    model = riscv_cat()
    out = []
    for p in paths:
        row = ROWS[p]
        got = check(load_litmus(row["file"]), model, collect="none").observation
        if got != row["riscv.cat"]:
            out.append((p, got, row["riscv.cat"]))
    return out


@pytest.mark.parametrize("path", PINNED)
def test_pinned_corpus_tests_give_herds_observation(path):
    assert _wrong([path]) == []


def test_a_sample_of_the_corpus_gives_herds_observation():
    paths = sorted(ROWS)[::50]  # the sample test_riscv_model.py checks models/riscv.mm on
    assert 95 <= len(paths) <= 110
    assert _wrong(paths) == []


@pytest.mark.slow
def test_the_whole_corpus_gives_herds_observation():
    """5,051 tests in 2 processes: about 45 s on an idle 2-core machine, 90 s on a busy one."""
    paths = sorted(ROWS)
    assert len(paths) == 5051
    jobs = min(2, os.cpu_count() or 1)
    chunks = [paths[k::jobs] for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        wrong = [w for part in pool.map(_wrong, chunks) for w in part]
    assert wrong == []


FENCED = """RISCV MPf
{ 0:x5=x; 0:x6=y; 1:x5=x; 1:x6=y; 0:x7=1; }
 P0 | P1 ;
 sw x7,0(x5) | lw x8,0(x6) ;
 fence %s | fence %s ;
 sw x7,0(x6) | lw x9,0(x5) ;
exists (1:x8=1 /\\ 1:x9=0)
"""


@pytest.mark.parametrize("first, second, word", [
    ("w,w", "r,r", "Never"), ("rw,rw", "rw,rw", "Never"), ("r,r", "r,r", "Sometimes"),
    ("w,w", "w,w", "Sometimes"), ("w,rw", "r,rw", "Never"), ("rw,r", "rw,r", "Sometimes"),
])
def test_each_fence_set_is_the_dialects_fence_of_that_kind(first, second, word):
    p = parse_litmus(FENCED % (first, second), "MPf.litmus")
    assert check(p, riscv_cat(), collect="none").observation == word
    assert check(p, load_model("riscv"), collect="none").observation == word


@pytest.mark.parametrize("first, second, word", [
    ("iorw,iorw", "iorw,iorw", "Never"), ("ow,iw", "ir,r", "Never"), ("i,o", "i,o", "Sometimes"),
])
def test_device_bits_of_a_fence_order_no_memory_access(first, second, word):
    """fence iorw,iorw (a bare fence) is herd's Fence.rw.rw: i and o order devices."""
    p = parse_litmus(FENCED % (first, second), "MPf.litmus")
    assert check(p, riscv_cat(), collect="none").observation == word


def test_riscv_cat_merges_the_halves_of_an_amo_only_in_its_acyclic_checks():
    m = lower_cat_file(RISCV_CAT, [HERD_CATS])
    by_name = {a.name: a for a in m.axioms}
    assert {"Coherence", "Model", "Atomic"} <= set(by_name)
    for name in ("Coherence", "Model"):
        assert "AMO" in by_name[name].expr.names()
    assert "AMO" not in by_name["Atomic"].expr.names()
