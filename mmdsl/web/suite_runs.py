"""A bundled suite run live for the page: `suite.run.run_suite` in a thread, each cell as a
server-sent event, the finished run kept (a few at most) for the CLI's reports."""

from __future__ import annotations

import dataclasses
import json
import queue
import secrets
import threading
from collections import OrderedDict

from ..core.errors import MmdslError
from ..core.resources import bundled_dir
from .inputs import NotFound, bundled_model_file, suite_tests

MAX_SUITE_TESTS = 300  # tests one live run may take (the big corpora are for `mmdsl suite`)
MAX_MODELS = 8
MAX_KEPT = 8  # finished runs kept for their reports
REPORT_TYPES = {"html": "text/html", "csv": "text/csv", "json": "application/json", "md": "text/markdown"}


class SuiteBusy(MmdslError):
    """Another live suite run is going on (one at a time: the machine is small)."""

    kind = "busy"


class _Stopped(BaseException):
    """Raised from a cell callback to end a run whose page went away."""


class SuiteRuns:
    """One live run at a time; the last MAX_KEPT finished runs by id."""

    def __init__(self, timeout: float | None):
        self.timeout = timeout
        self.running = threading.Lock()
        self.kept: OrderedDict[str, object] = OrderedDict()
        self.kept_lock = threading.Lock()

    def prepare(self, suite_name: str, models: list[str]):
        """The suite (cut to MAX_SUITE_TESTS) and its model columns, or a user error before any event."""
        from ..suite.manifest import ModelRef, load_suite

        suite_tests(suite_name)  # a bundled suite name, or NotFound
        if len(models) > MAX_MODELS:
            raise MmdslError(f"at most {MAX_MODELS} models in one suite run")
        refs = []
        for m in models:
            bundled_model_file(m)  # a bundled model, or NotFound
            if any(r.column == m for r in refs):  # as `mmdsl suite -m` refuses it
                raise MmdslError(f"model '{m}' is given twice", expected="each model once")
            refs.append(ModelRef(m, m))
        suite = load_suite(bundled_dir("litmus") / suite_name)
        cut = len(suite.tests) > MAX_SUITE_TESTS
        if cut:
            suite = dataclasses.replace(suite, tests=suite.tests[:MAX_SUITE_TESTS])
        refs = refs or list(suite.models) or [ModelRef("sc", "sc")]
        return suite, refs, cut

    def events(self, suite, refs, cut: bool):
        """Server-sent events: start, one ``cell`` per result, then ``done`` (outcomes, report id) or ``failed``."""
        if not self.running.acquire(blocking=False):
            yield _event("failed", {"errors": [_error(SuiteBusy("a suite is already running; wait for it"))]})
            return
        try:
            yield from self._events(suite, refs, cut)
        finally:
            self.running.release()

    def _events(self, suite, refs, cut: bool):
        from ..suite.run import run_suite

        root = bundled_dir("litmus").resolve()
        yield _event("start", {"suite": suite.name, "cut": cut, "models": [r.column for r in refs],
                               "tests": [{"key": t.key, "name": t.path.resolve().relative_to(root).as_posix()}
                                         for t in suite.tests]})
        cells: queue.Queue = queue.Queue()
        stop = threading.Event()

        def on_cell(cell) -> None:
            if stop.is_set():
                raise _Stopped()
            cells.put(("cell", cell))

        def work() -> None:
            try:
                cells.put(("done", run_suite(suite, refs, executor="inline", timeout=self.timeout, on_cell=on_cell)))
            except _Stopped:
                cells.put(("stopped", None))
            except MmdslError as err:
                cells.put(("failed", err))
            except Exception as err:  # noqa: BLE001 - said to the page, not a traceback
                cells.put(("failed", MmdslError(f"the suite run failed: {type(err).__name__}")))

        thread = threading.Thread(target=work, name="mmdsl-suite", daemon=True)
        thread.start()
        try:
            while True:
                kind, value = cells.get()
                if kind == "cell":
                    yield _event("cell", {"test": value.test, "model": value.model, "text": value.text,
                                          "status": value.status, "verdict": value.verdict,
                                          "message": value.message})
                elif kind == "done":
                    yield _event("done", self._outcomes(value))
                    return
                elif kind == "failed":
                    yield _event("failed", {"errors": [_error(value)]})
                    return
                else:
                    return
        finally:
            # the run is over, or the page went away: the worker stops at its next cell (no join:
            # this may run wherever the abandoned generator is collected, the event loop included)
            stop.set()

    def _outcomes(self, run) -> dict:
        rid = secrets.token_urlsafe(9)
        with self.kept_lock:
            self.kept[rid] = run
            while len(self.kept) > MAX_KEPT:
                self.kept.popitem(last=False)
        outcomes = []
        for (test, column), cell in run.cells.items():
            exp = run.expectation(test, column)
            outcomes.append({"test": test, "model": column, "outcome": run.outcome(test, column),
                             "expected": exp.word if exp is not None else None})
        return {"run": rid, "outcomes": outcomes, "counts": run.outcomes(), "wall": round(run.wall, 3)}

    def report(self, rid: str, fmt: str) -> tuple[str, str]:
        """(text, media type) of a kept run's report in ``fmt`` (the CLI's ``suite --report``)."""
        from ..suite.report import render_report

        if fmt not in REPORT_TYPES:
            raise MmdslError(f"unknown report format '{fmt}'", expected=", ".join(REPORT_TYPES))
        with self.kept_lock:
            run = self.kept.get(rid)
        if run is None:
            raise NotFound("no such suite run (the last few are kept)", hint="run the suite again")
        return render_report(run, fmt), REPORT_TYPES[fmt]


def _error(err: MmdslError) -> dict:
    from ..render.json_out import error_dict

    return error_dict(err)


def _event(kind: str, data: dict) -> str:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"
