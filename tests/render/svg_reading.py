"""Reading graphviz SVG back for the diagram tests: nodes, edges, texts and their boxes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

NS = {"svg": "http://www.w3.org/2000/svg"}
NUM = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Box", slack: float = 0.5) -> bool:
        return (self.x0 + slack < other.x1 and other.x0 + slack < self.x1
                and self.y0 + slack < other.y1 and other.y0 + slack < self.y1)


@dataclass
class Item:
    name: str  # the <title> (DOT node name, or "a->b" for an edge)
    id: str
    classes: set[str]
    texts: list[tuple[str, float, float, float]] = field(default_factory=list)  # text, x, y, font size
    points: list[tuple[float, float]] = field(default_factory=list)

    def centre_x(self) -> float:
        b = self.box()
        return (b.x0 + b.x1) / 2

    def box(self) -> Box:
        pts = self.points or [p for t in self.texts for p in _text_corners(t)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return Box(min(xs), min(ys), max(xs), max(ys))

    @property
    def text(self) -> str:
        return " ".join(t[0] for t in self.texts)


def _text_corners(t) -> list[tuple[float, float]]:
    text, x, y, size = t
    half = len(text) * size * 0.3  # average glyph width ~0.6 em
    return [(x - half, y - size * 0.8), (x + half, y + size * 0.2)]


def text_box(t) -> Box:
    (x0, y0), (x1, y1) = _text_corners(t)
    return Box(x0, y0, x1, y1)


def read_svg(data: bytes) -> tuple[ET.Element, list[Item], list[Item]]:
    """The root, the nodes and the edges of a graphviz SVG (raises if it is not XML)."""
    root = ET.fromstring(data)
    nodes, edges = [], []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        classes = set((g.get("class") or "").split())
        if "node" not in classes and "edge" not in classes:
            continue
        item = Item(g.findtext("svg:title", "", NS).replace("&#45;", "-"), g.get("id", ""), classes)
        for el in g.iter():
            tag = el.tag.split("}")[1]
            if tag == "text":
                size = float(el.get("font-size", "14"))
                x = float(el.get("x"))
                if el.get("text-anchor") == "start":  # HTML labels: make x the centre like the others
                    x += len(el.text or "") * size * 0.3
                item.texts.append((el.text or "", x, float(el.get("y")), size))
            elif tag in ("polygon", "path", "ellipse") and "node" in classes:
                item.points.extend(_points(el))
        (nodes if "node" in classes else edges).append(item)
    return root, nodes, edges


def _points(el) -> list[tuple[float, float]]:
    if el.tag.endswith("ellipse"):
        cx, cy, rx, ry = (float(el.get(k)) for k in ("cx", "cy", "rx", "ry"))
        return [(cx - rx, cy - ry), (cx + rx, cy + ry)]
    nums = [float(n) for n in NUM.findall(el.get("points") or el.get("d") or "")]
    return list(zip(nums[0::2], nums[1::2]))


def all_texts(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]
