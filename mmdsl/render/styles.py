"""Diagram styles: fonts, and the fixed colour and line style of every relation (screen and paper)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import MmdslError

# The relations a diagram can draw, in legend order, with their legend text.
RELATIONS = {
    "po": "program order (the model may reorder)",
    "ppo": "program order the model keeps",
    "fence": "ordered by a fence",
    "rf": "reads-from",
    "co": "coherence order",
    "fr": "from-read (rf\u207b\u00b9 ; co)",
    "other": "another relation of the axiom",
    "inserted": "ordered by an inserted fence",
    "dependency": "a dependency inserted by the fence selection (addr, data, ctrl, ctrl+isb)",
}
# Colours for the relations a model names in `show`, taken in order.
SHOW_COLOURS = ("#c51b7d", "#8c510a", "#00897b", "#b8860b", "#4d4d4d")
SHOW_PAPER_STYLES = ("tapered", "dashed", "dotted", "solid", "bold")


@dataclass(frozen=True)
class LineStyle:
    """How one relation's edges look: graphviz colour, style, width and arrowhead."""

    color: str
    style: str = "solid"
    penwidth: float = 1.2
    arrowhead: str = "normal"

    def attrs(self, highlight_width: float | None = None) -> dict[str, str]:
        width = self.penwidth if highlight_width is None else max(highlight_width, self.penwidth + 1.8)
        font = self.color.split(":")[0]
        return {"color": self.color, "fontcolor": font, "style": self.style,
                "penwidth": dot_number(width), "arrowhead": self.arrowhead}


@dataclass(frozen=True)
class Style:
    """Everything that differs between the screen and paper looks."""

    name: str
    font: str
    lines: dict[str, LineStyle]
    show_lines: tuple[LineStyle, ...]
    node_shape: str
    node_style: str
    node_color: str
    cycle_width: float
    highlight_fill: str
    inserted_fill: str
    inserted_color: str
    state_colors: dict[str, str] = field(default_factory=dict)

    def line(self, rel: str) -> LineStyle:
        """The line of a relation key (``show:NAME`` keys take the model's show palette)."""
        if rel.startswith("show:"):
            index = int(rel.split(":")[1])
            return self.show_lines[index % len(self.show_lines)]
        return self.lines[rel]


SCREEN = Style(
    name="screen",
    font="Helvetica",
    lines={
        "po": LineStyle("black"),
        "ppo": LineStyle("#1a9850", penwidth=1.6),
        "fence": LineStyle("#7b3294", penwidth=1.6),
        "rf": LineStyle("#d7191c"),
        "co": LineStyle("#2c7bb6"),
        "fr": LineStyle("#f08a00", style="dashed"),
        "other": LineStyle("#555555", style="dashed"),
        "inserted": LineStyle("#7b3294", style="dashed", penwidth=2.0),
        "dependency": LineStyle("#7b3294", style="dotted", penwidth=2.2, arrowhead="vee"),
    },
    show_lines=tuple(LineStyle(c, penwidth=1.4) for c in SHOW_COLOURS),
    node_shape="box",
    node_style="rounded,filled",
    node_color="#9e9e9e",
    cycle_width=3.2,
    highlight_fill="#fff3bf",
    inserted_fill="#efe3f7",
    inserted_color="#7b3294",
    state_colors={"initial": "#e3f2fd", "final": "#e8f5e9", "violating": "#ffcdd2",
                  "violating_border": "#c62828", "removed": "#7b3294", "ooo": "#616161"},
)

PAPER = Style(
    name="paper",
    font="Times-Roman",
    lines={
        "po": LineStyle("black", penwidth=1.0),
        "ppo": LineStyle("black", style="bold", penwidth=2.2),
        "fence": LineStyle("black:white:black", penwidth=1.0, arrowhead="normal"),
        "rf": LineStyle("black", style="dashed", penwidth=1.2),
        "co": LineStyle("black", style="dashed", penwidth=2.0, arrowhead="vee"),
        "fr": LineStyle("black", style="dotted", penwidth=1.6, arrowhead="onormal"),
        "other": LineStyle("gray35", style="dotted", penwidth=1.2, arrowhead="odot"),
        "inserted": LineStyle("black:white:black", style="dashed", penwidth=1.2, arrowhead="empty"),
        "dependency": LineStyle("black:white:black", style="dotted", penwidth=1.2, arrowhead="vee"),
    },
    show_lines=tuple(LineStyle("gray30", style=s, penwidth=1.4, arrowhead="diamond") for s in SHOW_PAPER_STYLES),
    node_shape="plaintext",
    node_style="solid",
    node_color="black",
    cycle_width=3.4,
    highlight_fill="gray90",
    inserted_fill="white",
    inserted_color="black",
    state_colors={"initial": "white", "final": "white", "violating": "gray85",
                  "violating_border": "black", "removed": "black", "ooo": "black"},
)

STYLES = {"screen": SCREEN, "paper": PAPER}


def style_named(name: str) -> Style:
    style = STYLES.get(name)
    if style is None:
        raise MmdslError(f"unknown diagram style '{name}'", expected=" or ".join(STYLES))
    return style


def dot_number(x: float) -> str:
    """Numbers in DOT without noise: 1.0 -> '1', 1.25 -> '1.25'."""
    return f"{x:g}"
