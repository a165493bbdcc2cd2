"""Hostile cat text for the C sets, bell files and `with x from`: huge enums and tag sets,
a thousand generated orders, a one-event RMW model on an RMW test (it runs), through the CLI.

Each loads and runs, or ends in a located error with exit code 2 (never a traceback or a hang).
"""

from __future__ import annotations

from pathlib import Path

from budget import cpu_budget
from typer.testing import CliRunner

from mmdsl.cli.app import app

REPO = Path(__file__).resolve().parents[2]
XCHG = str(REPO / "litmus" / "c11" / "tests" / "variants" / "SB+xchg-sc.litmus")
MP = str(REPO / "litmus" / "c11" / "tests" / "variants" / "MP+ra.litmus")
runner = CliRunner()


def run_cat(tmp_path: Path, text: str, test: str = MP):
    path = tmp_path / "hostile.cat"
    path.write_text(text)
    (tmp_path / "stdlib.cat").write_text("stdlib\nlet co0 = loc & (IW * (W\\IW))\n")
    return runner.invoke(app, ["run", "-m", str(path), "-q", test])


def test_a_hundred_thousand_tags_in_an_enum_and_a_tag_set(tmp_path):
    tags = " || ".join(f"'t{k}" for k in range(100_000))
    tagset = ", ".join(f"'t{k}" for k in range(100_000))
    with cpu_budget(20):
        result = run_cat(tmp_path, f'"big"\nenum e = {tags}\ninstructions R[{{{tagset}}}]\nacyclic po | rf | co | fr\n')
    assert result.exit_code == 0, result.output


def test_a_thousand_generated_orders(tmp_path):
    withs = "".join(f"with mo{k} from generate_orders(W, co0)\n" for k in range(1000))
    result = run_cat(tmp_path, f'"many"\n{withs}acyclic po | rf | mo999 | rf^-1;mo999 as sc\n')
    assert result.exit_code == 0, result.output
    assert "1 forbidden" in result.output  # MP+ra under SC


def test_a_one_event_rmw_model_on_an_rmw_test_runs_through_the_cli(tmp_path):
    result = run_cat(tmp_path, '"c"\nlet x = RLX\nempty (R & W) & x as one\n', test=XCHG)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_generate_orders_of_itself_is_an_unknown_name_not_a_loop(tmp_path):
    result = run_cat(tmp_path, '"loop"\nwith mo from generate_orders(W, mo)\nacyclic po\n')
    assert result.exit_code == 2, result.output
    assert "unknown name 'mo'" in result.output and "hostile.cat:2:" in result.output
