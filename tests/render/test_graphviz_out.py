"""Writing diagrams: DOT always, pictures through `dot` in batches; without `dot`, one install line."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.render import graphviz_out
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


needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")


@needs_dot
def test_a_failed_batch_is_redone_file_by_file(tmp_path, monkeypatch):
    real = graphviz_out._run_dot
    calls = []

    def flaky(files, fmt):  # dot 2.43 sometimes dies on a long batch of good files
        calls.append(len(files))
        return "malloc(): corrupted" if len(files) > 1 else real(files, fmt)

    monkeypatch.setattr(graphviz_out, "_run_dot", flaky)
    written = write_diagrams([(f"G{k}", f"digraph G{k} {{ a -> b }}") for k in range(3)], tmp_path, "svg")
    assert calls == [3, 1, 1, 1]
    assert sorted(p.name for p in written.files) == ["G0.svg", "G1.svg", "G2.svg"]
    for p in written.files:
        ET.parse(p)
    assert not list(tmp_path.glob("*.dot.svg"))


@needs_dot
def test_a_file_dot_rejects_is_named_and_the_others_are_still_rendered(tmp_path):
    """One diagram's failure never stops the others (nor the report that links them)."""
    written = write_diagrams([("Good", "digraph Good { a }"), ("Bad", "digraph Bad { a -> }")], tmp_path, "svg")
    assert [p.name for p in written.files] == ["Good.svg"]
    assert [(p.name, "syntax error" in why) for p, why in written.failed] == [("Bad.dot", True)]
    assert [(p.name if p else None, why is not None) for p, why in written.outputs()] == [("Good.svg", False),
                                                                                         (None, True)]
    assert written.failure_lines()[0].startswith(f"no diagram rendered from {tmp_path / 'Bad.dot'}: graphviz")
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == ["Good.svg"]


def test_an_unwritable_folder_is_an_error_not_a_traceback(tmp_path):
    (tmp_path / "taken").write_text("a file where the folder should be")
    with pytest.raises(MmdslError, match=r"cannot write the diagrams into .*taken"):
        write_diagrams([("A", "digraph A { a }")], tmp_path / "taken", "dot")
    r = CliRunner().invoke(app, ["draw", "litmus/classic/SB.litmus", "-m", "tso", "-o", str(tmp_path / "taken")])
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: cannot write the diagrams into {tmp_path / 'taken'}: File exists\n"
