"""`mmdsl draw X.c --show violation`: a C program's failing execution (``mmdsl check``'s trace) as a sequence chart.

The chart is ``dot_trace``'s (one lifeline per thread, named by its C function, writes
arrowing to the threads they reach); each box carries the C source line of its statement.
Steps a reader of the C program did not write are left out: the thread start and end
handshakes of ``pthread_create``/``pthread_join`` (``__start1``, ``__done1``), the fences
the C11 orders compile to (only ``atomic_thread_fence`` calls stay) and the compiler's temporaries (``%ret``, a call's arguments); a box starting ``*`` was
performed before an earlier operation of its thread.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.outfiles import safe_stem
from .dot_trace import trace_dot
from .graphviz_out import write_diagrams
from .styles import Style

HEADLINES = {"violation": "assertion violated", "deadlock": "deadlock", "livelock": "livelock"}


def violation_steps(result) -> list:
    """The explorer steps of ``result`` (a CheckResult) to draw, each labelled with its C line."""
    out = []
    for step, d in result.raw_steps:
        label = step.label
        if "__start" in label or "__done" in label or ("%" in label and "%assert" not in label):
            continue
        if " fence " in f" {d['action']} " and "atomic_thread_fence" not in d["source"]:
            continue
        line = d["at"].rsplit(":", 2)[-2] if d["at"] else None
        suffix = f"  @{line}" if line else ""
        out.append(replace(step, label=label.replace("%assert = 1", "assert fails") + suffix))
    return out


def violation_source(result, thread_names: list[str], style: Style) -> str:
    """The DOT text of ``result``'s failing execution."""
    what = HEADLINES.get(result.verdict, result.verdict)
    if result.failed:
        final = f"{what}: {_short(result.failed['at'])}: {result.failed['text']}"
    else:
        final = what + "".join(f"\n{b.thread} at {_short(b.where)}: {b.waits_for}" for b in result.blocked)
    if result.values:
        final += "\nthen: " + ", ".join(f"{k}={v}" for k, v in sorted(result.values.items()))
    steps = violation_steps(result)
    head = f"{result.program} under {result.model}: a shortest failing execution ({len(steps)} steps)"
    # one memory (a table model): every performed write is seen by all threads, nothing is "never received"
    return trace_dot(steps, thread_names, test=result.program, model=result.model, style=style, final=final,
                     headline=head, feet=False)


def draw_violation(result, thread_names: list[str], outdir: str | Path, fmt: str, style: Style):
    """Write ``PROGRAM-violation.FMT`` (and the .dot); the graphviz_out report."""
    source = violation_source(result, thread_names, style)
    return write_diagrams([(f"{safe_stem(result.program)}-violation", source)], outdir, fmt)


def _short(where: str) -> str:
    """``dir/prog.c:17:9`` -> ``prog.c:17``: the chart names the file once in its title."""
    parts = where.rsplit(":", 2)
    return f"{Path(parts[0]).name}:{parts[1]}" if len(parts) == 3 else where
