"""Sequence charts of explorer traces (`mmdsl draw --trace`): golden DOT, the propagation arrows, the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import golden
from suitefiles import mmdsl

from mmdsl.explorer.trace import Step
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.dot_trace import trace_dot
from mmdsl.render.graphviz_out import render_text
from mmdsl.render.styles import style_named
from mmdsl.render.trace_drawing import trace_source

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
IRIW_ADDRS = ROOT / "litmus" / "hardware" / "IRIW+addrs.litmus"

CASES = [
    ("IRIW+addrs-power-trace", IRIW_ADDRS, "power", "screen"),
    ("IRIW+addrs-power-trace-paper", IRIW_ADDRS, "power", "paper"),
    ("SB-tso-trace", ROOT / "litmus" / "classic" / "SB.litmus", "tso", "screen"),  # one memory: no arrows
]


def source(path: Path, model: str, style: str = "screen") -> str | None:
    return trace_source(load_litmus(path), load_model(model), style_named(style))[0]


@pytest.mark.parametrize("name, path, model, style", CASES, ids=[c[0] for c in CASES])
def test_golden_trace_dot(name, path, model, style, bless):
    golden(GOLDEN / f"{name}.dot", source(path, model, style), bless)


def test_each_write_arrows_to_the_reader_it_reaches_and_the_other_never_gets_it():
    text = source(IRIW_ADDRS, "power")
    assert text.count('class=propagation') == 2  # x=1 reaches P1 only, y=1 reaches P3 only
    assert "never received:\\nP0's W x=1" in text and "never received:\\nP2's W y=1" in text


def test_a_multi_copy_atomic_trace_marks_out_of_order_steps_and_has_no_arrows():
    text = source(ROOT / "litmus" / "classic" / "SB.litmus", "tso")
    assert "propagation" not in text and '"* perform' in text


def test_names_are_escaped():
    steps = [Step(0, "perform", 0, 'P"0\\: perform W x=1', False),
             Step(1, "propagate", 0, "P1: receives P\"0\\'s W x=1", False, received=(0, "W x=1"))]
    text = trace_dot(steps, ['P"0\\', "P1"], test='t"<b>', model="m", style=style_named("screen"))
    assert "label=<" not in text  # every label a plain string: a name is text, never HTML
    if shutil.which("dot"):
        svg = render_text(text, "svg").decode()
        assert "t&quot;&lt;b&gt; under m" in svg and "P&quot;0\\" in svg


def test_no_trace_when_the_outcome_is_unreachable():
    assert source(IRIW_ADDRS, "armv8") is None


def test_cli_draw_trace(tmp_path):
    proc = mmdsl("draw", str(IRIW_ADDRS), "-m", "power", "--trace", "-o", str(tmp_path), "-f", "dot")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"wrote {tmp_path / 'IRIW+addrs-trace.dot'}"]
    proc = mmdsl("draw", str(IRIW_ADDRS), "-m", "armv8", "--trace", "-o", str(tmp_path), "-f", "dot")
    assert proc.returncode == 0, proc.stderr
    assert "no final state reaches the outcome (Never)" in proc.stdout
