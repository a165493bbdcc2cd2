"""A test that reaches no final state prints herd's block and says so, with exit code 1.

herd7 7.58 prints such a test as ``States 0``, ``No`` (exists) or ``Ok`` (forall) and
``Observation T Never 0 0`` (tests/cli/data/no_final_state/*.herd7-*.txt): mmdsl prints
the same block on stdout, one line on stderr saying no final state was reached and why
(the explorer's deadlock count, a loop, the filter), ``"no_final_state": true`` under
``--json``, and exits 1: the verdict is about nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app

DATA = Path(__file__).parent / "data" / "no_final_state"
ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _herd_block(stdout: str) -> str:
    return "".join(line + "\n" for line in stdout.splitlines() if line and not line.startswith("Time "))


@pytest.mark.parametrize("test, model, herd", [
    ("SBf", "tso", "SBf.herd7-x86tso.txt"),
    ("DL", "sc", "DL.herd7-linux-kernel.txt"),
    ("DLforall", "sc", "DLforall.herd7-linux-kernel.txt"),
])
@pytest.mark.parametrize("engine", ["axiomatic", "explorer"])
def test_run_prints_herds_block_and_says_no_final_state_was_reached(test, model, herd, engine):
    r = _run("run", DATA / f"{test}.litmus", "-m", model, "-e", engine)
    # the explorer knows its paths were cut short; the checker only warns (exit 0, as herd)
    assert r.exit_code == (1 if engine == "explorer" else 0), r.output
    assert _herd_block(r.stdout) == _herd_block((DATA / herd).read_text())
    assert r.stderr.startswith(f"no final state: {test} under {model} reached none, so its verdict says nothing")


def test_the_explorer_counts_the_deadlocks():
    r = _run("run", DATA / "DL.litmus", "-m", "tso", "-e", "explorer")
    assert r.exit_code == 1
    assert "9 states explored, 1 deadlocked, no path finishing every thread (a thread waiting forever: " \
           "a lock never freed" in r.stderr


def test_a_spin_loop_that_never_exits():
    r = _run("run", DATA / "SPIN.litmus", "-m", "tso", "-e", "explorer")
    assert r.exit_code == 1
    assert "0 deadlocked, no path finishing every thread (a loop that never exits)" in r.stderr


def test_a_filter_that_excludes_everything():
    r = _run("run", DATA / "SBf.litmus", "-m", "tso", "-e", "explorer")
    assert "or its filter excludes every final state" in r.stderr
    r = _run("run", DATA / "SBf.litmus", "-m", "tso")
    assert "no execution both finishes every thread and is allowed by tso and passes its filter" in r.stderr


def test_the_axiomatic_engine_with_a_model_that_forbids_everything(tmp_path):
    cat = tmp_path / "nothing.cat"
    cat.write_text('"nothing"\nempty po as nothing\n')
    r = _run("run", ROOT / "litmus" / "classic" / "SB.litmus", "-m", cat)
    assert r.exit_code == 0  # a model may forbid everything: herd's verdict, with the warning
    assert "States 0\nNo\n" in r.stdout
    assert "is allowed by nothing" in r.stderr and "axioms that forbid them all" in r.stderr


def test_json_says_so():
    r = _run("run", DATA / "DL.litmus", "-m", "sc", "-e", "explorer", "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)["results"][0]
    assert out["no_final_state"] is True and out["states"] == [] and out["stats"]["deadlocks"] == 1
    assert out["warnings"][0].startswith("no final state: DL under sc")
    r = _run("run", ROOT / "litmus" / "classic" / "SB.litmus", "-m", "sc", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["results"][0]["no_final_state"] is False


def test_explore_says_so_on_its_outcome_line():
    r = _run("explore", DATA / "DL.litmus", "-m", "sc")
    assert r.exit_code == 1
    assert "Outcome DL under sc: no final state reached" in r.stdout and "unreachable" not in r.stdout
    assert "1 deadlocked" in r.stderr
    r = _run("explore", DATA / "DL.litmus", "-m", "sc", "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["no_final_state"] is True


def test_a_test_with_final_states_is_left_alone():
    for args in (["-q"], [], ["-e", "explorer"]):
        r = _run("run", ROOT / "litmus" / "classic" / "SB.litmus", "-m", "sc", *args)
        assert r.exit_code == 0 and "no final state" not in r.output
