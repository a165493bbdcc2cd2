"""`mmdsl explore` and `mmdsl run --engine`: output, JSON, options, exit codes."""

from __future__ import annotations

import json

import pytest
from explorer_paths import DATA, ROOT
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PETERSON = str(ROOT / "litmus" / "programs" / "peterson.litmus")
SB = str(ROOT / "litmus" / "classic" / "lisa" / "SB.litmus")


def invoke(*args):
    return CliRunner().invoke(app, list(args))


def test_explore_prints_herds_block_the_outcome_and_a_shortest_trace():
    r = invoke("explore", PETERSON, "-m", "dotnet")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.startswith("Test peterson Allowed\nStates 2\ncounter=1;\ncounter=2;\nOk\n")
    assert "Observation peterson Sometimes 1 1\n" in out
    assert "Outcome peterson under dotnet: the outcome (counter=1) is reachable (1 of 2 final states)\n" in out
    assert "Trace (shortest, " in out and "  final: counter=1;\n" in out
    late = [line for line in out.splitlines() if line[:6].rstrip().endswith("*")]
    assert late and all(": perform " in line and "(before " in line for line in late)
    assert "Stats " not in out


def test_explore_holds_under_sc_with_no_trace():
    r = invoke("explore", PETERSON, "-m", "sc")
    assert r.exit_code == 0
    assert "the outcome (counter=1) is unreachable (0 of 1 final states)" in r.stdout
    assert "Trace" not in r.stdout


def test_stats_match_the_library():
    r = invoke("explore", PETERSON, "-m", "dotnet", "--stats", "--no-trace")
    lib = explore(load_litmus(PETERSON), load_model("dotnet"), order="bfs", compare_sc=True).stats
    assert r.exit_code == 0
    assert "Trace" not in r.stdout
    assert (f"Stats peterson under dotnet: states {lib['states']}, transitions {lib['transitions']}, "
            f"final machine states {lib['final_states']}, deadlocks 0, max pending {lib['max_pending']}; "
            f"under sc: states {lib['sc_states']}, transitions {lib['sc_transitions']}; reduction on, bfs\n") \
        in r.stdout
    assert "\nTime peterson: search " in r.stdout


def test_no_por_and_dfs_options():
    r = invoke("explore", SB, "-m", "tso", "--stats", "--no-por", "--dfs")
    assert r.exit_code == 0
    assert "reduction off, dfs" in r.stdout
    assert "Trace (depth-first, not necessarily shortest" in r.stdout


def test_json_output_has_states_stats_and_the_trace():
    r = invoke("explore", SB, "-m", "tso", "--json")
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert d["engine"] == "explorer" and d["verdict"] == "Allowed" and d["model"] == "tso"
    assert len(d["states"]) == 4
    assert {"states", "transitions", "max_pending", "sc_states", "time"} <= set(d["stats"])
    assert d["trace_final"] == "0:r0=0; 1:r0=0;"
    assert len(d["trace"]) == 8 and any(step["out_of_order"] for step in d["trace"])


@pytest.mark.parametrize("args, message", [
    (["explore", PETERSON, "-m", "dotnet", "--max-states", "10"],
     "limit: exploring peterson under dotnet: the search reached 10 states without finishing"),
    (["explore", str(DATA / "loops" / "unbounded.litmus"), "-m", "sc"],
     "limit: exploring unbounded under sc: the pending list of P0 would exceed 16 operations at 'w[] x 1'"),
    (["run", PETERSON, "-m", "sc", "--engine", "axiomatic"],
     "P0 has a loop (the branch at 'while (1)' jumps backwards); the axiomatic checker runs loop-free tests, "
     "use --engine explorer"),
    (["run", SB, "-m", "sc", "--engine", "smoke"], "unknown engine 'smoke'"),
    (["run", SB, "-m", "sc", "--engine", "explorer", "--why"], "--why explains forbidden executions"),
])
def test_bad_input_is_one_message_and_exit_code_2(args, message):
    r = invoke(*args)
    assert r.exit_code == 2
    assert message in r.stderr
    assert "Traceback" not in r.output


def test_run_with_the_explorer_gives_the_axiomatic_verdicts():
    classic = str(ROOT / "litmus" / "classic" / "lisa")
    ax = invoke("run", classic, "-m", "pso", "--json")
    ex = invoke("run", classic, "-m", "pso", "--json", "--engine", "explorer")
    assert ax.exit_code == ex.exit_code == 0
    verdicts = [{r["test"]: r["verdict"] for r in json.loads(o.stdout)["results"]} for o in (ax, ex)]
    assert verdicts[0] == verdicts[1] and len(verdicts[0]) == 17
    assert {r["engine"] for r in json.loads(ex.stdout)["results"]} == {"explorer"}


def test_run_both_agrees_on_the_classic_tests():
    r = invoke("run", str(ROOT / "litmus" / "classic"), "-m", "pso", "-m", "dotnet", "--engine", "both", "-q")
    assert r.exit_code == 0, r.stderr


def test_run_both_fails_loudly_when_the_engines_disagree(monkeypatch):
    import mmdsl.suite.runner as runner

    real = runner._explore

    def broken(program, model):
        result = real(program, model)
        result.states = {s: n for s, n in list(result.states.items())[1:]}  # lose one final state
        return result

    monkeypatch.setattr(runner, "_explore", broken)
    r = invoke("run", SB, "-m", "tso", "--engine", "both")
    assert r.exit_code == 1
    assert "SB under tso: the engines disagree; axiomatic only: " in r.stderr
    assert "explorer only: -" in r.stderr
