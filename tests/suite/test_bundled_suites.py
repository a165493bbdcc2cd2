"""The bundled suites pass their manifests, and their manifests are what the reference data says."""

from __future__ import annotations

import filecmp

import pytest
from gen_manifests import (
    CLASSIC, PROGRAM_SUITES, RISCV, ROOT, X86, classic_manifest, program_manifest, riscv_manifest, x86_manifest,
)
from refdata import RISCV_UNREAD, SHARED_REFERENCE, classic_verdicts
from suitefiles import mmdsl

from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite


def test_manifests_are_generated_from_the_reference_verdicts():
    assert (CLASSIC / "manifest.yaml").read_text() == classic_manifest(), \
        "litmus/classic/manifest.yaml is stale: run tests/suite/gen_manifests.py"
    assert (X86 / "manifest.yaml").read_text() == x86_manifest(), \
        "litmus/x86/manifest.yaml is stale: run tests/suite/gen_manifests.py"
    assert (RISCV / "manifest.yaml").read_text() == riscv_manifest(), \
        "litmus/riscv/manifest.yaml is stale: run tests/suite/gen_manifests.py"
    for name in PROGRAM_SUITES:
        assert (ROOT / "litmus" / name / "manifest.yaml").read_text() == program_manifest(name), \
            f"litmus/{name}/manifest.yaml is stale: run tests/suite/gen_manifests.py"


def test_classic_expectations_are_the_reference_table():
    suite = load_suite("litmus/classic")
    ref = classic_verdicts()
    for t in suite.tests:
        for m in ("sc", "tso", "pso", "rmo"):
            assert suite.expect[(t.key, m)].word == ref[t.key.split("/")[-1]][m]
    assert {t.key for t in suite.tests if "/" not in t.key} == set(ref)  # every X86 form, fences included
    assert {t.key[2:] for t in suite.tests if t.key.startswith("c/")} == set(ref)  # and every C form


def test_classic_suite_passes():
    suite = load_suite("litmus/classic")
    assert len(suite.tests) == 30 + 17 + 30  # X86 forms (fences included), LISA forms, C forms
    proc = mmdsl("suite", "litmus/classic")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"ok: every expectation held ({4 * len(suite.tests)} cells)" in proc.stdout


def test_x86_corpus_copy_is_complete_with_its_licence():
    src = SHARED_REFERENCE / "x86-corpus"
    if not src.is_dir():
        pytest.skip(f"no ../shared/reference beside the repository ({src}): nothing to compare the copy with")
    assert filecmp.cmp(src / "LICENCE", X86 / "LICENCE", shallow=False)
    assert filecmp.cmp(src / "README.md", X86 / "README.md", shallow=False)
    ours = sorted(p.relative_to(X86) for p in (X86 / "tests").rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(src) for p in (src / "tests").rglob("*") if p.is_file())
    assert ours == theirs
    assert sum(p.suffix == ".litmus" for p in ours) == 2595


# The whole x86 corpus under sc and tso (5,190 cells, every expectation held) is run by the
# example in docs/suites.md ("The whole x86 corpus"), which tests/docs executes.


def test_riscv_corpus_copy_is_complete_with_its_licence():
    """Every corpus test but the two ORIGIN.md names, byte for byte, and the licence."""
    src = SHARED_REFERENCE / "riscv"
    if not src.is_dir():
        pytest.skip(f"no ../shared/reference beside the repository ({src}): nothing to compare the copy with")
    assert filecmp.cmp(src / "LICENCE", RISCV / "LICENCE", shallow=False)
    ours = sorted(p.relative_to(RISCV) for p in (RISCV / "tests").rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(src) for p in (src / "tests").rglob("*") if p.is_file())
    assert ours == [p for p in theirs if str(p) not in RISCV_UNREAD]
    assert len(ours) == 5051
    assert all(filecmp.cmp(RISCV / p, src / p, shallow=False) for p in ours[::97])
    origin = (RISCV / "ORIGIN.md").read_text()
    assert all(p.split("/")[-1] in origin for p in RISCV_UNREAD)


@pytest.mark.slow
def test_riscv_corpus_passes_under_riscv():
    """models/riscv.mm gives herd's riscv.cat Observation on all 5,051 tests (about 70 s with 2 jobs)."""
    suite = load_suite("litmus/riscv")
    run = run_suite(suite, model_columns(suite, []), jobs=2, timeout=120)
    assert run.outcomes() == {"held": 5051}, run.problems()[:10]
    assert run.exit_code() == 0


def test_archtest_expectations_are_the_design_table():
    """DESIGN.md: under SC both ROWO and PO hold; TSO breaks PO only; PSO and weaker break both."""
    suite = load_suite("litmus/archtest")
    words = {(t, m): e.word for (t, m), e in suite.expect.items()}
    assert words == {("rowo", "sc"): "Forbidden", ("rowo", "tso"): "Forbidden", ("rowo", "pso"): "Allowed",
                     ("rowo", "dotnet"): "Allowed", ("po", "sc"): "Forbidden", ("po", "tso"): "Allowed",
                     ("po", "pso"): "Allowed", ("po", "dotnet"): "Allowed"}


SMALL_SUITES = ["archtest", "dotnet", "programs", "fences", "hardware"]
CHECKED_ELSEWHERE = ["fence-benchmarks",  # tests/litmus/test_rmm.py (a sample; the whole suite is slow)
                     "aarch64",  # tests/litmus/test_aarch64.py (herd's aarch64.cat is not bundled)
                     "aarch64-lse",  # tests/axiomatic/test_herd_aarch64_lse.py (aarch64.cat, armv8, both engines)
                     "ppc", "arm",  # tests/axiomatic/test_herd_ppc_arm_cat.py (under herd's ppc.cat, arm.cat)
                     "linux",  # tests/axiomatic/test_herd_linux_cat.py (under herd's linux-kernel.cat)
                     "coherence",  # tests/axiomatic/test_coherence_family.py (an oracle; the suite is slow)
                     "csharp",  # tests/litmus/cil/test_cil_suite.py (needs mono; a sample, the whole suite slow)
                     "gc"]  # tests/litmus/test_gc_suite.py (McSPIN's collectors: a sample, the whole suite slow)


def test_every_bundled_suite_is_checked():
    """A suite added under litmus/ must be run by one of the tests here."""
    bundled = {p.parent.name for p in (ROOT / "litmus").glob("*/manifest.yaml")}
    assert bundled == {"classic", "x86", "riscv", *SMALL_SUITES, *CHECKED_ELSEWHERE}


@pytest.mark.parametrize("name", SMALL_SUITES)
def test_small_bundled_suites_pass(name):
    """The program suites (explorer, loops) and the fence guide's tests, under their manifests."""
    suite = load_suite(f"litmus/{name}")
    run = run_suite(suite, model_columns(suite, []), timeout=300)
    assert run.problems() == [] and run.exit_code() == 0


def test_classic_suite_with_both_engines_agreeing():
    """`--engine both`: the explorer's final states equal the checker's on every classic test."""
    suite = load_suite("litmus/classic")
    run = run_suite(suite, model_columns(suite, []), engine="both")
    assert run.problems() == [] and run.outcomes() == {"held": 4 * len(suite.tests)}
