"""Hostile `with x from linearisations(S, r)`: more orders than mmdsl tries, a cyclic base,
orders over every event, more orders than mmdsl counts, through the CLI.

Each runs or ends in a located error with exit code 2 (never a traceback or a hang).
"""

from __future__ import annotations

from pathlib import Path

from budget import cpu_budget
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.lang import cat_choice

runner = CliRunner()
# nine plain writes, one candidate: 9! orders of them
NINE = "C nine\n{}\nP0(int *a, int *b, int *c) { *a = 1; *b = 1; *c = 1; }\n" \
       "P1(int *d, int *e, int *f) { *d = 1; *e = 1; *f = 1; }\n" \
       "P2(int *g, int *h, int *i) { *g = 1; *h = 1; *i = 1; }\nexists (a=1)\n"


def run(tmp_path: Path, model: str):
    (tmp_path / "nine.litmus").write_text(NINE)
    (tmp_path / "h.cat").write_text(model)
    return runner.invoke(app, ["run", str(tmp_path / "nine.litmus"), "-m", str(tmp_path / "h.cat")])


def test_more_orders_than_mmdsl_tries_is_refused_at_the_with(tmp_path, monkeypatch):
    monkeypatch.setattr(cat_choice, "MAX_ORDERS", 20_000)  # 9! = 362,880 orders, none passes
    with cpu_budget(60):
        result = run(tmp_path, '"many"\nwith S from linearisations(M \\ IW, 0)\nempty S as never\n')
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "20000 linear extensions" in result.output
    assert "h.cat:2:1" in result.output


def test_a_cyclic_base_has_no_order_and_no_execution(tmp_path):
    result = run(tmp_path, '"cyc"\nwith S from linearisations(_, po | po^-1)\n')
    assert result.exit_code == 0, result.output
    assert "Never" in result.output


def test_an_order_of_every_event_that_passes_at_once(tmp_path):
    result = run(tmp_path, '"all"\nwith S from linearisations(_, 0)\nacyclic S as fine\n')
    assert result.exit_code == 0, result.output
    assert "Always" in result.output


def test_linearisations_of_a_relation_and_a_set_swapped_is_a_located_error(tmp_path):
    result = run(tmp_path, '"swap"\nwith S from linearisations(po, W)\n')
    assert result.exit_code == 2, result.output
    assert "first argument is a set" in result.output and "h.cat:2:" in result.output


def test_too_many_orders_to_count_keep_the_verdict_and_say_the_count_is_low(tmp_path):
    # 9! = 362,880 orders of the nine writes all pass: herd counts 362,880 executions; mmdsl
    # tries COUNTED_ORDERS to count them, then counts the candidate once and says so
    with cpu_budget(60):
        result = run(tmp_path, '"all"\nwith S from linearisations(W \\ IW, 0)\nacyclic S as fine\n')
    assert result.exit_code == 0, result.output
    assert "Observation nine Always 1 0" in result.output
    assert "witness counts are lower than herd's" in result.output

