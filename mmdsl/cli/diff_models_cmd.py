"""`mmdsl diff-models`: the tests of a suite whose verdicts differ between two models."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import user_errors


@user_errors
def diff_models(
    model_a: str = typer.Argument(..., help="A model: bundled name or .mm file (COLUMN=MODEL to rename)."),
    model_b: str = typer.Argument(..., help="The other model."),
    suite: str = typer.Option("litmus/classic", "--suite", "-s", help="A suite folder or manifest."),
    tests: List[str] = typer.Option([], "--tests", "-t", help="Only the tests whose key matches (repeat)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the distinguishing executions of each test here."),
    fmt: str = typer.Option("svg", "--format", "-f", help="Diagram format for -o: dot, svg, png or pdf."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes (default: all cores)."),
    timeout: float = typer.Option(60.0, "--timeout", min=0, help="Seconds per test and model (0: no limit)."),
    engine: Optional[str] = typer.Option(None, "--engine", help="axiomatic, explorer or both."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    generate: bool = typer.Option(False, "--generate", help="Generate the tests from cycles instead of a suite "
                                                           "(-o then writes them as a suite)."),
    size: int = typer.Option(6, "--size", help="With --generate: edges per cycle at most."),
    threads: int = typer.Option(4, "--threads", help="With --generate: threads per test at most."),
    max_count: int = typer.Option(1000, "--max", help="With --generate: cycles tried at most."),
    arch: str = typer.Option("X86", "--arch", "-a", help="With --generate: write X86, LISA, C or RISCV tests."),
) -> None:
    """List every test that one model allows and the other forbids.

    Exit code: 0 (whether or not the models differ), 1 when a test timed out or crashed, 2 bad input.
    """
    if generate:
        from ..core.errors import MmdslError
        from .generate_cmd import diff_generated

        if tests or suite != "litmus/classic":
            raise MmdslError("--generate makes its own tests: it takes no --suite or --tests")

        diff_generated(model_a, model_b, size, threads, max_count, arch, output, timeout, as_json, engine)
        return
    from ..suite.diffmodels import differences, write_executions
    from ..suite.manifest import load_suite_within, select_tests
    from ..suite.run import model_columns, run_suite

    if output is not None:
        from ..render.graphviz_out import check_format

        check_format(fmt)
    the_suite = select_tests(load_suite_within(suite, timeout), list(tests))
    a, b = model_columns(the_suite, [model_a, model_b])
    run = run_suite(the_suite, [a, b], engine=engine, jobs=jobs, timeout=timeout)
    diff = differences(run, a, b)
    if output is not None:
        write_executions(diff, the_suite, output, fmt)
    if as_json:
        from ..render.json_out import dumps

        print(dumps({"suite": the_suite.name, "a": a.column, "b": b.column,
                     "differences": [{"test": d.test, "allowed_by": d.allowed_by, "forbidden_by": d.forbidden_by,
                                      "files": d.files} for d in diff.differences],
                     "not_compared": [{"test": t, "model": m, "what": w} for t, m, w in diff.failed],
                     "unshared": [{"test": t, "model": m, "has_no": w} for t, m, w in diff.unshared],
                     "not_written": [{"test": t, "why": why} for t, why in diff.undrawn]}))
    else:
        for line in diff.lines():
            print(line)
    outcomes = run.outcomes()
    raise typer.Exit(2 if outcomes.get("error") else 1 if diff.failed else 0)
