"""Without Graphviz's `dot` on PATH the DOT files are still written and one line says how to install it."""

from __future__ import annotations

from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.render.graphviz_out import INSTALL_HINT, write_diagrams


def test_write_diagrams_without_dot(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    written = write_diagrams([("A", "digraph A { a }"), ("B", "digraph B { b }")], tmp_path / "out", "svg")
    assert written.missing_dot
    assert sorted(p.name for p in written.files) == ["A.dot", "B.dot"]
    assert (tmp_path / "out" / "A.dot").read_text() == "digraph A { a }"
    assert not list((tmp_path / "out").glob("*.svg"))


def test_draw_without_dot_prints_one_install_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    r = CliRunner().invoke(app, ["draw", "litmus/classic/IRIW.litmus", "-m", "rmo", "--show", "allowed",
                                 "--max", "3", "-o", str(tmp_path), "--format", "png"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.glob("*.dot")) == ["IRIW-2.dot", "IRIW-3.dot", "IRIW.dot"]
    assert not list(tmp_path.glob("*.png"))
    assert r.stderr.splitlines() == [INSTALL_HINT]
    assert "apt-get install graphviz" in INSTALL_HINT
