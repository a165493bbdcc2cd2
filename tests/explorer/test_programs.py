"""The bundled programs with loops: the verdicts their manifest expects, and the .NET paper's findings."""

from __future__ import annotations


import pytest
from budget import cpu_budget
import yaml
from explorer_paths import ROOT

from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PROGRAMS = ROOT / "litmus" / "programs"
MANIFEST = yaml.safe_load((PROGRAMS / "manifest.yaml").read_text())
WORD = {"A": "Allowed", "F": "Forbidden", "Allowed": "Allowed", "Forbidden": "Forbidden"}


def cases():
    for name, expect in MANIFEST["expect"].items():
        for model in MANIFEST["models"]:
            yield pytest.param(name, model, WORD[expect[model]], id=f"{name}-{model}")


@pytest.mark.parametrize("name, model, verdict", list(cases()))
def test_program_verdict_matches_its_manifest(name, model, verdict):
    result = explore(load_litmus(PROGRAMS / f"{name}.litmus"), load_model(model))
    assert result.verdict == verdict


def verdict(name: str, model: str) -> str:
    return explore(load_litmus(PROGRAMS / f"{name}.litmus"), load_model(model)).verdict


def test_the_papers_findings():
    """Huynh and Roychoudhury: Peterson breaks under .NET and holds under SC; their three
    barriers fix it; double-checked locking breaks without barrier (2) and holds with it."""
    assert verdict("peterson", "dotnet") == "Allowed"
    assert verdict("peterson", "sc") == "Forbidden"
    assert verdict("peterson-volatile", "dotnet") == "Allowed"
    assert verdict("peterson-fixed", "dotnet") == "Forbidden"
    assert verdict("dcl", "dotnet") == "Allowed"
    assert verdict("dcl-fixed", "dotnet") == "Forbidden"


@pytest.mark.parametrize("path", sorted(PROGRAMS.glob("*.litmus")), ids=lambda p: p.stem)
def test_every_program_is_explored_completely_under_dotnet_and_sc_in_under_two_seconds(path):
    program = load_litmus(path)
    for model in ("dotnet", "sc"):
        with cpu_budget(2.0 * 10):  # the goal is 2 s; CPU time, with a wide margin
            explore(program, load_model(model))  # complete: a search over its state limit raises StateLimit
