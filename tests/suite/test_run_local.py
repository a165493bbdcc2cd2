"""Local runs: slow, crashing and dying tests are reported in the matrix while the others run;
any number of jobs gives the same matrix."""

from __future__ import annotations

import os
import signal
import time

import pytest
from refdata import classic_verdicts
from suitefiles import CLASSIC, make_suite, matrix, mmdsl

from mmdsl.suite import work
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite

FAULTS = ("SLOW", "CRASH", "HANG", "DIE", "BROKEN")


def _fake_checker(real):
    """The real checker, except for tests named after a fault (forked workers inherit it)."""

    def check(program, model, engine, **kw):
        if program.name == "SLOW":
            time.sleep(300)  # interrupted by the worker's own SIGALRM
        elif program.name == "CRASH":
            raise ZeroDivisionError("the checker divided by zero")
        elif program.name == "HANG" and model.name == "tso":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # deaf to the soft limit
            time.sleep(300)
        elif program.name == "DIE" and model.name == "sc":
            os._exit(3)
        return real(program, model, engine, **kw)

    return check


@pytest.fixture
def faulty_suite(tmp_path, monkeypatch):
    monkeypatch.setattr(work, "check_with", _fake_checker(work.check_with))
    folder = make_suite(tmp_path, None, tests=("SB", "MP", "LB", "IRIW", "WRC"))
    sb = (CLASSIC / "SB.litmus").read_text()
    for name in FAULTS:
        text = sb.replace("X86 SB", f"X86 {name}", 1)
        if name == "BROKEN":
            text = text.replace("MOV", "MOOV", 1)  # a parse error: bad input, not a crash
        (folder / f"{name}.litmus").write_text(text)
    return load_suite(folder)


def _run(suite, jobs, executor="local", timeout=1.0):
    return run_suite(suite, model_columns(suite, ["sc", "tso"]), jobs=jobs, timeout=timeout, executor=executor)


def test_faults_are_cells_and_the_others_still_run(faulty_suite):
    start = time.monotonic()
    run = _run(faulty_suite, jobs=2)
    assert time.monotonic() - start < 150  # wall-clock: nobody waited for a 300 s sleep (limit 1 s)
    got = matrix(run)
    ref = classic_verdicts()
    for t in ("SB", "MP", "LB", "IRIW", "WRC"):
        for m in ("sc", "tso"):
            assert got[(t, m)] == ref[t][m], (t, m)
    assert got[("SLOW", "sc")] == got[("SLOW", "tso")] == "timed out"
    assert run.cells[("SLOW", "sc")].message == "timed out after 1 s"
    assert got[("CRASH", "sc")] == "crashed"
    assert run.cells[("CRASH", "sc")].message.startswith("ZeroDivisionError: the checker divided by zero")
    # the worker that ignored SIGALRM was killed; the same test still ran under sc
    assert got[("HANG", "tso")] == "timed out" and "worker killed" in run.cells[("HANG", "tso")].message
    assert got[("HANG", "sc")] == "Forbidden"
    # the worker that died took only its current cell with it
    assert got[("DIE", "sc")] == "crashed" and "exit code 3" in run.cells[("DIE", "sc")].message
    assert got[("DIE", "tso")] == "Allowed"
    assert got[("BROKEN", "sc")] == "error" and "litmus error" in run.cells[("BROKEN", "sc")].message
    assert len(run.cells) == 2 * (5 + len(FAULTS))
    assert run.exit_code() == 2  # a test that does not parse is bad input


def test_timeouts_and_crashes_alone_exit_1(faulty_suite):
    faulty_suite.tests = [t for t in faulty_suite.tests if t.key in ("SB", "SLOW", "CRASH")]
    run = _run(faulty_suite, jobs=1)
    assert run.outcomes() == {"unchecked": 2, "timeout": 2, "crash": 2}
    assert run.exit_code() == 1


def test_inline_executor_times_out_too(faulty_suite):
    faulty_suite.tests = [t for t in faulty_suite.tests if t.key in ("SB", "SLOW", "CRASH")]
    got = matrix(_run(faulty_suite, jobs=1, executor="inline"))
    assert got[("SLOW", "sc")] == "timed out" and got[("CRASH", "tso")] == "crashed"
    assert got[("SB", "tso")] == "Allowed"


def test_one_and_two_jobs_give_the_same_matrix():
    suite = load_suite("litmus/classic")
    columns = model_columns(suite, [])
    one = run_suite(suite, columns, jobs=1)
    two = run_suite(suite, columns, jobs=2)
    assert matrix(one) == matrix(two)
    assert len(one.cells) == len(suite.tests) * 4
    assert one.exit_code() == two.exit_code() == 0


def test_cli_marks_a_mismatch_and_exits_1(tmp_path):
    make_suite(tmp_path, "name: mini\nmodels: [sc, tso]\ntests: '*.litmus'\n"
                         "expect:\n  SB: {sc: Forbidden, tso: Forbidden, reason: wrong on purpose}\n"
                         "  MP: {sc: Never, tso: Never}\n", tests=("SB", "MP"))
    proc = mmdsl("suite", str(tmp_path), "--jobs", "1")
    assert proc.returncode == 1, proc.stderr
    assert "│ SB   │ Forbidden │ Allowed ✗ │" in proc.stdout
    assert ("  SB under tso: Allowed (Sometimes), expected Forbidden (manifest.yaml:5: wrong on purpose)"
            in proc.stdout)
    assert "FAILED: 1 mismatch (4 cells)" in proc.stdout


def test_engines_that_disagree_are_a_failed_cell(monkeypatch, tmp_path):
    """`--engine both`: when the explorer's final states differ from the checker's, the cell
    says so (a stand-in explorer that drops every state that satisfies the condition)."""
    from dataclasses import replace

    from mmdsl.axiomatic import check
    from mmdsl.suite import runner

    def fake_explore(program, model):
        result = check(program, model)
        kept = {s: n for s, n in result.states.items() if not program.condition.prop.holds(dict(s))}
        return replace(result, states=kept, engine="explorer")

    monkeypatch.setattr(runner, "_explore", fake_explore)
    suite = load_suite(make_suite(tmp_path, None, tests=("SB", "MP")))
    run = run_suite(suite, model_columns(suite, ["tso"]), engine="both", executor="inline")
    assert matrix(run) == {("SB", "tso"): "engines disagree", ("MP", "tso"): "Forbidden"}
    assert "explorer only: -" in run.cells[("SB", "tso")].message
    assert "axiomatic only: 0:EAX=0; 1:EAX=0;" in run.cells[("SB", "tso")].message
    assert run.exit_code() == 1


def test_an_explorer_limit_is_a_failed_cell_not_bad_input(monkeypatch, tmp_path):
    from mmdsl.explorer import StateLimit
    from mmdsl.suite import runner

    def too_big(program, model):
        raise StateLimit("more than 10 states", hint="raise --max-states")

    monkeypatch.setattr(runner, "_explore", too_big)
    suite = load_suite(make_suite(tmp_path, None, tests=("SB",)))
    run = run_suite(suite, model_columns(suite, ["tso"]), engine="explorer", executor="inline")
    assert matrix(run) == {("SB", "tso"): "limit reached"}
    assert "more than 10 states" in run.cells[("SB", "tso")].message
    assert run.exit_code() == 1


@pytest.mark.parametrize("timeout", [float("inf"), 1e12, -5.0, float("nan")])
def test_a_limit_no_timer_can_keep_is_bad_input(tmp_path, timeout):
    """setitimer and threading.Timer overflow past ~1e9 s: refused up front, not a crashed cell
    (or, on a Dask worker thread, a timer thread that dies and never fires)."""
    from mmdsl.core.errors import MmdslError

    suite = load_suite(make_suite(tmp_path, None, tests=("SB",)))
    with pytest.raises(MmdslError, match="is not a time limit"):
        run_suite(suite, model_columns(suite, ["sc"]), timeout=timeout, executor="inline")


def test_cli_refuses_an_infinite_timeout(tmp_path):
    make_suite(tmp_path, None, tests=("SB",))
    proc = mmdsl("suite", str(tmp_path), "-m", "sc", "--timeout", "1e400")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: --timeout inf is not a time limit; expected seconds between 0")


def test_the_time_line_counts_the_workers_that_ran(tmp_path):
    """Three tests cut into one-test chunks: --jobs 64 starts three workers (fewer on a machine
    with fewer cores: more would only share them), and says so."""
    from mmdsl.suite.run import default_jobs

    suite = load_suite(make_suite(tmp_path, None, tests=("SB", "MP", "LB")))
    run = run_suite(suite, model_columns(suite, ["sc"]), jobs=64)
    assert run.jobs == min(3, default_jobs()) and len(run.cells) == 3


def test_a_slow_diagram_keeps_the_verdict(tmp_path, monkeypatch):
    """Laying out a cell's diagram gets what is left of its time limit; running out costs the
    picture, not the verdict (nor, on a local worker, a kill past the hard limit)."""
    from mmdsl.suite import work

    def slow_picture(program, model, result):
        time.sleep(300)

    monkeypatch.setattr(work, "cell_diagram", slow_picture)
    suite = load_suite(make_suite(tmp_path, None, tests=("SB",)))
    start = time.monotonic()
    run = run_suite(suite, model_columns(suite, ["tso"]), timeout=1, executor="inline", draw=True)
    assert time.monotonic() - start < 100  # wall-clock: the 300 s picture was cut (limit 1 s)
    cell = run.cells[("SB", "tso")]
    assert (cell.status, cell.verdict, cell.dot) == ("ok", "Allowed", None)
    assert cell.message == "no diagram: the cell's time limit ran out while laying it out"


def test_test_names_are_not_read_as_console_markup(tmp_path):
    """rich would print SB[x] as SB and make M[bold]P bold: the matrices print names as they are."""
    (tmp_path / "SB[x].litmus").write_text((CLASSIC / "SB.litmus").read_text())
    (tmp_path / "M[bold]P.litmus").write_text((CLASSIC / "MP.litmus").read_text())
    suite = mmdsl("suite", str(tmp_path), "-m", "sc", "--jobs", "1")
    assert "│ M[bold]P │ Forbidden │" in suite.stdout and "│ SB[x]    │ Forbidden │" in suite.stdout
    run = mmdsl("run", str(tmp_path), "-m", "sc", "-q")
    assert "│ M[bold]P │ F  │" in run.stdout and "│ SB[x]    │ F  │" in run.stdout
