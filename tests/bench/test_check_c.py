"""bench/check_c.py's logic (not its timings): GenMC v0.11's command line and output read as its
verdict and execution count (outputs of genmc v0.11.0 saved in tests/bench/data/genmc-output),
and the counts set against tests/check/data/genmc/expected-rc11.csv."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = Path(__file__).parent / "data" / "genmc-output"


def _bench():
    spec = importlib.util.spec_from_file_location("check_c", ROOT / "bench" / "check_c.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("program, verdict, executions, flags", [
    ("corr0", "safe", "6", []),
    ("mp+rel+rlx0", "data race", "1", []),
    ("dekker_rlx0", "assertion violated", "-", []),
    ("simple0", "livelock", "-", ["-check-liveness"]),
    ("philosophers", "safe (1 blocked)", "2", []),  # GenMC: a deadlock is a blocked execution, no error
    ("peterson-sc", "Unordered writes", "-", [])])  # a warning, an error under GenMC's IPR
def test_genmc_output_is_read_as_its_verdict_and_count(tmp_path, program, verdict, executions, flags):
    fake = tmp_path / "genmc"
    fake.write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/argv\ncat {OUTPUTS / (program + ".txt")}\n')
    fake.chmod(0o755)
    got = _bench().genmc_check(str(fake), Path(f"variants/{program}.c"), 10)
    assert got[:2] == (verdict, executions)
    argv = (tmp_path / "argv").read_text().split()
    defines = ["-D", "N=2"] if program == "philosophers" else []
    assert argv == ["-rc11", "-disable-mm-detector", *flags, "--", *defines, f"variants/{program}.c"]


def test_counts_are_compared_with_expected_rc11_csv():
    rows = {Path(r["program"]).stem: r for r in
            csv.DictReader((ROOT / "tests/check/data/genmc/expected-rc11.csv").open())}
    agreement = _bench()._agreement
    assert agreement(rows["corr0"], "6", "6") == "same"
    assert agreement(rows["mp+rels+acq0"], "3", "4") == "as csv"  # the release-sequence note
    assert agreement(rows["corr0"], "6", "7").startswith("UNEXPECTED")
    assert agreement(rows["dekker_rlx0"], "1", "-") == "error"
