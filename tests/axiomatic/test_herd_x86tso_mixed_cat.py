"""herd's stock x86tso-mixed.cat (herd7's default model for X86_64 tests), loaded unchanged, gives herd's output on the x86 corpus.

x86tso-mixed.cat and its includes are read from ../shared/reference/herd-cats (herdtools7,
CeCILL-B; not copied into the repository); every test here skips, saying so, when that
folder is absent. Expectations: data/x86tso-mixed/x86.csv, computed with herd7 7.58
(options -set-libdir <libdir> -I <herd-cats> -model <herd-cats>/x86tso-mixed.cat, the
whole corpus in one run; make_csv.py there says how): per test the Observation, the
witness counts, the number of final states and a digest of them (refdata.states_digest).
The model names herd's ``si`` (single-copy-atomic classes): with no mixed-size access,
each access alone, which mmdsl gives it.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, outcome, states_digest

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
MODEL = HERD_CATS / "x86tso-mixed.cat"
CORPUS = ROOT / "litmus" / "x86" / "tests" / "non-mixed-size"
DATA = Path(__file__).parent / "data" / "x86tso-mixed" / "x86.csv"
pytestmark = pytest.mark.skipif(not MODEL.is_file(), reason=f"herd's x86tso-mixed.cat is not in {HERD_CATS}")


def rows() -> list[dict]:
    with DATA.open() as f:
        return list(csv.DictReader(f, delimiter=";"))


def disagreements(selected: list[dict]) -> list[tuple]:
    model = load_model(str(MODEL))
    wrong = []
    for row in selected:
        states, _, (pos, neg), obs = outcome(herd_block(check(load_litmus(CORPUS / row["file"]), model),
                                                        show_time=False))
        got = (obs, pos, neg, str(len(states)), states_digest(states))
        want = (row["observation"], row["positive"], row["negative"], row["states"], row["digest"])
        if got != want:
            wrong.append((row["file"], got, want))
    return wrong


def test_a_sample_of_the_x86_corpus_gives_herds_states_counts_and_observation():
    selected = rows()[::40]
    assert len(selected) > 60
    assert disagreements(selected) == []


@pytest.mark.slow
def test_the_whole_x86_corpus_gives_herds_states_counts_and_observation():  # about 25 s of CPU
    selected = rows()
    assert len(selected) == 2554  # herd ran 2,554 of the 2,595 files: 41 repeat a test name
    assert disagreements(selected) == []


def test_si_is_each_memory_access_alone():
    model = lower_cat_file(MODEL, [HERD_CATS])
    ob = next(b.expr for g in model.lets for b in g.bindings if b.name == "ob")
    assert str(ob) == "obs ; [M] | lob | ob ; ob"  # x86tso-mixed.cat:20: let rec ob = obs; si | ...
