"""Diagrams rendered to SVG by the real `dot`: valid XML, thread columns side by side, program order
downwards, the expected event labels and edge classes, the violated axiom named, nothing overlapping."""

from __future__ import annotations

import shutil

import pytest
from diagram_cases import classic_dot
from svg_reading import all_texts, read_svg, text_box

from mmdsl.render.graphviz_out import render_text

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")

# (test, model, show, the event labels of that execution -- from the test's text and herd's outcome)
CASES = [
    ("SB", "tso", "witness", {"a: Wx=1", "b: Ry=0", "c: Wy=1", "d: Rx=0"}, {"po", "fr"}),
    ("SB", "sc", "forbidden", {"a: Wx=1", "b: Ry=0", "c: Wy=1", "d: Rx=0"}, {"ppo", "fr", "cycle"}),
    ("MP", "tso", "forbidden", {"a: Wx=1", "b: Wy=1", "c: Ry=1", "d: Rx=0"}, {"ppo", "rf", "fr", "cycle"}),
    ("IRIW", "sc", "forbidden", {"a: Wx=1", "b: Rx=1", "c: Ry=0", "d: Wy=1", "e: Ry=1", "f: Rx=0"},
     {"ppo", "rf", "fr", "cycle"}),
    ("2+2W", "tso", "forbidden", {"a: Wx=2", "b: Wy=1", "c: Wy=2", "d: Wx=1"}, {"ppo", "co", "cycle"}),
    ("MP+fences", "rmo", "forbidden", {"a: Wx=1", "b: F[mfence]", "c: Wy=1", "d: Ry=1", "e: F[mfence]",
                                       "f: Rx=0"}, {"fence", "rf", "fr", "cycle"}),
    ("lisa/LB", "rmo", "witness", {"a: Rx=1", "b: Wy=1", "c: Ry=1", "d: Wx=1"}, {"po", "rf"}),
]
THREADS = {"SB": 2, "MP": 2, "IRIW": 4, "2+2W": 2, "MP+fences": 2, "lisa/LB": 2}


def svg_of(test, model, show, style="screen"):
    data = render_text(classic_dot(test, model, show, style=style), "svg")
    assert data is not None
    return read_svg(data)


@pytest.mark.parametrize("style", ["screen", "paper"])
@pytest.mark.parametrize("test, model, show, labels, classes", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_svg_columns_labels_and_edges(test, model, show, labels, classes, style):
    root, nodes, edges = svg_of(test, model, show, style)
    heads = sorted((n for n in nodes if "thread" in n.classes), key=lambda n: int(n.id.split("-")[1]))
    assert [h.text for h in heads] == [f"P{k}" for k in range(THREADS[test])]
    xs = [h.centre_x() for h in heads]
    assert xs == sorted(xs) and len(set(round(x) for x in xs)) == len(xs), "threads not side by side"
    events = [n for n in nodes if "event" in n.classes]
    assert {n.text for n in events} == labels
    by_thread: dict[int, list] = {}
    for n in events:
        tid = min(range(len(heads)), key=lambda k: abs(xs[k] - n.centre_x()))
        assert abs(xs[tid] - n.centre_x()) < 8, f"{n.text} is not under its thread's header"
        by_thread.setdefault(tid, []).append(n)
    for column in by_thread.values():
        ordered = sorted(column, key=lambda n: n.name)  # labels a, b, c... follow program order
        ys = [n.box().y0 for n in ordered]
        assert ys == sorted(ys) and len(set(ys)) == len(ys), "program order does not go downwards"
        centres = [n.centre_x() for n in column]
        assert max(centres) - min(centres) < 1, "a thread's events are not in one column"
    assert classes <= set().union(*(e.classes for e in edges))
    assert "init" not in {c for n in nodes for c in n.classes}, "initial writes are hidden by default"


@pytest.mark.parametrize("test, model, show, labels, classes", [c for c in CASES if c[2] == "forbidden"],
                         ids=[c[0] for c in CASES if c[2] == "forbidden"])
def test_svg_forbidden_names_the_axiom(test, model, show, labels, classes):
    root, nodes, edges = svg_of(test, model, show)
    texts = all_texts(root)
    assert any(t.startswith(f"forbidden: violates {model}: acyclic") for t in texts)
    assert f"cycle that violates {model}" in texts
    cycle = [e for e in edges if "cycle" in e.classes]
    assert len(cycle) >= 4


@pytest.mark.parametrize("style", ["screen", "paper"])
@pytest.mark.parametrize("test", ["SB", "MP", "IRIW", "WRC", "ISA2", "W+RWC", "2+2W+fences", "CoWR", "lisa/ISA2"])
def test_nothing_overlaps(test, style):
    """No two event boxes overlap, and no edge label sits on an event or on another label."""
    for model, show in (("sc", "forbidden"), ("rmo", "allowed")):
        _, nodes, edges = svg_of(test, model, show, style)
        boxes = [(n.name, n.box()) for n in nodes if n.name != "legend"]
        for i, (a, ba) in enumerate(boxes):
            assert not any(ba.overlaps(bb) for _, bb in boxes[i + 1:]), f"{a} overlaps another box"
        labels = [(e.name, t) for e in edges for t in e.texts]
        for k, (edge, t) in enumerate(labels):
            assert not any(text_box(t).overlaps(b, 1) for _, b in boxes), f"label of {edge} on a box"
            assert not any(text_box(t).overlaps(text_box(u), 1) for _, u in labels[k + 1:]), \
                f"label of {edge} on another label"
