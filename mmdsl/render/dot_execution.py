"""DOT text of an execution diagram: one column per thread, program order downwards, a legend.

Layout rules (graphviz ``dot`` with ``newrank``): each column starts with a header node
naming its thread; the headers share one rank and invisible flat edges keep them left
to right in thread order; the k-th box of every thread shares rank k (``rank=same``);
every edge is written from the upper (or left) box to the lower (or right) one, with
``dir=back`` when the relation points the other way, so no edge fights the ranks and the
columns stay straight. Columns are not graphviz clusters: dot 2.43 reorders clusters
during crossing minimisation and crashes on labelled flat edges between them.
"""

from __future__ import annotations

from .dot_text import dot_id, dot_string, html_text as escape
from .execution_view import EdgeView, ExecutionView, NodeView
from .styles import Style, dot_number

PO_WEIGHT = "10"  # keeps each column vertical


def execution_dot(view: ExecutionView, style: Style) -> str:
    """The DOT source of one execution diagram (deterministic, byte for byte)."""
    import graphviz

    g = graphviz.Digraph(name=dot_string(view.test))
    g.attr("graph", newrank="true", rankdir="TB", forcelabels="true", splines="true", nodesep="0.7", ranksep="0.6",
           fontname=style.font, fontsize="14", labelloc="t", labeljust="c", pad="0.25",
           outputorder="edgesfirst", bgcolor="white", label=_title(view))
    g.attr("node", shape=style.node_shape, style=style.node_style, fontname=style.font, fontsize="12",
           color=style.node_color, fillcolor="white", margin="0.07,0.03", height="0.3")
    g.attr("edge", fontname=style.font, fontsize="10", arrowsize="0.7")
    place: dict[str, tuple[int, int]] = {}
    for col, (name, nodes) in enumerate(view.columns):
        with g.subgraph(name=f"column_{col}") as c:
            c.node(f"thread_{col}", label=f"<<b>{escape(name)}</b>>", shape="plaintext", style="solid",
                   group=f"column_{col}", fontsize="13", **{"class": "thread", "id": f"thread-{col}"})
            place[f"thread_{col}"] = (-2, col)
            for node in nodes:
                c.node(dot_id(node.name), group=f"column_{col}", **_node_attrs(node, style))
                place[node.name] = (node.row, col)
    for k, node in enumerate(view.init):
        g.node(dot_id(node.name), **_node_attrs(node, style))
        place[node.name] = (-1, k - len(view.init))
    edges = [_edge(edge, place, style) for edge in view.edges]
    _rows(g, view, {(tail, head) for tail, head, _ in edges})
    for tail, head, attrs in edges:
        g.edge(dot_id(tail), dot_id(head), **attrs)
    if view.legend:
        g.node("legend", label=_legend_table(view, style), shape="plaintext", style="solid",
               margin="0", **{"class": "legend"})
        for _, nodes in view.columns:
            if nodes:
                g.edge(dot_id(nodes[-1].name), "legend", style="invis", weight="0")
    return g.source


# ----- nodes and rows -------------------------------------------------------------------
def _node_attrs(node: NodeView, style: Style) -> dict[str, str]:
    attrs = {"label": dot_string(node.label), "class": dot_string(" ".join(node.classes)),
             "id": dot_string(f"ev-{node.name}")}
    if node.tooltip:
        attrs["tooltip"] = dot_string(node.tooltip)
    if "init" in node.classes:
        attrs["fontcolor"] = "gray30"
    if "inserted" in node.classes:  # a dashed box on screen, a double box on paper
        paper = style.node_shape == "plaintext"
        attrs.update(color=style.inserted_color, fillcolor=style.inserted_fill, penwidth="1.6", shape="box",
                     style="solid" if paper else style.node_style + ",dashed", peripheries="2" if paper else "1")
    if node.highlight:
        attrs.update(fillcolor=style.highlight_fill, penwidth=dot_number(style.cycle_width - 1),
                     style="rounded,filled,bold", shape="box")
    return attrs


def _rows(g, view: ExecutionView, drawn: set[tuple[str, str]]) -> None:
    """Headers, then initial writes, then the k-th box of every thread, each on one rank.

    Invisible edges order each row left to right, except where a drawn edge already
    does (dot 2.43 loses or crashes on a labelled flat edge doubled by an invisible one).
    """
    heads = [f"thread_{col}" for col in range(len(view.columns))]
    with g.subgraph() as s:
        s.attr(rank="same")
        for a, b in zip(heads, heads[1:]):
            s.edge(a, b, style="invis")
    if view.init:
        with g.subgraph() as s:
            s.attr(rank="same")
            for a, b in zip(view.init, view.init[1:]):
                s.edge(dot_id(a.name), dot_id(b.name), style="invis")
            if len(view.init) == 1:
                s.node(dot_id(view.init[0].name))
        g.edge(heads[0], dot_id(view.init[0].name), style="invis", weight="0")
    for col, (_, nodes) in enumerate(view.columns):
        if nodes:
            g.edge(heads[col], dot_id(nodes[0].name), style="invis", weight=PO_WEIGHT)
            if view.init:
                g.edge(dot_id(view.init[0].name), dot_id(nodes[0].name), style="invis", weight="0")
        for a, b in zip(nodes, nodes[1:]):  # unsequenced boxes: no po edge, the column still straight
            if (a.name, b.name) not in drawn:
                g.edge(dot_id(a.name), dot_id(b.name), style="invis", weight=PO_WEIGHT)
    depth = max((len(nodes) for _, nodes in view.columns), default=0)
    for row in range(depth):
        members = [nodes[row].name for _, nodes in view.columns if row < len(nodes)]
        if len(members) > 1:
            with g.subgraph() as s:
                s.attr(rank="same")
                for a, b in zip(members, members[1:]):
                    if (a, b) in drawn:
                        s.node(dot_id(a))
                        s.node(dot_id(b))
                    else:
                        s.edge(dot_id(a), dot_id(b), style="invis")


# ----- edges ----------------------------------------------------------------------------
def _edge(edge: EdgeView, place: dict, style: Style) -> tuple[str, str, dict[str, str]]:
    """(tail, head, attributes) of one relation edge."""
    src, dst = place[edge.src], place[edge.dst]
    line = style.line(edge.rel)
    attrs = line.attrs(style.cycle_width if edge.highlight else None)
    same_column = src[1] == dst[1]
    consecutive = same_column and dst[0] == src[0] + 1 and edge.rel in ("po", "ppo", "fence", "inserted")
    # a label on a flat edge (both ends on one row) is an extra rank of label nodes to dot
    # 2.43, which corrupts its memory now and then; an external label is placed afterwards
    attrs["xlabel" if src[0] == dst[0] else "label"] = dot_string(edge.label)
    attrs["class"] = dot_string(" ".join(edge.classes))
    attrs["id"] = dot_string(f"{edge.rel.replace(':', '-')}-{edge.src}-{edge.dst}")
    if edge.highlight:
        attrs["fontname"] = _bold(style.font)
    if consecutive:
        attrs["weight"] = PO_WEIGHT
    elif same_column:
        attrs["weight"] = "0"
    tail, head = edge.src, edge.dst
    if dst < src:  # upwards, or leftwards on one row: write it downwards, drawn reversed
        tail, head = head, tail
        attrs["dir"] = "back"
        attrs["arrowtail"] = attrs.pop("arrowhead")
    return tail, head, attrs


def _bold(font: str) -> str:
    return "Times-Bold" if font.startswith("Times") else f"{font}-Bold"


# ----- title and legend -----------------------------------------------------------------
def _title(view: ExecutionView) -> str:
    lines = [f'<b>{escape(view.test)}</b> under <i>{escape(view.model)}</i>',
             f'<font point-size="11">{escape(view.headline)}</font>']
    if view.outcome:
        lines.append(f'<font point-size="11">outcome: {escape(view.outcome)}</font>')
    for note in view.notes:
        lines.append(f'<font point-size="10">({escape(note)})</font>')
    return "<" + "<br/>".join(lines) + ">"


def _legend_table(view: ExecutionView, style: Style) -> str:
    rows = []
    for key, name, text in view.legend:
        sample = _sample_cell(key, style)
        rows.append(f'<tr>{sample}<td align="left"><b>{escape(name)}</b></td>'
                    f'<td align="left">{escape(text)}</td></tr>')
    return ('<<table border="0" cellborder="0" cellspacing="1" cellpadding="2">'
            + "".join(rows) + "</table>>")


def _sample_cell(key: str, style: Style) -> str:
    """A table cell drawing a short line in the relation's colour and style."""
    if key == "cycle":
        return f'<td width="36" height="6" sides="b" border="{int(style.cycle_width)}" color="black"></td>'
    if key in ("inserted-node", "cycle-node"):
        fill = style.inserted_fill if key == "inserted-node" else style.highlight_fill
        color = style.inserted_color if key == "inserted-node" else "black"
        return f'<td width="36" height="10" border="1" color="{color}" bgcolor="{fill}"></td>'
    line = style.line(key)
    color = line.color.split(":")[0]
    if ":" in line.color:  # a double line (paper fences)
        return f'<td width="36" height="4" sides="tb" border="1" color="{color}"></td>'
    dash = {"dashed": ' style="dashed"', "dotted": ' style="dotted"'}.get(line.style.split(",")[0], "")
    width = max(2, round(line.penwidth + (1 if "bold" in line.style else 0)))
    return f'<td width="36" height="6" sides="b" border="{width}" color="{color}"{dash}></td>'
