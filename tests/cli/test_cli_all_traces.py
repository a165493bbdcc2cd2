"""`mmdsl explore --all-traces`: a trace to every violating final state, grouped by reordering."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mmdsl.cli.app import app

PETERSON = str(Path(__file__).resolve().parents[2] / "litmus" / "programs" / "peterson.litmus")


def test_all_traces_counts_groups_and_caps():
    out = CliRunner().invoke(app, ["explore", PETERSON, "-m", "dotnet", "--reduction", "dotnet",
                                   "--all-traces", "--trace-cap", "1"])
    assert out.exit_code == 0, out.output
    assert "All traces: 2 violating final state(s) in 2 group(s) by reordering; 1 shown (cap 1)" in out.output
    assert out.output.count("  final: counter=1;") == 1
    assert "P0: line 14 '*lock0 = 0;' before line 13 '*counter = *counter + 1;'" in out.output


def test_all_traces_in_json_and_none_under_sc():
    out = CliRunner().invoke(app, ["explore", PETERSON, "-m", "dotnet", "--all-traces", "--json"])
    data = json.loads(out.output)
    report = data["all_traces"]
    assert report["total"] == sum(g["count"] for g in report["groups"]) >= 2
    assert all(g["reordering"] for g in report["groups"])  # every violation needs a reordering
    sc = CliRunner().invoke(app, ["explore", PETERSON, "-m", "sc", "--all-traces"])
    assert "All traces: 0 violating final state(s) in 0 group(s)" in sc.output


def test_unknown_reduction_is_refused():
    out = CliRunner().invoke(app, ["explore", PETERSON, "--reduction", "magic"])
    assert out.exit_code != 0
    assert "threads, dotnet, none" in out.output
