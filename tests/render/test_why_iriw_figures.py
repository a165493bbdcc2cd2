"""The figures of docs/why-iriw.md are current: regenerated DOT equals the committed files, every one shown."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from mmdsl.render.gallery import WHY_IRIW, build

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "why-iriw"
REBUILD = "rebuild them: python -m mmdsl.render.gallery --set why-iriw docs/why-iriw"


def test_the_figures_dot_files_are_current(tmp_path):
    build(tmp_path, "dot", WHY_IRIW)
    fresh = {p.name: p.read_bytes() for p in tmp_path.glob("*.dot")}
    committed = {p.name: p.read_bytes() for p in FIGURES.glob("*.dot")}
    assert sorted(committed) == sorted(fresh), REBUILD
    stale = [name for name in fresh if committed[name] != fresh[name]]
    assert not stale, f"{', '.join(stale)} out of date; {REBUILD}"


def test_every_figure_is_committed_as_svg_and_shown_in_the_page():
    page = (ROOT / "docs" / "why-iriw.md").read_text()
    shown = set(re.findall(r"\]\(why-iriw/([^)]+\.svg)\)", page))
    assert shown == {f"{e.stem}.svg" for e in WHY_IRIW}, "docs/why-iriw.md and the WHY_IRIW entries disagree"
    for e in WHY_IRIW:
        name = re.search(r"^digraph (\S+) \{", (FIGURES / f"{e.stem}.dot").read_text()).group(1).strip('"')
        graph = ET.parse(FIGURES / f"{e.stem}.svg").getroot().find("svg:g", {"svg": "http://www.w3.org/2000/svg"})
        title = graph.findtext("{http://www.w3.org/2000/svg}title")
        assert title == name, f"{e.stem}.svg was not rendered from its DOT; {REBUILD}"
