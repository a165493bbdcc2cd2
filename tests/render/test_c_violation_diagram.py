"""`mmdsl draw X.c --show violation`: the failing execution of a C program as a sequence chart,
byte for byte against a golden DOT file (pytest --bless rewrites it), and the refusals."""

from __future__ import annotations

from conftest import golden
from refdata import ROOT
from typer.testing import CliRunner

from mmdsl.cli.app import app

QUEUE = str(ROOT / "litmus" / "programs-c" / "queue-broken.c")
GOLDEN = ROOT / "tests" / "render" / "golden"


def test_queue_violation_chart(tmp_path, bless):
    res = CliRunner().invoke(app, ["draw", QUEUE, "-m", "pso", "--show", "violation", "-o", str(tmp_path),
                                   "-f", "dot"])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "queue-broken-violation.dot").read_text()
    # the store of `full` (line 14) performed before the item's (line 13): the consumer reads item=0
    assert "* perform W[rlx] full=1  @14" in text and "perform R item=0  @21" in text
    assert "__start" not in text and "__done" not in text
    golden(GOLDEN / "queue-broken-pso-violation.dot", text, bless)


def test_safe_program_draws_nothing(tmp_path):
    res = CliRunner().invoke(app, ["draw", QUEUE, "-m", "tso", "--show", "violation", "-o", str(tmp_path)])
    assert res.exit_code == 0 and "no failing execution to draw" in res.output
    assert not list(tmp_path.iterdir())


def test_refusals(tmp_path):
    res = CliRunner().invoke(app, ["draw", QUEUE, "-m", "pso", "--show", "witness", "-o", str(tmp_path)])
    assert res.exit_code == 2 and "--show violation" in res.output
    mp = str(ROOT / "litmus" / "classic" / "MP.litmus")
    res = CliRunner().invoke(app, ["draw", mp, "-m", "pso", "--show", "violation", "-o", str(tmp_path)])
    assert res.exit_code == 2 and "whole C program" in res.output
