"""State graph diagrams of the explorer's graphs: golden DOT, SVG checks, the fence cut, the size limit."""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import pytest
from conftest import golden
from svg_reading import read_svg

from mmdsl.explorer import explore
from mmdsl.fences import select_fences
from mmdsl.fences.insert import insert_fences
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.graphviz_out import render_text
from mmdsl.render.state_fences import removed_steps
from mmdsl.render.state_graph_drawing import state_graph_source
from mmdsl.render.styles import style_named

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")


def program(path: str):
    return load_litmus(ROOT / "litmus" / path)


def source(path: str, model: str, style: str = "screen", **kw) -> str:
    text, _ = state_graph_source(program(path), load_model(model), style_named(style), max_states=kw.pop(
        "max_states", 500), **kw)
    return text


@pytest.mark.parametrize("name, path, model, opts", [
    ("SB-tso-states", "classic/SB.litmus", "tso", {}),
    ("SB-tso-states-fences", "classic/SB.litmus", "tso", {"fences": True}),
    ("lisa-MP-pso-states-paper", "classic/lisa/MP.litmus", "pso", {"style": "paper"}),
])
def test_golden_state_graph_dot(name, path, model, opts, bless):
    golden(GOLDEN / f"{name}.dot", source(path, model, **opts), bless)


def reachable_violations(graph, cut: frozenset[int]) -> set[int]:
    """Violating states still reachable from the initial state once the ``cut`` edges are gone."""
    succ: dict[int, list[int]] = {}
    for k, e in enumerate(graph.edges):
        if k not in cut:
            succ.setdefault(e.src, []).append(e.dst)
    start = next(n.id for n in graph.nodes if n.initial)
    seen, queue = {start}, deque([start])
    while queue:
        for d in succ.get(queue.popleft(), ()):
            if d not in seen:
                seen.add(d)
                queue.append(d)
    return {n.id for n in graph.nodes if n.violating and n.id in seen}


@pytest.mark.parametrize("path, model", [("classic/SB.litmus", "tso"), ("classic/MP.litmus", "pso"),
                                         ("classic/lisa/SB.litmus", "rmo"), ("classic/IRIW.litmus", "rmo"),
                                         ("classic/R.litmus", "tso"), ("classic/lisa/2+2W.litmus", "pso")])
def test_fence_cut_disconnects_every_violating_state(path, model):
    """The steps drawn as removed are exactly enough: without them no violating state is reachable,
    as exploring the fenced program (the fence tool's own re-check) shows too."""
    prog, m = program(path), load_model(model)
    graph = explore(prog, m, graph=True).graph
    assert any(n.violating for n in graph.nodes), "the outcome is reachable without fences"
    sel = select_fences(prog, m)
    cut = removed_steps(graph, prog, m, sel.insertions())
    assert cut and all(graph.edges[k].out_of_order for k in cut)
    assert reachable_violations(graph, cut) == set()
    fenced = explore(insert_fences(prog, sel.insertions()), m, graph=True).graph
    assert not any(n.violating for n in fenced.nodes)


def test_a_useless_fence_cuts_nothing():
    prog, m = program("classic/MP.litmus"), load_model("tso")  # TSO keeps W->W and R->R already
    graph = explore(prog, m, graph=True).graph
    assert removed_steps(graph, prog, m, [(0, 1, "mfence"), (1, 1, "mfence")]) == frozenset()


def test_peterson_mutual_exclusion_holds_under_sc_and_not_under_tso():
    """seed-programs.md (Huynh and Roychoudhury, Fig. 1): Peterson holds under SC and breaks under TSO."""
    sc = source("programs/peterson.litmus", "sc")
    tso = source("programs/peterson.litmus", "tso", max_states=5000)
    assert 'class="state final"' in sc and "violating" not in sc.replace("0 violating", "")
    assert 'class="state final violating"' in tso


def test_size_limit_says_how_to_raise_it():
    text, messages = state_graph_source(program("programs/peterson.litmus"), load_model("dotnet"),
                                        style_named("screen"), max_states=500)
    assert text is None
    assert messages == ["peterson under dotnet: the state graph has more than 500 states, too many to draw; "
                        "nothing written (raise the limit with --max-states N)"]


@needs_dot
def test_state_graph_svg_classes():
    prog, m = program("classic/SB.litmus"), load_model("tso")
    graph = explore(prog, m, graph=True).graph
    root, nodes, edges = read_svg(render_text(source("classic/SB.litmus", "tso", fences=True), "svg"))
    states = [n for n in nodes if "state" in n.classes]
    assert len(states) == len(graph.nodes)
    assert sum("initial" in n.classes for n in states) == 1
    assert sum("violating" in n.classes for n in states) == sum(n.violating for n in graph.nodes) == 1
    steps = [e for e in edges if "step" in e.classes]
    assert len(steps) == len(graph.edges)
    assert sum("out-of-order" in e.classes for e in steps) == sum(e.out_of_order for e in graph.edges)
    assert {"removed", "out-of-order"} <= set().union(*(e.classes for e in steps if "removed" in e.classes))
    # out-of-order steps are dashed, in-order ones solid
    svg = render_text(source("classic/SB.litmus", "tso"), "svg").decode()
    assert svg.count('stroke-dasharray="5,2"') >= sum(e.out_of_order for e in graph.edges)
