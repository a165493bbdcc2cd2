"""`mmdsl explore`: explore a program's state space under a table model; verdict, trace, stats."""

from __future__ import annotations

from typing import Optional

import typer

from .common import EXIT_MISMATCH, timeout_option, user_errors, warn, within_timeout


@user_errors
@within_timeout("exploring {test} under {model}")
def explore(
    test: str = typer.Argument(..., help="A litmus file (loops allowed)."),
    model: str = typer.Option("sc", "--model", "-m", help="Model name, .mm or herd .cat file (a table model runs "
                                                          "on its machine, axioms on the execution-graph machine)."),
    stats: bool = typer.Option(False, "--stats", help="Print states, transitions, the SC state count, times."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output (stats included)."),
    no_por: bool = typer.Option(False, "--no-por", help="Switch the partial-order reduction off."),
    bfs: bool = typer.Option(True, "--bfs/--dfs",
                             help="Breadth-first (shortest trace) or depth-first search."),
    max_pending: Optional[int] = typer.Option(None, "--max-pending", min=1, show_default=False,
                                    help="Longest pending list a thread may build: an error beyond (default 16), "
                                         "or, for a program that loops forever (.rmm), the bound a full "
                                         "list waits at (default 3)."),
    max_states: int = typer.Option(2_000_000, "--max-states", min=1,
                                   help="Most states to visit (an error beyond)."),
    max_memory: Optional[float] = typer.Option(None, "--max-memory", show_default=False,
                                               help="Ceiling in MB on the process's peak memory, checked every "
                                                    "4096 new states (an error beyond; default: none)."),
    compact: bool = typer.Option(False, "--compact",
                                 help="Keep a 128-bit hash of each visited state instead of the state: less "
                                      "memory, slower; a hash collision (odds below 1e-26 per million states) "
                                      "could miss states."),
    trace: bool = typer.Option(True, "--trace/--no-trace",
                               help="Print the trace to the first final state reaching the outcome."),
    spec: Optional[str] = typer.Option(None, "--spec",
                                       help="serial: every observation must be one of a run with each operation "
                                            "atomic (CheckFence's check; exit 1 when not; see docs/datatypes.md)."),
    unroll: Optional[int] = typer.Option(None, "--unroll", min=1, show_default=False,
                                         help="Graph machine (axiomatic models): unroll every loop this many "
                                              "times, herd's -unroll (default 2; spin iterations are blocked, "
                                              "not unrolled; a verdict the bound affects says so)."),
    reduction: str = typer.Option("threads", "--reduction",
                                  help="The partial-order reduction: threads (persistent thread sets), dotnet "
                                       "(the .NET checker's: one forever-local step alone first), none."),
    every_trace: bool = typer.Option(False, "--all-traces",
                                     help="A trace to every final state reaching the outcome, grouped by the "
                                          "reordering that causes it (the .NET checker's report)."),
    trace_cap: int = typer.Option(20, "--trace-cap", min=1, help="Traces printed by --all-traces (all are counted)."),
    first: bool = typer.Option(False, "--first",
                               help="Stop at the first state reaching the outcome (a Memorax-style verdict: "
                                    "the violation and its trace, without the full counts)."),
    timeout: float = timeout_option(),
) -> None:
    """Explore every state of TEST under MODEL: herd's block, the outcome, a trace, the stats."""
    if reduction not in ("threads", "dotnet", "none"):
        raise typer.BadParameter(f"'{reduction}' is not one of threads, dotnet, none", param_hint="--reduction")
    por = False if no_por or reduction == "none" else "dotnet" if reduction == "dotnet" else True
    if spec is not None:
        from .spec_common import run_spec

        run_spec([test], [model], spec, "explorer", as_json, trace,
                 dict(por=por, max_pending=max_pending, max_states=max_states, max_memory=max_memory,
                      compact=compact))
        return
    from ..explorer import explore as run_explorer
    from ..render.explore_text import exploration_extras, outcome_line, stats_text, trace_block
    from ..lang import load_model
    from ..litmus import load_litmus
    from ..render.herd_text import herd_block, no_final_state_line

    program = load_litmus(test)
    result = run_explorer(program, load_model(model), por=por, order="bfs" if bfs else "dfs",
                          all_traces=trace_cap if every_trace else 0,
                          max_pending=max_pending, max_states=max_states,
                          compare_sc=(stats or as_json) and not first,
                          max_memory=max_memory, progress=not as_json, compact=compact, unroll=unroll,
                          first=first)
    empty = no_final_state_line(result, program.filter is not None)
    if empty is not None:
        result.warnings.append(empty)
    if as_json:
        from ..render.json_out import dumps, result_dict

        out = result_dict(result)
        out.update(exploration_extras(result))
        if result.all_traces is not None:
            out["all_traces"] = result.all_traces.as_dict()
        print(dumps(out))
    else:
        warn(result.warnings)
        text = herd_block(result) + outcome_line(result) + "\n"
        if result.all_traces is not None:
            from ..explorer.all_traces import all_traces_text

            text += all_traces_text(result.all_traces)
        elif trace:
            text += trace_block(result)
        if stats:
            text += stats_text(result)
        print(text, end="")
    if empty is not None:  # herd's block with States 0: a verdict about nothing
        raise typer.Exit(EXIT_MISMATCH)
