"""Arm pair and doubleword accesses are refused by name, beside herd7's recorded outputs for them."""

import shutil
import subprocess
from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.litmus import load_litmus

DATA = Path(__file__).parent / "data" / "arm-pairs"
HERD7 = Path("/work/tools/bin/herd7")

# test, the refused mnemonic, its line and column, herd7's options for the recorded output
CASES = [("CASP", "CASP", 7, "-variant mixed"), ("LDXP", "LDXP", 7, "-variant mixed"), ("LDRD", "STRD", 8, "")]


@pytest.mark.parametrize("name,mnemonic,line,_opts", CASES)
def test_refused_by_name_at_its_line(name, mnemonic, line, _opts):
    with pytest.raises(UnsupportedError) as caught:
        load_litmus(DATA / f"{name}.litmus")
    err = caught.value
    assert f"'{mnemonic}'" in err.message and "arm-pairs" in err.hint
    assert (err.pos.line, err.pos.col) == (line, 2) and err.pos.file.endswith(f"{name}.litmus")


@pytest.mark.parametrize("name,_m,_l,opts", CASES)
def test_recorded_herd_output_is_current(name, _m, _l, opts):
    """The committed outputs are herd7's (re-run when herd7 is installed)."""
    herd = shutil.which("herd7") or (str(HERD7) if HERD7.exists() else None)
    if herd is None:
        pytest.skip("herd7 not installed")
    run = subprocess.run([herd, *opts.split(), f"{name}.litmus"], cwd=DATA, capture_output=True, text=True, timeout=60)
    got = "".join(line + "\n" for line in (run.stdout + run.stderr).splitlines() if not line.startswith("Time "))
    assert got.strip() == (DATA / f"{name}.litmus.expected").read_text().strip()
