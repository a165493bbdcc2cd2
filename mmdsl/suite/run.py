"""Running a suite: every (test, model) cell on the chosen executor, checked against expectations."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from ..core.errors import LitmusError, MmdslError
from ..core.files import read_input
from ..core.limits import check_timeout, within
from .expectations import Expectation
from .manifest import ManifestError, ModelRef, Suite, resolve_model
from .work import DISAGREE, ERROR, HW_FORBIDDEN, OK, Cell, RunSpec, WorkItem, make_chunks, run_item

EXECUTORS = ("local", "inline", "dask")
DEFAULT_TIMEOUT = 60.0

# what became of one cell, against its expectation
HELD, MISMATCH, UNCHECKED = "held", "mismatch", "unchecked"


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def local_jobs(asked: int, tests: int) -> int:
    """The worker processes worth starting on this machine: no more than the tests, nor than
    the CPUs this process may use (more only share those CPUs, each with its own memory)."""
    return max(1, min(asked, tests, default_jobs()))


@dataclass
class SuiteRun:
    """The cells of one run of a suite, with what each was expected to give."""

    suite: Suite
    models: list[ModelRef]
    engine: str
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    started: str = ""
    wall: float = 0.0
    jobs: int = 1
    executor: str = "local"

    @property
    def columns(self) -> list[str]:
        return [m.column for m in self.models]

    @property
    def tests(self) -> list[str]:
        return self.suite.keys

    @property
    def default_column(self) -> str | None:
        """The column herd `.expected` files and `Result:` comments speak for: the suite's first model."""
        if self.suite.models:
            return self.suite.models[0].column
        return self.columns[0] if self.columns else None

    def expectation(self, test: str, column: str) -> Expectation | None:
        found = self.suite.expectation(test, column, self.default_column)
        if found is None and column == self.default_column:
            cell = self.cells.get((test, column))
            found = cell.declared if cell is not None else None
        return found

    def outcome(self, test: str, column: str) -> str:
        """held | mismatch | unchecked for a cell that ran; else its status (timeout, crash, ...)."""
        cell = self.cells[(test, column)]
        if cell.status != OK:
            return cell.status
        exp = self.expectation(test, column)
        if exp is None:
            return UNCHECKED
        return HELD if exp.holds(cell.verdict, cell.observation) else MISMATCH

    def outcomes(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for test, col in self.cells:
            o = self.outcome(test, col)
            counts[o] = counts.get(o, 0) + 1
        return counts

    def problems(self) -> list[tuple[str, str, str]]:
        """(test, model, outcome) for every cell that is not fine, in matrix order."""
        return [(t, m, o) for t in self.tests for m in self.columns
                if (t, m) in self.cells and (o := self.outcome(t, m)) not in (HELD, UNCHECKED)]

    def exit_code(self, count_mismatches: bool = True) -> int:
        """0: every expectation held; 1: a mismatch, a timeout or limit, a crash; 2: bad input (a test
        error). Without ``count_mismatches`` (after blessing) only the failed cells count."""
        outcomes = self.outcomes()
        if outcomes.get(ERROR):
            return 2
        failed = ("timeout", "limit", "crash", DISAGREE, HW_FORBIDDEN) + ((MISMATCH,) if count_mismatches else ())
        return 1 if any(outcomes.get(o) for o in failed) else 0


def model_columns(suite: Suite, specs: list[str] | None) -> list[ModelRef]:
    """The models to run: ``-m`` specs (resolved against the working folder) or the manifest's."""
    if specs:
        refs = [resolve_model(s, Path.cwd()) for s in specs]
        seen = set()
        for r in refs:
            if r.column in seen:
                raise ManifestError(f"model column '{r.column}' is given twice",
                                    hint="name one of them: COLUMN=MODEL (e.g. tso2=tso)")
            seen.add(r.column)
        return refs
    if not suite.models:
        from ..core.errors import SourcePos

        where = SourcePos(str(suite.manifest), 1, 1) if suite.manifest is not None else None
        raise ManifestError(f"suite '{suite.name}' names no models", where, expected="-m MODEL (one or more)")
    return list(suite.models)


def run_suite(suite: Suite, models: list[ModelRef], *, engine: str | None = None, jobs: int | None = None,
              timeout: float | None = DEFAULT_TIMEOUT, executor: str = "local", scheduler: str | None = None,
              draw: bool = False, on_start: Callable[[int], None] | None = None,
              on_cell: Callable[[Cell], None] | None = None,
              on_tick: Callable[[], None] | None = None) -> SuiteRun:
    """Run every test of ``suite`` under every model; ``on_start(total_cells)`` then ``on_cell``
    for each cell as it arrives (in no particular order)."""
    from ..lang import load_model
    from .runner import check_engine

    if executor not in EXECUTORS:
        raise MmdslError(f"unknown executor '{executor}'", expected=", ".join(EXECUTORS))
    if executor == "dask" and not scheduler:
        raise MmdslError("--executor dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    timeout = check_timeout(timeout)
    for m in models:  # a bad model is one clear error before any work starts; a slow one too
        with within(timeout, f"loading model '{m.source}'"):
            load_model(m.source)
    engine = engine or suite.engine
    check_engine(engine)
    jobs = jobs or default_jobs()
    spec = RunSpec(tuple(models), engine, timeout, draw)  # draw: lay out a diagram per cell
    run = SuiteRun(suite, list(models), engine, jobs=jobs, executor=executor,
                   started=datetime.now(timezone.utc).isoformat(timespec="seconds"))
    if on_start is not None:
        on_start(len(suite.tests) * len(models))

    def take(cell: Cell) -> None:
        run.cells[(cell.test, cell.model)] = cell
        if on_cell is not None:
            on_cell(cell)

    items = []
    for t in suite.tests:
        try:
            items.append(WorkItem(t.key, str(t.path), read_input(t.path, "litmus file", LitmusError)))
        except MmdslError as err:  # missing, not a regular file, too large, not UTF-8
            for m in models:
                take(Cell(t.key, m.column, ERROR, engine=engine, message=str(err)))
    start = time.perf_counter()
    if executor == "inline":
        run.jobs = 1
        for item in items:
            for cell in run_item(item, spec):
                take(cell)
    elif executor == "local":
        from .local import LocalPool

        jobs = local_jobs(jobs, len(items))
        chunks = make_chunks(items, jobs)
        run.jobs = max(1, min(jobs, len(chunks)))  # the worker processes actually started
        LocalPool(spec, jobs).run(chunks, take, on_tick)
    else:
        from .cluster import run_on_dask

        run.jobs = run_on_dask(make_chunks(items, jobs), spec, scheduler, take)
    run.wall = time.perf_counter() - start
    return run
