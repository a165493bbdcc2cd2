"""Hostile `with x from S` over sets of relations: a cross of many sets, a set of sets, a set
of events, through the CLI. Each ends in a located error with exit code 2 or runs (never a
traceback or a hang). herd's cross.cat is read from ../shared/reference/herd-cats: skipped
when absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from budget import cpu_budget
from refdata import ROOT, SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.cli.app import app

HERD_CATS = SHARED_REFERENCE / "herd-cats"
pytestmark = pytest.mark.skipif(not (HERD_CATS / "cross.cat").is_file(), reason=f"herd's cats not in {HERD_CATS}")
runner = CliRunner()


def run(tmp_path: Path, model: str):
    (tmp_path / "h.cat").write_text(model)
    return runner.invoke(app, ["run", str(ROOT / "litmus/classic/SB.litmus"), "-m", str(tmp_path / "h.cat"),
                               "--cat-path", str(HERD_CATS)])


def test_a_cross_of_too_many_sets_is_refused_at_the_with(tmp_path):
    # 2^11 unions: past the 1,024 relations a set may hold
    sets = ", ".join(["{po, 0}"] * 11)
    with cpu_budget(60):
        result = run(tmp_path, f'"big"\ninclude "cos.cat"\nwith x from cross({{{sets}}})\nacyclic x as a\n')
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "more than 1024 relations" in result.output
    assert "h.cat:3:1" in result.output


def test_a_cross_of_empty_sets_is_no_execution(tmp_path):
    result = run(tmp_path, '"none"\ninclude "cos.cat"\nwith x from cross({{po}, {}})\nacyclic x as a\n')
    assert result.exit_code == 0, result.output
    assert "Observation SB Never 0 0" in result.output


@pytest.mark.parametrize("text, words", [
    ('"s"\nwith x from {{po}, {rf}}\n', "choosing among sets of relations"),
    ('"s"\nwith x from W\n', "not a set of relations"),
    ('"s"\nwith x from {po, rf}\nwith y from {po, rf}\nacyclic x | y as both\n', "two choices"),
])
def test_choices_mmdsl_does_not_make_are_located_errors(tmp_path, text, words):
    result = run(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and words in result.output and "h.cat:" in result.output
