"""A suite run in the terminal: the progress bar, the verdict matrix, the summary and the problems."""

from __future__ import annotations

import time

from .run import HELD, MISMATCH, UNCHECKED, SuiteRun
from .work import OK, STATUS_TEXT

MISMATCH_MARK = "✗"
PROBLEM_TITLES = {MISMATCH: "Mismatches", "timeout": "Timed out", "limit": "Limits reached",
                  "crash": "Crashed", "error": "Errors", "disagree": "Engines disagree"}
_STYLE = {"Allowed": "green", "Forbidden": "red"}


def console(stderr: bool = False):
    """A rich console; off a terminal it is wide and colourless, so that output is stable."""
    import sys

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=240, no_color=True, highlight=False, emoji=False)


class RunProgress:
    """A progress bar with rate and ETA on stderr, for runs of more than a screenful of cells."""

    def __init__(self, enabled: bool = True, threshold: int = 50, label: str = "running"):
        self.enabled = enabled
        self.threshold = threshold
        self.label = label
        self.progress = None
        self.task = None
        self.last = 0.0

    def start(self, total: int) -> None:
        if not self.enabled or total < self.threshold:
            return
        err = console(stderr=True)
        if not err.is_terminal:  # no bar: not even its module (rich.progress, ~20 ms) is imported
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.progress = Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=err, transient=True, auto_refresh=False)  # no refresh thread: workers are forked
        self.progress.start()
        self.task = self.progress.add_task(self.label, total=total, rate="")

    def advance(self, cell=None) -> None:
        if self.progress is not None:
            self.progress.advance(self.task)
            self.tick()

    def tick(self) -> None:
        now = time.monotonic()
        if self.progress is not None and now - self.last > 0.1:
            speed = self.progress.tasks[0].speed
            self.progress.update(self.task, rate=f"{speed:.0f} cells/s" if speed else "")
            self.progress.refresh()
            self.last = now

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def cell_text(run: SuiteRun, test: str, column: str) -> str:
    cell = run.cells.get((test, column))
    if cell is None:
        return ""
    if cell.status != OK:
        return STATUS_TEXT[cell.status]
    mark = f" {MISMATCH_MARK}" if run.outcome(test, column) == MISMATCH else ""
    return cell.verdict + mark


def matrix_table(run: SuiteRun):
    """The verdict matrix as a rich Table: tests down, models across."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=None, show_edge=True)
    table.add_column("test")
    for col in run.columns:
        table.add_column(escape(col))
    for test in run.tests:
        row = []
        for col in run.columns:
            text = cell_text(run, test, col)
            outcome = run.outcome(test, col) if (test, col) in run.cells else None
            style = "bold magenta" if outcome not in (HELD, UNCHECKED, None) else _STYLE.get(text, "")
            row.append(f"[{style}]{text}[/]" if style else text)
        table.add_row(escape(test), *row)  # a test named SB[x] is not markup
    return table


def _count(n: int, word: str) -> str:
    plural = {"mismatch": "mismatches", "error": "errors", "test": "tests", "model": "models"}
    return f"{n} {plural.get(word, word) if n != 1 else word}"


def summary_lines(run: SuiteRun, limit: int | None = 20) -> list[str]:
    """One line per model, the problems listed (at most ``limit`` of each kind), and the verdict."""
    lines = []
    width = max(len(c) for c in run.columns)
    for col in run.columns:
        cells = [run.cells[(t, col)] for t in run.tests if (t, col) in run.cells]
        verdicts = [c.verdict for c in cells if c.status == OK]
        outcomes = [run.outcome(t, col) for t in run.tests if (t, col) in run.cells]
        parts = [f"{verdicts.count('Allowed')} allowed", f"{verdicts.count('Forbidden')} forbidden"]
        parts += [_count(outcomes.count(s), text) for s, text in STATUS_TEXT.items() if outcomes.count(s)]
        held = outcomes.count(HELD)
        checks = [f"{held} as expected"] if held or not outcomes.count(UNCHECKED) else []
        if outcomes.count(MISMATCH):
            checks.append(_count(outcomes.count(MISMATCH), "mismatch"))
        if outcomes.count(UNCHECKED):
            checks.append(f"{outcomes.count(UNCHECKED)} without expectation")
        lines.append(f"{col + ':':<{width + 1}} {', '.join(parts)} -- {', '.join(checks)}")
    problems = run.problems()
    for kind, title in PROBLEM_TITLES.items():
        rows = [(t, m) for t, m, o in problems if o == kind]
        if not rows:
            continue
        lines.append(f"{title}:")
        for t, m in rows[:limit]:
            cell = run.cells[(t, m)]
            if kind == MISMATCH:
                lines.append(f"  {t} under {m}: {cell.verdict} ({cell.observation}), "
                             f"expected {run.expectation(t, m).describe()}")
            else:
                lines.append(f"  {t} under {m}: " + " ".join(part.strip() for part in cell.message.splitlines()))
        if limit is not None and len(rows) > limit:
            lines.append(f"  ... and {len(rows) - limit} more (--report lists them all)")
    ncells = len(run.cells)
    if not problems:
        lines.append(f"ok: every expectation held ({ncells} cells)")
    else:
        counts = run.outcomes()
        said = [_count(counts[k], STATUS_TEXT.get(k, k)) for k in PROBLEM_TITLES if counts.get(k)]
        lines.append(f"FAILED: {', '.join(said)} ({ncells} cells)")
    return lines


def time_line(run: SuiteRun) -> str:
    """``Time NAME ...`` -- herd's convention for the line that differs between runs."""
    rate = len(run.cells) / run.wall if run.wall > 0 else 0.0
    return (f"Time {run.suite.name} {run.wall:.2f} s ({run.executor}, {run.jobs} "
            f"job{'s' if run.jobs != 1 else ''}, {rate:.0f} cells/s)")


def print_run(run: SuiteRun, *, full_matrix: bool | None = None, max_rows: int = 100) -> None:
    """The matrix (unless the suite is large), the summary and the time."""
    out = console()
    title = (f"{run.suite.name}: {_count(len(run.tests), 'test')} x {_count(len(run.columns), 'model')} "
             f"({', '.join(map(str, run.models))}), engine {run.engine}")
    out.print(title, markup=False)
    if full_matrix or (full_matrix is None and len(run.tests) <= max_rows):
        out.print(matrix_table(run))
    for line in summary_lines(run):
        out.print(line, markup=False)
    out.print(time_line(run), markup=False)
