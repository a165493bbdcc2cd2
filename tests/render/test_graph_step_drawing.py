"""The graph machine's picture in docs/explorer.md: current, and showing a blocked and an enabled choice."""

from __future__ import annotations

from pathlib import Path

from mmdsl.render.gallery import EXPLORER, build

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "explorer"


def test_the_explorer_figure_is_current_and_shown(tmp_path):
    build(tmp_path, "dot", EXPLORER)
    for entry in EXPLORER:
        fresh = (tmp_path / f"{entry.stem}.dot").read_text()
        assert (FIGURES / f"{entry.stem}.dot").read_text() == fresh, \
            "rebuild it: python -m mmdsl.render.gallery --set explorer docs/explorer"
        assert (FIGURES / f"{entry.stem}.svg").is_file()
        assert f"](explorer/{entry.stem}.svg)" in (ROOT / "docs" / "explorer.md").read_text()


def test_the_figure_shows_the_read_blocked_by_tso_and_the_one_enabled(tmp_path):
    build(tmp_path, "dot", EXPLORER)
    text = (tmp_path / f"{EXPLORER[0].stem}.dot").read_text()
    # MP under TSO: after c reads y=1 from b, d may not read the initial x (a ghb cycle)
    assert "d R x reads from ix (init x=0): blocked: fails tso" in text
    assert "d R x reads from a (P0&#x27;s W x=1): enabled" in text or "d R x reads from a (P0's W x=1): enabled" in text
    assert "style=dashed" in text  # the event not added yet
