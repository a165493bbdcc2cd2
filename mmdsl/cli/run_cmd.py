"""`mmdsl run`: run litmus tests (files or directories) under one or more models."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from .common import (EXIT_ERROR, EXIT_MISMATCH, EXIT_TIMEOUT, cat_path_option, startup_done, timeout_option,
                     use_cat_path, user_errors, warn)


@user_errors
def run(
    tests: List[str] = typer.Argument(..., help="Litmus files or directories (searched recursively)."),
    model: List[str] = typer.Option(["sc"], "--model", "-m", help="Model name, .mm file or herd .cat file; repeat for several."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    why: bool = typer.Option(False, "--why", help="Explain forbidden outcomes: violated axiom and cycle."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Verdicts only: no herd blocks, just --why, the matrix "
                               "and the summary; each check stops at its first witness (herd's -speedcheck true)."),
    matrix: bool = typer.Option(False, "--matrix", help="Always print the full verdict matrix."),
    draw: Optional[str] = typer.Option(None, "--draw", help="Also write a diagram per test and model into "
                                       "DIR/MODEL/: the witness, or the forbidden execution with its cycle."),
    draw_format: str = typer.Option("svg", "--draw-format", help="Diagram format for --draw: dot, svg, png, pdf."),
    engine: Optional[str] = typer.Option(None, "--engine", "-e", show_default=False,
                                         help="axiomatic (candidate executions; the default), explorer "
                                              "(operational state space, loops allowed; the default with "
                                              "--spec) or both (fails with exit code 1 when they disagree)."),
    max_memory: Optional[float] = typer.Option(None, "--max-memory", show_default=False,
                                               help="Explorer: ceiling in MB on the process's peak memory "
                                                    "(a test past it is an error; default: none)."),
    compact: bool = typer.Option(False, "--compact",
                                 help="Explorer: keep a 128-bit hash of each visited state instead of the state."),
    spec: Optional[str] = typer.Option(None, "--spec",
                                       help="serial: every observation must be one of a run with each operation "
                                            "atomic (CheckFence's check; on the explorer unless --engine "
                                            "axiomatic; exit 1 when one fails; see docs/datatypes.md)."),
    timeout: float = timeout_option(),
    cat_path: List[str] = cat_path_option(),
) -> None:
    """Run tests under models and print herd-shaped results."""
    from ..core.errors import MmdslError
    from ..core.limits import TimeLimitError, check_timeout
    from ..render.herd_text import herd_block, why_text
    from ..suite.runner import EngineDisagreement, check_engine, iter_test_files, run_many

    explicit_engine = engine is not None
    engine = engine or "axiomatic"
    check_engine(engine)
    if max_memory is not None:  # a bad ceiling is one error for the run, not one per test
        from ..explorer.memory import MemoryCeiling

        MemoryCeiling(max_memory)
    use_cat_path(cat_path)
    timeout = check_timeout(timeout)
    if why and engine == "explorer":
        raise MmdslError("--why explains forbidden executions with the axiomatic checker",
                         hint="use --engine axiomatic or --engine both")

    files = iter_test_files(tests)
    if not files:
        print("no litmus tests found in " + ", ".join(tests), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    if spec is not None:
        from .spec_common import run_spec

        if engine == "both":
            raise MmdslError("--spec serial runs one engine", hint="--engine explorer (default) or axiomatic")
        options = {"max_memory": max_memory, "compact": compact} if max_memory or compact else {}
        run_spec([str(f) for f in files], list(model), spec, engine if explicit_engine else "explorer", as_json,
                 True, options, timeout=timeout)
        return
    drawer = None
    if draw is not None:
        from ..render.run_diagrams import RunDiagrams

        drawer = RunDiagrams(draw, draw_format, files)
    items = []
    progress = _progress(not as_json, len(files) * len(model))
    # -q needs only each verdict: the checker stops at the first allowed execution that
    # satisfies the condition (herd's -speedcheck true) unless something else wants them all
    verdict_only = quiet and not why and not as_json and drawer is None and engine == "axiomatic"
    for item in run_many(files, list(model), engine=engine, why=why or drawer is not None,
                         timeout=timeout, collect="verdict" if verdict_only else "witness",
                         explorer={"max_memory": max_memory, "compact": compact} if max_memory or compact else None):
        if not items:  # the first test loaded the model and the parser: start-up is done
            startup_done()
        items.append(item)
        if drawer is not None:
            drawer.add(item)
        progress.advance()
        if as_json:
            continue
        if item.error is not None:
            print(str(item.error), file=sys.stderr)
            continue
        warn(item.result.warnings)
        text = ""
        if not quiet:
            if len(model) > 1:
                text += f"Model {item.model}\n"
            text += herd_block(item.result)
        if why:
            text += why_text(item.result)
        if text:
            print(text)
    progress.stop()
    if drawer is not None:
        drawer.finish()
    errors = sum(1 for it in items if it.error is not None)
    disagreements = sum(1 for it in items if isinstance(it.error, EngineDisagreement))
    timeouts = sum(1 for it in items if isinstance(it.error, TimeLimitError))
    if as_json:
        from ..render.json_out import dumps, error_dict, result_dict

        print(dumps({
            "results": [result_dict(it.result, why) for it in items if it.result is not None],
            "errors": [dict(error_dict(it.error, str(it.path)), model=it.model)
                       for it in items if it.error is not None],
        }))
    elif len(files) > 1 or len(model) > 1 or (quiet and not why):  # -q on one test: its verdict
        _summary(items, len(files), model, errors, matrix)
    if errors > disagreements + timeouts:
        raise typer.Exit(EXIT_ERROR)
    if disagreements:
        raise typer.Exit(EXIT_MISMATCH)
    if timeouts:
        raise typer.Exit(EXIT_TIMEOUT)


class _NoProgress:
    def advance(self) -> None:
        pass

    def stop(self) -> None:
        pass


def _progress(enabled: bool, runs: int):
    """A progress bar on a terminal past 40 runs; below that not even its module is imported."""
    if not enabled or runs <= 40:
        return _NoProgress()
    from ..suite.console import RunProgress

    progress = RunProgress(enabled=True, threshold=41)
    progress.start(runs)
    return progress


def _summary(items, nfiles: int, models, errors: int, full: bool) -> None:
    from rich.console import Console
    from rich.markup import escape

    from ..render.matrix import matrix_counts, matrix_table

    console = Console()
    if full or nfiles <= 100:
        console.print(matrix_table(items))
    counts = matrix_counts(items)
    for m, c in counts.items():
        console.print(f"{escape(m)}: {c['Allowed']} allowed, {c['Forbidden']} forbidden"
                      + (f", [bold yellow]{c['errors']} errors[/]" if c["errors"] else ""))
    console.print(f"{nfiles} test(s) x {len(models)} model(s)"
                  + (f"; [bold yellow]{errors} failed[/]" if errors else ""))
