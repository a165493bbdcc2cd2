"""`mmdsl run -q`: verdicts only, each check stopping at its first witness, with the full run's verdicts."""

from __future__ import annotations

from typer.testing import CliRunner

from mmdsl.axiomatic import check
from mmdsl.cli.app import app
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

runner = CliRunner()


def test_quiet_matrix_is_the_full_runs_matrix():
    args = ["run", "litmus/classic", "-m", "sc", "-m", "tso", "-m", "pso", "--matrix"]
    full = runner.invoke(app, args)
    quick = runner.invoke(app, args + ["-q"])
    assert full.exit_code == quick.exit_code == 0, quick.output
    assert "Observation" not in quick.stdout
    matrix = lambda out: [line for line in out.splitlines() if "│" in line or "allowed" in line]  # noqa: E731
    assert matrix(quick.stdout) == matrix(full.stdout)


def test_verdict_only_stops_at_the_first_witness():
    program, model = load_litmus("litmus/classic/SB.litmus"), load_model("tso")
    full = check(program, model, collect="none")
    quick = check(program, model, collect="verdict")
    assert quick.verdict == full.verdict == "Allowed"
    assert quick.stats["stopped_early"] and quick.positive == 1
    assert quick.candidates < full.candidates


def test_verdict_only_cuts_what_cannot_satisfy_the_condition():
    """A forbidden outcome: no stop, but candidates whose pinned reads differ are never completed."""
    program, model = load_litmus("litmus/classic/MP.litmus"), load_model("tso")
    full = check(program, model, collect="none")
    quick = check(program, model, collect="verdict")
    assert quick.verdict == full.verdict == "Forbidden"
    assert not quick.stats["stopped_early"] and quick.candidates < full.candidates


def test_json_keeps_every_state_even_with_q():
    r = runner.invoke(app, ["run", "litmus/classic/SB.litmus", "-m", "tso", "-q", "--json"])
    assert r.exit_code == 0 and '"stopped_early": false' in r.stdout


def test_quiet_on_one_test_still_says_its_verdict():
    """-q on one test and one model printed nothing at all (the matrix was only for several)."""
    r = runner.invoke(app, ["run", "litmus/classic/SB.litmus", "-m", "tso", "-q"])
    assert r.exit_code == 0
    assert "SB" in r.stdout and "tso: 1 allowed, 0 forbidden" in r.stdout
