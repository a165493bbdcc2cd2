"""Hostile inputs to `mmdsl generate`: unknown edges, huge bounds, cycles with no thread changes, crafted names."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.core.limits import TimeLimitError
from mmdsl.generate.cycles import Bounds, enumerate_cycles
from mmdsl.generate.edges import parse_cycle, parse_edge_list
from mmdsl.generate.shape import build_shape

runner = CliRunner()


@pytest.mark.parametrize("args", [
    ["--relax", "Foo"], ["--relax", "PodWR", "--size", "99"], ["--relax", "PodWR", "--threads", "1"],
    ["--relax", "SyncdWR"], ["--relax", "DpDatadR"], ["--relax", "PodWR", "--arch", "PPC"],
    ["--relax", "PodWR"],  # no external edge to close a cycle
    ["--relax", "DpAddrdR", "--safe", "Rfe,Fre,PodWW"],  # X86 cannot write dependencies
    ["--relax", "PodWR", "--safe", "Fre", "--mode", "thin"],  # a diy mode not done here
    ["--relax", "PodWR", "--safe", "Fre", "--mode", ""],
    ["--from-model", "tso", "--against", "sc", "--numeric"],
    ["--relax", "PodWR", "--safe", "Fre", "--names", "7.6"],
])
def test_bad_input_exits_2_without_traceback(args):
    r = runner.invoke(app, ["generate", *args])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and ("error" in r.output or "unsupported" in r.output)


@pytest.mark.parametrize("mode", ["sc", "ppo", "default", "critical"])
def test_a_big_search_stops_at_the_timeout_in_every_mode(mode):
    edges = parse_edge_list("Pod**,Pos**,Rfe,Fre,Coe,Rfi,Fri,Coi,MFenced**", {"mfence": "mfence"})
    with pytest.raises(TimeLimitError):
        enumerate_cycles([], edges, Bounds(size=16, threads=8, max_count=10**9, timeout=0.5, mode=mode))


def test_a_big_search_stops_at_the_timeout():
    edges = parse_edge_list("Pod**,Pos**,Rfe,Fre,Coe,Rfi,Fri,Coi,MFenced**", {"mfence": "mfence"})
    with pytest.raises(TimeLimitError):
        enumerate_cycles([], edges, Bounds(size=16, threads=8, max_count=10**9, timeout=0.5))


def test_max_count_bounds_the_answer():
    edges = parse_edge_list("Pod**,Rfe,Fre,Coe")
    assert len(enumerate_cycles([], edges, Bounds(size=8, threads=4, max_count=5))) == 5


@pytest.mark.parametrize("cycle", ["PodWR PodRR", "Rfe Fre", "PodWW Rfe PosRR Fre", "Coe Coe"])
def test_invalid_cycles_are_refused(cycle):
    with pytest.raises(MmdslError):
        build_shape(parse_cycle(cycle))


def test_output_names_stay_in_the_folder(tmp_path):
    from mmdsl.generate.api import Generated, write_suite

    evil = Generated((), "../../escape", "X86 x\n")
    write_suite([evil], tmp_path / "out", "../n\"ame", [("a\"b", "tso")])
    assert not (tmp_path / "escape.litmus").exists()
    files = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert [str(f) for f in files] == ["out/___.._escape.litmus", "out/manifest.yaml"]
    manifest = (tmp_path / "out" / "manifest.yaml").read_text()
    assert 'name: "../n\\"ame"' in manifest


def test_huge_max_and_size_are_refused_or_bounded():
    r = runner.invoke(app, ["generate", "--relax", "PodWR", "--safe", "Rfe,Fre,Coe,Pod**", "--size", "16",
                            "--threads", "8", "--max", "3"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("3 test(s):")


def test_cli_timeout_exits_1_with_a_message():
    r = runner.invoke(app, ["generate", "--safe", "Pod**,Pos**,Rfe,Fre,Coe,Rfi,Fri,Coi", "--size", "16",
                            "--threads", "8", "--max", "100000000", "--timeout", "0.5"])
    assert r.exit_code == 1, r.output
    assert "ran past 0.5 s" in r.output


def test_diff_models_generate_refuses_a_suite():
    r = runner.invoke(app, ["diff-models", "tso", "pso", "--generate", "--suite", "litmus/x86"])
    assert r.exit_code == 2 and "no --suite" in r.output
