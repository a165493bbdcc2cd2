"""The generated C: refusals by name, and what a harness source holds (no compiler needed)."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.hardware import backend_for
from mmdsl.hardware.harness import build_harness, observed_keys
from mmdsl.litmus import load_litmus


@pytest.mark.parametrize("path, arch", [("litmus/ppc", "PPC"), ("litmus/aarch64", "AArch64"),
                                        ("litmus/riscv", "RISCV"), ("litmus/arm", "ARM")])
def test_other_isas_are_refused_by_name(path, arch):
    from mmdsl.suite.runner import iter_test_files

    program = load_litmus(iter_test_files([path])[0])
    with pytest.raises(UnsupportedError, match=f"{program.arch} tests cannot run on this"):
        backend_for(program)


def test_sb_harness_has_one_asm_statement_per_memory_instruction():
    h = build_harness(load_litmus("litmus/classic/SB+fences.litmus"), "asm")
    assert h.keys == observed_keys(load_litmus("litmus/classic/SB+fences.litmus"))
    assert h.source.count('"mfence"') == 2
    assert h.source.count('"movq %1,(%0)"') == 2 and h.source.count('"movq (%1),%0"') == 2
    assert "#define NT 2" in h.source and "#define NK 2" in h.source


def test_c11_harness_uses_stdatomic_with_the_tests_orders():
    h = build_harness(load_litmus("litmus/c11/tests/rmw/MP+faa-rel+acq.litmus"), "c11")
    assert "#include <stdatomic.h>" in h.source
    assert "atomic_load_explicit(&loc_1[i], memory_order_acquire)" in h.source
    assert "memory_order_release, memory_order_relaxed" in h.source  # the fetch-add, as a CAS loop


def _program(tmp_path, text):
    f = tmp_path / "T.litmus"
    f.write_text(text)
    return load_litmus(f)


def test_loops_and_unknown_kernel_annotations_are_refused(tmp_path):
    p = _program(tmp_path, "C L\n{}\nP0(int *x) { int r0 = 0; while (r0 == 0) { r0 = READ_ONCE(*x); } }\n"
                           "P1(int *x) { WRITE_ONCE(*x, 1); }\nexists (0:r0=1)\n")
    with pytest.raises(UnsupportedError, match="loop"):
        build_harness(p, "c11")
    p = _program(tmp_path, "C K\n{}\nP0(int *x) { smp_store_release(x, 1); }\nP1(int *x) { int r0 = smp_load_acquire(x); }\n"
                           "exists (1:r0=1)\n")
    build_harness(p, "c11")  # release/acquire run as C11 orders
