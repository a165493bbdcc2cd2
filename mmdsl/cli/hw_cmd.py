"""`mmdsl hw`: run litmus tests on this machine's CPU (compiled harnesses), beside models."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from .common import EXIT_ERROR, EXIT_MISMATCH, EXIT_TIMEOUT, user_errors


@user_errors
def hw(
    tests: List[str] = typer.Argument(..., help="Litmus files or directories (X86, X86_64 and C tests)."),
    model: List[str] = typer.Option([], "--model", "-m", help="Check every observed state against this model's "
                                    "allowed states; repeat for several."),
    iterations: int = typer.Option(100_000, "--iterations", "-n", min=1, help="Iterations per test."),
    size: int = typer.Option(1000, "--size", min=1, help="Iterations per run: cells per location (litmus7's -s)."),
    timeout: float = typer.Option(60.0, "--timeout", min=0, help="Seconds per test, compilation included (0: none)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    report: Optional[str] = typer.Option(None, "--report", help="html: write an HTML report (with -o)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="The report's file."),
    keep_c: Optional[str] = typer.Option(None, "--keep-c", help="Keep the last harness's C source in DIR."),
    serial: bool = typer.Option(False, "--serial", hidden=True,
                                help="Debugging: run the threads one after the other (a broken harness)."),
) -> None:
    """Run litmus tests on this CPU, litmus7-style, and set the outcomes beside models."""
    from ..core.errors import MmdslError
    from ..hardware import HwOptions, forbidden_lines, hw_dict, hw_text, run_on_host, summary_lines
    from ..lang import load_model
    from ..litmus import load_litmus
    from ..suite.runner import iter_test_files
    from .run_main import _progress

    if report not in (None, "html") or (report and not output):
        raise MmdslError("--report html needs -o FILE (html is the only report format)")
    files = iter_test_files(tests)
    if not files:
        print("no litmus tests found in " + ", ".join(tests), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    models = [(m, load_model(m)) for m in model]
    options = HwOptions(iterations=iterations, size=size, timeout=timeout, serial=serial, keep=keep_c)
    results, errors, progress = [], [], _progress(not as_json, len(files))
    for f in files:
        try:
            r = run_on_host(load_litmus(f), options, models)
        except MmdslError as err:
            errors.append((str(f), err))
            if not as_json:
                print(f"{f}: {err}" if str(f) not in str(err) else str(err), file=sys.stderr)
            progress.advance()
            continue
        results.append(r)
        progress.advance()
        if not as_json:
            if len(files) == 1 or not model:
                print(hw_text(r))
            for line in forbidden_lines(r):
                print(line, file=sys.stderr)
    progress.stop()
    names = [m for m, _ in models]
    if as_json:
        from ..render.json_out import dumps, error_dict

        print(dumps({"results": [hw_dict(r) for r in results],
                     "errors": [error_dict(e, path) for path, e in errors], "summary": summary_lines(results, names)}))
    elif len(files) > 1 or names:
        print("\n".join(summary_lines(results, names)))
    if report:
        from ..core.errors import writing
        from ..hardware.report import hw_html

        with writing(output):
            with open(output, "w", encoding="utf-8") as out:
                out.write(hw_html(results, names))
    if any(c.forbidden_seen for r in results for c in r.checks):
        raise typer.Exit(EXIT_MISMATCH)
    from ..core.limits import TimeLimitError

    if any(not isinstance(e, TimeLimitError) for _, e in errors):
        raise typer.Exit(EXIT_ERROR)
    if errors:  # only timeouts: the tests may be fine, the runs were cut short
        raise typer.Exit(EXIT_TIMEOUT)
