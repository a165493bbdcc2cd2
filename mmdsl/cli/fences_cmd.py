"""`mmdsl fences`: the cheapest fences that forbid an outcome, proved optimal and re-checked."""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

from .common import EXIT_ERROR, EXIT_MISMATCH, timeout_option, user_errors, warn, within_timeout


@user_errors
@within_timeout("choosing fences for {test} under {model}")
def fences(
    test: str = typer.Argument(..., help="A litmus test or program, or a directory of them."),
    model: str = typer.Option(..., "--model", "-m", help="Model name or .mm file."),
    target: str = typer.Option("outcome", "--target",
                               help="outcome: forbid the exists outcome (keep ~exists/forall); "
                                    "sc: forbid every final state SC forbids; serial: every observation "
                                    "no serial run has."),
    spec: Optional[str] = typer.Option(None, "--spec",
                                       help="serial: forbid every observation that no run with each operation "
                                            "atomic has (CheckFence's check; same as --target serial)."),
    kinds: Optional[str] = typer.Option(None, "--kinds", help="Fence kinds to use (under power/armv7/armv8 also dependencies: addr, data, ctrl, ctrl+isync, ctrl+isb), comma separated (default: all)."),
    cost: List[str] = typer.Option([], "--cost", help="Override a kind's cost: KIND=N (repeatable)."),
    all_optimal: bool = typer.Option(False, "--all-optimal", help="List every optimal placement."),
    all_minimal: bool = typer.Option(False, "--all-minimal",
                                     help="List every inclusion-minimal fence set (each re-checked), "
                                          "cheapest first."),
    method: str = typer.Option("cegar", "--method", help="cegar (executions/traces) or cut (min-cut, programs)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds per CP-SAT solve."),
    max_states: int = typer.Option(2_000_000, "--max-states", min=1,
                                   help="Explorer: most states to visit (programs with loops, --method cut)."),
    max_pending: Optional[int] = typer.Option(None, "--max-pending", min=1, show_default=False,
                                    help="Longest pending list a thread may build: an error beyond (default 16), "
                                         "or, for a program that loops forever (.rmm), the bound a full "
                                         "list waits at (default 3)"),
    max_memory: Optional[float] = typer.Option(None, "--max-memory", show_default=False,
                                               help="Explorer: ceiling in MB on the process's peak memory "
                                                    "(an error beyond; default: none)."),
    compact: bool = typer.Option(False, "--compact",
                                 help="Explorer: keep a 128-bit hash of each visited state instead of the state "
                                      "(not with --method cut, which keeps the state graph)."),
    unroll: Optional[int] = typer.Option(None, "--unroll", min=1, show_default=False,
                                         help="C programs (.c): as `mmdsl check --unroll`. A test with loops "
                                              "under a model without a reordering table (riscv, rc11.cat, ...): "
                                              "the checker unrolls them this many times, herd's -unroll "
                                              "(default 2); the answer holds up to that bound."),
    nondet: str = typer.Option("0:1", "--nondet", help="C programs: as `mmdsl check --nondet`."),
    define: List[str] = typer.Option([], "--define", "-D", help="C programs: NAME=VALUE for the preprocessor."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    output: Optional[str] = typer.Option(None, "--output", "-o",
                                         help="Write the fenced test here (in its own dialect) and re-run it."),
    timeout: float = timeout_option(),
) -> None:
    """Choose the cheapest fences (kinds and places) that forbid the unwanted outcomes."""
    from ..core.errors import UnsupportedError
    from ..core.limits import check_timeout
    from ..core.resources import resolve_bundled
    from ..fences import FenceOptions
    from ..fences.places import parse_costs

    timeout = check_timeout(timeout)
    if spec is not None:
        if spec != "serial":
            raise UnsupportedError(f"unknown --spec '{spec}'", expected="serial")
        target = "serial"
    if timeout and time_limit is None:  # no single CP-SAT solve may outlast the whole run
        time_limit = timeout
    options = FenceOptions(target=target, kinds=kinds.split(",") if kinds else None, costs=parse_costs(cost),
                           all_optimal=all_optimal, all_minimal=all_minimal, method=method, time_limit=time_limit,
                           max_states=max_states, max_pending=max_pending, max_memory=max_memory, compact=compact,
                           unroll=unroll)
    path = resolve_bundled(test, "litmus")
    if path.is_dir():
        if output:
            raise UnsupportedError("-o writes one fenced test; give a test file, not a directory")
        _suite(path, model, options, as_json)
        return
    if path.suffix == ".c":  # a whole C program (main, pthreads): fences as atomic_thread_fence lines
        from .check_cmd import check_options

        _c_program(str(path), model, options, as_json, output, max_states, check_options(unroll, nondet, define))
        return
    _single(path, model, options, as_json, output)


def _c_program(path: str, model_name: str, options, as_json: bool, output: str | None, max_states: int,
               load_args: dict) -> None:
    from ..check.c_fences import select_c_fences
    from ..core.errors import writing
    from ..lang import load_model
    from ..litmus.cprog import load_c_program
    from ..render.c_fences_text import c_fences_dict, c_fences_text

    model = load_model(model_name)
    cp = load_c_program(path, **load_args)
    found = select_c_fences(cp, path, model, options, max_states=max_states, load_args=load_args)
    if output and found.fenced_text is not None:
        with writing("the fenced program"):
            os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(found.fenced_text)
    if as_json:
        from ..render.json_out import dumps

        print(dumps(dict(c_fences_dict(found), output=output if found.fenced_text is not None else None)))
    else:
        print(c_fences_text(found, path), end="")
        if output and found.fenced_text is not None:
            print(f"Wrote {output}")
    if output and found.fenced_text is None and found.selection.needed:
        print(f"nothing written to {output}: no fenced program to write", file=sys.stderr)
    if not found.ok:
        raise typer.Exit(EXIT_MISMATCH)


def _single(path, model_name: str, options, as_json: bool, output: str | None) -> None:
    from ..fences import select_fences
    from ..fences.select import rerun
    from ..fences.solver import FEASIBLE, OPTIMAL
    from ..fences.writer import write_fenced
    from ..lang import load_model
    from ..lang.fence_use import fence_warnings
    from ..litmus import load_litmus
    from ..render.fences_text import recheck_text, selection_dict, selection_text

    model = load_model(model_name)
    program = load_litmus(path)
    sel = select_fences(program, model, options)
    solved = sel.status in (OPTIMAL, FEASIBLE)
    warnings = fence_warnings(program, model)
    if not as_json:
        warn(warnings)
        print(selection_text(sel), end="")
    written = None
    notes: list[str] = []  # fences written in code with several copies (inlined functions, unrolled loops)
    if output and solved:
        written = rerun(sel, write_fenced(program, sel.fences, output, notes), model)
    if as_json:
        from ..render.json_out import dumps

        d = selection_dict(sel)
        d["warnings"] = warnings
        if written is not None:
            d["output"] = {"file": output, "verdict": written.verdict, "ok": written.ok,
                           "positive": written.positive, "negative": written.negative,
                           "achieved": sel.target.achieved(written), "notes": notes}
        print(dumps(d))
    elif written is not None:
        for note in notes:
            print(f"Note: {note}")
        print(f"Wrote {output}; re-run: {recheck_text(sel, written)}")
    if output and not solved:
        print(f"nothing written to {output}: no fence set to insert", file=sys.stderr)
    if not solved or (written is not None and not sel.target.achieved(written)):
        raise typer.Exit(EXIT_MISMATCH)


def _suite(path, model_name: str, options, as_json: bool) -> None:
    from ..suite.fences_runs import select_many
    from ..suite.runner import iter_test_files

    files = iter_test_files([path])
    if not files:
        print(f"no litmus tests found in {path}", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    items = list(select_many(files, model_name, options))
    if as_json:
        from ..render.fences_text import selection_dict
        from ..render.json_out import dumps, error_dict

        print(dumps({
            "selections": [dict(selection_dict(it.selection), label=it.label) for it in items if it.selection],
            "errors": [error_dict(it.error, str(it.path)) for it in items if it.error is not None],
        }))
    else:
        from rich.console import Console

        from ..render.fences_text import suite_table

        for it in items:
            if it.error is not None:
                print(str(it.error), file=sys.stderr)
        Console().print(suite_table(items))
    if any(it.error is not None for it in items):
        raise typer.Exit(EXIT_ERROR)
