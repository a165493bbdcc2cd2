"""`mmdsl run` read without typer (cli/run_main.run_fast) prints what the typer command prints.

The console script (``app.main``) reads a plain ``mmdsl run`` command line itself, so that a
run imports neither typer nor pydantic; anything else goes to typer. Each command line below
runs both ways in one subprocess (``main()`` with ``sys.argv``, and the typer ``app``) and
must give the same exit code, standard output and standard error.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mmdsl.cli.run_main import parse_run_args

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import contextlib, io, json, sys, traceback
from mmdsl.cli.app import main
from mmdsl.cli.run_main import parse_run_args

def one(call, argv):
    out, err = io.StringIO(), io.StringIO()
    saved, sys.argv = sys.argv, ["mmdsl", *argv]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                call()
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except BaseException:
                traceback.print_exc()
                code = "traceback"
    finally:
        sys.argv = saved
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}

def typer_app():
    from mmdsl.cli.app import app
    app()

cases = json.loads(sys.stdin.read())
print(json.dumps([{"fast": parse_run_args(argv[1:]) is not None, "main": one(main, argv), "typer": one(typer_app, argv)}
                  for argv in cases]))
"""

SB, MP = "litmus/classic/SB.litmus", "litmus/classic/MP.litmus"
AARCH64 = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "litmus/aarch64/tests").rglob("*.litmus"))[:101]
CASES = [
    ["run", SB, "-m", "tso"],
    ["run", SB, MP, "-m", "tso", "-m", "sc", "-q"],
    ["run", SB, "--model", "tso", "--why", "--matrix"],
    ["run", SB, "-m", "tso", "--json"],
    ["run", SB, "-m", "tso", "--json", "-m", "nosuchmodel"],
    ["run", SB, "-m", "nosuchmodel"],
    ["run", "no/such/file.litmus", "-m", "tso"],
    ["run", SB, "-m", "tso", "-e", "explorer", "--timeout", "30"],
    ["run", SB, "-m", "tso", "-e", "nonsense"],
    ["run", SB, "-m", "tso", "--why", "-e", "explorer"],
    ["run", "litmus/classic", "-m", "tso", "-q"],  # 30 tests: the verdict matrix (rich)
    ["run", *AARCH64, "-m", "armv8", "-q"],  # 101 tests, > 40 and > 100: no matrix, no progress bar off a terminal
    ["run", SB, "-m", "tso", "--timeout=5"],  # typer's: the words below are not read by run_fast
    ["run", "-m", "tso"],
    ["run", SB, "-m"],
    ["run", SB, "--help"],
]


def _untimed(text: str) -> str:
    """The output less its measured times (JSON ``"time"``, herd's ``Time`` lines)."""
    text = re.sub(r'"time": [0-9.e-]+', '"time": T', text)
    return re.sub(r"(?m)^Time (\S+) [0-9.]+$", r"Time \1 T", text)


@pytest.fixture(scope="module")
def both_ways(tmp_path_factory):
    env = {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path_factory.mktemp("cache")), "COLUMNS": "100"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, input=json.dumps(CASES), capture_output=True,
                         text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[" ".join(c[1:])[:60] for c in CASES])
def test_run_without_typer_prints_what_typer_prints(both_ways, k):
    case = {way: {**r, "out": _untimed(r["out"])} for way, r in both_ways[k].items() if way != "fast"}
    assert case["main"] == case["typer"], CASES[k]
    assert case["main"]["code"] != "traceback", case["main"]["err"]
    assert "Traceback" not in case["main"]["err"]


def test_the_plain_command_lines_are_read_without_typer(both_ways):
    fast = [" ".join(c[1:3]) for c, r in zip(CASES, both_ways) if r["fast"]]
    assert len(fast) == 12, fast  # every case but the last four


@pytest.mark.parametrize("argv", [
    ["--timeout=5", "a.litmus"], ["a.litmus", "--timeout", "-1"], ["a.litmus", "--timeout", "1e3"],
    ["a.litmus", "--timeout", "1."], ["a.litmus", "-m"], ["a.litmus", "-m", "-q"], ["a.litmus", "-qm", "tso"],
    ["a.litmus", "-mtso"], ["a.litmus", "--draw", "d"], ["-", "-m", "tso"], ["--", "a.litmus"], [],
    ["-m", "tso"], ["a.litmus", "--help"], ["a.litmus", "-m", ""], ["a.litmus", "--qui"],
])
def test_unusual_command_lines_go_to_typer(argv):
    assert parse_run_args(argv) is None


def test_plain_command_line_is_read_as_typer_reads_it():
    args = parse_run_args(["a.litmus", "-q", "-m", "tso", "b", "--model", "x.cat", "--timeout", "2.5",
                           "--cat-path", "d", "-e", "both", "--json", "--why", "--matrix"])
    assert args["tests"] == ["a.litmus", "b"] and args["model"] == ["tso", "x.cat"]
    assert args["timeout"] == 2.5 and args["cat_path"] == ["d"] and args["engine"] == "both"
    assert args["quiet"] and args["as_json"] and args["why"] and args["matrix"]
    assert parse_run_args(["a.litmus"])["model"] == []  # typer's default: run_tests then takes sc (or -conf's)


class _Item:
    def __init__(self, model, verdict):
        self.model = model
        self.result = None if verdict is None else type("R", (), {"verdict": verdict})()


@pytest.mark.parametrize("models", [["power"], ["tso", "/work/x/herd-libdir/ppc.cat"], ["rc11.cat", "a-b_c+d"],
                                    [":smile:"], ["[bold]x"], ["m" * 90]])
@pytest.mark.parametrize("errors", [0, 2])
def test_summary_printed_without_rich_is_what_rich_prints(monkeypatch, capsys, models, errors):
    """The summary of a run past 100 tests is printed without rich when rich would print it
    unchanged; the lines are the same either way (markup, emoji codes, long lines: rich)."""
    from mmdsl.cli import run_main

    items = [_Item(m, v) for m in models for v in ["Allowed"] * 70 + ["Forbidden"] * 31 + [None] * errors]
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    run_main._summary(items, 101 + errors, models, errors * len(models), False)
    plain = capsys.readouterr().out
    monkeypatch.setattr(run_main, "_print_plain", lambda lines: False)
    run_main._summary(items, 101 + errors, models, errors * len(models), False)
    assert plain == capsys.readouterr().out


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path):
    """``mmdsl run ... | head -1``: exit code 1 and no traceback, as typer gave."""
    env = {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "mmdsl", "run", "litmus/aarch64", "-m", "armv8"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout.readline().startswith(b"Test ")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 1 and b"Traceback" not in err and err == b"", err


def test_run_tests_takes_the_typer_commands_parameters_with_its_defaults():
    """A new option of `mmdsl run` must reach run_tests from both sides with one default."""
    import inspect

    from mmdsl.cli import run_cmd, run_main

    typer_side = inspect.signature(run_cmd.run.__wrapped__).parameters
    work = inspect.signature(run_main.run_tests).parameters
    assert list(typer_side) == list(work)
    for name, param in list(typer_side.items())[1:]:
        default = param.default.default
        assert work[name].default == (tuple(default) if isinstance(default, list) else default), name
    parsed = parse_run_args(["a.litmus"])
    assert set(parsed) <= set(work)
    assert all(parsed[k] == work[k].default or (parsed[k] == list(work[k].default)) for k in parsed if k != "tests")
