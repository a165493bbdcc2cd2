"""Which of herd's 89 stock models mmdsl loads, against which herd7 itself runs; deps-instances.cat pinned.

The .cat files are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B; not
copied into the repository); every test here skips, saying so, when that folder is absent.
Reference data (herd7 7.58, built from tag 7.58, with that folder as its library):

* tests/axiomatic/data/stock-cats/stock-cat-loads.csv: per stock model, the bundled sets on
  whose first test herd7 prints a verdict under it, else herd7's first message, with that
  folder as herd's library and with herd7's own (7.58's files; they differ: 7.58 with the
  folder's aarch64deps.cat says "unbound var: ADDR")
  (``bench/count_stock_cats.py --herd herd7 --csv ...`` wrote it);
* tests/axiomatic/data/stock-cats/deps-instances.herd.txt: herd7's whole output for
  deps-instances.cat on 119 tests, asl-pseudo-arch.herd.txt for asl-pseudo-arch.cat on 156,
  herd-cat.herd.txt for herd.cat on two RISC-V tests (regenerate.sh there).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, herd_outputs_file, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block
from mmdsl.suite.runner import check_with

HERD_CATS = SHARED_REFERENCE / "herd-cats"
LOADS = Path(__file__).parent / "data" / "stock-cats" / "stock-cat-loads.csv"
DATA = Path(__file__).parent / "data" / "stock-cats"
pytestmark = pytest.mark.skipif(not (HERD_CATS / "stdlib.cat").is_file(),
                                reason=f"herd's stock models are not in {HERD_CATS}")

# the stock models herd7 runs on some bundled set and mmdsl refuses, each for its reason
# (docs/cat.md, "What stops the others"); every other refused model herd7 refuses too
MMDSL_GAPS = {
    # no catdep of its own: herd7 7.58 runs it with its own library, register events left out
    # (dependencies all but empty), and refuses it with the folder's; mmdsl refuses it (herd's
    # branch events B, which its aarch64loc.cat reads, exist only with register events)
    "aarch64hwreqs.cat": "'B'",
    # herd7 7.58 stops with a type error at the same place (filters.cat line 7: WW of
    # aarch64fences.cat's set dmb.st) once an execution reaches pretty.cat's checks; it prints a
    # verdict (Never 0 0) only where no candidate passes uniproc first (120 of the 5,051 RISC-V
    # tests, all with AMOs, one event in herd, which pretty.cat's fr = rf^-1;co relates to itself):
    # herd-cat.herd.txt, test_herd_cat_refusal_is_herds_type_error below
    "herd.cat": "'&' between a set and a relation",
    "pretty.cat": "'&' between a set and a relation",
}


def herd_table() -> dict[str, dict]:
    with open(LOADS, newline="") as f:
        return {row["model"]: row for row in csv.DictReader(f)}


def mmdsl_refusal(model: str) -> MmdslError | None:
    try:
        lower_cat_file(HERD_CATS / model, [HERD_CATS])
    except MmdslError as err:
        return err
    return None


def test_the_reference_table_covers_every_stock_model():
    table = herd_table()
    assert sorted(table) == sorted(p.name for p in HERD_CATS.glob("*.cat"))
    assert len(table) == 89


@pytest.mark.parametrize("model", sorted(herd_table()) if LOADS.is_file() else [])
def test_each_stock_model_loads_or_herd7_refuses_it_too_or_its_gap_is_named(model):
    row = herd_table()[model]
    err = mmdsl_refusal(model)
    if err is None:
        return
    assert err.pos is not None and err.pos.line >= 1  # refused at a place
    herd_runs = row["herd7_sets"] or row["herd7_own_library_sets"]
    if model in MMDSL_GAPS:
        assert herd_runs, f"herd7 refuses {model} now: drop it from MMDSL_GAPS"
        assert MMDSL_GAPS[model] in err.message
    else:
        assert not herd_runs, f"herd7 runs {model} on {herd_runs}, mmdsl refuses it: {err}"
        assert row["herd7_error"] and row["herd7_own_library_error"]


def test_the_models_herd7_refuses_for_the_same_missing_name_are_refused_at_the_same_place():
    # herd7: "File "LL.cat", line 3, characters 10-12: unbound var: WW" (columns from 0)
    table = herd_table()
    same = 0
    for model in ("LL.cat", "aarch64-obsolete.cat", "doc64.cat", "ppc-checks.cat", "ppo.cat"):
        err = mmdsl_refusal(model)
        herd = table[model]["herd7_error"]
        name = herd.rsplit("unbound var: ", 1)[1]
        line, col = int(herd.split("line ")[1].split(",")[0]), int(herd.split("characters ")[1].split("-")[0])
        assert f"unknown name '{name}'" in err.message and (err.pos.line, err.pos.col) == (line, col + 1)
        same += 1
    assert same == 5


def test_gaps_are_refusals_by_name_not_model_errors():
    assert isinstance(mmdsl_refusal("aarch64hwreqs.cat"), UnsupportedError)
    assert mmdsl_refusal("asl-pseudo-arch.cat") is None  # below
    assert mmdsl_refusal("lock.cat") is None  # alone: tests/axiomatic/test_herd_lock_cat.py


def test_deps_instances_gives_herds_states_counts_and_observation():
    """deps-instances.cat has no check: every candidate is an execution; herd parses its
    top-level ``let ... in`` as a statement (its grammar's in_opt)."""
    model = lower_cat_file(HERD_CATS / "deps-instances.cat", [HERD_CATS])
    assert model.axioms == []
    expected = sorted(herd_outputs_file(DATA / "deps-instances.herd.txt").items())
    assert len(expected) == 119
    wrong, refused = [], []
    for f, text in expected:
        try:
            got = outcome(herd_block(check(load_litmus(ROOT / f), model), show_time=False))
        except UnsupportedError as err:  # refused by name (below)
            refused.append((f, err.message))
            continue
        if got != outcome(text):
            wrong.append((f, got[1:], outcome(text)[1:]))
    assert wrong == []
    # executions whose values come out of thin air (herd prints them symbolically), and
    # kernel locks under a model other than linux-kernel.cat (herd makes its own lock events)
    assert [(f.split("/")[-1], "thin air" in why or "spin_lock" in why) for f, why in refused] == [
        ("CoRR+atomicinc.litmus", True), ("ISA2+pooncelock+pooncelock+pombonce.litmus", True)], refused


# asl-pseudo-arch.cat's tests whose executions mmdsl counts otherwise under any model, its
# register relations aside: herd's AArch64 CAS (under `acyclic po | rf` too, herd7 counts 8
# executions of LB+rel+CAS-ok-MRs-addr, mmdsl 6; the LSE events are litmus/'s); none differs
# in its Observation verdict
ASL_OTHER_COUNTS = {
    "CAS+data1", "CAS+data2", "LB+rel+CAS-ok-MRs-addr", "LB+rel+CAS-ok-RsRs-addr", "MP+rel+CAS-addr",
    "MP+rel+CAS-ok-MRs-addr",
}


@pytest.mark.parametrize("sample", ["deps", pytest.param("all", marks=pytest.mark.slow)])
def test_asl_pseudo_arch_gives_herds_states_counts_and_observation(sample):
    """``acyclic iico_data | iico_ctrl | rf-reg | rf``: paths through herd's register events
    are mmdsl's data and addr (and an atomic's read-to-write), ctrl none (lang/cat_registers).
    Fast: the classic shapes and AArch64's dependency tests (LB+datas Never, LB+ctrls
    Sometimes); slow (about 2.5 CPU-s): all 156 tests of the reference file."""
    model = lower_cat_file(HERD_CATS / "asl-pseudo-arch.cat", [HERD_CATS])
    expected = sorted(herd_outputs_file(DATA / "asl-pseudo-arch.herd.txt").items())
    assert len(expected) == 156
    if sample == "deps":
        expected = [(f, t) for f, t in expected if "/classic/" in f or "deps-and-fences" in f]
        assert len(expected) > 40
    wrong, refused, verdicts = [], [], set()
    for f, text in expected:
        try:
            # the dependency tests in both engines too (check_with raises when their states differ)
            engine = "both" if sample == "deps" and "deps-and-fences" in f else "axiomatic"
            got = outcome(herd_block(check_with(load_litmus(ROOT / f), model, engine), show_time=False))
        except UnsupportedError:
            refused.append(f.split("/")[-1])
            continue
        verdicts.add(outcome(text)[-1])
        if got[-1] != outcome(text)[-1]:
            wrong.append((f, got[1:], outcome(text)[1:]))  # a verdict: never allowed
        elif got != outcome(text) and Path(f).stem not in ASL_OTHER_COUNTS:
            wrong.append((f, got[1:], outcome(text)[1:]))
    assert wrong == []
    assert verdicts == {"Never", "Sometimes"} if sample == "deps" else len(verdicts) >= 2
    # kernel locks under a model other than linux-kernel.cat (herd makes its own lock events)
    assert refused == ([] if sample == "deps" else ["ISA2+pooncelock+pooncelock+pombonce.litmus"])


def test_herd_cat_refusal_is_herds_type_error():
    """herd7 7.58 on herd.cat: Never 0 0 where no candidate reaches pretty.cat's checks, else
    the type error mmdsl refuses the model with, at the same line of filters.cat."""
    runs = herd_outputs_file(DATA / "herd-cat.herd.txt")
    vacuous, error = runs.values()
    assert "Observation 2+2W+po+poarar+NEW Never 0 0" in vacuous
    assert 'File "filters.cat", line 7, characters 12-13: type rel expected, events found' in error
    for model in ("herd.cat", "pretty.cat"):
        err = mmdsl_refusal(model)
        assert Path(err.pos.file).name == "filters.cat" and (err.pos.line, err.pos.col) == (7, 15)
