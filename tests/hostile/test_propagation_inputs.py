"""Hostile uses of `propagation`, `cumulative` and `ctrl+FENCE` in model files: each is a located
error with exit code 2 (never a traceback or a hang), or a model that loads and runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app

REPO = Path(__file__).resolve().parents[2]
IRIW = str(REPO / "litmus" / "hardware" / "IRIW+addrs.litmus")
HEAD = "model h\nreorder {\n        R  W\n    R   i  di\n    W   Y  Y\n}\n"
runner = CliRunner()


def run_model(tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "h.mm"
    path.write_text(text)
    return runner.invoke(app, ["run", "-m", str(path), *extra, IRIW])


@pytest.mark.parametrize("text, words", [
    (HEAD + "propagation " + "p" * 100_000 + "\n", "is not a propagation mode"),
    (HEAD + "propagation per-thread\n" * 300, "at most one propagation statement"),
    (HEAD + "propagation\n", "syntax error"),
    (HEAD + "fence f orders M * M cumulative " + "x" * 50_000 + " cost 1\n", "is not a cumulativity"),
    (HEAD + "fence f orders M * M cumulative cost 1\n", "syntax error"),
    (HEAD + "dependencies {\n  ctrl+" + "q" * 20_000 + " : R * R\n}\n", "which the model does not declare"),
    (HEAD + "dependencies {\n  ctrl+ : R * R\n}\n", "error"),
    (HEAD + "dependencies {\n  ctrl+isync+isync : R * R\n}\nfence isync orders F * F cost 1\n", "error"),
    (HEAD + "dependencies {\n  addr+isync : R * R\n}\nfence isync orders F * F cost 1\n", "is not a dependency relation"),
    (HEAD + "propagation per-thread\nfence f orders M * M cumulative strong cost 1\n"
     "fence g aka f orders M * M cumulative light cost 1\n", "already used by fence 'f'"),
])
def test_refused_with_a_located_error(tmp_path, text, words):
    result = run_model(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert words in result.output
    assert "h.mm:" in result.output


def test_a_thousand_cumulative_fences_load_and_run(tmp_path):
    fences = "".join(f"fence f{i} orders M * M cumulative {'strong' if i % 2 else 'light'} cost {i + 1}\n"
                     for i in range(1000))
    result = run_model(tmp_path, HEAD + "propagation per-thread\n" + fences, "-q")
    assert result.exit_code == 0, result.output
    assert "A" in result.output


def test_a_per_thread_model_with_no_fences_runs_in_both_engines(tmp_path):
    result = run_model(tmp_path, HEAD + "propagation per-thread\n", "-q", "--engine", "both")
    assert result.exit_code == 0, result.output
