"""The .NET paper's programs in C# (litmus/csharp) against their C-dialect versions
(litmus/programs) and the paper's verdicts, and `mmdsl fences` / `explore` / `run` on them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from cs_source import needs_mono
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[3]
CSHARP = ROOT / "litmus" / "csharp"
PROGRAMS = ROOT / "litmus" / "programs"
# each C# file and the C-dialect test it is written from
PAIRS = {"Peterson": "peterson", "PetersonVolatile": "peterson-volatile", "PetersonFixed": "peterson-fixed",
         "RwVol": "rw-vol", "Rowo": "rowo", "Po": "po", "Iw1": "iw1", "Iw2": "iw2", "Rw": "rw", "Bb": "bb",
         "TBarrier": "tbarrier", "Dcl": "dcl", "DclFixed": "dcl-fixed"}
FAST = ["Peterson", "PetersonVolatile", "PetersonFixed", "RwVol", "Iw1", "Rw", "Dcl"]
runner = CliRunner()


def _expect(folder: Path) -> dict:
    return yaml.safe_load((folder / "manifest.yaml").read_text())["expect"]


def test_expectations_are_those_of_the_c_dialect_versions():
    cs, programs = _expect(CSHARP), _expect(PROGRAMS)
    assert set(cs) == set(PAIRS) == {p.stem for p in CSHARP.glob("*.cs")}
    for name, lit in PAIRS.items():
        for model in ("sc", "tso", "pso", "dotnet"):
            assert cs[name][model] == programs[lit][model], (name, model)


@needs_mono
@pytest.mark.parametrize("name", FAST)
@pytest.mark.parametrize("model", ["sc", "dotnet"])
def test_csharp_and_c_versions_agree(name, model):
    """Judged here, both forms: the same verdict, and the manifest's (the paper's) one."""
    m = load_model(model)
    cs = explore(load_litmus(CSHARP / f"{name}.cs"), m).positive > 0
    c = explore(load_litmus(PROGRAMS / f"{PAIRS[name]}.litmus"), m).positive > 0
    assert cs == c
    assert ("Allowed" if cs else "Forbidden") == _expect(CSHARP)[name][model]


@needs_mono
@pytest.mark.slow
def test_whole_csharp_suite_passes():
    from mmdsl.suite.manifest import load_suite
    from mmdsl.suite.run import model_columns, run_suite

    suite = load_suite(str(CSHARP))
    run = run_suite(suite, model_columns(suite, []), timeout=600)
    assert run.problems() == [] and run.exit_code() == 0


@needs_mono
def test_fences_for_peterson_are_the_c_versions():
    """Six barriers, as for peterson.litmus: flag -> turn, turn -> the tests, the critical section
    -> the flag's release, in each thread."""
    r = runner.invoke(app, ["fences", str(CSHARP / "Peterson.cs"), "-m", "dotnet"])
    assert r.exit_code == 0, r.output
    assert "Total 6 fence(s), cost 18" in r.output and "Status OPTIMAL" in r.output
    c = runner.invoke(app, ["fences", str(PROGRAMS / "peterson.litmus"), "-m", "dotnet"])
    assert "Total 6 fence(s), cost 18" in c.output
    # at the C# lines of `turn = ...` and of the flag's release (litmus/csharp/Peterson.cs), from mcs's line table
    for t, flag, turn, release in (("P0", "flag0", 11, 14), ("P1", "flag1", 19, 22)):
        assert re.search(rf"{t} before line {turn}: MemoryBarrier between '{t} IL_\w+: stsfld {flag}' and "
                         rf"'{t} IL_\w+: stsfld turn'", r.output), r.output
        assert re.search(rf"{t} before line {release}: MemoryBarrier between '{t} IL_\w+: stsfld counter' and "
                         rf"'{t} IL_\w+: stsfld {flag}'", r.output), r.output
    fixed = runner.invoke(app, ["fences", str(CSHARP / "PetersonFixed.cs"), "-m", "dotnet"])
    assert fixed.exit_code == 0 and "no fence is needed" in fixed.output, fixed.output


@needs_mono
def test_fences_for_dcl_are_the_papers_barrier():
    """One barrier per thread between the constructor's write and the publishing write: the
    paper's barrier (2), as for dcl.litmus."""
    r = runner.invoke(app, ["fences", str(CSHARP / "Dcl.cs"), "-m", "dotnet"])
    assert r.exit_code == 0 and "Total 2 fence(s), cost 6" in r.output, r.output
    for t in ("P0", "P1"):
        assert re.search(rf"{t} before line 19: MemoryBarrier between '.ctor IL_\w+: stfld field' and "
                         rf"'Get IL_\w+: stsfld helper'", r.output), r.output


@needs_mono
def test_explore_and_run_from_the_cli():
    r = runner.invoke(app, ["explore", str(CSHARP / "Peterson.cs"), "-m", "dotnet"])
    assert r.exit_code == 0 and "Condition exists (counter!=2)" in r.output and "Trace" in r.output, r.output
    r = runner.invoke(app, ["run", str(CSHARP / "Peterson.cs"), "-m", "sc", "-m", "dotnet", "--engine", "explorer",
                            "-q"])
    assert r.exit_code == 0, r.output
    assert "sc: 0 allowed, 1 forbidden" in r.output and "dotnet: 1 allowed, 0 forbidden" in r.output


@needs_mono
def test_checker_and_explorer_agree_on_loop_free_programs():
    """The agreement invariant: --engine both fails (exit 1) when the final states differ."""
    r = runner.invoke(app, ["run", str(CSHARP / "RwVol.cs"), str(CSHARP / "Rw.cs"), "-m", "sc", "-m", "dotnet",
                            "--engine", "both", "-q"])
    assert r.exit_code == 0, r.output
    assert "sc: 0 allowed, 2 forbidden" in r.output and "dotnet: 1 allowed, 1 forbidden" in r.output
