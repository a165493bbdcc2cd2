"""The seed's example programs against its Table 1 (litmus/atomicity/table1.csv, transcribed from
the paper): the counts per column where the programs are the paper's, the verdict of every block."""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest

from budget import cpu_budget

ROOT = Path(__file__).resolve().parents[3]
DIR = ROOT / "litmus" / "atomicity"
COLUMNS = ("I", "L", "C", "W")


def table1() -> dict:
    """program -> row -> column -> count, as the paper prints them."""
    out: dict = {}
    with open(DIR / "table1.csv") as f:
        rows = [r for r in f if not r.startswith("#")]
    for r in csv.DictReader(rows):
        out.setdefault(r["program"], {})[r["row"]] = {c: int(r[c]) for c in COLUMNS}
    return out


@lru_cache(maxsize=None)
def judged(program: str):
    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    return check_atomicity(load_c_program(str(DIR / program)), load_model("sc"))


def verdicts(result) -> dict:
    return {b.name.split("@")[0]: "".join(v[0] for v in b.verdicts.values()) for b in result.blocks}


@pytest.mark.parametrize("program", ["stringbuffer.c", "stringbuffer-deadlock.c"])
def test_stringbuffers_give_the_papers_counts(program):
    with cpu_budget(60):
        result = judged(program)
    paper = table1()[program]
    for column in COLUMNS:
        got = result.counts(column)
        assert got == {row: paper[row][column] for row in ("check", "noise", "error")}, column
    assert result.stats["states"] < 20_000  # work bound (1,485 and 972 states when written)


def test_original_stringbuffer_append_reads_a_stale_length():
    result = judged("stringbuffer.c")
    append = next(b for b in result.blocks if b.name.startswith("sb_append@"))
    assert append.verdicts == {c: "error" for c in COLUMNS}
    assert append.definite == ("read count[1]=0 where the block had seen count[1]=2: "
                               "another thread wrote it in between")
    # the witness: append read sb's length 2, the truncator emptied sb, getChars read 0
    trace = "\n".join(append.trace)
    assert "appender#1: R count[1]=2" in trace and "truncator#2: W count[1]=0" in trace
    assert trace.index("appender#1: R count[1]=2") < trace.index("truncator#2: W count[1]=0")
    assert append.trace[-1].startswith("appender#1: R count[1]=0")
    # its patterns break too: acquire after release (movers), two contended acquires (independence)
    assert set(append.possible) == {"ind", "mover", "revised"}
    others = [b for b in result.blocks if b is not append]
    assert all(set(b.verdicts.values()) == {"checked"} for b in others)


def test_deadlock_stringbuffer_append_may_not_complete():
    result = judged("stringbuffer-deadlock.c")
    append = next(b for b in result.blocks if b.name.startswith("sb_append@"))
    assert append.verdicts == {c: "error" for c in COLUMNS}
    assert append.definite.startswith("deadlock with forward#1 inside the block")
    assert f"forward#1 at {DIR}/stringbuffer-deadlock.c:15:5 waits for mutex lock[1] held by " \
           "backward#2" in append.definite
    assert f"backward#2 at {DIR}/stringbuffer-deadlock.c:15:5 waits for mutex lock[0] held by " \
           "forward#1" in append.definite
    # each thread took its receiver's lock, inside append, and released nothing since
    trace = "\n".join(append.trace)
    tail = trace[trace.index(f"forward#1: ATOMIC_BEGIN()  [{DIR}/stringbuffer-deadlock.c"):]
    assert "forward#1: RMW[acq][lock] lock[0]=0->2" in tail and "backward#2: RMW[acq][lock] lock[1]=0->3" in tail
    assert "unlock" not in tail
    # movers see R R .. L L, which the type system accepts too: only the must-complete check finds
    # the error; independence sees two contended acquires (the seed's "DD..ll")
    assert set(append.possible) == {"ind"}


def test_replicated_workers_noise_per_column_as_the_paper():
    with cpu_budget(60):
        result = judged("replicated-workers.c")
    paper = table1()["replicated-workers.c"]
    for column in COLUMNS:
        got = result.counts(column)
        assert got["noise"] == paper["noise"][column], column
        assert got["error"] == paper["error"][column] == 0
    # the paper's Fig. 6(b): takeN is R..L..R..L for movers, I+ D I+ for independence
    assert verdicts(result) == {
        "vec_size": "cccc", "vec_add": "cccc", "vec_take": "cccc", "pool_put": "cccc",
        "pool_take_n": "cncc", "mark_idle": "nccc", "is_finished": "cccc",
    }
    assert result.races["vlock[0]"] == "mutex, protected by pool"
    assert result.races["vlock[1]"] == "mutex, thread-local"


@pytest.mark.slow
def test_readers_writers_noise_vanishes_with_the_revised_movers():
    with cpu_budget(300):
        result = judged("readers-writers.c")
    paper = table1()["readers-writers.c"]
    for column in COLUMNS:
        got = result.counts(column)
        assert got["error"] == paper["error"][column] == 0
        assert (got["noise"] == 0) == (paper["noise"][column] == 0), column
    assert verdicts(result) == {
        "vec_size": "cccc", "vec_first": "cccc", "vec_remove_first": "cccc", "vec_add": "cccc",
        "allow_reader": "cccc", "allow_writer": "cccc", "notify_readers": "cccc",
        "notify_writer": "cnc" + "c", "after_read": "nnnc", "after_write": "nnnc",
    }
    assert result.races["vec"] == "mutex, protected by self"


@pytest.mark.parametrize("program", ["stringbuffer.c", "stringbuffer-deadlock.c"])
def test_local_steps_first_changes_no_verdict(program, monkeypatch):
    """The reduction (an issue step taken alone) against the whole interleaving space."""
    from mmdsl.check.atomicity import check as module
    from mmdsl.explorer.machines.table.transitions import Semantics

    reduced = judged(program)
    monkeypatch.setattr(module, "LocalFirst", Semantics)
    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    with cpu_budget(120):
        whole = check_atomicity(load_c_program(str(DIR / program)), load_model("sc"))
    assert whole.stats["states"] > 3 * reduced.stats["states"]
    assert [(b.name, b.verdicts, b.definite) for b in whole.blocks] == \
           [(b.name, b.verdicts, b.definite) for b in reduced.blocks]
    assert {b.name: set(b.possible) for b in whole.blocks} == {b.name: set(b.possible) for b in reduced.blocks}
    assert whole.races == reduced.races


def test_plain_check_agrees_append_fails_and_the_variant_deadlocks():
    """Without --atomicity, `mmdsl check` finds what the two witnesses show: getChars's bounds
    assertion fails in the original, the two appends deadlock in the variant."""
    from mmdsl.check import check_program
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    with cpu_budget(60):
        original = check_program(load_c_program(str(DIR / "stringbuffer.c")), load_model("sc"))
        variant = check_program(load_c_program(str(DIR / "stringbuffer-deadlock.c")), load_model("sc"))
    assert original.verdict == "violation" and original.failed["at"].endswith("stringbuffer.h:87:5")
    assert variant.verdict == "deadlock"
    assert {b.thread for b in variant.blocked} == {"main", "forward#1", "backward#2"}
