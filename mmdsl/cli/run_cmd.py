"""`mmdsl run`: run litmus tests (files or directories) under one or more models (typer's side;
the work is ``run_main.run_tests``)."""

from __future__ import annotations

from typing import List, Optional

import typer

from .common import CommandExit, cat_path_option, timeout_option, user_errors
from .run_main import run_tests


@user_errors
def run(
    tests: List[str] = typer.Argument(..., help="Litmus files or directories (searched recursively)."),
    model: List[str] = typer.Option([], "--model", "-m", help="Model name, .mm file or herd .cat file; repeat for several."),
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
    variant: List[str] = typer.Option([], "--variant", metavar="NAME",
                                      help="herd's -variant: a cat model's if \"NAME\" branches are taken; "
                                           "comma-separated or repeated."),
    skipcheck: List[str] = typer.Option([], "--skipcheck", metavar="NAME",
                                        help="herd's -skipcheck: the check named NAME (acyclic ... as NAME) "
                                             "is not applied; comma-separated or repeated."),
    through: Optional[str] = typer.Option(None, "--through", show_default=False,
                                          help="herd's -through: none (default), all or invalid (every "
                                               "execution passes the model's checks; flags still computed)."),
    show: Optional[str] = typer.Option(None, "--show", show_default=False,
                                       help="herd's -show, for -o: none (default), prop, neg, cond, wit, all."),
    output_dir: Optional[str] = typer.Option(None, "-o", "--output-dir", metavar="DIR",
                                             help="herd's -o: write DIR/TEST.dot per test with the executions "
                                                  "--show selects."),
    conf: Optional[str] = typer.Option(None, "--conf", metavar="FILE",
                                       help="herd's -conf: read options from a herd configuration file "
                                            "(model, include, variant, skipchecks, through, show, timeout)."),
    unroll: Optional[int] = typer.Option(None, "--unroll", min=1, show_default=False,
                                         help="Unroll every loop this many times, herd's -unroll (both engines; "
                                              "spin iterations are blocked, not unrolled; the explorer's graph "
                                              "machine defaults to 2, the checker refuses loops without it)."),
    reduction: str = typer.Option("threads", "--reduction",
                                  help="Explorer: the partial-order reduction, as explore's: threads (persistent "
                                       "thread sets), dotnet (the .NET checker's forever-local steps first) or "
                                       "none; every final state is kept."),
) -> None:
    """Run tests under models and print herd-shaped results."""
    try:
        run_tests(tests, model, as_json, why, quiet, matrix, draw, draw_format, engine, max_memory, compact, spec,
                  timeout, cat_path, variant, skipcheck, through, show, output_dir, conf, unroll, reduction)
    except CommandExit as stop:
        raise typer.Exit(stop.code) from None
