"""`mmdsl diff-models power armv8` on the hardware shapes: herd7's differences, one-architecture shapes left out."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from suitefiles import mmdsl

from mmdsl.suite.diffmodels import differences
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite

HERD = Path(__file__).resolve().parent / "data" / "power-armv8" / "verdicts.csv"  # see NOTE.md beside it


def _herd():
    rows = list(csv.DictReader(HERD.open()))
    both = [r for r in rows if "-" not in (r["ppc_cat"], r["aarch64_cat"])]
    differ = {r["shape"]: "power" if r["ppc_cat"] == "A" else "armv8"
              for r in both if r["ppc_cat"] != r["aarch64_cat"]}
    one_arch = {r["shape"] for r in rows if "-" in (r["ppc_cat"], r["aarch64_cat"])}
    return differ, one_arch


def test_the_differences_are_herds_and_one_architecture_shapes_are_left_out():
    suite = load_suite("litmus/hardware")
    a, b = model_columns(suite, ["power", "armv8"])
    diff = differences(run_suite(suite, [a, b], jobs=1), a, b)
    differ, one_arch = _herd()
    assert differ == {"IRIW+addrs": "power", "WRC+addrs": "power"}  # the committed data says so
    assert {d.test: d.allowed_by for d in diff.differences} == differ
    assert {t for t, _, _ in diff.unshared} == one_arch
    assert ("MP+lwsyncs", "armv8", "fence lwsync") in diff.unshared
    assert ("MP+popl+poap", "power", "annotation rel") in diff.unshared
    assert diff.failed == []


def test_cli_names_them_and_says_what_each_left_out_test_lacks():
    proc = mmdsl("diff-models", "power", "armv8", "--suite", "litmus/hardware", "-t", "IRIW*", "-t", "MP+lwsyncs",
                 "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "power and armv8 differ on 1 of the 3 compared tests of hardware:",
        "  IRIW+addrs  allowed by power, forbidden by armv8",
        "power allows 1 of them",
        "armv8 allows 0 of them",
        "not compared: 2 test(s) use a fence or an annotation only one of the models has rules for:",
        "  IRIW+lwsyncs  armv8 has no fence lwsync",
        "  MP+lwsyncs    armv8 has no fence lwsync",
    ]
    data = json.loads(mmdsl("diff-models", "power", "armv8", "--suite", "litmus/hardware", "-t", "MP+lwsyncs",
                            "--jobs", "1", "--json").stdout)
    assert data["unshared"] == [{"test": "MP+lwsyncs", "model": "armv8", "has_no": "fence lwsync"}]
    assert data["differences"] == []


def test_a_construct_neither_model_knows_is_compared():
    # MFENCE is neither power's nor armv8's: both read the X86 tests without it, and agree
    proc = mmdsl("diff-models", "power", "armv8", "--suite", "litmus/classic", "-t", "IRIW*", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["power and armv8 agree on all 2 tests of classic"]
