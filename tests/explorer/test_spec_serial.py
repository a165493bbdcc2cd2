"""--spec serial (CheckFence's check) on a counter checked by hand: a racy increment fails even under sc."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.condition import FinalState
from mmdsl.core.errors import MmdslError
from mmdsl.core.serial import serial_observations
from mmdsl.explorer.spec import BOUND, FAIL, PASS, check_spec
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

RACY = """\
C racy-counter
{ }
int count;
int inc() { int c = count; count = c + 1; return c; }
P0() { int r0 = inc(); }
P1() { int r1 = inc(); }
locations [0:r0; 1:r1; count;]
"""

ATOMIC = """\
C atomic-counter
unroll=2
{ }
int count;
int inc() { int c; while (1) { c = count; if (cas(&count, c, c + 1)) break; } return c; }
P0() { int r0 = inc(); }
P1() { int r1 = inc(); }
locations [0:r0; 1:r1; count;]
"""


def _states(*triples) -> set:
    """Observations (r0, r1, count) as FinalStates over the keys of the counters."""
    keys = [("reg", 0, "r0"), ("reg", 1, "r1"), ("mem", "count")]
    return {FinalState.of(dict(zip(keys, t)), keys) for t in triples}


def test_serial_observations_of_two_increments_are_the_two_orders():
    serial = serial_observations(parse_litmus(RACY, "racy.litmus"))
    assert serial.states == _states((0, 1, 2), (1, 0, 2))


@pytest.mark.parametrize("engine", ["explorer", "axiomatic"])
def test_a_racy_increment_fails_under_sc_with_the_lost_update(engine):
    res = check_spec(parse_litmus(RACY, "racy.litmus"), load_model("sc"), engine=engine)
    assert res.verdict == FAIL
    assert set(res.extra) == _states((0, 0, 1))  # both read 0: one update lost


def test_a_cas_increment_passes_under_sc_and_relaxed():
    program = parse_litmus(ATOMIC, "atomic.litmus")
    keys = [("reg", 0, "r0"), ("reg", 1, "r1"), ("mem", "count")]
    for model in ("sc", "relaxed"):
        res = check_spec(program, load_model(model))
        assert res.verdict == PASS, model
        assert {FinalState.of(dict(s), keys) for s in res.result.states} == _states((0, 1, 2), (1, 0, 2))


def test_a_bound_too_small_is_reported_not_hidden():
    # unroll=1: P1's cas fails once when P0 increments between its read and its cas
    program = parse_litmus(ATOMIC.replace("unroll=2", "unroll=1"), "atomic.litmus")
    res = check_spec(program, load_model("sc"))
    assert res.verdict == BOUND
    assert res.bound_reached and all(dict(s)[("reg", t, "%err")] in (0, 2) for s in res.extra for t in (0, 1))


def test_a_harness_that_fails_even_serially_is_an_error():
    bad = RACY.replace("count = c + 1; return c;", "while (1) { } return c;").replace("{ }\n", "{ }\n", 1)
    with pytest.raises(MmdslError, match="unwinding bound even when every operation runs alone"):
        serial_observations(parse_litmus("C t\nunroll=1\n" + bad.split("\n", 1)[1], "t.litmus"))


def test_cli_run_and_explore_report_pass_fail_with_a_counterexample(tmp_path):
    racy, atomic = tmp_path / "racy.litmus", tmp_path / "atomic.litmus"
    racy.write_text(RACY)
    atomic.write_text(ATOMIC)
    runner = CliRunner()
    out = runner.invoke(app, ["run", str(racy), "-m", "sc", "--spec", "serial"])
    assert out.exit_code == 1, out.output
    assert "Test racy-counter Serial" in out.output
    assert "Counterexample 0:r0=0; 1:r1=0; count=1;" in out.output
    assert "Observation racy-counter Fail 1 2" in out.output
    out = runner.invoke(app, ["explore", str(atomic), "-m", "relaxed", "--spec", "serial"])
    assert out.exit_code == 0, out.output
    assert "\nPass\n" in out.output
    out = runner.invoke(app, ["run", str(racy), "-m", "sc", "--spec", "linearizable"])
    assert out.exit_code == 2 and "unknown --spec 'linearizable'" in out.output


def test_cli_fences_spec_serial_says_no_fence_helps_a_racy_counter(tmp_path):
    racy = tmp_path / "racy.litmus"
    racy.write_text(RACY)
    out = CliRunner().invoke(app, ["fences", str(racy), "-m", "sc", "--spec", "serial"])
    assert "serial execution" in out.output
    assert "INFEASIBLE" in out.output or "no fence" in out.output.lower(), out.output
