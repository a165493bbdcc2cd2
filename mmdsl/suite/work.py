"""The work of a suite run: chunks of tests, and running one test under every model into cells."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..core.errors import MmdslError
from ..core.limits import TestTimeout, time_limit, timeout_text, too_deep_to_run
from .expectations import result_comment
from .manifest import ModelRef
from .runner import EngineDisagreement, check_with

# pyparsing's parse actions learn their arity on first use, which is not thread safe; Dask
# workers run tasks in threads, so tests are parsed (and models loaded) one at a time
_FRONT_ENDS = threading.Lock()

OK, TIMEOUT, LIMIT, CRASH, ERROR, DISAGREE = "ok", "timeout", "limit", "crash", "error", "disagree"
HW_FORBIDDEN = "hw-forbidden"  # suite --hw: this CPU showed a state a model of the run forbids
STATUS_TEXT = {TIMEOUT: "timed out", LIMIT: "limit reached", CRASH: "crashed", ERROR: "error",
               DISAGREE: "engines disagree", HW_FORBIDDEN: "FORBIDDEN seen"}


@dataclass(frozen=True)
class WorkItem:
    """One test to run: its key in the suite, its path (for messages) and its text."""

    key: str
    path: str
    text: str
    columns: tuple[str, ...] | None = None  # the model columns still to run (None: all)


@dataclass(frozen=True)
class RunSpec:
    """What every worker needs besides the tests: the models, the engine, the limits."""

    models: tuple[ModelRef, ...]
    engine: str = "axiomatic"
    timeout: float | None = None
    draw: bool = False  # lay out a diagram per cell (DOT text in the cell)


@dataclass
class Cell:
    """The result of one test under one model (picklable, small: no executions)."""

    test: str
    model: str
    status: str  # ok | timeout | limit | crash | error | disagree
    verdict: str | None = None  # Allowed | Forbidden
    observation: str | None = None  # Never | Sometimes | Always
    positive: int = 0
    negative: int = 0
    states: int = 0
    time: float = 0.0
    engine: str = ""
    message: str = ""
    declared: object | None = None  # an Expectation from a `Result:` comment in the test
    dot: str | None = None  # the cell's diagram (DOT), with --draw, until the parent writes it
    files: dict = field(default_factory=dict)  # files written for this cell: kind -> path
    ignored: tuple[str, ...] = ()  # what of the test the model has no rule for ("fence lwsync", "annotation rel")

    @property
    def text(self) -> str:
        """``Allowed`` / ``Forbidden`` / ``timed out`` / ``crashed`` / ``error``."""
        return self.verdict if self.status == OK else STATUS_TEXT[self.status]


def make_chunks(items: list[WorkItem], jobs: int, most: int = 32) -> list[list[WorkItem]]:
    """Cut the tests into chunks: about eight per worker for balance, at most ``most`` tests
    each so that progress moves, at least one test."""
    if not items:
        return []
    size = max(1, min(most, -(-len(items) // (max(1, jobs) * 8))))
    return [items[i: i + size] for i in range(0, len(items), size)]


def run_item(item: WorkItem, spec: RunSpec,
             on_start: Callable[[str, str], None] | None = None) -> Iterator[Cell]:
    """Parse the test once, then run it under each model; never raises for one bad test.

    The time limit of a cell covers everything done for it: the first cell of a test also
    pays for parsing the test, and each cell for loading its model (once per process, the
    model is cached). ``on_start`` announces a cell before any of that work begins, so the
    parent's hard limit covers it too.
    """
    columns = [m for m in spec.models if item.columns is None or m.column in item.columns]
    program = None
    declared = None
    for m in columns:
        if on_start is not None:
            on_start(item.key, m.column)
        start = time.perf_counter()
        parsing = program is None
        model = result = None
        try:
            with time_limit(spec.timeout):
                if parsing:
                    program = _parse(item)
                    declared = result_comment(program)
                    parsing = False
                model = _load(m)
                result = check_with(program, model, spec.engine, why=spec.draw)
        except TestTimeout:
            what = " while parsing the test" if parsing else ""
            cell = Cell(item.key, m.column, TIMEOUT, engine=spec.engine,
                        message=f"{timeout_text(spec.timeout)}{what}")
        except EngineDisagreement as err:
            cell = Cell(item.key, m.column, DISAGREE, engine=spec.engine, message=err.message)
        except MmdslError as err:
            status = LIMIT if err.kind == "limit" else ERROR  # the explorer's state or pending limit
            cell = Cell(item.key, m.column, status, engine=spec.engine, message=str(err))
        except RecursionError:  # an input chained beyond what a recursive part can follow
            cell = Cell(item.key, m.column, ERROR, engine=spec.engine, message=str(too_deep_to_run("the test")))
        except Exception as err:  # noqa: BLE001 -- reported as "crashed", the others still run
            cell = Cell(item.key, m.column, CRASH, engine=spec.engine, message=_crash_text(err))
        else:
            cell = Cell(item.key, m.column, OK, result.verdict, result.observation, result.positive,
                        result.negative, len(result.states), engine=spec.engine,
                        ignored=_ignored(program, model))
        cell.time = time.perf_counter() - start
        if parsing:  # the test could not be parsed (in time): the same for every model
            yield from _same_for_all(cell, columns, on_start)
            return
        if spec.draw and cell.status == OK:  # within what is left of the cell's time limit
            left = None if spec.timeout is None else max(0.001, spec.timeout - cell.time)
            cell.dot, cell.message = _diagram(program, model, result, left)
        cell.declared = declared
        yield cell


def _parse(item: WorkItem):
    from ..litmus.loader import parse_litmus

    with _FRONT_ENDS:
        return parse_litmus(item.text, item.path)


def _load(ref: ModelRef):
    from ..lang import load_model

    with _FRONT_ENDS:
        return load_model(ref.source)


def _ignored(program, model) -> tuple[str, ...]:
    from ..lang.fence_use import ignored_constructs

    return ignored_constructs(program, model)


def _same_for_all(cell: Cell, columns: list[ModelRef], on_start) -> Iterator[Cell]:
    """``cell`` (a test that could not be parsed) for its own column, then a copy for each other."""
    yield cell
    for m in columns[1:]:
        if on_start is not None:
            on_start(cell.test, m.column)
        yield Cell(cell.test, m.column, cell.status, engine=cell.engine, message=cell.message)


def cell_diagram(program, model, result) -> str | None:
    """DOT text for one cell: the witness when the outcome is allowed, else a forbidden
    execution satisfying the condition with its violated axiom's cycle (None: neither exists)."""
    from ..render.drawing import result_diagram
    from ..render.styles import SCREEN

    return result_diagram(program, model, result, SCREEN)


def _diagram(program, model, result, seconds: float | None) -> tuple[str | None, str]:
    """The cell's diagram, or why there is none (a drawing failure keeps the verdict).

    Under the explorer the checker runs again to find the execution: it gets the rest of
    the cell's time limit, so that the parent never kills a worker over a picture.
    """
    try:
        with time_limit(seconds):
            return cell_diagram(program, model, result), ""
    except TestTimeout:
        return None, "no diagram: the cell's time limit ran out while laying it out"
    except MmdslError as err:  # a program with a loop has no execution to draw
        return None, f"no diagram: {err.message}"
    except Exception as err:  # noqa: BLE001 -- the verdict stands without its picture
        return None, f"no diagram: {_crash_text(err)}"


def run_chunk(chunk: list[WorkItem], spec: RunSpec) -> list[Cell]:
    """Every cell of a chunk (the task a Dask worker runs)."""
    return [cell for item in chunk for cell in run_item(item, spec)]


def _crash_text(err: BaseException) -> str:
    import traceback

    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f" (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})" if frame else ""
    return f"{type(err).__name__}: {err}{where}"
