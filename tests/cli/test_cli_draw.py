"""`mmdsl draw` and `mmdsl run --draw` end to end with typer's CliRunner."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app

runner = CliRunner()
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")


def invoke(*args):
    return runner.invoke(app, list(args))


@needs_dot
def test_draw_witness_writes_svg_named_after_the_test(tmp_path):
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "-o", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [f"wrote {tmp_path / 'SB.svg'}"]
    assert (tmp_path / "SB.dot").is_file()
    ET.parse(tmp_path / "SB.svg")


def test_draw_forbidden_names_files_and_the_axiom(tmp_path):
    r = invoke("draw", "litmus/classic/MP.litmus", "-m", "tso", "--show", "forbidden", "-o", str(tmp_path),
               "--format", "dot")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MP-forbidden-1.dot"]
    assert "forbidden: violates tso: acyclic ppo | fence | rfe | co | fr" in (tmp_path / "MP-forbidden-1.dot").read_text()


def test_draw_show_all_numbers_allowed_then_forbidden(tmp_path):
    # SB under sc: two reads, each from init or the other write: 4 candidates, SC forbids only 0/0
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "sc", "--show", "all", "-o", str(tmp_path), "-f", "dot")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SB-2.dot", "SB-3.dot", "SB-forbidden-1.dot", "SB.dot"]


def test_draw_without_witness_suggests_forbidden(tmp_path):
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "sc", "-o", str(tmp_path))
    assert r.exit_code == 0
    assert "no allowed execution satisfies exists (0:EAX=0 /\\ 1:EAX=0)" in r.stdout
    assert "--show forbidden" in r.stdout
    assert not list(tmp_path.iterdir())


def test_draw_max_says_how_many_more(tmp_path):
    r = invoke("draw", "litmus/classic/IRIW.litmus", "-m", "rmo", "--show", "allowed", "--max", "2",
               "-o", str(tmp_path), "-f", "dot")
    assert r.exit_code == 0
    # IRIW: four reads, each from init or the one write: 2^4 candidates, RMO allows them all
    assert "drew 2 of 16 executions (--max 2); use --max 16 to draw them all" in r.stdout
    assert len(list(tmp_path.glob("*.dot"))) == 2


def test_draw_paper_style_is_monochrome(tmp_path):
    r = invoke("draw", "litmus/classic/MP.litmus", "-m", "sc", "--show", "forbidden", "--style", "paper",
               "-o", str(tmp_path), "-f", "dot")
    assert r.exit_code == 0
    text = (tmp_path / "MP-forbidden-1.dot").read_text()
    assert "Times-Roman" in text and "#" not in text.replace("#45;", "")
    assert "style=dashed" in text and "style=dotted" in text


def test_draw_init_shows_initial_writes(tmp_path):
    invoke("draw", "litmus/classic/MP.litmus", "-m", "pso", "-o", str(tmp_path), "-f", "dot", "--init")
    text = (tmp_path / "MP.dot").read_text()
    assert 'init_x [label="ix: Wx=0"' in text and 'init_y [label="iy: Wy=0"' in text


def test_draw_fences_places_the_chosen_fences(tmp_path):
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "--fences", "-o", str(tmp_path), "-f", "dot")
    assert r.exit_code == 0, r.output
    # the cheapest fix of SB under TSO: an mfence between the store and the load of each thread
    assert "fences P0 mfence" in r.stdout and "P1 mfence" in r.stdout and "(cost 6, optimal)" in r.stdout
    text = (tmp_path / "SB.dot").read_text()
    assert text.count('[label="+F[mfence]"') == 2


def test_draw_bad_options_exit_2(tmp_path):
    for args in (["--show", "some"], ["--format", "gif"], ["--style", "fancy"], ["--max", "0"],
                 ["--state-graph", "--max-states", "0"]):
        r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "-o", str(tmp_path), *args)
        assert r.exit_code == 2, args
        assert "Traceback" not in r.output
        assert r.stderr.startswith("error: ")


def test_run_draw_writes_one_diagram_per_test_and_model(tmp_path):
    r = invoke("run", "litmus/classic/SB.litmus", "litmus/classic/lisa/MP.litmus", "-m", "sc", "-m", "tso",
               "-q", "--draw", str(tmp_path), "--draw-format", "dot")
    assert r.exit_code == 0, r.output
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.dot"))
    assert files == ["sc/SB.dot", "sc/lisa/MP.dot", "tso/SB.dot", "tso/lisa/MP.dot"]
    assert "forbidden: violates sc" in (tmp_path / "sc" / "SB.dot").read_text()
    assert "allowed; satisfies" in (tmp_path / "tso" / "SB.dot").read_text()
    assert "wrote 4 diagram(s) into" in r.stderr


def test_draw_state_graph_and_its_limit(tmp_path):
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "--state-graph", "-o", str(tmp_path), "-f", "dot")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [f"wrote {tmp_path / 'SB-states.dot'}"]
    text = (tmp_path / "SB-states.dot").read_text()
    assert 'class="state initial"' in text and "out-of-order" in text
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "--state-graph", "--max-states", "10",
               "-o", str(tmp_path / "small"))
    assert r.exit_code == 2  # nothing drawn: a clear message, as for every other limit
    assert "more than 10 states" in r.stdout and "--max-states N" in r.stdout
    assert not (tmp_path / "small").exists()
    r = invoke("draw", "litmus/classic/SB.litmus", "-m", "tso", "--state-graph", "--detail", "-o", str(tmp_path),
               "-f", "dot")
    assert 'label="P0: issue x = 1"' in (tmp_path / "SB-states.dot").read_text()


def test_run_draw_with_the_explorer_draws_the_checkers_executions(tmp_path):
    """The explorer finds states, not executions: the diagrams are the axiomatic checker's (the
    same files as without --engine), and a program with a loop gets a reason, not a wrong word."""
    for engine in ("axiomatic", "explorer"):
        r = invoke("run", "litmus/classic/SB.litmus", "litmus/classic/MP.litmus", "litmus/programs/rowo.litmus",
                   "-m", "tso", "-q", "--engine", engine, "--draw", str(tmp_path / engine), "--draw-format", "dot")
        if engine == "axiomatic":
            assert r.exit_code == 2  # rowo has a loop: the checker refuses it
            continue
        assert r.exit_code == 0, r.output
        assert "wrote 2 diagram(s) into" in r.stderr
        assert "no diagram for programs/rowo under tso: rowo has a loop" in r.stderr
        assert "no execution satisfies the condition" not in r.stderr
    for name in ("SB", "MP"):
        explorer = (tmp_path / "explorer" / "tso" / "classic" / f"{name}.dot").read_text()
        assert explorer == (tmp_path / "axiomatic" / "tso" / "classic" / f"{name}.dot").read_text()
    assert "allowed; satisfies" in (tmp_path / "explorer" / "tso" / "classic" / "SB.dot").read_text()
    assert "forbidden: violates tso" in (tmp_path / "explorer" / "tso" / "classic" / "MP.dot").read_text()


def test_draw_a_program_with_a_loop_points_to_the_state_graph(tmp_path):
    r = invoke("draw", "litmus/programs/peterson.litmus", "-m", "sc", "-o", str(tmp_path))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.startswith("litmus/programs/peterson.litmus:9:5: unsupported: peterson has a loop, and execution "
                               "diagrams come from the axiomatic")
    assert "--state-graph" in r.stderr and "--engine" not in r.stderr  # draw has no --engine option


def test_draw_forbidden_names_the_riscv_ppo_rule(tmp_path):
    """Under riscv the cycle's edges name the member of RVWMO's global order they come from:
    r4 (fences) for the fence w,w pair, ppo (the table: rule 9, addr) for the address dependency."""
    r = invoke("draw", "tests/fences/data/riscv/MP+fence.w.w+addr.litmus", "-m", "riscv", "--show", "forbidden",
               "-o", str(tmp_path), "--format", "dot")
    assert r.exit_code == 0, r.output
    dot = (tmp_path / "MP+fence.w.w+addr-forbidden-1.dot").read_text()
    assert "forbidden: violates Model: acyclic global-order" in dot
    assert 'label="fence-w-w, r4"' in dot
    assert 'label="ppo, addr"' in dot
    assert "global-order" not in dot.split("legend")[0].split("forbidden: violates")[1].split("\n", 1)[1]
