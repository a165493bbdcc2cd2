"""``mmdsl suite DIR --fences``: the table of the field in every format, against golden files (times left out)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.suite.fence_table import FORMATS, fence_table, render_fence_table
from mmdsl.suite.manifest import load_suite, select_tests
from mmdsl.suite.run import model_columns

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "data" / "fence_table"
SUFFIX = {"text": "txt", "md": "md", "csv": "csv", "json": "json", "html": "html"}


@pytest.fixture(scope="module")
def table():
    suite = select_tests(load_suite(ROOT / "litmus" / "fence-benchmarks"), ["peterson"])
    return fence_table(suite, model_columns(suite, ["sc", "tso"]), timeout=120)


@pytest.mark.parametrize("fmt", FORMATS)
def test_fence_table_matches_its_golden_file(table, fmt):
    text = render_fence_table(table, fmt, with_time=False)
    golden = GOLDEN / f"peterson.{SUFFIX[fmt]}"
    if os.environ.get("MMDSL_BLESS"):
        golden.write_text(text)
    assert text == golden.read_text()


def test_fence_table_facts_for_peterson(table):
    sc, tso = (table.cell("peterson", m) for m in ("sc", "tso"))
    assert sc.reachable is False and sc.sets == []
    assert tso.reachable and tso.complete
    assert tso.costs[0] == 6 and len(tso.sets) >= 1


def test_cli_suite_fences_prints_the_table_and_writes_reports(tmp_path):
    runner = CliRunner()
    out = runner.invoke(app, ["suite", str(ROOT / "litmus" / "fence-benchmarks"), "-t", "peterson", "-m", "tso",
                              "--fences"])
    assert out.exit_code == 0, out.output
    assert "program" in out.output and "peterson" in out.output and "mfence@" in out.output
    dest = tmp_path / "field.json"
    out = runner.invoke(app, ["suite", str(ROOT / "litmus" / "fence-benchmarks"), "-t", "peterson", "-m", "tso",
                              "--fences", "--report", "json", "-o", str(dest)])
    assert out.exit_code == 0, out.output
    data = json.loads(dest.read_text())
    assert data["cells"][0]["program"] == "peterson" and data["cells"][0]["reachable"] is True
    out = runner.invoke(app, ["suite", str(ROOT / "litmus" / "fence-benchmarks"), "-t", "peterson", "-m", "tso",
                              "--fences", "--report", "pdf"])
    assert out.exit_code == 2 and "--report pdf with --fences" in out.output
