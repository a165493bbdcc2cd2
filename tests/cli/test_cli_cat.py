"""`mmdsl run -m FILE.cat` and `--cat-path` end to end; a .mm model including a .cat file."""

from __future__ import annotations

import pytest
from refdata import ROOT, SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.cli.app import app

runner = CliRunner()
SB = str(ROOT / "litmus" / "classic" / "SB.litmus")
HERD_CATS = SHARED_REFERENCE / "herd-cats"
needs_herd = pytest.mark.skipif(not (HERD_CATS / "x86tso.cat").is_file(),
                                reason=f"herd's stock models are not in {HERD_CATS}")


@pytest.fixture(autouse=True)
def no_inherited_cat_path(monkeypatch):
    monkeypatch.setenv("MMDSL_CAT_PATH", "")  # restored (removed) after each test


@needs_herd
def test_run_with_herds_model_and_its_folder_on_the_cat_path(tmp_path):
    model = tmp_path / "x86tso.cat"
    model.write_text((HERD_CATS / "x86tso.cat").read_text())  # alone: its includes are elsewhere
    r = runner.invoke(app, ["run", "-m", str(model), SB])
    assert r.exit_code == 2 and "included cat file 'x86fences.cat' not found" in r.output
    assert "x86tso.cat:2:9" in r.output and "--cat-path" in r.output
    r = runner.invoke(app, ["run", "-m", str(model), "--cat-path", str(HERD_CATS), SB])
    assert r.exit_code == 0, r.output
    assert "Observation SB Sometimes 1 3" in r.output


@needs_herd
def test_herds_models_in_place_need_no_cat_path():
    r = runner.invoke(app, ["run", "-m", str(HERD_CATS / "sc.cat"), "-m", str(HERD_CATS / "x86tso.cat"), SB])
    assert r.exit_code == 0, r.output
    assert "Observation SB Never 0 3" in r.output and "Observation SB Sometimes 1 3" in r.output


def test_a_refused_construct_exits_2_with_its_place(tmp_path):
    model = tmp_path / "m.cat"
    model.write_text('M\nlet x = match po with || {} -> po end\nacyclic x\n')
    r = runner.invoke(app, ["run", "-m", str(model), SB])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "m.cat:2:9: unsupported: cat 'match ... with' over the events or pairs of an execution" in r.output


def test_a_mm_model_includes_a_cat_file_found_on_the_cat_path(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "sc.cat").write_text('SC\nacyclic po | rf | co | fr as herd-sc\n')
    mm = tmp_path / "m.mm"
    mm.write_text('model m "every pair may be reordered, plus a cat check"\n'
                  'reorder {\n  R W\n R Y Y\n W Y Y\n}\ninclude "sc.cat"\n')
    r = runner.invoke(app, ["run", "-m", str(mm), SB])
    assert r.exit_code == 2 and "included model 'sc.cat' not found" in r.output
    r = runner.invoke(app, ["run", "-m", str(mm), "--cat-path", str(lib), "--why", SB])
    assert r.exit_code == 0, r.output
    assert "Observation SB Never" in r.output and "herd-sc (acyclic)" in r.output


def test_the_explorer_runs_a_cat_model_on_the_graph_machine(tmp_path):
    # SC written as a cat: SB's weak outcome is forbidden, the three others reached,
    # exactly as the checker finds them (--engine both fails when they differ)
    model = tmp_path / "m.cat"
    model.write_text('M\nacyclic po | rf | co | fr as sc\n')
    r = runner.invoke(app, ["run", "-m", str(model), "--engine", "both", SB])
    assert r.exit_code == 0, r.output
    assert "Observation SB Never 0 3" in r.output


@needs_herd
def test_run_with_herds_riscv_cat_beside_the_bundled_riscv_model():
    test = ROOT / "litmus" / "riscv" / "tests" / "HAND" / "MP+fence.rw.rw+data-amoswap-addr.litmus"
    r = runner.invoke(app, ["run", "-m", str(HERD_CATS / "riscv.cat"), "-m", "riscv", str(test)])
    assert r.exit_code == 0, r.output
    assert r.output.count("Observation MP+fence.rw.rw+data-amoswap-addr Never") == 2  # herd: Never
