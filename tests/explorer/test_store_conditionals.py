"""PPC stwcx. and ARM/AArch64 store-exclusives on the explorer: the checker's final states, with and without reduction."""

from __future__ import annotations

import pytest
from explorer_paths import ROOT

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

SUITES = ("ppc", "arm", "aarch64")
STORE_CONDS = ("stwcx.", "strex", "stxr")


def store_cond_tests() -> list:
    """Every bundled PPC/ARM/AArch64 test with a store-conditional (47 when written)."""
    out = []
    for suite in SUITES:
        for path in sorted((ROOT / "litmus" / suite / "tests").rglob("*.litmus")):
            text = path.read_text().lower()
            if any(word in text for word in STORE_CONDS):
                out.append(path)
    return out


TESTS = store_cond_tests()


def assert_agree(program, model) -> None:
    expected = check(program, model, collect="none").state_set()
    for por in (True, False):
        found = explore(program, model, por=por).state_set()
        assert found == expected, (
            f"{program.name} under {model.name} (reduction {'on' if por else 'off'}): "
            f"axiomatic only {sorted(s.text() for s in expected - found)}, "
            f"explorer only {sorted(s.text() for s in found - expected)}")


def test_the_store_conditional_tests_are_found():
    assert len(TESTS) >= 47


@pytest.mark.parametrize("model", ["armv8", "riscv", "tso"])
def test_every_store_conditional_test_agrees_under_multi_copy_atomic_models(model):
    """All of them, under models the one-memory machine runs (about 1 s each on one core)."""
    m = load_model(model)
    for path in TESTS:
        assert_agree(load_litmus(path), m)


@pytest.mark.parametrize("suite, name, reg", [("ppc", "LB+stwcx-ctrl+data", "r1"),
                                              ("arm", "LB+strex-ctrl+data", "R1")])
def test_a_branch_on_the_status_waits_for_the_reads_the_store_conditional_reads(suite, name, reg):
    """herd: the status depends on the registers stwcx./STREX read, so the LB cycle through it is forbidden."""
    program = load_litmus(ROOT / "litmus" / suite / "tests" / "hand" / f"{name}.litmus")
    states = {s.text() for s in explore(program, load_model("armv8")).state_set()}
    assert f"0:{reg}=1; 1:{reg}=1;" not in states
