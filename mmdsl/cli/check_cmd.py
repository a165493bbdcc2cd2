"""`mmdsl check`: a whole C program (main, pthreads, atomics, assert) under a model: safe, violation or deadlock."""

from __future__ import annotations

import json
import re
from typing import Optional

import typer

from .common import EXIT_MISMATCH, timeout_option, user_errors, within_timeout


@user_errors
@within_timeout("checking {program} under {model}")
def check(
    program: str = typer.Argument(..., help="A C file with main, pthread_create/join, <stdatomic.h>, assert."),
    model: str = typer.Option("sc", "--model", "-m", help="Model name or .mm file (a reordering-table model)."),
    unroll: Optional[int] = typer.Option(None, "--unroll", min=1, show_default=False,
                                         help="Copy every loop N times; an execution needing more is cut, and "
                                              "a safe verdict says 'up to the bound'. Default: loops stay loops."),
    nondet: str = typer.Option("0:1", "--nondet", help="LO:HI, the values __VERIFIER_nondet_int() may return."),
    max_states: int = typer.Option(2_000_000, "--max-states", min=1, help="Most states to visit (an error beyond)."),
    define: list[str] = typer.Option([], "--define", "-D", help="NAME=VALUE given to the C preprocessor "
                                                                  "(repeatable), e.g. -D N=4."),
    atomicity: bool = typer.Option(False, "--atomicity",
                                   help="Judge each ATOMIC_BEGIN()/ATOMIC_END() block (<atomicity.h>) instead: "
                                        "atomic, possibly not, or definitely not, with the execution."),
    brief: bool = typer.Option(False, "--brief", help="With --atomicity: the verdicts without the traces."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    timeout: float = timeout_option(),
) -> None:
    """Check PROGRAM under MODEL: exit 0 when safe, 1 with the failing execution (assertion or deadlock)."""
    from ..check import check_program
    from ..core.errors import LitmusError
    from ..lang import load_model
    from ..litmus.cprog import load_c_program

    try:
        lo, hi = (int(v) for v in nondet.split(":"))
    except ValueError:
        raise LitmusError(f"--nondet {nondet}", None, expected="LO:HI, e.g. 0:3") from None
    if not 0 <= hi - lo <= 64:
        raise LitmusError(f"--nondet {nondet}: {hi - lo + 1} values", None, expected="at most 65 values, LO <= HI")
    defines = {}
    for d in define:
        name, _, value = d.partition("=")
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or not re.fullmatch(r"[\w.+-]*", value):
            raise LitmusError(f"-D {d}", None, expected="NAME=VALUE: a C identifier and a number or identifier")
        defines[name] = value or "1"
    cp = load_c_program(program, unroll=unroll, nondet=tuple(range(lo, hi + 1)), defines=defines)
    if atomicity:
        from ..check.atomicity import check_atomicity
        from ..check.atomicity.report import render as render_atomicity

        found = check_atomicity(cp, load_model(model), max_states=max_states)
        typer.echo(json.dumps(found.as_json(), indent=2) if as_json else render_atomicity(found, not brief))
        if found.error:
            raise typer.Exit(EXIT_MISMATCH)
        return
    result = check_program(cp, load_model(model), max_states=max_states)
    if cp.pools:  # the bound malloc was checked under: one node per malloc call an execution makes
        result.stats["malloc_pools"] = dict(cp.pools)
    if as_json:
        typer.echo(json.dumps(result.as_json(), indent=2))
    else:
        pools = ", ".join(f"struct {s}: {n} node(s)" for s, n in cp.pools.items())
        typer.echo(render(result) + (f"\nmalloc pools (one node per call, none reused): {pools}" if pools else ""))
    if result.error:
        raise typer.Exit(EXIT_MISMATCH)


def render(result) -> str:
    """The verdict as text: a headline, then the execution that breaks it."""

    head = f"Program {result.program} under {result.model}: "
    st = result.stats
    counts = f"States {st['states']}, transitions {st['transitions']}, final states {st['final_states']}"
    if result.verdict == "safe":
        return head + "safe (every execution explored, no assertion fails, no deadlock)\n" + counts
    if result.verdict == "bounded":
        return (head + f"safe up to unroll bound {result.unroll} (some executions run a loop more often: "
                "they were cut there)\n" + counts)
    lines = []
    if result.verdict == "violation":
        f = result.failed
        from ..litmus.cprog.memory import is_memory_error

        what = "memory error" if is_memory_error(f["text"]) else "assertion violated"
        lines.append(head + f"{what}: {f['at']}: {f['text']} (in {f['function']})")
    elif result.verdict == "livelock":
        lines.append(head + "livelock: after the first steps of the trace no execution ends; its last steps "
                            "go round a cycle the threads never leave. Where the threads were when it became so:")
        for b in result.blocked:
            lines.append(f"  {b.thread} at {b.where}: {b.waits_for}")
    else:
        lines.append(head + "deadlock: every live thread is blocked")
        for b in result.blocked:
            lines.append(f"  {b.thread} at {b.where} waits for {b.waits_for}")
    lines.append(f"Trace ({len(result.trace)} steps, shortest):")
    lines += [f"  {i + 1:>3}. {s}" for i, s in enumerate(result.trace)]
    if result.values:
        lines.append("Shared values then: " + ", ".join(f"{k}={v}" for k, v in sorted(result.values.items())))
    lines.append(counts)
    return "\n".join(lines)
