"""Hostile uses of the execution-graph machine: named errors, never a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

import pytest
from refdata import SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SB = str(ROOT / "litmus" / "classic" / "lisa" / "SB.litmus")
UNBOUNDED = str(ROOT / "tests" / "explorer" / "data" / "loops" / "unbounded.litmus")
runner = CliRunner()


def test_a_state_graph_of_an_axiomatic_model_is_refused_by_name(tmp_path):
    r = runner.invoke(app, ["draw", SB, "-m", "tso-axioms", "--state-graph", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "execution-graph machine" in r.output and "Traceback" not in r.output


def test_a_loop_that_never_exits_ends_at_the_bound_and_says_so():
    r = runner.invoke(app, ["explore", UNBOUNDED, "-m", "tso-axioms", "--unroll", "5"])
    assert r.exit_code == 1, r.output  # no final state: a verdict about nothing
    assert "loops unrolled 5 times (--unroll 5)" in r.output


@pytest.mark.parametrize("value", ["0", "-1", "x"])
def test_a_bad_unroll_bound_is_a_usage_error(value):
    r = runner.invoke(app, ["explore", SB, "-m", "tso-axioms", "--unroll", value])
    assert r.exit_code == 2 and "--unroll" in r.output


@pytest.mark.skipif(not (SHARED_REFERENCE / "herd-cats" / "uniproccat.cat").is_file(),
                    reason="herd's cat models (../shared/reference/herd-cats) absent")
def test_a_cat_model_that_computes_co_itself_is_refused_by_name():
    r = runner.invoke(app, ["explore", SB, "-m", str(SHARED_REFERENCE / "herd-cats" / "uniproccat.cat")])
    assert r.exit_code == 2 and "computes co itself" in r.output and "Traceback" not in r.output
