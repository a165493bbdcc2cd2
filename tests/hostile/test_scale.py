"""Hostile bounds for long explorations (issue 12, part 5): --max-memory values that must be refused,
a ceiling far below the interpreter's own size, progress never written into a pipe.

Every command runs in a subprocess (stderr a pipe, not a terminal) with a time bound.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RW = ROOT / "litmus" / "programs" / "rw.litmus"


def mmdsl(*args: str, bound: float = 120) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "mmdsl", *map(str, args)], capture_output=True, text=True,
                              timeout=bound)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mmdsl {' '.join(map(str, args))} ran past {bound} s")


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "-inf"])
def test_a_ceiling_that_is_not_a_positive_finite_number_is_refused(value):
    r = mmdsl("explore", RW, "-m", "pso", f"--max-memory={value}")
    assert r.returncode == 2
    assert "--max-memory must be a positive, finite number of MB" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("command", [["explore", "--no-por"], ["fences", "--method", "cut"]])
def test_a_ceiling_below_the_interpreter_stops_at_the_first_check_with_one_message(command):
    r = mmdsl(command[0], RW, "-m", "pso", *command[1:], "--max-memory", "0.001")
    assert r.returncode == 2
    assert "past the --max-memory ceiling of 0.001 MB, after 4096 states" in r.stderr
    assert "Traceback" not in r.stderr


def test_no_progress_is_written_when_stderr_is_not_a_terminal():
    r = mmdsl("explore", RW, "-m", "pso", "--no-por", "--compact")
    assert r.returncode == 0
    assert r.stderr == ""
