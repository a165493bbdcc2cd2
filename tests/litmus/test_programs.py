"""The bundled programs give the verdicts of the paper and DESIGN.md (litmus/programs/manifest.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mmdsl.axiomatic import check
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PROGRAMS = Path(__file__).resolve().parents[2] / "litmus" / "programs"
MANIFEST = yaml.safe_load((PROGRAMS / "manifest.yaml").read_text())
# The published facts (seed-programs.md, DESIGN.md), independent of the manifest's other cells
PAPER = {
    ("peterson", "dotnet"): "Allowed", ("peterson", "sc"): "Forbidden",
    ("peterson-volatile", "dotnet"): "Allowed", ("peterson-fixed", "dotnet"): "Forbidden",
    ("dcl", "dotnet"): "Allowed", ("dcl-fixed", "dotnet"): "Forbidden",
    ("rowo", "sc"): "Forbidden", ("rowo", "tso"): "Forbidden", ("rowo", "pso"): "Allowed",
    ("po", "sc"): "Forbidden", ("po", "tso"): "Allowed", ("po", "pso"): "Allowed",
    ("tbarrier", "dotnet"): "Allowed", ("rw-vol", "dotnet"): "Allowed",
    ("iw1", "dotnet"): "Forbidden", ("iw2", "dotnet"): "Forbidden", ("rw", "dotnet"): "Forbidden",
    ("bb", "dotnet"): "Forbidden",
}
CELLS = [(name, model) for name in MANIFEST["expect"] for model in MANIFEST["models"]]


def test_manifest_lists_every_program_with_a_verdict_per_model_and_a_reason():
    files = sorted(p.stem for p in PROGRAMS.glob("*.litmus"))
    assert sorted(MANIFEST["expect"]) == files
    assert MANIFEST["engine"] == "explorer" and MANIFEST["models"] == ["sc", "tso", "pso", "dotnet"]
    for name, cells in MANIFEST["expect"].items():
        assert set(cells) == {"sc", "tso", "pso", "dotnet", "reason"}, name
        assert cells["sc"] == "Forbidden", name  # every property holds under SC
    for (name, model), verdict in PAPER.items():
        assert MANIFEST["expect"][name][model] == verdict, (name, model)


@pytest.mark.parametrize("name", sorted(MANIFEST["expect"]))
def test_program_is_documented_c_with_a_violation_condition(name):
    p = load_litmus(PROGRAMS / f"{name}.litmus")
    assert p.arch == "C" and p.doc and "Property" in p.doc
    assert p.condition.quantifier == "exists"


@pytest.mark.parametrize("name, model", CELLS)
def test_explorer_gives_the_expected_verdict(name, model):
    ex = explore(load_litmus(PROGRAMS / f"{name}.litmus"), load_model(model))
    assert ex.result.verdict == MANIFEST["expect"][name][model]


@pytest.mark.parametrize("name", ["dcl", "dcl-fixed", "rw-vol"])
def test_loop_free_programs_agree_with_the_axiomatic_checker(name):
    p = load_litmus(PROGRAMS / f"{name}.litmus")
    for model in MANIFEST["models"]:
        m = load_model(model)
        assert check(p, m).state_set() == explore(p, m).result.state_set()
