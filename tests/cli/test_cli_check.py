"""`mmdsl check PROGRAM.c`: exit codes (0 safe, 1 violation/deadlock/livelock, 2 bad input), text and --json."""

from __future__ import annotations

import json

from refdata import ROOT
from typer.testing import CliRunner

from mmdsl.cli.app import app

runner = CliRunner()
PROGRAMS = ROOT / "litmus" / "programs-c"
PHIL = str(PROGRAMS / "philosophers.c")


def test_safe_program_exits_0():
    r = runner.invoke(app, ["check", str(PROGRAMS / "philosophers-ordered.c"), "-m", "sc", "-D", "N=2"])
    assert r.exit_code == 0, r.output
    assert "philosophers-ordered under sc: safe" in r.output


def test_deadlock_exits_1_and_says_who_waits_on_whom():
    r = runner.invoke(app, ["check", PHIL, "-m", "sc", "-D", "N=2"])
    assert r.exit_code == 1, r.output
    assert "deadlock: every live thread is blocked" in r.output
    assert "philosopher#1 at " in r.output and "waits for mutex 'fork_[1]' held by philosopher#2" in r.output
    assert "Trace (" in r.output


def test_json_output():
    r = runner.invoke(app, ["check", PHIL, "-m", "sc", "-D", "N=2", "--json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["verdict"] == "deadlock" and out["error"] is True
    assert {b["waits_on"] for b in out["blocked"]} >= {"philosopher#1", "philosopher#2"}
    assert all({"thread", "action", "at", "source"} <= set(s) for s in out["trace"])


def test_unroll_bounds_a_loop(tmp_path):
    prog = tmp_path / "count.c"
    prog.write_text("#include <pthread.h>\n#include <assert.h>\nint x;\n"
                    "void *w(void *a) { for (int i = 0; i < 10; i++) x = x + 1; return NULL; }\n"
                    "int main(void) { pthread_t t; pthread_create(&t, NULL, w, NULL); pthread_join(t, NULL);\n"
                    "  assert(x <= 10); return 0; }\n")
    r = runner.invoke(app, ["check", str(prog), "-m", "sc", "--unroll", "3"])
    assert r.exit_code == 0, r.output
    assert "safe up to unroll bound 3" in r.output


def test_bad_define_is_refused():
    r = runner.invoke(app, ["check", PHIL, "-D", "N=2;x"])
    assert r.exit_code == 2
    assert "NAME=VALUE" in r.output
