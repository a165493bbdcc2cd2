"""`mmdsl fences` through typer's CliRunner: text, JSON, -o, suites, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mmdsl.axiomatic import check
from mmdsl.cli.app import app
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "litmus" / "classic"
EXAMPLES = ROOT / "litmus" / "fences"
runner = CliRunner()


def _run(*args):
    return runner.invoke(app, ["fences", *map(str, args)])


def test_sb_under_tso_text():
    r = _run(CLASSIC / "SB.litmus", "-m", "tso")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Fences SB under tso: forbid exists (0:EAX=0 /\\ 1:EAX=0)"
    assert "P0 before line 11: mfence between 'MOV [x],$1' and 'MOV EAX,[y]' (cost 3)" in lines
    assert "P1 before line 11: mfence between 'MOV [y],$1' and 'MOV EAX,[x]' (cost 3)" in lines
    assert "Total 2 fence(s), cost 6" in lines
    assert "Status OPTIMAL (proved minimum)" in lines
    assert "Re-check Forbidden (Positive: 0 Negative: 3)" in lines


def test_json_and_kinds():
    r = _run(CLASSIC / "MP.litmus", "-m", "rmo", "--kinds", "ll,ss", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["status"] == "OPTIMAL" and d["optimal"] and d["cost"] == 4 and d["bound"] == 4
    assert [(f["thread"], f["kind"], f["line"]) for f in d["fences"]] == [("P0", "ss", 11), ("P1", "ll", 11)]
    assert d["recheck"]["verdict"] == "Forbidden" and d["recheck"]["achieved"]


def test_cost_override_changes_the_answer():
    # membar at cost 1: two full fences (cost 2) beat ss + ll (cost 4)
    r = _run(CLASSIC / "MP.litmus", "-m", "rmo", "--cost", "membar=1", "--json")
    d = json.loads(r.output)
    assert [(f["kind"], f["cost"]) for f in d["fences"]] == [("membar", 1), ("membar", 1)] and d["cost"] == 2


def test_out_of_range_costs_and_time_limits_exit_2():
    # a cost past 64 bits used to reach CP-SAT and end in a TypeError traceback
    r = _run(CLASSIC / "SB.litmus", "-m", "tso", "--cost", "mfence=99999999999999999999")
    assert r.exit_code == 2 and "fence costs are positive integers up to 1000000000" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    # a time limit of 0 (or less) used to be taken and reported as "no fence set found within the time limit"
    for limit in ("0", "-1"):
        r = _run(CLASSIC / "SB.litmus", "-m", "tso", "--time-limit", limit)
        assert r.exit_code == 2 and "the time limit is a positive number of seconds" in r.output


def test_all_optimal_lists_every_placement():
    r = _run(EXAMPLES / "SB+loads.litmus", "-m", "tso", "--all-optimal", "--json")
    d = json.loads(r.output)
    assert len(d["all_optimal"]) == 4 and not d["more_optimal"]
    assert {tuple(f["before_instruction"] for f in alt) for alt in d["all_optimal"]} == {(1, 1), (1, 2), (2, 1), (2, 2)}


def test_output_file_is_rewritten_and_rechecked(tmp_path):
    out = tmp_path / "SB+mfences.litmus"
    r = _run(CLASSIC / "SB.litmus", "-m", "tso", "-o", out)
    assert r.exit_code == 0, r.output
    assert f"Wrote {out}; re-run: Forbidden (Positive: 0 Negative: 3)" in r.output
    assert out.read_text().count("MFENCE") == 2
    assert check(load_litmus(out), load_model("tso")).verdict == "Forbidden"


def test_no_fence_can_help_exits_1():
    r = _run(EXAMPLES / "SB+sc.litmus", "-m", "tso")
    assert r.exit_code == 1
    assert "No fence can help" in r.output and "0:EAX=1; 1:EAX=1;" in r.output


def test_target_sc_and_forall():
    r = _run(CLASSIC / "W+RWC.litmus", "-m", "pso", "--target", "sc")
    assert r.exit_code == 0 and "Re-check 7 state(s), all allowed by SC" in r.output
    r = _run(EXAMPLES / "MP+forall.litmus", "-m", "pso")
    assert "keep forall (1:EAX=0 \\/ 1:EBX=1)" in r.output and "Re-check Ok (Positive: 3 Negative: 0)" in r.output


def test_suite_table():
    r = _run(EXAMPLES, "-m", "pso")
    assert r.exit_code == 0, r.output
    for row in ("MP+addr", "P0:ss", "SB+loads", "P0:sl P1:sl", "no fence helps", "INFEASIBLE"):
        assert row in r.output
    r = _run(EXAMPLES, "-m", "pso", "--json")
    d = json.loads(r.output)
    assert {s["label"]: s["cost"] for s in d["selections"]} == {"MP+addr": 2, "MP+forall": 2, "SB+loads": 4,
                                                              "SB+sc": None}


def test_user_errors_exit_2():
    r = _run(CLASSIC / "SB.litmus", "-m", "pso", "--kinds", "lwsync")
    assert r.exit_code == 2 and "model 'pso' has no fence 'lwsync'" in r.output
    r = _run(CLASSIC / "SB.litmus", "-m", "tso-axioms")
    assert r.exit_code == 2 and "axiom 'tso' uses 'mfence'" in r.output
    r = _run(CLASSIC / "SB.litmus", "-m", "tso", "--target", "nonsense")
    assert r.exit_code == 2 and "unknown target 'nonsense'" in r.output
    r = _run(CLASSIC / "SB.litmus", "-m", "tso", "--cost", "mfence")
    assert r.exit_code == 2 and "malformed" in r.output
    r = _run(CLASSIC, "-m", "tso", "-o", "x.litmus")
    assert r.exit_code == 2 and "give a test file" in r.output


def test_an_unwritable_output_is_one_error_line(tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    out = tmp_path / "taken" / "SB+fenced.litmus"
    r = _run(CLASSIC / "SB.litmus", "-m", "tso", "-o", out)
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: cannot write the fenced test ({out}): Not a directory\n"


def test_fences_pass_the_explorer_bounds_on():
    # Peterson has loops: the explorer searches it, and a tiny state bound is reported as such
    r = runner.invoke(app, ["fences", "litmus/programs/peterson.litmus", "-m", "dotnet", "--max-states", "50"])
    assert r.exit_code == 2, r.output
    assert "reached 50 states" in r.output and "--max-states" in r.output and "Traceback" not in r.output
