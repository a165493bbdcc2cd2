"""Hostile inputs to `mmdsl draw --trace`: crafted test names, a trace too long to draw."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus.loader import parse_litmus
from mmdsl.render.drawing import DrawOptions, draw_test
from mmdsl.render import trace_drawing
from mmdsl.render.trace_drawing import MAX_TRACE_STEPS

CRAFTED = '../<b>x</b>\\N\\'  # no white space and no double quote: a header name


def _mp(name: str) -> str:
    return (f"LISA {name}\n{{\n}}\n P0      | P1       ;\n w[] x 1 | r[] r0 y ;\n w[] y 1 | r[] r1 x ;\n"
            "exists (1:r0=1 /\\ 1:r1=0)\n")


def test_a_crafted_test_name_stays_in_the_folder_and_is_text_in_the_picture(tmp_path):
    program = parse_litmus(_mp(CRAFTED), "crafted.litmus")
    fmt = "svg" if shutil.which("dot") else "dot"
    report = draw_test(program, load_model("pso"), tmp_path, DrawOptions(trace=True, fmt=fmt))
    assert report.written.files and all(f.resolve().parent == tmp_path.resolve() for f in report.written.files)
    if fmt == "svg":
        svg = next(f for f in report.written.files if f.suffix == ".svg")
        texts = "".join(ET.parse(svg).getroot().itertext())
        assert CRAFTED + " under pso" in texts  # shown as written, not as markup or escapes


def test_a_trace_too_long_to_draw_is_refused_by_name(monkeypatch):
    assert MAX_TRACE_STEPS >= 100
    monkeypatch.setattr(trace_drawing, "MAX_TRACE_STEPS", 5)  # MP's trace has 8 steps
    program = parse_litmus(_mp("MP"), "MP.litmus")
    with pytest.raises(MmdslError, match=r"has 8 steps, too many to draw \(at most 5\)"):
        draw_test(program, load_model("pso"), ".", DrawOptions(trace=True, fmt="dot"))


def test_the_cli_prints_the_refusal_and_exits_2(tmp_path, monkeypatch):
    monkeypatch.setattr(trace_drawing, "MAX_TRACE_STEPS", 5)
    test = tmp_path / "MP.litmus"
    test.write_text(_mp("MP"))
    result = CliRunner().invoke(app, ["draw", str(test), "-m", "pso", "--trace", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "too many to draw" in result.output and "Traceback" not in result.output
