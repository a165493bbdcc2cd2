"""Which selector a program gets (the checker's loop, the explorer's, per-thread propagation), and
re-running a fenced program with the engine its selection used."""

from __future__ import annotations

from ..axiomatic import check
from ..core.errors import UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Program
from ..lang.ir import Model
from .devices import acts_as_device, dependency_names
from .loop import METHODS, AxiomaticSelector, FenceOptions, Selection


def _checker_runs_loops(program: Program, model: Model, options: FenceOptions) -> bool:
    """Is ``program`` (with loops) selected on the checker, unrolled? Under a model the
    explorer runs on the execution-graph machine, whose steps add events (no overtaking
    a fence could cut), when nothing needs the explorer's states."""
    from ..explorer.explore import uses_graph_machine

    return (program.has_loops() and not program.state_property and options.method != "cut"
            and options.target != "serial" and not model.per_thread and not acts_as_device(model)
            and uses_graph_machine(model))


def select_fences(program: Program, model: Model, options: FenceOptions | None = None) -> Selection:
    """Choose the cheapest fences that meet the target for ``program`` under ``model``."""
    options = options or FenceOptions()
    if options.method not in METHODS:
        raise UnsupportedError(f"unknown method '{options.method}'", expected=" or ".join(METHODS))
    if options.time_limit is not None and not options.time_limit > 0:
        raise UnsupportedError(f"--time-limit {options.time_limit}: the time limit is a positive number of seconds")
    # --spec serial: data-type harnesses branch on every pointer, which the explorer handles best
    loops_on_explorer = program.has_loops() and not _checker_runs_loops(program, model, options)
    if loops_on_explorer or program.state_property or options.method == "cut" or options.target == "serial":
        priced = [k for k in [*(options.kinds or ()), *options.costs] if k.strip() in dependency_names(model)]
        if priced:
            raise UnsupportedError(
                f"dependency '{priced[0].strip()}' is a device only in loop-free tests (the axiomatic checker); "
                "with loops, state properties, --method cut or --spec serial selection inserts fences only",
                hint="leave the dependencies out of --kinds and --cost")
        if model.per_thread:  # fences act through cumulativity: grown failing sets (propagation_explorer.py)
            from .propagation_explorer import select_per_thread_on_explorer

            return select_per_thread_on_explorer(program, model, options)
        from .explorer_selector import select_on_explorer

        return select_on_explorer(program, model, options)
    # fences act through cumulativity (power, armv7) or dependencies are devices (armv8):
    # maximal-failing-set clauses (propagation.py)
    if model.per_thread or acts_as_device(model):
        from .propagation import PropagationSelector

        return PropagationSelector(program, model, options).run()
    return AxiomaticSelector(program, model, options).run()


def rerun(selection: Selection, program: Program, model: Model) -> TestResult:
    """Run a (fenced) program with the engine the selection used, e.g. after reading it back from a file."""
    if selection.engine == "explorer":
        from ..explorer import explore

        return explore(program, model)
    unroll = selection.unroll if program.has_loops() else None
    return check(program, model, collect="none", unroll=unroll)


__all__ = ["select_fences", "rerun"]
