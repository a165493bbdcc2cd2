"""Regression tests for what the command-line fuzz test (test_fuzz.py) found, one per finding."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mmdsl.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_a_folder_named_like_a_bundled_model_does_not_hide_it(tmp_path, monkeypatch):
    # `cd litmus && mmdsl suite dotnet` said "model file 'dotnet' not found": the folder
    # dotnet/ in the working directory was taken for the model file.
    (tmp_path / "dotnet").mkdir()
    (tmp_path / "SB.litmus").write_text((ROOT / "litmus" / "classic" / "SB.litmus").read_text())
    monkeypatch.chdir(tmp_path)
    r = invoke("run", "SB.litmus", "-m", "dotnet")
    assert r.exit_code == 0, r.output
    assert "Observation SB" in r.output


def test_draw_of_a_program_with_a_loop_names_the_loop(tmp_path):
    # `mmdsl draw peterson.litmus -m tso` said "peterson has a loop ..." with no file:line:col.
    r = invoke("draw", str(ROOT / "litmus" / "programs" / "peterson.litmus"), "-m", "tso", "-o", str(tmp_path))
    assert r.exit_code == 2
    assert "peterson.litmus:9:5: unsupported: " in r.output
    assert "--state-graph" in r.output


def test_a_fence_the_dialect_cannot_write_is_refused_at_its_place(tmp_path):
    # `mmdsl fences MP.litmus -m pso -o out` (an X86 test): "unsupported: the X86 dialect cannot
    # write fence 'ss'" with no file:line:col; it now names the instruction the fence goes before.
    r = invoke("fences", "litmus/classic/MP.litmus", "-m", "pso", "-o", str(tmp_path / "out.litmus"))
    assert r.exit_code == 2
    assert "litmus/classic/MP.litmus:11:2: unsupported: the X86 dialect cannot write fence 'ss'" in r.output


def test_a_manifest_without_models_is_refused_at_the_manifest(tmp_path, monkeypatch):
    # `mmdsl suite S` on a manifest with no `models:` said "suite 'S' names no models" with no
    # file:line:col (the other missing keys are located in the manifest).
    (tmp_path / "S").mkdir()
    (tmp_path / "S" / "SB.litmus").write_text((ROOT / "litmus" / "classic" / "SB.litmus").read_text())
    (tmp_path / "S" / "manifest.yaml").write_text('name: S\ntests: ["*.litmus"]\n')
    monkeypatch.chdir(tmp_path)
    r = invoke("suite", "S", "--executor", "inline")
    assert r.exit_code == 2
    assert "S/manifest.yaml:1:1: manifest error: suite 'S' names no models" in r.output
