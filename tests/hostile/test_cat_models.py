"""Hostile cat models (-m FILE.cat): deep nesting, include cycles, runaway recursion, special files.

Each ends in a located error with exit code 2 (never a RecursionError, a traceback or a
hang), or loads and runs when it is valid.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app

REPO = Path(__file__).resolve().parents[2]
SB = str(REPO / "litmus" / "classic" / "SB.litmus")
runner = CliRunner()


def run_cat(tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "hostile.cat"
    path.write_text(text)
    return path, runner.invoke(app, ["run", "-m", str(path), *extra, SB])


def assert_refused(result, *words):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for w in words:
        assert w in result.output, result.output


def test_deep_parentheses_are_refused_not_a_recursion_error(tmp_path):
    _, r = run_cat(tmp_path, "M\nacyclic " + "(" * 5000 + "po" + ")" * 5000 + "\n")
    assert_refused(r, "hostile.cat:2:", "nested more than")


def test_a_long_chain_of_complements_is_refused(tmp_path):
    _, r = run_cat(tmp_path, "M\nempty " + "~" * 20000 + "R\n")
    assert_refused(r, "hostile.cat:2:", "nested more than")


def test_a_long_flat_union_loads_and_runs(tmp_path):
    _, r = run_cat(tmp_path, "M\nacyclic " + " | ".join(["po", "rf", "co", "fr"] * 200) + " as sc\n")
    assert r.exit_code == 0, r.output
    assert "Observation SB Never" in r.output


def test_an_include_cycle_is_refused_with_the_chain(tmp_path):
    (tmp_path / "a.cat").write_text('A\ninclude "b.cat"\n')
    (tmp_path / "b.cat").write_text('B\ninclude "a.cat"\n')
    _, r = run_cat(tmp_path, 'M\ninclude "a.cat"\nacyclic po\n')
    assert_refused(r, "include cycle", "a.cat -> b.cat -> a.cat")


def test_a_model_including_itself_is_refused(tmp_path):
    _, r = run_cat(tmp_path, 'M\ninclude "hostile.cat"\n')
    assert_refused(r, "include cycle")


def test_a_recursive_function_is_refused_not_run_forever(tmp_path):
    _, r = run_cat(tmp_path, "M\nlet rec f(x) = f(x | po)\nacyclic f(rf)\n")
    assert_refused(r, "hostile.cat:2:", "a recursion over a set of more than about 100 relations, or one that never ends")


def test_a_let_rec_of_relations_that_only_grows_reaches_its_fixpoint(tmp_path):
    _, r = run_cat(tmp_path, "M\nlet rec r = po | rf | co | fr | (r ; r) | r^-1\nirreflexive r ; r as x\n")
    assert r.exit_code == 0, r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_model_or_include_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.cat"
    os.mkfifo(fifo)
    r = runner.invoke(app, ["run", "-m", str(fifo), SB])
    assert_refused(r, "FIFO")
    _, r = run_cat(tmp_path, 'M\ninclude "fifo.cat"\n')
    assert_refused(r, "FIFO")


def test_binary_garbage_and_stray_characters_are_located(tmp_path):
    path = tmp_path / "bin.cat"
    path.write_bytes(b"\x00\xff\xfe garbage")
    r = runner.invoke(app, ["run", "-m", str(path), SB])
    assert_refused(r, "bin.cat")
    _, r = run_cat(tmp_path, "M\nacyclic po $ rf\n")
    assert_refused(r, "hostile.cat:2:12", "unexpected character '$'")


def test_crafted_names_cannot_reach_outside_through_include(tmp_path):
    _, r = run_cat(tmp_path, 'M\ninclude "../../../../../../etc/passwd"\n')
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_unknown_names_inside_try_fall_back_but_not_outside(tmp_path):
    _, r = run_cat(tmp_path, "M\nlet f = try NOPE with 0\nacyclic po | rf | co | fr | f as sc\n")
    assert r.exit_code == 0, r.output
    _, r = run_cat(tmp_path, "M\nacyclic po | NOPE\n")
    assert_refused(r, "hostile.cat:2:14", "unknown name 'NOPE'")


def test_a_function_using_its_argument_twice_applied_deep_does_not_blow_up(tmp_path):
    calls = "po"
    for _ in range(40):
        calls = f"f({calls})"
    _, r = run_cat(tmp_path, f"M\nlet f(x) = x | x\nacyclic {calls} | rf | co | fr as sc\n")
    assert r.exit_code == 0, r.output
    assert "Observation SB Never" in r.output


def test_a_long_chain_of_lets_loads_or_is_refused_with_a_place(tmp_path):
    lets = "".join(f"let x{k} = x{k - 1} | po\n" for k in range(1, 3000))
    _, r = run_cat(tmp_path, "M\nlet x0 = po\n" + lets + "acyclic x2999 | rf | co | fr as sc\n")
    assert "Traceback" not in r.output
    # refused: at the let whose chain is too deep (x2999, line 3001), not at 1:1
    assert r.exit_code == 0 or (r.exit_code == 2 and "hostile.cat:3001:5" in r.output and "chained" in r.output)


def test_the_same_include_many_times_is_read_once(tmp_path):
    (tmp_path / "defs.cat").write_text("D\n" + "let y = po\n" * 50)
    _, r = run_cat(tmp_path, "M\n" + 'include "defs.cat"\n' * 2000 + "acyclic y | rf | co | fr as sc\n")
    assert r.exit_code == 0, r.output
