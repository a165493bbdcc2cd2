"""herd's stock rc11.cat, loaded unchanged, gives herd's results on the C11 tests of litmus/c11.

rc11.cat and its includes (cos.cat, cos-no-opt.cat, cross.cat, stdlib.cat) are read from
../shared/reference/herd-cats (herdtools7, CeCILL-B; not copied into the repository);
every test here skips, saying so, when that folder is absent. Expectations:
litmus/c11/herd-verdicts.csv (herd7 7.58 under this very rc11.cat, see litmus/c11/ORIGIN.md):
the Observation, the witness counts and every final state.
"""

from __future__ import annotations

import csv
import hashlib
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
RC11_CAT = HERD_CATS / "rc11.cat"
SUITE = ROOT / "litmus" / "c11"
pytestmark = pytest.mark.skipif(not RC11_CAT.is_file(), reason=f"herd's rc11.cat is not in {HERD_CATS}")

with open(SUITE / "herd-verdicts.csv", newline="") as _f:
    ROWS = {r["path"]: r for r in csv.DictReader(_f) if r["model"] == "rc11.cat"}

# one test per mechanism of rc11.cat the C sets feed
PINNED = [
    "tests/variants/MP+ra.litmus",            # REL/ACQ: sw
    "tests/variants/MP+rlx.litmus",           # RLX: no sw
    "tests/variants/SB+sc.litmus",            # SC accesses: psc
    "tests/variants/SB+rlx+scf.litmus",       # F & SC: pscf
    "tests/variants/MP+rlx+arf.litmus",       # ACQ_REL fences: sw through fences
    "tests/variants/SB+xchg-sc.litmus",       # RMWs: rmw, release sequences, atomicity
    "tests/variants/LB+rlx.litmus",           # no-thin-air: acyclic sb | rf
    "tests/variants/MP+na.litmus",            # plain accesses: a data race (herd: Undef), same states
    "tests/herd/demo/mp-c11-rel-acq.litmus",  # NA data, REL/ACQ flag
    "tests/herd/c11popl15/rseq_weak2.litmus",  # release sequences
    "tests/herd/c11popl15/strengthen.litmus",
    "tests/herd/instructions/C13.litmus",      # oota, forbidden by rc11
]
SLOW = {"tests/herd/c11popl15/fig6.litmus", "tests/herd/c11popl15/fig6_translated.litmus"}  # ~20 s each


def _states(result) -> str:
    return "|".join(sorted(" ".join(s.text().split()) for s in result.states))


def _wrong(paths: list[str]) -> list[tuple]:
    model = load_model(str(RC11_CAT))
    out = []
    for p in paths:
        row = ROWS[p]
        res = check(load_litmus(SUITE / p), model)
        got = (res.observation, str(res.positive), str(res.negative), hashlib.sha1(_states(res).encode()).hexdigest())
        want = (row["observation"], row["positive"], row["negative"], row["states_sha1"])
        if got != want:
            out.append((p, got[:3], want[:3], _states(res)[:200], row["states"][:200]))
    return out


def test_the_reference_table_covers_the_suite():
    files = {str(p.relative_to(SUITE)) for p in SUITE.rglob("*.litmus")}
    assert set(ROWS) == files
    assert len(files) == 153


@pytest.mark.parametrize("path", PINNED)
def test_pinned_tests_give_herds_results(path):
    assert _wrong([path]) == []


def test_a_sample_gives_herds_results():
    paths = [p for p in sorted(ROWS) if p not in SLOW][::4]
    assert len(paths) >= 35
    assert _wrong(paths) == []


@pytest.mark.slow
def test_every_test_gives_herds_results():
    """153 tests in 2 processes: 55-75 s on a busy 2-core machine (fig6 ~28 s, fig6_translated ~18 s)."""
    paths = sorted(ROWS)
    jobs = min(2, os.cpu_count() or 1)
    chunks = [paths[k::jobs] for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        wrong = [w for part in pool.map(_wrong, chunks) for w in part]
    assert wrong == []


def test_rc11_reads_herds_c_annotation_sets(tmp_path: Path):
    """A model naming RLX, ACQ, REL, ACQ_REL, CON, SC, A, NA: each is the set herd gives."""
    from mmdsl.lang.cat_lower import lower_cat_file

    model = tmp_path / "sets.cat"
    model.write_text('"sets"\nlet S = RLX | ACQ | REL | ACQ_REL | CON | SC | A | NA\nacyclic po as ok\n')
    assert lower_cat_file(model).axioms[0].name == "ok"
