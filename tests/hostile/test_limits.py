"""Hostile inputs for time and depth (issue 9, items 7 and 8): ``--timeout`` on run, explore,
fences, draw and suite (parsing and model loading included), and long tests that once ended in
a RecursionError.

Every command runs in a subprocess with a time and memory bound of its own, so that a
regression shows as a failed test, not as a hung or swapped-out test run.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mmdsl.suite.manifest import ModelRef
from mmdsl.suite.work import OK, TIMEOUT, RunSpec, WorkItem, run_item

ROOT = Path(__file__).resolve().parents[2]
SB = ROOT / "litmus" / "classic" / "SB.litmus"


# ----- helpers -----------------------------------------------------------------
def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # 2 GiB: a runaway read fails fast


def mmdsl(*args: str, cwd: Path | None = None, bound: float = 90) -> subprocess.CompletedProcess:
    """``mmdsl ARGS`` in a subprocess that may run ``bound`` seconds at most."""
    try:
        return subprocess.run([sys.executable, "-m", "mmdsl", *map(str, args)], capture_output=True, text=True,
                              timeout=bound, cwd=cwd, preexec_fn=_bounded_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mmdsl {' '.join(map(str, args))} ran past {bound} s")


def clean(r: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr[-2000:]


def many_threads(folder: Path, n: int = 10) -> Path:
    """An X86 test of ``n`` threads each writing, reading and writing one location: a huge
    number of candidates and states."""
    heads = " | ".join(f"P{i}" for i in range(n))
    rows = [" | ".join("MOV EAX,[x]" if k == 1 else f"MOV [x],${i * 10 + k + 1}" for i in range(n))
            for k in range(3)]
    path = folder / "MANY.litmus"
    path.write_text("\n".join(["X86 MANY", "{", "}", f" {heads} ;", *(f" {r} ;" for r in rows),
                               "exists (0:EAX=0)"]) + "\n")
    return path


def long_thread(folder: Path, n: int, *, same_location: bool = False) -> Path:
    """Thread 0 makes ``n`` writes (to ``n`` locations, or ``n`` values to one); thread 1 reads x0."""
    name = f"LONG{n}{'x' if same_location else ''}"
    writes = [f"MOV [x0],${i + 1}" if same_location else f"MOV [x{i}],$1" for i in range(n)]
    rows = [f" {w} | {'MOV EAX,[x0]' if i == 0 else ''} ;" for i, w in enumerate(writes)]
    path = folder / f"{name}.litmus"
    path.write_text("\n".join([f"X86 {name}", "{", "}", " P0 | P1 ;", *rows, "exists (1:EAX=1)"]) + "\n")
    return path


def many_locations(folder: Path, n: int) -> Path:
    init = "; ".join(f"x{i}=0" for i in range(n))
    path = folder / f"LOCS{n}.litmus"
    path.write_text("\n".join([f"X86 LOCS{n}", f"{{ {init}; }}", " P0 | P1 ;", " MOV [x0],$1 | MOV EAX,[x0] ;",
                               "exists (1:EAX=1)"]) + "\n")
    return path


# ----- --timeout on the single-run commands ----------------------------------------
def test_run_timeout_stops_a_test_with_many_threads(tmp_path):
    start = time.monotonic()
    r = mmdsl("run", many_threads(tmp_path), "--timeout", "1")
    clean(r)
    assert r.returncode == 1, r.stderr
    assert "MANY.litmus under sc: timed out after 1 s" in r.stderr
    assert time.monotonic() - start < 60  # wall-clock: --timeout 1 stopped it (60 times the limit)


def test_run_timeout_is_per_test_and_the_run_goes_on(tmp_path):
    r = mmdsl("run", many_threads(tmp_path), SB, "-m", "sc", "-m", "tso", "--timeout", "1")
    clean(r)
    assert r.returncode == 1  # a timeout, no bad input
    assert r.stderr.count("timed out after 1 s") == 2  # MANY under sc, MANY under tso
    assert "Observation SB Never" in r.stdout and "Observation SB Sometimes" in r.stdout
    assert "2 failed" in r.stdout


def test_run_timeout_in_json_is_an_error_of_kind_timeout(tmp_path):
    r = mmdsl("run", many_threads(tmp_path), "--timeout", "1", "--json")
    clean(r)
    out = json.loads(r.stdout)
    assert r.returncode == 1
    assert [e["error"] for e in out["errors"]] == ["timeout"]


@pytest.mark.parametrize("command", [["explore", "-m", "tso"], ["fences", "-m", "tso"],
                                     ["draw", "-m", "tso", "-f", "dot", "-o", "{tmp}/out"]])
def test_single_test_commands_stop_past_their_timeout(tmp_path, command):
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    r = mmdsl(args[0], many_threads(tmp_path), *args[1:], "--timeout", "1")
    clean(r)
    assert r.returncode == 1, r.stderr
    assert "timeout:" in r.stderr and "timed out after 1 s" in r.stderr


@pytest.mark.parametrize("value", ["nan", "1e9", "inf"])
def test_a_timeout_no_timer_can_keep_is_refused(value):
    r = mmdsl("run", SB, "--timeout", value)
    clean(r)
    assert r.returncode == 2
    assert "No such option" not in r.stderr
    assert "is not a time limit" in r.stderr or "greater than or equal to 0" in r.stderr  # nan: click says


def test_a_timeout_does_not_cut_a_run_short():
    r = mmdsl("run", SB, "-m", "tso", "--timeout", "30")
    assert r.returncode == 0, r.stderr
    assert "Observation SB Sometimes" in r.stdout


# ----- suite: the limit covers parsing and model loading ------------------------------
SLOW = 40  # seconds a slowed step takes: far past the 0.5 s limits below, so a loaded machine cannot blur them


def _slow(seconds: float, real, busy: bool = False):
    """``real`` after ``seconds`` of sleep (or of running Python, which a thread's limit can stop)."""

    def wrapper(*args, **kwargs):
        end = time.monotonic() + seconds
        if busy:
            while time.monotonic() < end:
                pass
        else:
            time.sleep(seconds)
        return real(*args, **kwargs)

    return wrapper


def _cells(spec: RunSpec, events: list | None = None):
    item = WorkItem("SB", str(SB), SB.read_text())
    on_start = None if events is None else (lambda key, col: events.append(("start", key, col)))
    return list(run_item(item, spec, on_start))


def test_suite_limit_covers_parsing_and_is_announced_first(monkeypatch):
    import mmdsl.litmus.loader as loader

    events: list = []
    monkeypatch.setattr(loader, "parse_litmus", _slow(SLOW, loader.parse_litmus))
    start = time.monotonic()
    cells = _cells(RunSpec((ModelRef("sc", "sc"), ModelRef("tso", "tso")), timeout=0.5), events)
    assert time.monotonic() - start < SLOW / 2  # wall-clock: 40 times the limit
    assert [c.status for c in cells] == [TIMEOUT, TIMEOUT]
    assert "timed out after 0.5 s while parsing the test" in cells[0].message
    assert events[0] == ("start", "SB", "sc")  # the parent's hard limit runs from before the parse


def test_suite_limit_covers_model_loading(monkeypatch):
    import mmdsl.lang as lang

    monkeypatch.setattr(lang, "load_model", _slow(SLOW, lang.load_model))
    start = time.monotonic()
    cells = _cells(RunSpec((ModelRef("sc", "sc"),), timeout=0.5))
    assert time.monotonic() - start < SLOW / 2  # wall-clock: 40 times the limit
    assert [c.status for c in cells] == [TIMEOUT]


def test_suite_limit_covers_parsing_in_a_worker_thread(monkeypatch):
    """Dask runs cells in threads, where there is no SIGALRM: the same limit must hold."""
    import mmdsl.litmus.loader as loader

    monkeypatch.setattr(loader, "parse_litmus", _slow(SLOW, loader.parse_litmus, busy=True))
    out: list = []
    worker = threading.Thread(target=lambda: out.extend(_cells(RunSpec((ModelRef("sc", "sc"),), timeout=0.5))))
    start = time.monotonic()
    worker.start()
    worker.join(SLOW + 20)
    assert time.monotonic() - start < SLOW / 2  # wall-clock: 40 times the limit
    assert [c.status for c in out] == [TIMEOUT]


def test_suite_limit_covers_loading_the_models_before_the_run(monkeypatch):
    import mmdsl.lang as lang
    from mmdsl.core.limits import TimeLimitError
    from mmdsl.suite.manifest import load_suite
    from mmdsl.suite.run import run_suite

    suite = load_suite(SB.parent)
    monkeypatch.setattr(lang, "load_model", _slow(SLOW, lang.load_model))
    start = time.monotonic()
    with pytest.raises(TimeLimitError, match="loading model 'sc': timed out after 0.5 s"):
        run_suite(suite, [ModelRef("sc", "sc")], executor="inline", timeout=0.5)
    assert time.monotonic() - start < SLOW / 2  # wall-clock: 40 times the limit


def test_a_cell_within_its_limit_is_unchanged():
    cells = _cells(RunSpec((ModelRef("sc", "sc"), ModelRef("tso", "tso")), timeout=30))
    assert [(c.status, c.verdict) for c in cells] == [(OK, "Forbidden"), (OK, "Allowed")]


# ----- long inputs: no RecursionError ---------------------------------------------
def test_a_thread_of_340_writes_runs(tmp_path):
    r = mmdsl("run", long_thread(tmp_path, 340), "-m", "sc", "-m", "tso")
    clean(r)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Observation LONG340 Sometimes") == 2


def test_a_test_with_1000_initialised_locations_runs(tmp_path):
    r = mmdsl("run", many_locations(tmp_path, 1000))
    clean(r)
    assert r.returncode == 0, r.stderr
    assert "Observation LOCS1000 Sometimes 1 1" in r.stdout


def test_a_thread_of_2000_writes_parses(tmp_path):
    from mmdsl.litmus import load_litmus

    program = load_litmus(long_thread(tmp_path, 2000))
    assert len(program.threads[0].instrs) == 2000
    assert len(program.locations) == 2000


def test_a_thread_of_340_values_for_one_location_fails_cleanly(tmp_path):
    """Beyond the checker's value domains: a located, named refusal, not a traceback."""
    r = mmdsl("run", long_thread(tmp_path, 340, same_location=True))
    clean(r)
    assert r.returncode == 2
    assert "unsupported:" in r.stderr and "may hold more than" in r.stderr


def test_a_recursion_error_left_anywhere_is_a_clean_error(monkeypatch):
    """The last resort: a RecursionError from an engine becomes one error line, exit code 2."""
    from typer.testing import CliRunner

    import mmdsl.axiomatic as axiomatic
    from mmdsl.cli.app import app

    def too_deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(axiomatic, "check", too_deep)
    r = CliRunner().invoke(app, ["run", str(SB)])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "nested or chained too deeply" in r.output


def test_suite_timeout_bounds_a_model_that_is_slow_to_load(tmp_path):
    """A model with 24 annotations made the table check try 2^24 event shapes: ``suite
    --timeout 3`` must end soon after 3 s, with a timeout -- or with the verdicts, once
    loading such a model is fast."""
    names = [f"a{i}" for i in range(24)]
    union = " | ".join(names)
    model = tmp_path / "m24.mm"
    model.write_text(f'model m24 "many annotations"\nannotation {", ".join(names)}\n'
                     f"class Plain = M \\ ({union})\nclass Ann = M & ({union})\n"
                     "reorder {\n         Plain Ann\n  Plain  -     -\n  Ann    -     -\n}\nforwarding none\n")
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "SB.litmus").write_text(SB.read_text())
    start = time.monotonic()
    r = mmdsl("suite", folder, "-m", model, "--timeout", "3", "--executor", "inline", bound=40)
    clean(r)
    assert time.monotonic() - start < 30  # wall-clock: --timeout 3 stopped it (10 times the limit)
    if r.returncode != 0:
        assert r.returncode == 1, r.stderr
        assert "loading model" in r.stderr and "timed out after 3 s" in r.stderr
