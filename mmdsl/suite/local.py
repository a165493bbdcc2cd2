"""Local parallel runs: worker processes fed chunks of tests; one that overruns or dies is replaced.

``concurrent.futures`` pools cannot stop one task, so this keeps its own small set of
worker processes, one pipe each. A worker announces each (test, model) before running it
and sends the cell after, so the parent knows what every worker is doing: a worker past
the hard limit is killed (the cell becomes "timed out"), a worker that dies takes only
its current cell with it ("crashed"), and in both cases a fresh worker takes the rest of
the chunk. Within the limit, the worker's own SIGALRM stops a slow test without a kill.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Callable

from ..core.errors import MmdslError
from ..core.limits import grace, seconds_text
from .work import CRASH, TIMEOUT, Cell, RunSpec, WorkItem, run_item

MAX_RESPAWNS = 50  # workers dying between tests this many times means something is broken


def hard_limit(timeout: float | None) -> float | None:
    """How long the parent waits on one cell before it kills the worker."""
    return None if not timeout else timeout + grace(timeout)


def _worker_main(conn, spec: RunSpec) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        for item in chunk:
            for cell in run_item(item, spec, on_start=lambda key, col: conn.send(("start", key, col))):
                conn.send(("cell", cell))
        conn.send(("idle",))


@dataclass
class _Worker:
    proc: object
    conn: object
    columns: tuple[str, ...]  # every model column of the run
    chunk: list[WorkItem] | None = None
    done: set = field(default_factory=set)
    current: tuple[str, str] | None = None
    started: float = 0.0

    def assign(self, chunk: list[WorkItem]) -> None:
        self.chunk, self.done, self.current = chunk, set(), None
        self.conn.send(chunk)

    def rest(self) -> list[WorkItem]:
        """What is left of the chunk, without the current cell."""
        skip = self.done | ({self.current} if self.current else set())
        out = []
        for item in self.chunk or []:
            cols = tuple(c for c in (item.columns or self.columns) if (item.key, c) not in skip)
            if cols:
                out.append(WorkItem(item.key, item.path, item.text, cols))
        return out


class LocalPool:
    """Runs chunks on ``jobs`` worker processes and reports each cell as it arrives."""

    def __init__(self, spec: RunSpec, jobs: int):
        self.spec = spec
        self.jobs = max(1, jobs)
        self.limit = hard_limit(spec.timeout)
        methods = mp.get_all_start_methods()
        self.ctx = mp.get_context("fork" if "fork" in methods else "spawn")
        self.respawns = 0

    def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(child, self.spec), daemon=True)
        proc.start()
        child.close()
        return _Worker(proc, parent, tuple(m.column for m in self.spec.models))

    def run(self, chunks: list[list[WorkItem]], on_cell: Callable[[Cell], None],
            on_tick: Callable[[], None] | None = None) -> None:
        pending = deque(chunks)
        workers = [self._spawn() for _ in range(min(self.jobs, len(chunks)))]
        try:
            while True:
                for w in workers:
                    if w.chunk is None and pending:
                        w.assign(pending.popleft())
                busy = [w for w in workers if w.chunk is not None]
                if not busy:
                    break
                ready = wait([w.conn for w in busy], timeout=self._wait_time(busy))
                for w in busy:
                    if w.conn in ready:
                        self._drain(w, workers, pending, on_cell)
                now = time.monotonic()
                for w in list(workers):
                    if self.limit and w.current and now - w.started > self.limit:
                        self._replace(w, workers, pending, on_cell, TIMEOUT,
                                      f"timed out after {seconds_text(self.spec.timeout)} s (worker killed)")
                if on_tick is not None:
                    on_tick()
        finally:
            for w in workers:
                self._stop(w)

    def _wait_time(self, busy: list[_Worker]) -> float:
        wait_for = 0.2  # wake up now and then so the progress bar's clock moves
        if self.limit:
            now = time.monotonic()
            for w in busy:
                if w.current:
                    wait_for = min(wait_for, max(0.0, w.started + self.limit - now))
        return wait_for

    def _drain(self, w: _Worker, workers, pending, on_cell) -> None:
        while True:
            try:
                if not w.conn.poll():
                    return
                msg = w.conn.recv()
            except (EOFError, OSError):
                w.proc.join(1)
                code = w.proc.exitcode
                why = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                self._replace(w, workers, pending, on_cell, CRASH, f"the worker process died ({why})")
                return
            if msg[0] == "start":
                w.current, w.started = (msg[1], msg[2]), time.monotonic()
            elif msg[0] == "cell":
                cell = msg[1]
                w.done.add((cell.test, cell.model))
                w.current = None
                on_cell(cell)
            else:  # idle: the chunk is finished
                w.chunk, w.current = None, None
                return

    def _replace(self, w: _Worker, workers, pending, on_cell, status: str, message: str) -> None:
        """Kill ``w``, report its current cell, and give the rest of its chunk to a new worker."""
        if w.current is not None:
            key, col = w.current
            on_cell(Cell(key, col, status, engine=self.spec.engine, message=message,
                         time=time.monotonic() - w.started))
        else:
            self.respawns += 1
            if self.respawns > MAX_RESPAWNS:
                raise MmdslError(f"worker processes keep dying between tests ({message})")
        rest = w.rest()
        self._stop(w)
        if rest:
            pending.appendleft(rest)
        workers[workers.index(w)] = self._spawn()

    def _stop(self, w: _Worker) -> None:
        try:
            if w.proc.is_alive() and w.chunk is None:
                w.conn.send(None)
                w.proc.join(0.5)
        except (OSError, BrokenPipeError):
            pass
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join(1)
        w.conn.close()
