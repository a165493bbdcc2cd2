"""`mmdsl draw --trace`: explore breadth-first, then draw the shortest trace to the outcome as a sequence chart."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import MmdslError
from ..core.outfiles import safe_stem
from ..core.program import Program
from ..lang.ir import Model
from .dot_trace import trace_dot
from .graphviz_out import DrawReport, write_diagrams
from .styles import Style

MAX_TRACE_STEPS = 300  # a longer chart is no longer readable, and graphviz lays it out slowly


def trace_source(program: Program, model: Model, style: Style) -> tuple[str | None, list[str]]:
    """The DOT text of a shortest trace reaching the outcome (None when none does) and lines to print."""
    from ..explorer import explore

    result = explore(program, model, order="bfs")
    if not result.trace:
        return None, [f"{program.name} under {model.name}: no final state reaches the outcome "
                      f"({result.observation}), so there is no trace to draw; nothing written"]
    if len(result.trace) > MAX_TRACE_STEPS:
        raise MmdslError(f"{program.name} under {model.name}: the shortest trace to the outcome has "
                         f"{len(result.trace)} steps, too many to draw (at most {MAX_TRACE_STEPS}); "
                         "`mmdsl explore` prints it as text")
    source = trace_dot(result.trace, [t.name for t in program.threads], test=program.name, model=model.name,
                       style=style, final=result.trace_final)
    return source, []


def draw_trace(program: Program, model: Model, outdir: str | Path, options, style: Style):
    """Write ``TEST-trace.FMT``, or say why there is none."""
    report = DrawReport()
    source, report.messages = trace_source(program, model, style)
    if source is not None:
        report.written = write_diagrams([(f"{safe_stem(program.name)}-trace", source)], outdir, options.fmt)
        report.messages += report.written.failure_lines()
    return report
