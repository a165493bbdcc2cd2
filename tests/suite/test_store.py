"""Saved runs (SQLite) and `mmdsl compare`: the changed verdicts between two runs."""

from __future__ import annotations

import sqlite3

import pytest
from refdata import classic_verdicts
from suitefiles import mmdsl

from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite
from mmdsl.suite.store import StoreError, compare_runs, load_run, save_run


def test_saved_cells_are_the_run(tmp_path):
    suite = load_suite("litmus/classic")
    run = run_suite(suite, model_columns(suite, ["sc", "tso"]), jobs=1)
    db = tmp_path / "runs.db"
    assert save_run(db, run) == 1
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT test, model, verdict, observation, states, time, suite FROM results "
                            "WHERE run_id = 1").fetchall()
        head = conn.execute("SELECT suite, timestamp, models FROM runs").fetchall()
    assert head == [("classic", run.started, "sc,tso")]
    assert len(rows) == 2 * len(suite.tests)
    ref = classic_verdicts()
    for test, model, verdict, observation, states, time, name in rows:
        assert verdict == ref[test.split("/")[-1]][model]
        assert observation == ("Never" if verdict == "Forbidden" else "Sometimes")
        assert states > 0 and time >= 0 and name == "classic"


def test_compare_lists_exactly_the_changed_verdicts(tmp_path):
    """A run with pso's model in the tso column against a plain run: the changes are the shapes
    whose reference verdicts differ between TSO and PSO."""
    suite = load_suite("litmus/classic")
    db = tmp_path / "runs.db"
    save_run(db, run_suite(suite, model_columns(suite, ["sc", "tso"]), jobs=1))
    save_run(db, run_suite(suite, model_columns(suite, ["sc", "tso=pso"]), jobs=1))
    changes, counts = compare_runs(load_run(db, "1"), load_run(db, "last"))
    ref = classic_verdicts()
    expected = {t.key for t in suite.tests if ref[t.key.split("/")[-1]]["tso"] != ref[t.key.split("/")[-1]]["pso"]}
    assert {c.test for c in changes} == expected and len(expected) == 12  # 4 shapes x 3 dialects
    assert all(c.model == "tso" and c.before == "Forbidden (Never)" and c.after == "Allowed (Sometimes)"
               for c in changes)
    assert counts == {"unchanged": 2 * len(suite.tests) - 12, "only A": 0, "only B": 0}

    proc = mmdsl("compare", "last~1", "last", "--db", str(db))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[2].split() == ["test", "model", "A", "B"]
    assert "  MP         tso    Forbidden (Never)  Allowed (Sometimes)" in lines
    assert lines[-1] == f"12 changed, {2 * len(suite.tests) - 12} unchanged"
    assert mmdsl("compare", "1", "1", "--db", str(db)).returncode == 0


def test_bad_run_references(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        load_run(tmp_path / "none.db", "1")
    suite = load_suite("litmus/classic")
    db = tmp_path / "runs.db"
    save_run(db, run_suite(suite, model_columns(suite, ["sc"]), jobs=1))
    with pytest.raises(StoreError, match="no run 7"):
        load_run(db, "7")
    with pytest.raises(StoreError, match="only 1 saved run"):
        load_run(db, "last~1")
    proc = mmdsl("compare", "yesterday", "--db", str(db))
    assert proc.returncode == 2 and "bad run reference 'yesterday'" in proc.stderr


def test_files_that_are_not_run_databases_are_clear_errors(tmp_path):
    """Not an SQLite file, a folder, an id past SQLite's integers: one line each, exit 2."""
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    proc = mmdsl("compare", "--db", str(tmp_path / "notes.txt"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"saved runs: cannot use '{tmp_path / 'notes.txt'}' for saved runs: "
                                  "file is not a database")
    suite = load_suite("litmus/classic")
    run = run_suite(suite, model_columns(suite, ["sc"]), jobs=1, executor="inline")
    with pytest.raises(StoreError, match="cannot use .* for saved runs"):
        save_run(tmp_path, run)  # a folder
    db = tmp_path / "runs.db"
    save_run(db, run)
    proc = mmdsl("compare", "99999999999999999999999", "--db", str(db))
    assert proc.returncode == 2 and "no run 99999999999999999999999" in proc.stderr
