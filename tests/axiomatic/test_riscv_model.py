"""models/riscv.mm and the store-conditional: herd's verdicts on corpus tests, one ppo rule at a time."""

from __future__ import annotations

import pytest
from refdata import riscv_corpus

from mmdsl.axiomatic import check
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

ROWS = {r["path"]: r for r in riscv_corpus()}


def herd(path: str) -> tuple[str, str]:
    """(mmdsl's Observation under riscv, herd's) for one bundled corpus test."""
    row = ROWS[path]
    return check(load_litmus(row["file"]), load_model("riscv")).observation, row["riscv.cat"]


# one corpus test per rule or mechanism, most of them ones an earlier version got wrong
PINNED = [
    "tests/HAND/LR-SC-diff-loc1.litmus",         # sc to another location than its lr fails
    "tests/HAND/LR-SC-diff-loc4.litmus",
    "tests/HAND/ISA-DEP-WW-DATA.litmus",         # a successful sc's status depends on its write
    "tests/HAND/LB+data+datapx-dataxp.litmus",
    "tests/HAND/Andy25.litmus",
    "tests/HAND/PPOLDSTLD02.litmus",
    "tests/FENCE.TSO/RMW/RR+RR+rmw-fence.tsos.litmus",  # an AMO is one event in herd
    "tests/HAND/MP+fence.rw.rw+data-amoswap-addr.litmus",
    "tests/HAND/ISA-Rel-Acq.litmus",
    "tests/SINGLE_INST/amoswap.w.aq.rl.litmus",  # an AMO cannot read its own write (Always)
    "tests/HAND/ISA03.litmus",                   # once 85 s: the lifted axioms must stay prunable
    "tests/SAFE/MP+[ws-rf]-ctrlfencei+ctrlfencei.litmus",  # fence.i orders nothing
]


@pytest.mark.parametrize("path", PINNED)
def test_pinned_corpus_tests_give_herds_observation(path):
    got, want = herd(path)
    assert got == want


def sample(every: int = 50) -> list[str]:
    """A deterministic sample of about 100 corpus tests: every 50th path in sorted order."""
    return sorted(ROWS)[::every]


def test_a_sample_of_the_corpus_gives_herds_observation():
    paths = sample()
    assert 95 <= len(paths) <= 110
    wrong = [(p, *herd(p)) for p in paths if herd(p)[0] != herd(p)[1]]
    assert wrong == []


# the whole corpus: tests/suite/test_bundled_suites.py::test_riscv_corpus_passes_under_riscv (slow)


SC_PAIR = """RISCV sc
{ 0:x6=x; 0:x9=y; 0:x7=1; }
 P0 ;
 lr.w x5,0(x6) ;
 sc.w x8,x7,0(%s) ;
exists (0:x8=0 /\\ x=1)
"""


def test_store_conditional_fails_or_succeeds_paired_with_its_lr():
    p = parse_litmus(SC_PAIR % "x6", "sc.litmus")
    r = check(p, load_model("riscv"))
    assert sorted(s.text() for s in r.states) == ["0:x8=0; x=1;", "0:x8=1; x=0;"]


def test_store_conditional_to_another_location_only_fails():
    r = check(parse_litmus(SC_PAIR % "x9", "sc.litmus"), load_model("riscv"))
    assert r.observation == "Never"


def test_the_explorer_runs_riscv_and_store_conditionals():
    """Both were refused by name before the explorer knew RVWMO and lr/sc (issue 10, part 4)."""
    for sc_reg in ("x6", "x9"):
        p = parse_litmus(SC_PAIR % sc_reg, "sc.litmus")
        for model in ("riscv", "sc"):
            m = load_model(model)
            assert explore(p, m).state_set() == check(p, m).state_set()


def test_a_read_whose_location_differs_between_paths_keeps_its_own_location():
    """P1's lr is of x or of z (its address is a pointer P1 loads). The thread walker kept one
    location per read index for all paths, so the sc paired with the lr of x saw the lr of z
    and could only fail: the state with the sc succeeding (y=0) after reading p=x was lost."""
    p = load_litmus(ROWS["tests/HAND/ISA-S-DEP-ADDR-SUCCESS.litmus"]["file"])
    states = {s.text() for s in check(p, load_model("riscv")).states}
    assert states == {"1:a0=x; y=0;", "1:a0=x; y=1;", "1:a0=z; y=0;", "1:a0=z; y=1;", "1:a0=z; y=2;"}
