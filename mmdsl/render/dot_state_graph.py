"""DOT text of an explored state graph: states as boxes, in-order steps solid, out-of-order dashed.

Input: the explorer's ``StateGraph`` (``mmdsl/explorer/graph.py``, shared interface 2):
nodes with a compact ``short`` label and a full ``detail`` (shown as the tooltip, or in
the box with ``detail=True``), edges with their thread, label and ``out_of_order`` flag.
Steps that a fence selection removes (an out-of-order perform that a chosen fence
forbids) are drawn thick and named in the legend. Nodes and edges are emitted sorted by
id, so the text is the same byte for byte on every run.
"""

from __future__ import annotations

from .dot_text import dot_string, html_text as escape
from .styles import SHOW_COLOURS, Style, dot_number

# thread colours on screen (paper: black, the thread is the edge's label)
THREAD_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd") + SHOW_COLOURS
SPELLED_OUT = 60  # up to this many states, a box shows its state; beyond, its number (detail: tooltip)


def state_graph_dot(graph, *, test: str, model: str, style: Style, detail: bool = False,
                    removed: frozenset[int] = frozenset(), thread_names: list[str] = (),
                    note: str = "") -> str:
    """The DOT source of a state graph; ``removed`` holds the indices of edges a fence selection cuts."""
    import graphviz

    nodes = sorted(graph.nodes, key=lambda n: n.id)
    edges = sorted(enumerate(graph.edges), key=lambda ie: (ie[1].src, ie[1].dst, ie[1].thread, ie[1].label))
    g = graphviz.Digraph(name=dot_string(f"{test}-states"))
    g.attr("graph", rankdir="TB", newrank="true", splines="true", nodesep="0.3", ranksep="0.45",
           fontname=style.font, fontsize="14", labelloc="t", labeljust="c", pad="0.25", bgcolor="white",
           outputorder="edgesfirst", label=_title(graph, test, model, len(removed), note))
    g.attr("node", shape="box", style="rounded,filled" if style.name == "screen" else "rounded",
           fontname=style.font, fontsize="10", color=style.node_color, fillcolor="white",
           margin="0.06,0.03", height="0.25")
    g.attr("edge", fontname=style.font, fontsize="9", arrowsize="0.6")
    spelled = detail or len(nodes) <= SPELLED_OUT
    for n in nodes:
        g.node(f"s{n.id}", **_state_attrs(n, style, detail, spelled))
    with g.subgraph() as s:
        s.attr(rank="min")
        for n in nodes:
            if n.initial:
                s.node(f"s{n.id}")
    for index, e in edges:
        g.edge(f"s{e.src}", f"s{e.dst}", **_step_attrs(e, style, index in removed, thread_names, detail))
    g.node("legend", label=_legend(graph, style, bool(removed), thread_names), shape="plaintext",
           style="solid", margin="0", **{"class": "legend"})
    return g.source


def _state_attrs(n, style: Style, detail: bool, spelled: bool) -> dict[str, str]:
    colours = style.state_colors
    classes = ["state"] + [c for c in ("initial", "final", "violating") if getattr(n, c)]
    if detail:
        label = dot_string(n.detail, newline="\\l", end="\\l")  # left-justified lines
    elif spelled:
        label = dot_string(n.short.replace(" | ", "\n"))  # memory, then one line per thread
    else:
        label = str(n.id)
    attrs = {"label": label, "tooltip": dot_string(n.detail or n.short), "id": f"state-{n.id}",
             "class": " ".join(classes)}
    if n.initial:
        attrs.update(penwidth="2", fillcolor=colours["initial"])
    if n.final:
        attrs.update(peripheries="2", fillcolor=colours["final"])
    if n.violating:
        attrs.update(penwidth="2.5", color=colours["violating_border"], fillcolor=colours["violating"],
                     style="rounded,filled,bold")
    return attrs


def _thread_name(tid: int, names) -> str:
    return names[tid] if 0 <= tid < len(names) else f"P{tid}"


def _step_attrs(e, style: Style, removed: bool, names, detail: bool) -> dict[str, str]:
    screen = style.name == "screen"
    colour = THREAD_COLOURS[e.thread % len(THREAD_COLOURS)] if screen else "black"
    attrs = {"tooltip": dot_string(e.label), "class": " ".join(
        ["step", "out-of-order" if e.out_of_order else "in-order", f"thread-{e.thread}"]
        + (["removed"] if removed else [])),
        "color": colour, "style": "dashed" if e.out_of_order else "solid", "penwidth": "1"}
    if detail:
        attrs["label"] = dot_string(e.label)
    elif not screen:
        attrs["xlabel"] = dot_string(_thread_name(e.thread, names))
    if removed:
        attrs.update(color=style.state_colors["removed"], penwidth=dot_number(style.cycle_width))
    return attrs


def _title(graph, test: str, model: str, cut: int, note: str) -> str:
    nodes, edges = len(graph.nodes), len(graph.edges)
    ooo = sum(1 for e in graph.edges if e.out_of_order)
    bad = sum(1 for n in graph.nodes if n.violating)
    line = f"{nodes} states, {edges} transitions ({ooo} out of order), {bad} violating"
    if cut:
        line += f"; {cut} removed by the fences"
    lines = [f"<b>{escape(test)}</b> under <i>{escape(model)}</i>: explored states",
             f'<font point-size="11">{escape(line)}</font>']
    if note:
        lines.append(f'<font point-size="10">{escape(note)}</font>')
    return "<" + "<br/>".join(lines) + ">"


def _legend(graph, style: Style, removed: bool, names) -> str:
    colours = style.state_colors
    rows = []
    threads = sorted({e.thread for e in graph.edges})
    if style.name == "screen":
        for t in threads:
            rows.append(_row(f'<td width="36" height="6" sides="b" border="2" '
                             f'color="{THREAD_COLOURS[t % len(THREAD_COLOURS)]}"></td>',
                             _thread_name(t, names), "a step of this thread"))
    rows.append(_row('<td width="36" height="6" sides="b" border="1" color="black"></td>',
                     "solid", "in program order"))
    rows.append(_row('<td width="36" height="6" sides="b" border="1" color="black" style="dashed"></td>',
                     "dashed", "out of order: performed before an earlier pending operation"))
    if removed:
        rows.append(_row(f'<td width="36" height="6" sides="b" border="{int(style.cycle_width)}" '
                         f'color="{colours["removed"]}"></td>', "thick", "removed by the chosen fences"))
    if any(n.violating for n in graph.nodes):
        rows.append(_row(f'<td width="36" height="12" border="2" color="{colours["violating_border"]}" '
                         f'bgcolor="{colours["violating"]}"></td>', "state", "violates the property"))
    return ('<<table border="0" cellborder="0" cellspacing="1" cellpadding="2">' + "".join(rows)
            + "</table>>")


def _row(sample: str, name: str, text: str) -> str:
    return f'<tr>{sample}<td align="left"><b>{escape(name)}</b></td><td align="left">{escape(text)}</td></tr>'
