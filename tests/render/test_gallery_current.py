"""The gallery of docs/diagrams.md is current: regenerated DOT equals the committed files, byte for byte."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from mmdsl.render.gallery import ENTRIES, build

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"
REBUILD = "rebuild it: python -m mmdsl.render.gallery docs/gallery"


def test_gallery_dot_files_are_current(tmp_path):
    build(tmp_path, "dot")
    fresh = {p.name: p.read_bytes() for p in tmp_path.glob("*.dot")}
    committed = {p.name: p.read_bytes() for p in GALLERY.glob("*.dot")}
    assert sorted(committed) == sorted(fresh), REBUILD
    stale = [name for name in fresh if committed[name] != fresh[name]]
    assert not stale, f"{', '.join(stale)} out of date; {REBUILD}"


def test_every_gallery_picture_is_committed_and_shown():
    doc = (ROOT / "docs" / "diagrams.md").read_text()
    shown = set(re.findall(r"\]\(gallery/([^)]+\.svg)\)", doc))
    stems = {e.stem for e in ENTRIES}
    assert {f"{s}.svg" for s in stems} == shown, "docs/diagrams.md and the gallery entries disagree"
    for s in stems:
        svg = GALLERY / f"{s}.svg"
        assert svg.is_file(), f"{svg} missing; {REBUILD}"
        # the SVG was rendered from the committed DOT: graphviz copies the graph name into <title>
        name = re.search(r"^digraph (\S+) \{", (GALLERY / f"{s}.dot").read_text()).group(1).strip('"')
        graph = ET.parse(svg).getroot().find("svg:g", {"svg": "http://www.w3.org/2000/svg"})
        assert graph.findtext("{http://www.w3.org/2000/svg}title") == name
