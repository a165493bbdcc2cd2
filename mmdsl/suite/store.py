"""Saved runs in SQLite (``--save runs.db``) and the comparison of two of them (``mmdsl compare``)."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import MmdslError
from .run import SuiteRun

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp TEXT NOT NULL,
    suite     TEXT NOT NULL,
    manifest  TEXT,
    engine    TEXT NOT NULL,
    models    TEXT NOT NULL,      -- the model columns (COLUMN=SOURCE when they differ), comma separated
    executor  TEXT NOT NULL,
    jobs      INTEGER NOT NULL,
    wall      REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    suite       TEXT NOT NULL,
    model       TEXT NOT NULL,
    test        TEXT NOT NULL,
    status      TEXT NOT NULL,    -- ok | timeout | limit | crash | error | disagree
    verdict     TEXT,             -- Allowed | Forbidden (status ok)
    observation TEXT,             -- Never | Sometimes | Always (status ok)
    expected    TEXT,
    outcome     TEXT NOT NULL,    -- held | mismatch | unchecked | the status
    states      INTEGER NOT NULL,
    positive    INTEGER NOT NULL,
    negative    INTEGER NOT NULL,
    time        REAL NOT NULL,
    message     TEXT,
    PRIMARY KEY (run_id, model, test)
);
"""
_REF = re.compile(r"last(?:~(\d+))?")


class StoreError(MmdslError):
    kind = "saved runs"


@dataclass
class SavedRun:
    id: int
    timestamp: str
    suite: str
    engine: str
    models: str
    cells: dict[tuple[str, str], sqlite3.Row] = field(default_factory=dict)

    def title(self) -> str:
        return f"run {self.id} ({self.suite}, {self.models}, {self.timestamp})"


@dataclass
class Change:
    test: str
    model: str
    before: str  # "Allowed (Sometimes)", "timed out", ...
    after: str


SQLITE_MAX_ID = 2**63 - 1


def _connect(db: str | Path, create: bool = False) -> sqlite3.Connection:
    if not create and not Path(db).is_file():
        raise StoreError(f"no saved runs: '{db}' does not exist", hint="save a run with mmdsl suite ... --save FILE")
    conn = None
    try:
        conn = sqlite3.connect(str(db))
        conn.row_factory = sqlite3.Row
        conn.executescript(SCHEMA)
    except sqlite3.Error as err:
        if conn is not None:
            conn.close()
        raise _store_error(db, err) from None
    return conn


def _store_error(db: str | Path, err: sqlite3.Error) -> StoreError:
    """An SQLite failure (not a database, a folder, read-only ...) as one clear line."""
    return StoreError(f"cannot use '{db}' for saved runs: {err}",
                      hint="--save and --db take an SQLite file that mmdsl created (or a new name)")


def save_run(db: str | Path, run: SuiteRun) -> int:
    """Store every cell of ``run``; the new run's id."""
    try:
        return _insert_run(db, run)
    except sqlite3.Error as err:
        raise _store_error(db, err) from None


def _insert_run(db: str | Path, run: SuiteRun) -> int:
    with _connect(db, create=True) as conn:
        cur = conn.execute(
            "INSERT INTO runs (timestamp, suite, manifest, engine, models, executor, jobs, wall) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (run.started, run.suite.name, str(run.suite.manifest or run.suite.root), run.engine,
             ",".join(map(str, run.models)), run.executor, run.jobs, run.wall))
        run_id = cur.lastrowid
        rows = []
        for (test, model), cell in run.cells.items():
            exp = run.expectation(test, model)
            rows.append((run_id, run.suite.name, model, test, cell.status, cell.verdict, cell.observation,
                         exp.word if exp else None, run.outcome(test, model), cell.states, cell.positive,
                         cell.negative, cell.time, cell.message or None))
        conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.close()
    return run_id


def list_runs(db: str | Path) -> list[sqlite3.Row]:
    conn = _connect(db)
    try:
        return conn.execute("SELECT r.*, (SELECT COUNT(*) FROM results WHERE run_id = r.id) AS cells "
                            "FROM runs r ORDER BY r.id").fetchall()
    except sqlite3.Error as err:
        raise _store_error(db, err) from None
    finally:
        conn.close()


def load_run(db: str | Path, ref: str) -> SavedRun:
    """A saved run by id (``3``), or ``last`` / ``last~1`` (the one before) ..."""
    conn = _connect(db)
    try:
        ids = [r["id"] for r in conn.execute("SELECT id FROM runs ORDER BY id")]
        m = _REF.fullmatch(ref.strip())
        if m:
            back = int(m.group(1) or 0)
            if back >= len(ids):
                raise StoreError(f"'{ref}': there are only {len(ids)} saved run(s) in {db}")
            run_id = ids[-1 - back]
        elif ref.strip().isdigit():
            run_id = int(ref)
        else:
            raise StoreError(f"bad run reference '{ref}'", expected="a run id, 'last' or 'last~N'")
        head = None  # an id past SQLite's integers names no run
        if run_id <= SQLITE_MAX_ID:
            head = conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if head is None:
            raise StoreError(f"no run {run_id} in {db}",
                             hint="saved runs: " + (", ".join(map(str, ids)) or "none"))
        saved = SavedRun(head["id"], head["timestamp"], head["suite"], head["engine"], head["models"])
        for row in conn.execute("SELECT * FROM results WHERE run_id = ?", (run_id,)):
            saved.cells[(row["test"], row["model"])] = row
        return saved
    except sqlite3.Error as err:  # a database of another program, with other columns
        raise _store_error(db, err) from None
    finally:
        conn.close()


def _text(row) -> str:
    if row["status"] != "ok":
        from .work import STATUS_TEXT

        return STATUS_TEXT.get(row["status"], row["status"])
    return f"{row['verdict']} ({row['observation']})"


def compare_runs(a: SavedRun, b: SavedRun) -> tuple[list[Change], dict[str, int]]:
    """The cells of both runs whose verdict, observation or status differ, and counts:
    ``unchanged``, ``only A``, ``only B`` (cells that ran in one run only)."""
    changes = []
    counts = {"unchanged": 0, "only A": 0, "only B": 0}
    for key in sorted(set(a.cells) | set(b.cells)):
        if key not in b.cells:
            counts["only A"] += 1
        elif key not in a.cells:
            counts["only B"] += 1
        elif _text(a.cells[key]) == _text(b.cells[key]):
            counts["unchanged"] += 1
        else:
            changes.append(Change(key[0], key[1], _text(a.cells[key]), _text(b.cells[key])))
    return changes, counts


def comparison_lines(a: SavedRun, b: SavedRun) -> list[str]:
    """mcompare-like text: the changed cells in a table, then counts."""
    changes, counts = compare_runs(a, b)
    lines = [f"A: {a.title()}", f"B: {b.title()}"]
    if changes:
        rows = [("test", "model", "A", "B")] + [(c.test, c.model, c.before, c.after) for c in changes]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            lines.append("  " + "  ".join(f"{v:<{w}}" for v, w in zip(r, widths)).rstrip())
    tail = f"{len(changes)} changed, {counts['unchanged']} unchanged"
    for k in ("only A", "only B"):
        if counts[k]:
            tail += f", {counts[k]} only in {k[-1]}"
    return lines + [tail]
