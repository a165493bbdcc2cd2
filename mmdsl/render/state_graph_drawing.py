"""`mmdsl draw --state-graph`: explore a program, check the size limit, draw and write its state graph."""

from __future__ import annotations

from pathlib import Path

from ..core.program import Program
from ..lang.ir import Model
from .dot_state_graph import state_graph_dot
from .execution_choice import chosen_fences
from ..core.outfiles import safe_stem
from .graphviz_out import DrawReport, write_diagrams
from .styles import Style


def draw_state_graph(program: Program, model: Model, outdir: str | Path, options, style: Style):
    """Write ``TEST-states.FMT``, or say why not (more states than ``options.max_states``)."""
    report = DrawReport()
    source, message = state_graph_source(program, model, style, max_states=options.max_states,
                                         detail=options.detail, fences=options.fences)
    report.messages.extend(message)
    if source is not None:
        report.written = write_diagrams([(f"{safe_stem(program.name)}-states", source)], outdir, options.fmt)
        report.messages += report.written.failure_lines()
    return report


def state_graph_source(program: Program, model: Model, style: Style, *, max_states: int, detail: bool = False,
                       fences: bool = False) -> tuple[str | None, list[str]]:
    """The DOT text of the explored state graph (None when over the limit) and lines to print."""
    from ..explorer import explore
    from .state_fences import removed_steps

    messages: list[str] = []
    insertions = []
    if fences:
        insertions, line = chosen_fences(program, model)
        messages.append(line)
    graph = explore(program, model, graph=True, max_states=max_states).graph
    if graph.truncated:
        messages.append(f"{program.name} under {model.name}: the state graph has more than {max_states} states, "
                        f"too many to draw; nothing written (raise the limit with --max-states N)")
        return None, messages
    removed = removed_steps(graph, program, model, insertions)
    note = ""
    if insertions:
        kinds = ", ".join(f"{program.threads[t].name} {k} before instruction {i}" for t, i, k in insertions)
        note = f"fences chosen by `mmdsl fences`: {kinds}"
    source = state_graph_dot(graph, test=program.name, model=model.name, style=style, detail=detail,
                             removed=removed, thread_names=[t.name for t in program.threads], note=note)
    return source, messages
