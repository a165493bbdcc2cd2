"""`mmdsl suite`: run a suite (manifest or folder) under its models; matrix, reports, saved runs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..core.errors import MmdslError
from .common import cat_path_option, use_cat_path, user_errors


@user_errors
def suite(
    target: str = typer.Argument(..., help="A suite folder (with or without manifest.yaml) or a manifest file."),
    model: List[str] = typer.Option([], "--model", "-m",
                                    help="Run this model instead of the manifest's (repeat); COLUMN=MODEL checks "
                                         "a model file against another column's expectations."),
    tests: List[str] = typer.Option([], "--tests", "-t",
                                    help="Only the tests whose key matches this pattern (repeat); * stays in a "
                                         "folder, ** crosses folders: -t '*' -t 'lisa/S*'."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes (default: all cores)."),
    timeout: float = typer.Option(60.0, "--timeout", min=0, help="Seconds per test and model, parsing the test and loading the model included (0: no limit)."),
    engine: Optional[str] = typer.Option(None, "--engine",
                                         help="axiomatic, explorer or both (default: the manifest's)."),
    executor: str = typer.Option("local", "--executor", help="local (processes), inline (this process) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="The Dask scheduler, e.g. tcp://10.0.0.1:8786."),
    report: Optional[str] = typer.Option(None, "--report", help="Also write a report: md, html, json or csv."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The report file (default: stdout)."),
    draw: Optional[Path] = typer.Option(None, "--draw", help="Write a diagram per cell into this folder "
                                                             "(the HTML report links to them)."),
    draw_format: str = typer.Option("svg", "--draw-format", help="Diagram format for --draw: dot, svg, png, pdf."),
    save: Optional[Path] = typer.Option(None, "--save", help="Save the run in this SQLite file (see mmdsl compare)."),
    bless: bool = typer.Option(False, "--bless", help="Write the verdicts into the manifest's expectations."),
    matrix: Optional[bool] = typer.Option(None, "--matrix/--no-matrix",
                                          help="Print the full matrix (default: when at most 100 tests)."),
    as_json: bool = typer.Option(False, "--json", help="The JSON report on stdout, nothing else."),
    fences: bool = typer.Option(False, "--fences",
                                help="The table of the field instead of verdicts: per program and model, whether "
                                     "the violation is reachable, every minimal fence set (count, cheapest) and "
                                     "the time; --report text, md, csv, json or html (default text)."),
    hw: bool = typer.Option(False, "--hw", help="Also run every test on this CPU (mmdsl hw): a 'hw' column, "
                            "and a state a model forbids but the CPU shows fails the run."),
    hw_iterations: int = typer.Option(100_000, "--hw-iterations", min=1, help="Iterations per test with --hw."),
    cat_path: List[str] = cat_path_option(),
) -> None:
    """Run every test of a suite under every model and check the expected verdicts.

    Exit code: 0 every expectation held, 1 a mismatch, a timeout or a crash, 2 bad input.
    """
    from ..suite.console import RunProgress, print_run
    from ..suite.manifest import load_suite_within, select_tests
    from ..suite.report import render_report, report_format, write_report
    from ..suite.run import model_columns, run_suite

    use_cat_path(cat_path)
    if fences:
        _fences_table(target, list(model), list(tests), timeout, report, output, as_json)
        return
    report = report_format(report, output, as_json)
    to_stdout = report is not None and output is None
    the_suite = select_tests(load_suite_within(target, timeout), list(tests))
    columns = model_columns(the_suite, list(model))
    if draw is not None:
        from ..render.graphviz_out import check_format

        check_format(draw_format)
    progress = RunProgress(enabled=not to_stdout)
    try:
        run = run_suite(the_suite, columns, engine=engine, jobs=jobs, timeout=timeout, executor=executor,
                        scheduler=scheduler, draw=draw is not None, on_start=progress.start,
                        on_cell=progress.advance, on_tick=progress.tick)
    finally:
        progress.stop()
    hw_results = _hw_column(run, hw_iterations, timeout, not to_stdout) if hw else None
    drawn = None
    if draw is not None:
        from ..suite.drawing import write_cell_diagrams

        drawn = write_cell_diagrams(run, draw, draw_format)
    blessed, extra = _bless(run, the_suite.manifest, as_json) if bless else (None, None)
    if report is not None:
        text = render_report(run, report, output, extra)
        if output is None:
            sys.stdout.write(text)
        else:
            write_report(text, output)
    if not to_stdout:
        print_run(run, full_matrix=matrix)
        if output is not None:
            print(f"report: {output}")
    if hw_results is not None and not to_stdout:
        from ..hardware import summary_lines

        print("\n".join(summary_lines(hw_results, run.columns[:-1])))
    if drawn is not None:
        for line in drawn.lines(draw):
            print(line, file=sys.stderr if to_stdout else sys.stdout)
    if save is not None:
        from ..suite.store import save_run

        run_id = save_run(save, run)
        print(f"saved as run {run_id} in {save}", file=sys.stderr if to_stdout else sys.stdout)
    if isinstance(blessed, MmdslError):
        if as_json:  # said in the JSON report: stdout holds that one document
            raise typer.Exit(2)
        raise blessed
    if blessed is not None and not as_json:  # with --json, the report's "bless" says it
        for line in blessed.lines(the_suite.manifest):
            print(line, file=sys.stderr if to_stdout else sys.stdout)
    raise typer.Exit(run.exit_code(count_mismatches=not bless))


def _hw_column(run, iterations: int, timeout: float, show: bool) -> list:
    """``--hw``: every test on this CPU, a "hw" column (suite.hw_column)."""
    from ..hardware import HwOptions
    from ..suite.console import RunProgress
    from ..suite.hw_column import add_hw_column

    progress = RunProgress(enabled=show, label="on this CPU")
    progress.start(len(run.suite.tests))
    try:
        return add_hw_column(run, HwOptions(iterations=iterations, timeout=timeout), on_cell=progress.advance)
    finally:
        progress.stop()


def _bless(run, manifest, as_json: bool):
    """Bless the manifest before the report is written: (the BlessReport or the error, the keys
    the JSON report gets -- with ``--json`` nothing but the report reaches stdout)."""
    from ..render.json_out import error_dict
    from ..suite.bless import bless as bless_run

    try:
        blessed = bless_run(run)
    except MmdslError as err:
        return err, {"bless": {"error": error_dict(err)}} if as_json else None
    return blessed, {"bless": blessed.as_dict(manifest)} if as_json else None


def _fences_table(target, models: list, tests: list, timeout: float, report, output, as_json: bool) -> None:
    """``--fences``: every minimal fence set per program and model, one cell at a time."""
    from ..core.limits import check_timeout
    from ..suite.fence_table import FORMATS, fence_table, render_fence_table
    from ..suite.manifest import load_suite_within, select_tests
    from ..suite.report import write_report
    from ..suite.run import model_columns

    fmt = "json" if as_json else (report or "text")
    if fmt not in FORMATS:
        raise MmdslError(f"--report {fmt} with --fences", expected=", ".join(FORMATS))
    the_suite = select_tests(load_suite_within(target, timeout), tests)
    columns = model_columns(the_suite, models)

    def progress(cell) -> None:
        if output is not None or fmt == "text":
            print(f"  {cell.test} under {cell.model}: {cell.count_text} minimal set(s), {cell.time:.1f} s",
                  file=sys.stderr)

    table = fence_table(the_suite, columns, check_timeout(timeout), on_cell=progress)
    text = render_fence_table(table, fmt)
    if output is None:
        sys.stdout.write(text)
    else:
        write_report(text, output)
        print(f"report: {output}")
    if any(c.error and not c.error.startswith("timeout") for c in table.cells):
        raise typer.Exit(2)
    if any(c.error for c in table.cells):
        raise typer.Exit(1)
