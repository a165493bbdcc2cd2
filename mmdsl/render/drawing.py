"""`mmdsl draw` and `mmdsl run --draw` in one place: choose, lay out, write, and say what happened."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.errors import MmdslError, UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Branch, Program
from ..lang.ir import Model
from .dot_execution import execution_dot
from .execution_choice import Chosen, choose_executions, chosen_devices, cut_message, fence_note, none_message
from .execution_view import DependencyInsertion, Insertion, execution_view
from .graphviz_out import DrawReport, check_format, write_diagrams
from .state_graph_drawing import draw_state_graph
from .styles import Style, style_named
from .trace_drawing import draw_trace

DEFAULT_MAX = 10
DEFAULT_MAX_STATES = 500


@dataclass
class DrawOptions:
    show: str = "witness"
    max_count: int = DEFAULT_MAX
    fmt: str = "svg"
    style: str = "screen"
    init: bool = False
    fences: bool = False  # draw the fences `mmdsl fences` chooses, in place
    state_graph: bool = False
    max_states: int = DEFAULT_MAX_STATES
    detail: bool = False  # state graphs: full state text in the node labels
    trace: bool = False  # the explorer's shortest trace to the outcome, as a sequence chart


def draw_test(program: Program, model: Model, outdir: str | Path, options: DrawOptions) -> DrawReport:
    """Draw what ``options`` ask for one test under one model into ``outdir``."""
    check_format(options.fmt)
    style = style_named(options.style)
    if options.state_graph:
        if options.max_states < 1:
            raise MmdslError(f"--max-states must be at least 1, not {options.max_states}")

        return draw_state_graph(program, model, outdir, options, style)
    if options.trace:
        return draw_trace(program, model, outdir, options, style)
    require_loop_free(program)
    report = DrawReport()
    insertions: list[Insertion] = []
    dependencies: list[DependencyInsertion] = []
    if options.fences:
        insertions, dependencies, line = chosen_devices(program, model)
        report.messages.append(line)
    choice = choose_executions(program, model, options.show, options.max_count)
    if not choice.chosen:
        report.messages.append(none_message(program, model, options.show, choice))
        return report
    diagrams = chosen_dots(program, model, choice.chosen, style, init=options.init, insertions=insertions,
                           dependencies=dependencies)
    report.written = write_diagrams(diagrams, outdir, options.fmt)
    report.messages += report.written.failure_lines()
    if choice.cut:
        report.messages.append(cut_message(choice, options.max_count))
    return report


def require_loop_free(program: Program) -> None:
    """Execution diagrams come from the axiomatic checker: refuse a program with a loop, saying what to draw."""
    program.require_final_condition("axiomatic checker (execution diagrams)")
    for thread in program.threads:
        back = next((i for k, i in enumerate(thread.instrs) if isinstance(i, Branch) and i.target <= k), None)
        if back is not None:  # located at the branch that jumps backwards
            raise UnsupportedError(f"{program.name} has a loop, and execution diagrams come from the axiomatic "
                                   "checker, which runs loop-free tests", back.pos,
                                   hint="draw the explored states: mmdsl draw TEST -m MODEL --state-graph")


def chosen_dots(program: Program, model: Model, chosen: list[Chosen], style: Style, *, init: bool = False,
                insertions: list[Insertion] = (),
                dependencies: list[DependencyInsertion] = ()) -> list[tuple[str, str]]:
    """(file stem, DOT text) of each chosen execution."""
    out = []
    for c in chosen:
        view = execution_view(c.execution, model, test=program.name, status=c.status,
                              thread_names=[t.name for t in program.threads], condition=program.condition,
                              violations=c.violations, show_init=init, fences=insertions,
                              dependencies=dependencies)
        if insertions or dependencies:
            view.notes.append(fence_note(c.status, bool(dependencies)))
        out.append((c.stem, execution_dot(view, style)))
    return out


def result_diagram(program: Program, model: Model, result: TestResult, style: Style) -> str | None:
    """The one diagram `mmdsl run --draw` writes for a result: the witness when the outcome is
    allowed, else the first forbidden execution satisfying the condition with its cycle (None:
    no execution satisfies the condition at all).

    The explorer finds states, not executions: for its results the axiomatic checker supplies
    the execution (a program with a loop has none, an UnsupportedError says so).
    """
    if result.engine != "axiomatic":
        from ..axiomatic import check

        require_loop_free(program)
        result = check(program, model, why=True)
    if result.witness is not None:
        chosen = Chosen(program.name, result.witness, "witness")
    elif result.why:
        chosen = Chosen(program.name, result.why[0].execution, "forbidden", result.why[0].violations)
    else:
        return None
    return chosen_dots(program, model, [chosen], style)[0][1]

