"""The bundled power, armv7 and armv8 models give herd's verdicts on the hardware shapes.

Reference: litmus/hardware/verdicts.csv (herd7 with ppc.cat, arm.cat and aarch64.cat on the
PPC, ARM and AArch64 forms of each shape; see litmus/hardware/ORIGIN.md).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

HARDWARE = Path(__file__).resolve().parents[2] / "litmus" / "hardware"
COLUMNS = ("power", "armv7", "armv8")
ROWS = list(csv.DictReader(open(HARDWARE / "verdicts.csv")))
CASES = [(r["test"], m) for r in ROWS for m in COLUMNS if r[m] in ("A", "F")]


def test_every_shape_has_a_verdict_for_some_model():
    assert len(ROWS) == 48
    assert all(any(r[m] in "AF" for m in COLUMNS) for r in ROWS)
    assert len(CASES) == 124


@pytest.mark.parametrize("test, model", CASES, ids=[f"{t}-{m}" for t, m in CASES])
def test_verdict_is_herds(test, model):
    row = next(r for r in ROWS if r["test"] == test)
    result = check(load_litmus(HARDWARE / row["file"]), load_model(model), collect="none")
    assert result.verdict == {"A": "Allowed", "F": "Forbidden"}[row[model]]


def test_iriw_with_dependencies_tells_power_and_armv7_from_armv8():
    program = load_litmus(HARDWARE / "IRIW+addrs.litmus")
    observed = {m: check(program, load_model(m)).observation for m in COLUMNS}
    assert observed == {"power": "Sometimes", "armv7": "Sometimes", "armv8": "Never"}


def test_cumulativity_is_the_reason_wrc_with_a_fence_is_forbidden_under_power():
    program = load_litmus(HARDWARE / "WRC+mb+addr.litmus")
    result = check(program, load_model("power"), why=True)
    assert result.verdict == "Forbidden"
    text = str(result.why)
    assert "observation" in text and "no-thin-air" not in text


def test_the_suite_manifest_says_what_verdicts_csv_says():
    from mmdsl.suite.manifest import load_suite

    suite = load_suite(HARDWARE)
    words = {(t, m): e.word for (t, m), e in suite.expect.items()}
    want = {(r["test"], m): {"A": "Allowed", "F": "Forbidden"}[r[m]] for r in ROWS for m in COLUMNS
            if r[m] in ("A", "F")}
    assert words == want
