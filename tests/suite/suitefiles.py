"""Small suites on disk for the suite tests: a few classic tests and a manifest written by the test."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from refdata import ROOT

CLASSIC = ROOT / "litmus" / "classic"


def make_suite(folder: Path, manifest: str | None, tests=("SB", "MP", "LB"), lisa=()) -> Path:
    """Copy classic tests into ``folder`` (X86 forms at the top, LISA forms in lisa/) and write
    ``manifest`` (when given) as manifest.yaml; the manifest's path (or the folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    for t in tests:
        shutil.copy(CLASSIC / f"{t}.litmus", folder / f"{t}.litmus")
    if lisa:
        (folder / "lisa").mkdir(exist_ok=True)
        for t in lisa:
            shutil.copy(CLASSIC / "lisa" / f"{t}.litmus", folder / "lisa" / f"{t}.litmus")
    if manifest is None:
        return folder
    path = folder / "manifest.yaml"
    path.write_text(manifest)
    return path


def mmdsl(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the command line (this worktree's package) and capture its output."""
    import os

    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100", NO_COLOR="1", TERM="dumb")
    return subprocess.run([sys.executable, "-m", "mmdsl", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def matrix(run) -> dict[tuple[str, str], str]:
    """{(test, model): "Allowed" | "Forbidden" | "timed out" | ...} of a SuiteRun."""
    return {key: cell.text for key, cell in run.cells.items()}
