"""`mmdsl draw`: diagrams of a test's executions (or its explored state graph) through graphviz."""

from __future__ import annotations

import sys

import typer

from .common import EXIT_ERROR, timeout_option, user_errors, warn, within_timeout


@user_errors
@within_timeout("drawing {test} under {model}")  # graphviz included
def draw(
    test: str = typer.Argument(..., help="A litmus test file."),
    model: str = typer.Option(..., "--model", "-m", help="Model name or .mm file."),
    outdir: str = typer.Option(".", "--outdir", "-o", help="Folder for the diagrams (created if needed)."),
    show: str = typer.Option("witness", "--show",
                             help="witness (allowed executions satisfying the condition), allowed, "
                                  "forbidden (those satisfying it, with the violated axiom's cycle), or all; "
                                  "for a whole C program (.c): violation (the execution `mmdsl check` reports)."),
    max_count: int = typer.Option(10, "--max", help="Draw at most N executions."),
    fmt: str = typer.Option("svg", "--format", "-f", help="dot, svg, png or pdf (the .dot file is always written)."),
    style: str = typer.Option("screen", "--style", help="screen (colour) or paper (monochrome, serif, line styles)."),
    init: bool = typer.Option(False, "--init", help="Draw the initial writes."),
    state_graph: bool = typer.Option(False, "--state-graph", help="Draw the explored state graph instead."),
    trace: bool = typer.Option(False, "--trace", help="Draw the explorer's shortest trace to the outcome instead: "
                                                       "one lifeline per thread, writes arrowing to the threads "
                                                       "they reach."),
    max_states: int = typer.Option(500, "--max-states", help="Largest state graph to draw."),
    detail: bool = typer.Option(False, "--detail", help="State graphs: full state text in every node."),
    fences: bool = typer.Option(False, "--fences",
                                help="Draw the cheapest fences forbidding the outcome (mmdsl fences) in place."),
    timeout: float = timeout_option(),
) -> None:
    """Draw executions of TEST under a model: one column per thread, the forbidding cycle highlighted."""
    from ..core.resources import resolve_bundled
    from ..lang import load_model
    from ..lang.fence_use import fence_warnings
    from ..litmus import load_litmus
    from ..render.drawing import DrawOptions, draw_test
    from ..render.graphviz_out import INSTALL_HINT

    path = resolve_bundled(test, "litmus")
    if path.suffix == ".c" or show == "violation":
        _c_program(str(path), model, outdir, show, fmt, style, max_states)
        return
    program = load_litmus(path)
    loaded = load_model(model)
    warn(fence_warnings(program, loaded))
    options = DrawOptions(show=show, max_count=max_count, fmt=fmt, style=style, init=init, fences=fences,
                          state_graph=state_graph, max_states=max_states, detail=detail, trace=trace)
    report = draw_test(program, loaded, outdir, options)
    for path in report.written.files:
        print(f"wrote {path}")
    for line in report.messages:
        print(line)
    if report.written.missing_dot:
        print(INSTALL_HINT, file=sys.stderr)
    if (state_graph and not report.written.files) or report.written.failed:
        raise typer.Exit(EXIT_ERROR)  # over the size limit, or `dot` failed: the lines above say why


def _c_program(path: str, model: str, outdir: str, show: str, fmt: str, style: str, max_states: int) -> None:
    """A whole C program: the failing execution ``mmdsl check`` finds, as a sequence chart."""
    from ..check import check_program
    from ..core.errors import UnsupportedError
    from ..lang import load_model
    from ..litmus.cprog import load_c_program
    from ..render.c_violation import draw_violation
    from ..render.graphviz_out import INSTALL_HINT
    from ..render.styles import style_named

    if not path.endswith(".c") or show != "violation":
        raise UnsupportedError(f"--show {show} on {path}", None,
                               expected="--show violation with a whole C program (.c); a litmus test takes "
                                        "witness, allowed, forbidden or all")
    cp = load_c_program(path)
    result = check_program(cp, load_model(model), max_states=max(max_states, 2_000_000))
    if not result.error:
        print(f"{result.program} under {result.model}: {result.verdict}: no failing execution to draw; "
              "nothing written")
        return
    written = draw_violation(result, [t.name for t in cp.program.threads], outdir, fmt, style_named(style))
    for p in written.files:
        print(f"wrote {p}")
    for line in written.failure_lines():
        print(line)
    if written.missing_dot:
        print(INSTALL_HINT, file=sys.stderr)
    if written.failed:
        raise typer.Exit(EXIT_ERROR)
