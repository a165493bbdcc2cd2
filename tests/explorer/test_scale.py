"""Long runs (issue 12, part 5): the --max-memory ceiling, the --compact visited set, the progress line."""

from __future__ import annotations

import io

import pytest
from explorer_paths import ROOT
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.explorer import MemoryLimit, explore, explore_space
from mmdsl.explorer import memory
from mmdsl.explorer.memory import MemoryCeiling, Progress
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PROGRAMS = sorted((ROOT / "litmus" / "programs").glob("*.litmus"))
CLASSIC_LISA = sorted((ROOT / "litmus" / "classic" / "lisa").glob("*.litmus"))
RW = ROOT / "litmus" / "programs" / "rw.litmus"  # 22398 states under pso without the reduction


def run(path, model: str, **kw):
    return explore(load_litmus(path), load_model(model), **kw)


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


# ---- the memory ceiling ------------------------------------------------------------------
def test_a_small_ceiling_stops_a_big_exploration_naming_the_bound_and_the_states_so_far():
    with pytest.raises(MemoryLimit) as err:
        run(RW, "pso", por=False, max_memory=1)
    message = err.value.message
    assert message.startswith("exploring rw under pso: the search used ")
    assert "past the --max-memory ceiling of 1 MB, after 4096 states (" in message
    assert "--max-memory" in err.value.hint
    assert err.value.kind == "limit"


def test_a_ceiling_above_the_need_changes_nothing():
    exact = run(RW, "pso", por=False)
    bounded = run(RW, "pso", por=False, max_memory=1_000_000)
    assert bounded.state_set() == exact.state_set()
    assert bounded.stats["states"] == exact.stats["states"] == 22398


def test_the_ceiling_is_checked_against_the_measure_and_refuses_a_non_positive_bound():
    MemoryCeiling(100, measure=lambda: 99.0).check(10, 20)  # below: nothing
    with pytest.raises(MemoryLimit, match="used 101 MB, past the --max-memory ceiling of 100 MB, after 10 states"):
        MemoryCeiling(100, measure=lambda: 101.0).check(10, 20)
    MemoryCeiling(None, measure=lambda: 1e9).check(10, 20)  # no ceiling
    with pytest.raises(MmdslError, match="--max-memory must be a positive, finite number of MB, not 0"):
        MemoryCeiling(0)
    assert memory.peak_memory_mb() > 1


def test_the_cli_reports_the_ceiling_like_the_other_bounds():
    r = invoke("explore", RW, "-m", "pso", "--no-por", "--max-memory", "1")
    assert r.exit_code == 2
    assert "limit: exploring rw under pso: the search used " in r.stderr
    assert "after 4096 states" in r.stderr and "hint: raise --max-memory" in r.stderr
    assert "Traceback" not in r.output
    r = invoke("explore", RW, "-m", "pso", "--max-memory", "0")
    assert r.exit_code == 2 and "--max-memory must be a positive, finite number of MB, not 0" in r.stderr


def test_fences_take_the_ceiling_when_they_explore():
    r = invoke("fences", RW, "-m", "pso", "--max-memory", "1", "--method", "cut")
    assert r.exit_code == 2
    assert "past the --max-memory ceiling of 1 MB" in r.stderr and "Traceback" not in r.output


# ---- the compact visited set ---------------------------------------------------------------
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
@pytest.mark.parametrize("model", ["sc", "tso", "pso", "dotnet"])
def test_compact_finds_the_same_final_states_verdicts_and_traces_on_every_bundled_program(path, model):
    exact = run(path, model, order="bfs")
    compact = run(path, model, order="bfs", compact=True)
    assert compact.state_set() == exact.state_set()
    assert compact.verdict == exact.verdict
    assert (compact.positive, compact.negative) == (exact.positive, exact.negative)
    assert compact.stats["states"] == exact.stats["states"]
    assert compact.stats["transitions"] == exact.stats["transitions"]
    assert compact.trace == exact.trace and compact.trace_final == exact.trace_final


@pytest.mark.parametrize("path", CLASSIC_LISA, ids=lambda p: p.stem)
def test_compact_gives_the_classic_shapes_the_same_verdicts_under_pso(path):
    exact = run(path, "pso", por=False)
    compact = run(path, "pso", por=False, compact=True)
    assert compact.state_set() == exact.state_set() and compact.verdict == exact.verdict


def test_compact_replays_the_states_a_fence_selection_reads():
    program, model = load_litmus(ROOT / "litmus" / "programs" / "dekker.litmus"), load_model("pso")
    exact = explore_space(program, model, order="bfs")
    compact = explore_space(program, model, order="bfs", compact=True)
    assert compact.targets == exact.targets
    for sid in exact.targets[:5]:
        assert compact.found.state_list[sid] == exact.found.state_list[sid]
        assert compact.trace_overtakings(sid) == exact.trace_overtakings(sid)


def test_compact_refuses_to_keep_the_state_graph():
    with pytest.raises(UnsupportedError, match="--compact keeps a hash of each state"):
        run(RW, "pso", graph=True, compact=True)


def test_the_cli_compact_run_prints_what_the_exact_run_prints():
    exact = invoke("explore", RW, "-m", "pso")
    compact = invoke("explore", RW, "-m", "pso", "--compact")
    assert exact.exit_code == compact.exit_code == 0
    def untimed(text):
        return [line for line in text.splitlines() if not line.startswith("Time ")]

    assert untimed(compact.stdout) == untimed(exact.stdout)


# ---- progress ------------------------------------------------------------------------------
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_off_when_the_stream_is_not_a_terminal():
    assert not Progress(True, stream=io.StringIO()).enabled
    assert not Progress(False, stream=FakeTerminal()).enabled
    assert Progress(True, stream=FakeTerminal()).enabled


def test_progress_shows_states_rate_and_depth_on_a_terminal_and_erases_itself(monkeypatch):
    monkeypatch.setattr(memory, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(memory, "PROGRESS_EVERY", 0.0)
    term = FakeTerminal()
    shown = Progress(True, stream=term)
    shown.update(5000, 12)
    shown.close()
    text = term.getvalue()
    assert "exploring: 5,000 states, " in text and " states/s, depth 12" in text
    assert text.endswith("\r\033[K")


def test_a_long_cli_exploration_shows_no_progress_when_not_a_terminal(monkeypatch):
    monkeypatch.setattr(memory, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(memory, "PROGRESS_EVERY", 0.0)
    r = invoke("explore", RW, "-m", "pso", "--no-por")
    assert r.exit_code == 0
    assert "exploring:" not in r.output and "\r" not in r.output


def test_the_compact_key_of_equal_states_is_equal_whatever_their_sharing_and_interning():
    import sys

    from mmdsl.explorer.search import state_key

    name = sys.intern("lock")
    built = "".join(["lo", "ck"])
    shared = (1, 2)
    assert state_key(((shared, shared), (name, None, -1))) == state_key((((1, 2), (1, 2)), (built, None, -1)))
    assert state_key((0, (-1,))) != state_key((0, (-2,)))  # hash(-1) == hash(-2) in CPython: not here
    assert len(state_key((0,))) == 16


def test_run_with_the_explorer_takes_the_ceiling_per_test_and_compact():
    r = invoke("run", RW, "-m", "pso", "--engine", "explorer", "--max-memory", "1")
    assert r.exit_code == 2
    assert "exploring rw under pso: the search used " in r.stderr and "--max-memory ceiling of 1 MB" in r.stderr
    exact = invoke("run", ROOT / "litmus" / "programs", "-m", "pso", "--engine", "explorer", "--json")
    compact = invoke("run", ROOT / "litmus" / "programs", "-m", "pso", "--engine", "explorer", "--json",
                     "--compact")
    assert exact.exit_code == compact.exit_code == 0

    def verdicts(out):
        import json

        return {(d["test"], d["verdict"], tuple(sorted(map(str, d["states"])))) for d in json.loads(out)["results"]}

    assert verdicts(compact.stdout) == verdicts(exact.stdout)
    bad = invoke("run", RW, "-m", "pso", "--engine", "explorer", "--max-memory", "nan")
    assert bad.exit_code == 2 and bad.stderr.count("--max-memory must be a positive") == 1
