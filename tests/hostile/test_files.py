"""Hostile files (issue 9, item 9): FIFOs, devices and huge files as a test, a model or a herd
``.expected`` file are refused at once with a located error; manifest globs stay inside the
suite's folder and do not follow symbolic-link loops.

Every command runs in a subprocess bounded in time and memory: reading a FIFO blocks forever
and reading ``/dev/zero`` never ends, so a regression fails here instead of hanging the run.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SB = ROOT / "litmus" / "classic" / "SB.litmus"
MB = 1024 * 1024

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
needs_dev_zero = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # 2 GiB: reading /dev/zero fails fast


def mmdsl(*args, cwd: Path | None = None, bound: float = 60) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "mmdsl", *map(str, args)], capture_output=True, text=True,
                              timeout=bound, cwd=cwd, preexec_fn=_bounded_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mmdsl {' '.join(map(str, args))} ran past {bound} s (reading forever?)")


def refused(r: subprocess.CompletedProcess, *words: str) -> None:
    """Exit code 2, one located error line naming the problem, no traceback."""
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-1000:])
    for w in words:
        assert w in r.stderr, r.stderr


def suite_folder(tmp_path: Path, manifest: str | None = None) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    shutil.copy(SB, folder / "SB.litmus")
    if manifest is not None:
        (folder / "manifest.yaml").write_text(manifest)
    return folder


# ----- tests, models and .expected files that are not regular files -----------------
@needs_fifo
def test_a_fifo_as_a_test_is_refused(tmp_path):
    os.mkfifo(tmp_path / "F.litmus")
    refused(mmdsl("run", tmp_path / "F.litmus"), "F.litmus:1:1:", "it is a FIFO (named pipe), not a regular file")


@needs_dev_zero
@pytest.mark.parametrize("command", ["run", "explore", "fences", "draw"])
def test_dev_zero_as_a_test_is_refused(tmp_path, command):
    args = ["-m", "sc"] + (["-o", tmp_path] if command == "draw" else [])
    refused(mmdsl(command, "/dev/zero", *args), "/dev/zero:1:1:", "it is a character device")


@needs_fifo
def test_a_fifo_as_a_model_is_refused(tmp_path):
    os.mkfifo(tmp_path / "m.mm")
    refused(mmdsl("run", SB, "-m", tmp_path / "m.mm"), "m.mm:1:1: model error:", "it is a FIFO")


@needs_dev_zero
def test_dev_zero_as_a_model_is_refused():
    refused(mmdsl("run", SB, "-m", "/dev/zero"), "/dev/zero:1:1: model error:", "it is a character device")


@needs_fifo
def test_a_fifo_as_an_expected_file_is_refused(tmp_path):
    folder = suite_folder(tmp_path)
    os.mkfifo(folder / "SB.litmus.expected")
    refused(mmdsl("suite", folder, "-m", "sc", "--executor", "inline"),
            "SB.litmus.expected:1:1: manifest error:", "it is a FIFO")


@needs_dev_zero
def test_dev_zero_as_an_expected_file_is_refused(tmp_path):
    folder = suite_folder(tmp_path)
    (folder / "SB.litmus.tso.expected").symlink_to("/dev/zero")
    refused(mmdsl("suite", folder, "-m", "tso", "--executor", "inline"),
            "SB.litmus.tso.expected:1:1:", "it is a character device")


@needs_fifo
def test_a_fifo_named_in_a_manifest_is_refused_at_its_line(tmp_path):
    folder = suite_folder(tmp_path, 'name: s\nmodels: [sc]\ntests: ["SB.litmus", "F.litmus"]\n')
    os.mkfifo(folder / "F.litmus")
    refused(mmdsl("suite", folder, "--executor", "inline"), "manifest.yaml:3:22:", "'F.litmus' is not a regular file")


# ----- huge files ----------------------------------------------------------------
def _huge_test(path: Path) -> Path:
    """SB with a comment that takes it past the 8 MiB limit."""
    path.write_text(SB.read_text() + "(* " + "x" * (8 * MB) + " *)\n")
    return path


def test_a_huge_test_is_refused(tmp_path):
    refused(mmdsl("run", _huge_test(tmp_path / "HUGE.litmus")), "HUGE.litmus:1:1:", "is too large",
            "at most 8.0 MiB")


def test_a_huge_test_in_a_suite_is_an_error_cell(tmp_path):
    folder = suite_folder(tmp_path)
    _huge_test(folder / "HUGE.litmus")
    r = mmdsl("suite", folder, "-m", "sc", "--executor", "inline")
    assert "Traceback" not in r.stderr
    assert r.returncode == 2  # an error cell: bad input; SB still ran
    assert "HUGE.litmus:1:1: litmus error: cannot read litmus file:" in r.stdout
    assert "is too large" in r.stdout


def test_a_huge_model_is_refused(tmp_path):
    model = tmp_path / "big.mm"
    model.write_text("model big\n" + "# padding\n" * (MB - 1000))
    refused(mmdsl("run", SB, "-m", model), "big.mm:1:1: model error:", "is too large")


def test_the_size_limit_is_documented():
    from mmdsl.core.files import MAX_INPUT_BYTES

    assert MAX_INPUT_BYTES == 8 * MB
    assert "8 MiB" in (ROOT / "docs" / "cli.md").read_text()


# ----- manifest globs ---------------------------------------------------------------
@pytest.mark.parametrize("pattern, why", [("/**/SB.litmus", "is absolute"),
                                          ("../**/*.litmus", "leaves the suite's folder"),
                                          ("sub/../../*.litmus", "leaves the suite's folder")])
def test_a_glob_that_leaves_the_suite_folder_is_refused_at_its_line(tmp_path, pattern, why):
    folder = suite_folder(tmp_path, f'name: s\nmodels: [sc]\ntests: ["SB.litmus", "{pattern}"]\n')
    r = mmdsl("suite", folder, "--executor", "inline", bound=30)
    refused(r, "manifest.yaml:3:22: manifest error:", f"the glob '{pattern}' {why}")


def test_a_glob_does_not_follow_a_symlink_loop(tmp_path):
    folder = suite_folder(tmp_path, 'name: s\nmodels: [sc]\ntests: ["**/*.litmus"]\nexpect:\n  SB: {sc: Forbidden}\n')
    (folder / "sub").mkdir()
    shutil.copy(SB, folder / "sub" / "SB2.litmus")
    (folder / "sub" / "up").symlink_to("..")
    (folder / "sub" / "up2").symlink_to("../..")
    r = mmdsl("suite", folder, "--executor", "inline", "--json", bound=30)
    assert r.returncode == 0, r.stderr
    import json

    assert sorted(c["test"] for c in json.loads(r.stdout)["results"]) == ["SB", "sub/SB2"]


def test_a_named_test_outside_the_folder_is_still_allowed(tmp_path):
    """Without wildcards a test elsewhere may be named (the bundled archtest suite does)."""
    folder = suite_folder(tmp_path, 'name: s\nmodels: [sc]\ntests: ["../Other.litmus"]\n')
    shutil.copy(SB, tmp_path / "Other.litmus")
    r = mmdsl("suite", folder, "--executor", "inline")
    assert r.returncode == 0, r.stderr
