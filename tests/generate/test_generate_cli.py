"""`mmdsl generate` and `mmdsl diff-models --generate` end to end, and the models' relaxed edges."""

from __future__ import annotations

from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.generate.api import distinguishing, model_keeps
from mmdsl.generate.cycles import Bounds
from mmdsl.generate.edges import parse_edges
from mmdsl.lang import load_model

runner = CliRunner()


def test_model_edges_come_from_the_table():
    tso, pso = load_model("tso"), load_model("pso")
    (wr,) = parse_edges("PodWR")
    (ww,) = parse_edges("PodWW")
    (rfi,) = parse_edges("Rfi")
    assert not model_keeps(tso, wr) and model_keeps(tso, ww)
    assert not model_keeps(pso, ww)
    assert not model_keeps(tso, rfi) and model_keeps(load_model("sc"), rfi)


def test_from_model_pso_against_tso_are_what_pso_allows():
    tests = distinguishing(("pso", load_model("pso")), ("tso", load_model("tso")), Bounds(size=4, threads=2), "X86",
                           one_way=True)
    assert [t.name for t in tests] == ["2+2W", "MP", "S"]
    assert all(t.verdicts == {"pso": "Allowed", "tso": "Forbidden"} for t in tests)


def test_generate_cli_writes_a_suite(tmp_path):
    r = runner.invoke(app, ["generate", "--relax", "PodWR", "--safe", "Fre", "--size", "4", "--arch", "LISA",
                            "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "SB" in r.output
    assert (tmp_path / "SB.litmus").read_text().startswith("LISA SB")
    assert (tmp_path / "manifest.yaml").exists()


def test_diff_models_generate_writes_a_suite_that_holds(tmp_path):
    r = runner.invoke(app, ["diff-models", "tso", "pso", "--generate", "--size", "4", "--threads", "2",
                            "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "2+2W  allowed by pso, forbidden by tso" in r.output
    r = runner.invoke(app, ["suite", str(tmp_path), "--engine", "both", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "every expectation held" in r.output


def test_from_model_needs_against():
    r = runner.invoke(app, ["generate", "--from-model", "pso"])
    assert r.exit_code == 2 and "--against" in r.output


def test_dependency_tests_agree_between_engines():
    """LISA tests with address, data and control dependencies: both engines, rmo keeps them."""
    from mmdsl.axiomatic import check
    from mmdsl.explorer.explore import explore
    from mmdsl.generate.api import generate_cycles
    from mmdsl.generate.edges import parse_edge_list
    from mmdsl.litmus import parse_litmus

    tests = generate_cycles([], parse_edge_list("DpDatadW,DpCtrldW,DpAddrdW,Rfe"), Bounds(size=4, threads=2), "LISA")
    assert {t.name for t in tests} >= {"LB+datas", "LB+ctrls", "LB+addrs"}
    rmo = load_model("rmo")
    for t in tests:
        program = parse_litmus(t.source, f"{t.name}.litmus")
        assert check(program, rmo, collect="none").verdict == explore(program, rmo).verdict == "Forbidden", t.name


def test_diff_models_generate_json():
    import json

    r = runner.invoke(app, ["diff-models", "sc", "tso", "--generate", "--size", "4", "--threads", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [d["test"] for d in data["differences"]] == ["R", "SB"]


def test_both_engines_agree_on_every_generated_difference():
    """tso against sc, cycles of up to 6 edges and 3 threads (Rfi included): with
    --engine both any disagreement would be an error (exit 2). (26 before diy's test
    builder was followed: Z6.4+po+rfi+po has three writes to one location, which diy7
    would need an observer thread for, and does not write.)"""
    r = runner.invoke(app, ["diff-models", "tso", "sc", "--generate", "--size", "6", "--threads", "3",
                            "--engine", "both"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("tso and sc differ on 25 generated test(s)")
    assert "SB+rfi-pos" in r.output


def test_lisa_fences_take_any_name(tmp_path):
    r = runner.invoke(app, ["generate", "--safe", "MembardWR,Fre", "--size", "4", "--arch", "LISA",
                            "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "SB+membars.litmus").read_text()
    assert "f[membar]" in text
    r = runner.invoke(app, ["run", str(tmp_path / "SB+membars.litmus"), "-m", "pso"])
    assert "Never" in r.output
