"""`mmdsl check`: a whole C program (main, pthreads, atomics, assert) or C# program (threads, lock,
Debug.Assert) under a model: safe, violation or deadlock; --atomicity also on Memorax .rmm programs."""

from __future__ import annotations

import json
import re
from typing import Optional

import typer

from .common import EXIT_MISMATCH, timeout_option, user_errors, within_timeout


@user_errors
@within_timeout("checking {program} under {model}")
def check(
    program: str = typer.Argument(..., help="A C file with main, pthread_create/join, <stdatomic.h>, assert; "
                                             "or a C# file (.cs, compiled with mono's mcs -d:DEBUG) with "
                                             "Thread Start/Join, lock and Debug.Assert; or, with --atomicity, "
                                             "a Memorax .rmm program with /* @atomic */ { } blocks."),
    model: str = typer.Option("sc", "--model", "-m", help="Model name, .mm or herd .cat file (rc11.cat: C11 "
                                                          "orders as written, data races)."),
    unroll: Optional[int] = typer.Option(None, "--unroll", min=1, show_default=False,
                                         help="Copy every loop N times; an execution needing more is cut, and "
                                              "a safe verdict says 'up to the bound'. Default: loops stay loops."),
    nondet: str = typer.Option("0:1", "--nondet", help="LO:HI, the values __VERIFIER_nondet_int() may return."),
    max_states: int = typer.Option(2_000_000, "--max-states", min=1, help="Most states to visit (an error beyond)."),
    define: list[str] = typer.Option([], "--define", "-D", help="NAME=VALUE given to the C preprocessor "
                                                                  "(repeatable), e.g. -D N=4."),
    atomicity: bool = typer.Option(False, "--atomicity",
                                   help="Judge each ATOMIC_BEGIN()/ATOMIC_END() block (<atomicity.h>; in .rmm: "
                                        "/* @atomic */ { ... }) instead: "
                                        "atomic, possibly not, or definitely not, with the execution."),
    brief: bool = typer.Option(False, "--brief", help="With --atomicity: the verdicts without the traces."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    timeout: float = timeout_option(),
) -> None:
    """Check PROGRAM under MODEL: exit 0 when safe, 1 with the failing execution (assertion, deadlock, race)."""
    from ..check import check_program
    from ..check.csharp import is_csharp, load_cs_program
    from ..core.errors import UnsupportedError
    from ..lang import load_model
    from ..litmus.cprog import load_c_program

    options = check_options(unroll, nondet, define)
    from ..explorer.explore import uses_graph_machine

    rmm = program.endswith(".rmm") and atomicity
    if program.endswith((".rmm", ".litmus", ".mm", ".cat")) and not rmm:
        raise UnsupportedError(f"mmdsl check on {program}", None,
                               hint="check reads C programs (.c) and C# (.cs, or a monodis .il listing), and "
                                    ".rmm programs with --atomicity; run litmus tests and .rmm programs "
                                    "with mmdsl explore or mmdsl run")
    the_model = load_model(model)
    graph = uses_graph_machine(the_model)  # an axiomatic model: the graph machine bounds loops itself
    if rmm:
        _refuse_c_options("a .rmm program", ".rmm loops are explored as loops and its choices are written in it",
                          unroll=unroll, define=define, nondet=nondet)
        from ..litmus.rmm_atomic import load_rmm_atomicity

        cp = load_rmm_atomicity(program)
    elif is_csharp(program):
        _refuse_c_options("a C# program", "C# loops are explored as loops (the verdict covers every execution) "
                          "and --atomicity reads the ATOMIC_BEGIN/END marks of C programs",
                          unroll=unroll, define=define, nondet=nondet, atomicity=atomicity)
        cp = load_cs_program(program)
    else:
        cp = load_c_program(program, **dict(options, unroll=None if graph else unroll))
    if atomicity:
        from ..check.atomicity import check_atomicity
        from ..check.atomicity.report import render as render_atomicity

        found = check_atomicity(cp, the_model, max_states=max_states)
        typer.echo(json.dumps(found.as_json(), indent=2) if as_json else render_atomicity(found, not brief))
        if found.error:
            raise typer.Exit(EXIT_MISMATCH)
        return
    result = check_program(cp, the_model, max_states=max_states, unroll=unroll)
    pools = cp.pools  # the bound malloc was checked under: one node per call made
    if pools:
        result.stats["malloc_pools"] = dict(pools)
    for w in result.warnings if not as_json else ():
        typer.echo(w, err=True)
    if as_json:
        typer.echo(json.dumps(result.as_json(), indent=2))
    else:
        sizes = ", ".join(f"struct {s}: {n} node(s)" for s, n in pools.items())
        typer.echo(render(result) + (f"\nmalloc pools (one node per call, none reused): {sizes}" if sizes else ""))
    if result.error:
        raise typer.Exit(EXIT_MISMATCH)


def check_options(unroll: Optional[int], nondet: str, define: list[str]) -> dict:
    """The keyword arguments of ``load_c_program`` from the --unroll, --nondet and -D options."""
    from ..core.errors import LitmusError

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
    return {"unroll": unroll, "nondet": tuple(range(lo, hi + 1)), "defines": defines}


def _refuse_c_options(what: str, hint: str, *, unroll, define, nondet, atomicity=False) -> None:
    """Refuse, by the first one given, the options only C programs take (a .rmm or C# program)."""
    from ..core.errors import UnsupportedError

    given = [name for name, v in (("--unroll", unroll), ("--define", define), ("--nondet", nondet != "0:1"),
                                  ("--atomicity", atomicity)) if v]
    if given:
        raise UnsupportedError(f"{given[0]} with {what}", None, hint=hint)


def render(result) -> str:
    """The verdict as text: a headline, then the execution that breaks it."""

    head = f"Program {result.program} under {result.model}: "
    st = result.stats
    counts = f"States {st['states']}, transitions {st['transitions']}, final states {st['final_states']}"
    if "executions" in st:  # the execution-graph machine (an axiomatic model): executions, not states
        counts = (f"Executions {st['executions']} complete (the search stops at an error), "
                  f"{st['blocked']} blocked, {st['explored']} partial executions explored")
    if result.verdict == "safe" and "executions" in st:
        return head + ("safe (every execution explored: no assertion fails, no deadlock, no data race; "
                       "spin loops are not looked at for livelocks here)\n") + counts
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
    elif result.verdict == "race":
        r = result.race
        lines.append(head + f"data race (the model's check '{r['check']}' fails: the program's behaviour is "
                            "undefined) between")
        for a in r["accesses"]:
            lines.append(f"  {a['thread']}: {a['access']} of {a['location']} at {a['at']}: {a['source']}")
    elif result.verdict == "livelock":
        lines.append(head + "livelock: after the first steps of the trace no execution ends; its last steps "
                            "go round a cycle the threads never leave. Where the threads were when it became so:")
        for b in result.blocked:
            lines.append(f"  {b.thread} at {b.where}: {b.waits_for}")
    else:
        lines.append(head + "deadlock: every live thread is blocked")
        for b in result.blocked:
            lines.append(f"  {b.thread} at {b.where} waits for {b.waits_for}")
    if "executions" in st:  # graph machine: the execution's events, as added, with rf and co choices
        lines.append(f"Execution ({len(result.trace)} events, in the order the graph machine added them):")
    else:
        how = "shortest" if result.shortest else "found by a depth-first probe, not a shortest one"
        lines.append(f"Trace ({len(result.trace)} steps, {how}):")
    lines += [f"  {i + 1:>3}. {s}" for i, s in enumerate(result.trace)]
    if result.values:
        lines.append("Shared values then: " + ", ".join(f"{k}={v}" for k, v in sorted(result.values.items())))
    lines.append(counts)
    return "\n".join(lines)
