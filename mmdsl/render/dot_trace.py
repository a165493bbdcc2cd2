"""DOT text of an explorer trace as a sequence chart: one lifeline per thread, writes arrowing to their readers.

Input: the explorer's trace (``explorer/trace.py`` ``Step`` list, the path to the first
final state reaching the outcome) and the thread names. Each step is a box on its
thread's lifeline, in the row of its step number (the numbers run down the left), so
time goes down the page. Under a per-thread (not multi-copy-atomic) model a write first
reaches its own thread (``perform W x=1``), then each other thread at a time of its own
(``receives P0's W x=1``): each such step gets an arrow from the write, so two readers
receiving two writes in opposite orders (IRIW) show as crossing arrows. The box at the
foot of each lifeline names the writes of the trace the thread read a location of but
never received. The text is the same byte for byte on every run.
"""

from __future__ import annotations

import re

from .dot_text import dot_string
from .styles import Style

# thread colours on screen (paper: black)
LIFELINE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
PROPAGATION_COLOUR = "#1f77b4"
_TAGS = re.compile(r"\[[^\]]*\]")
_READ = re.compile(r"perform R\S* (\S+?)=")


def trace_dot(steps, thread_names: list[str], *, test: str, model: str, style: Style,
              final: str | None = None, headline: str | None = None, feet: bool = True) -> str:
    """The DOT source of ``steps`` as a sequence chart (see the module docstring); ``headline``
    replaces the title's first line, ``feet=False`` leaves out the writes never received."""
    import graphviz

    paper = style.name != "screen"
    g = graphviz.Digraph(name=dot_string(f"{test}-trace"))
    g.attr("graph", rankdir="TB", newrank="true", nodesep="0.25", ranksep="0.18", fontname=style.font,
           fontsize="14", labelloc="t", labeljust="c", pad="0.25", bgcolor="white",
           label=dot_string(_title(test, model, len(steps), final, headline)))
    g.attr("node", fontname=style.font, fontsize="10", height="0.22", margin="0.06,0.02")
    g.attr("edge", fontname=style.font, fontsize="9", arrowsize="0.6")
    threads = range(len(thread_names))
    colour = {t: "black" if paper else LIFELINE_COLOURS[t % len(LIFELINE_COLOURS)] for t in threads}

    # the top row: the step-number column's head, then one head per thread, left to right
    with g.subgraph() as row:
        row.attr(rank="same")
        row.node("head", label="step", shape="plaintext")
        for t in threads:
            row.node(f"p{t}", label=dot_string(thread_names[t]), shape="box",
                     style="filled" if not paper else "solid", fillcolor="#eeeeee", color=colour[t],
                     penwidth="1.5", fontsize="12")
        order = ["head", *(f"p{t}" for t in threads)]
        for left, right in zip(order, order[1:]):
            row.edge(left, right, style="invis")

    last = {t: f"p{t}" for t in threads}
    previous_row = "head"
    performed: dict[tuple[int, str], str] = {}  # (thread, "W x=1") -> the node of its perform step
    arrows = []
    for i, step in enumerate(steps, 1):
        node = f"s{i}"
        with g.subgraph() as row:
            row.attr(rank="same")
            row.node(f"n{i}", label=str(i), shape="plaintext")
            row.node(node, **_step_attrs(step, thread_names, colour[step.tid], paper))
        g.edge(previous_row, f"n{i}", style="invis")
        previous_row = f"n{i}"
        g.edge(last[step.tid], node, arrowhead="none", color=colour[step.tid], penwidth="1.5", weight="10")
        last[step.tid] = node
        text = _TAGS.sub("", _own_text(step, thread_names))
        if step.action == "perform" and text.startswith("perform W"):
            performed[(step.tid, text[len("perform "):])] = node
        if step.received is not None and step.received in performed:
            arrows.append((performed[step.received], node))

    feet = _not_received(steps, thread_names) if feet else [""] * len(thread_names)
    with g.subgraph() as row:
        row.attr(rank="same")
        for t in threads:
            row.node(f"end{t}", label=dot_string(feet[t] or "end"), shape="plaintext", fontsize="9")
    for t in threads:
        g.edge(last[t], f"end{t}", arrowhead="none", color=colour[t], penwidth="1.5", weight="10",
               style="dashed")
    g.edge(previous_row, "end0", style="invis")
    for src, dst in arrows:
        g.edge(src, dst, color="black" if paper else PROPAGATION_COLOUR, style="dashed", constraint="false",
               penwidth="1.2", **{"class": "propagation"})
    return g.source


def _own_text(step, thread_names) -> str:
    """The step's words without its thread's name: ``perform W x=1``."""
    prefix = f"{thread_names[step.tid]}: "
    return step.label[len(prefix):] if step.label.startswith(prefix) else step.label


def _step_attrs(step, thread_names, colour: str, paper: bool) -> dict[str, str]:
    text = _own_text(step, thread_names)
    if step.out_of_order:
        text = f"* {text}"
    attrs = {"label": dot_string(text), "shape": "box", "color": colour, "class": step.action}
    if step.action == "propagate":
        attrs["style"] = "rounded,dashed" if paper else "rounded,filled"
        attrs["fillcolor"] = "#e8f0fb"
    else:
        attrs["style"] = "rounded"
    if step.out_of_order:
        attrs["penwidth"] = "2"
    return attrs


def _not_received(steps, thread_names) -> list[str]:
    """Per thread: ``not received: P0's W x=1`` for each write of another thread to a location
    the thread read in the trace, which never reached it."""
    writes = []  # (writer, "W x=1", location), in trace order
    got: set[tuple[int, int, str]] = set()
    reads: dict[int, set[str]] = {t: set() for t in range(len(thread_names))}
    for step in steps:
        text = _TAGS.sub("", _own_text(step, thread_names))
        if step.action == "perform" and text.startswith("perform W "):
            what = text[len("perform "):]
            writes.append((step.tid, what, what[2:].split("=", 1)[0]))
        elif step.action == "perform" and (m := _READ.match(text)):
            reads[step.tid].add(m.group(1))
        if step.received is not None:
            got.add((step.tid, *step.received))
    out = []
    for t in range(len(thread_names)):
        missing = [f"{thread_names[w]}'s {what}" for w, what, loc in writes
                   if w != t and loc in reads[t] and (t, w, what) not in got]
        out.append("never received:\n" + "\n".join(missing) if missing else "")
    return out


def _title(test: str, model: str, count: int, final: str | None, headline: str | None = None) -> str:
    head = headline or f"{test} under {model}: a shortest trace to the outcome ({count} steps)"
    return head + (f"\nfinal: {final}" if final else "")
