"""`mmdsl check` under axiomatic models (herd's rc11.cat and linux-kernel.cat from
../shared/reference/herd-cats, skipped without it): the program on the execution-graph machine
with its C11 orders as the model's annotations; data races (rc11.cat's `undefined_unless empty dr`,
linux-kernel.cat's `data-race` flag) with both accesses located, deadlocks, and GenMC v0.11's
execution counts and errors (tests/check/data/genmc/expected-rc11.csv)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from budget import cpu_budget
from refdata import ROOT, SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.check import check_program
from mmdsl.cli.app import app
from mmdsl.lang import load_model
from mmdsl.litmus.cprog import load_c_program

CATS = SHARED_REFERENCE / "herd-cats"
pytestmark = pytest.mark.skipif(not CATS.is_dir(), reason="herd's cat models (../shared/reference/herd-cats) absent")
DATA = Path(__file__).parent / "data"
GENMC = DATA / "genmc"
RC11_ROWS = list(csv.DictReader((GENMC / "expected-rc11.csv").open())) if GENMC.is_dir() else []


def _check(path, cat: str = "rc11.cat", **kw):
    with cpu_budget(20):
        return check_program(load_c_program(str(path), **kw), load_model(str(CATS / cat)))


@pytest.mark.parametrize("program, racy, cat, check", [
    ("counter-race", True, "rc11.cat", "Dr"), ("counter-atomic", False, "rc11.cat", "Dr"),
    ("counter-mutex", False, "rc11.cat", "Dr"), ("counter-race", True, "linux-kernel.cat", "data-race")])
def test_a_racy_counter_is_reported_the_atomic_and_locked_ones_are_not(program, racy, cat, check):
    result = _check(DATA / "races" / f"{program}.c", cat)
    assert result.verdict == ("race" if racy else "safe"), result.trace
    if racy:
        assert result.race["check"] == check
        accesses = result.race["accesses"]
        assert {a["thread"] for a in accesses} == {"worker#1", "worker#2"}
        assert {a["location"] for a in accesses} == {"counter"}
        assert "write" in {a["access"] for a in accesses}
        assert all(a["at"].endswith("counter-race.c:9:5") for a in accesses)
    else:
        assert result.stats["executions"] == 2  # the two orders of the increments


@pytest.mark.parametrize("name, verdict", [("shared-pointer", "safe"), ("shared-pointer-broken", "violation")])
def test_a_pointer_published_in_shared_memory(name, verdict):
    # release/acquire on the atomic pointer p orders x = 1 before the dereference; relaxed does not
    result = _check(ROOT / "litmus" / "programs-c" / f"{name}.c")
    assert result.verdict == verdict
    if verdict == "violation":
        assert result.failed["at"].endswith(f"{name}.c:21:9")


def test_race_in_json():
    r = CliRunner().invoke(app, ["check", str(DATA / "races" / "counter-race.c"), "-m", str(CATS / "rc11.cat"),
                                 "--json"])
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    assert out["verdict"] == "race" and out["error"]
    assert [a["at"].split("/")[-1] for a in out["race"]["accesses"]] == ["counter-race.c:9:5"] * 2


def test_philosophers_deadlock_says_who_waits_on_whom():
    result = _check(ROOT / "litmus" / "programs-c" / "philosophers.c", defines={"N": "2"})
    assert result.verdict == "deadlock"
    waits = {b.thread: b.waits_on for b in result.blocked}
    assert waits == {"main": "philosopher#1", "philosopher#1": "philosopher#2", "philosopher#2": "philosopher#1"}


def test_rc11_orders_reach_the_model_as_written():
    """dekker with relaxed accesses breaks under RC11 (store buffering), with the trace's reads."""
    result = _check(GENMC / "wrong/safety/dekker_rlx/variants/dekker_rlx0.c")
    assert result.verdict == "violation"
    assert result.failed["text"].startswith("assert(")
    assert any("reads from" in s["action"] for s in result.steps)


def _row(row):
    return pytest.param(row, id=row["program"].split("/")[-1])


@pytest.mark.parametrize("row", [_row(r) for r in RC11_ROWS])
def test_genmc_programs_under_rc11(row):
    """GenMC's own answer: a correct program's complete executions (expected.rc11.mo.in), a wrong
    one's error (its rc11 trace's first line)."""
    result = _check(GENMC / row["program"])
    assert result.verdict == row["verdict"], (row, result.trace[-4:])
    if row["executions"]:  # equal to GenMC's count unless the row's note says why not
        assert result.stats["executions"] == int(row["executions"]), row
        assert (row["executions"] == row["genmc"]) != bool(row["note"]), row
    if row["verdict"] == "race":  # GenMC: "Non-Atomic race", a plain access against another thread's
        accesses = result.race["accesses"]
        assert len({a["thread"] for a in accesses}) == 2 and "write" in {a["access"] for a in accesses}
        assert all(a["at"] and ".c:" in a["at"] for a in accesses)
