"""`mmdsl draw --fences`: the dependencies fence selection chooses (armv8, power) are drawn as
edges from the load to the access, labelled addr / data / ctrl / ctrl+isb (golden DOT files)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import golden
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.drawing import chosen_dots
from mmdsl.render.execution_choice import chosen_devices
from mmdsl.render.execution_choice import choose_executions
from mmdsl.render.execution_view import execution_view
from mmdsl.render.styles import style_named

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
MP = ROOT / "litmus" / "aarch64" / "tests" / "classic" / "MP.litmus"


def _dot(path: Path, model_name: str, style: str = "screen") -> str:
    program, model = load_litmus(path), load_model(model_name)
    insertions, dependencies, _ = chosen_devices(program, model)
    chosen = choose_executions(program, model, "witness", 1).chosen
    return chosen_dots(program, model, chosen, style_named(style), insertions=insertions,
                       dependencies=dependencies)[0][1]


@pytest.mark.parametrize("name, path, model, style", [
    ("aarch64-MP-armv8-witness-devices", MP, "armv8", "screen"),
    ("aarch64-MP-armv8-witness-devices-paper", MP, "armv8", "paper"),
])
def test_golden_dot_with_a_dependency(name, path, model, style, bless):
    golden(GOLDEN / f"{name}.dot", _dot(path, model, style), bless)


def test_the_dependency_is_an_edge_from_the_load_to_the_access():
    text = _dot(MP, "armv8")
    assert 'c -> d [label=addr arrowhead=vee class="dependency addr"' in text
    assert "+F[dmb-st]" in text and "dependency inserted by the fence selection" in text


def test_each_kind_is_its_label():
    program, model = load_litmus(MP), load_model("armv8")
    chosen = choose_executions(program, model, "witness", 1).chosen[0]
    for kind in ("addr", "ctrl+isb"):
        view = execution_view(chosen.execution, model, test="MP", status="witness", thread_names=["P0", "P1"],
                              dependencies=[(1, 0, 1, kind)])
        assert [(e.src, e.dst, e.label) for e in view.edges if e.rel == "dependency"] == [("c", "d", kind)]
    view = execution_view(chosen.execution, model, test="MP", status="witness", thread_names=["P0", "P1"],
                          dependencies=[(1, 0, 7, "addr")])  # an access that did not run: no edge
    assert not [e for e in view.edges if e.rel == "dependency"]


def test_draw_fences_on_power_draws_the_addr(tmp_path):
    r = CliRunner().invoke(app, ["draw", str(ROOT / "litmus" / "ppc" / "tests" / "classic" / "WRC.litmus"),
                                 "-m", "power", "--fences", "--format", "dot", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "WRC.dot").read_text()
    assert "+F[lwsync]" in text and 'label=addr arrowhead=vee class="dependency addr"' in text
