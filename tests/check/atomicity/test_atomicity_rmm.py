"""Atomicity of Memorax `.rmm` programs (``/* @atomic */ { ... }``): the bundled programs' verdicts,
the marks being comments, what counts as a lock, and waits that end or paths that are cut."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DIR = ROOT / "litmus" / "atomicity"


def judge(path: Path):
    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.lang import load_model
    from mmdsl.litmus.rmm_atomic import load_rmm_atomicity

    return check_atomicity(load_rmm_atomicity(str(path)), load_model("sc"))


def columns(result) -> list[tuple]:
    return [(b.name, tuple(b.verdicts[c] for c in "ILCW")) for b in result.blocks]


ALL = ("checked",) * 4
NOISE = ("noise",) * 4
ERROR = ("error",) * 4


@pytest.mark.parametrize("name, verdicts, definite, trace", [
    # c only under l: acquire R, accesses B, release L (I: one dependent step, the acquire)
    ("counter-locked", [("P0@17", ALL)], None, None),
    # the unlocked read-modify-write: a second dependent step; no value read inside shows it
    ("counter-racy", [("P0@16", NOISE)], None, None),
    # StringBuffer's append in miniature: the length read twice, emptied in between
    ("append-split", [("P0@20", ERROR), ("P1@32", ALL)], "read len=0 where the block had seen len=2",
     ["P1: W len=0", "P0: R len=0"]),
    # a wait inside the block while holding the lock the other process needs
    ("wait-holding", [("P0@14", ERROR)], "deadlock with P0 inside the block",
     ["P0: RMW[lock] l=0->1"]),
])
def test_bundled_rmm_programs(name, verdicts, definite, trace):
    r = judge(DIR / f"{name}.rmm")
    assert columns(r) == verdicts
    first = r.blocks[0]
    assert (first.definite is not None) == (definite is not None)
    if definite:
        assert definite in first.definite
        assert all(any(step in line for line in first.trace) for step in trace)
        assert r.error
    assert r.stats["states"] < 200  # small spaces: the tests stay cheap


def test_marks_are_comments_everywhere_else():
    """Without --atomicity a marked file is the program with the marks deleted (Memorax sees comments)."""
    from mmdsl.litmus.rmm import parse_rmm

    text = (DIR / "append-split.rmm").read_text()
    bare = text.replace("/* @atomic */", "")
    assert "@atomic" not in bare
    marked, plain = parse_rmm(text, "a.rmm"), parse_rmm(bare, "a.rmm")
    assert [t.instrs for t in marked.threads] == [t.instrs for t in plain.threads]
    assert marked.init == plain.init


def test_lock_recognition_is_by_every_access(tmp_path):
    """l read anywhere else is no lock: its acquire and release are data, and the block is noise."""
    src = (DIR / "counter-locked.rmm").read_text()
    r = judge(DIR / "counter-locked.rmm")
    assert r.races == {"c": "protected by l", "l": "mutex"}
    path = tmp_path / "peek.rmm"
    path.write_text(src.replace("write: l := 0\n  }", "write: l := 0\n  };\n  read: $r := l"))
    r = judge(path)
    assert r.races == {"c": None, "l": None}  # None: two threads may race on it
    assert columns(r) == [("P0@17", NOISE)]


PROG = """forbidden
  * *
data
  flag = 0 : [0:1]
  c = 0 : [0:1]
process
registers
  $r = 0 : [0:1]
text
  /* @atomic */ {
    BODY
  }
process
registers
  $r = 0 : [0:1]
text
  OTHER
"""


@pytest.mark.parametrize("body, other, verdict", [
    # a wait that another process ends: no error (a read-and-cut lowering would call it one)
    ("read: flag = 1", "write: flag := 1", ALL),
    # nobody ever sets the flag: the block waits forever
    ("read: flag = 1", "nop", ERROR),
    # the write's domain cuts the path (c = 1 + 1 leaves [0:1]) while the other process runs
    # on forever: no execution is stuck there, so no error (the explorer ends such a state)
    ("read: $r := c; write: c := $r + 1", "write: c := 1; L: write: flag := 1; goto L", NOISE),
    # a wait is a read, not a write: flag and c are read-only, each access independent
    ("read: flag = 0; read: c = 0", "read: flag = 0; read: c = 0", ALL),
])
def test_waits_and_cut_paths(tmp_path, body, other, verdict):
    path = tmp_path / "w.rmm"
    path.write_text(PROG.replace("BODY", body).replace("OTHER", other))
    assert columns(judge(path))[0][1] == verdict


def test_cli_on_rmm():
    run = [sys.executable, "-m", "mmdsl", "check", str(DIR / "append-split.rmm"), "-m", "sc", "--atomicity"]
    out = subprocess.run(run + ["--json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert data["counts"]["C"] == {"check": 1, "noise": 0, "error": 1}
    out = subprocess.run(run[:-3], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "with --atomicity" in out.stderr and "Traceback" not in out.stderr


NESTED = """forbidden
  * *
data
  a = 0 : [0:1]
  b = 0 : [0:1]
  c = 0 : [0:1]
process
registers
  $r = 0 : [0:1]
text
  /* @atomic */ {
    cas(a, 0, 1);
    cas(b, 0, 1);
    read: $r := c;
    write: c := 1 - $r;
    write: b := 0;
    write: a := 0
  }
process
text
  /* @atomic */ { cas(b, 0, 1); write: c := 0; write: b := 0 };
  /* @atomic */ { cas(a, 0, 1); write: a := 0 }
"""


def test_the_modes_differ_as_the_seeds_on_nested_locks(tmp_path):
    """Two contended locks taken in a row: DD under independence (noise), R R .. L L under movers
    (checked), so both combinations check it (the seed's replicated workers' nested locks)."""
    path = tmp_path / "nested.rmm"
    path.write_text(NESTED)
    r = judge(path)
    assert columns(r) == [("P0@11", ("noise", "checked", "checked", "checked")), ("P1@21", ALL), ("P1@22", ALL)]
    assert r.blocks[0].possible["ind"][0] == "a second dependent step: acquires b"
    assert r.races == {"a": "mutex", "b": "mutex", "c": "protected by b"}
