"""`mmdsl check` on C# programs: Debug.Assert failures at their C# line (in a thread and in
Main after the joins), monitor deadlocks with who holds what, safe verdicts; each verdict
one that a wrong reading of the program (or of the model) would change."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from cs_source import needs_mono
from typer.testing import CliRunner

from mmdsl.check import check_program
from mmdsl.check.csharp import load_cs_program
from mmdsl.cli.app import app
from mmdsl.lang import load_model

pytestmark = needs_mono
ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "csharp"
PETERSON = str(ROOT / "litmus" / "csharp" / "Peterson.cs")
DEADLOCK = str(ROOT / "docs" / "examples" / "Deadlock.cs")


@lru_cache(maxsize=None)
def _program(path: str):  # one mcs compile per file per test session
    return load_cs_program(path)


@pytest.mark.parametrize("path, model, verdict, at, text", [
    # Peterson without volatile: its reads may pass its writes under dotnet (the paper's verdict)
    (PETERSON, "sc", "safe", None, None),
    (PETERSON, "dotnet", "violation", "Peterson.cs:29", "Debug.Assert(counter == 2);"),  # Main, after the joins
    (str(DATA / "Mp.cs"), "dotnet", "violation", "Mp.cs:16", "Debug.Assert(data == 1);"),  # in a thread
    (str(DATA / "Mp.cs"), "tso", "safe", None, None),
    # the same under tso's axioms, on the execution-graph machine: C#'s assert register and Main's
    # checks after the joins (both were missed there: "safe up to unroll bound 2")
    (PETERSON, "tso-axioms", "violation", "Peterson.cs:29", "Debug.Assert(counter == 2);"),
])
def test_assertions(path, model, verdict, at, text):
    result = check_program(_program(path), load_model(model))
    assert result.verdict == verdict
    assert result.stats["states"] < 20_000
    if at:
        assert at in result.failed["at"] and result.failed["text"] == text
        assert result.trace and all(s["at"] for s in result.steps)


def test_deadlock_names_the_holders():
    result = check_program(_program(DEADLOCK), load_model("sc"))
    assert result.verdict == "deadlock"
    assert {(b.thread, b.where.split(":")[-2], b.waits_on) for b in result.blocked} == {("P0", "11", "P1"),
                                                                                       ("P1", "17", "P0")}


def test_cli_and_refused_options():
    r = CliRunner().invoke(app, ["check", DEADLOCK, "-m", "sc"])
    assert r.exit_code == 1 and "deadlock" in r.output and "held by P1" in r.output, r.output
    r = CliRunner().invoke(app, ["check", DEADLOCK, "--unroll", "2"])
    assert r.exit_code == 2 and "--unroll with a C# program" in r.output, r.output


@pytest.mark.parametrize("path", ["litmus/gc/chicken.1.rmm", "litmus/classic/SB.litmus"])
def test_check_refuses_other_programs_by_name(path):
    r = CliRunner().invoke(app, ["check", str(ROOT / path)])
    assert r.exit_code == 2 and f"mmdsl check on {ROOT / path}" in r.output and "mmdsl explore" in r.output
