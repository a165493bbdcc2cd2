"""A store-conditional's write is not one of C's seq_cst atomics: herd's C sets (SC, A, NA) in a cat model, and `sc` in a .mm model, never hold it (issue 27, item 1)."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.lang.library import load_model_text
from mmdsl.litmus.loader import parse_litmus

# one thread, one successful exclusive pair per dialect (the condition asks for success)
EXCLUSIVES = {
    "AArch64": "AArch64 t\n{ 0:X0=x; }\n P0 ;\n MOV W2,#1 ;\n LDXR W1,[X0] ;\n STXR W3,W2,[X0] ;\n"
               "exists (0:X3=0 /\\ x=1)\n",
    "ARM": "ARM t\n{ 0:R0=x; }\n P0 ;\n MOV R2,#1 ;\n LDREX R1,[R0] ;\n STREX R3,R2,[R0] ;\n"
           "exists (0:R3=0 /\\ x=1)\n",
    "PPC": "PPC t\n{ 0:r2=x; }\n P0 ;\n li r1,1 ;\n lwarx r3,r0,r2 ;\n stwcx. r1,r0,r2 ;\n"
           "exists (x=1)\n",
    "RISCV": "RISCV t\n{ 0:x6=x; }\n P0 ;\n ori x7,x0,1 ;\n lr.w x5,0(x6) ;\n sc.w x8,x7,0(x6) ;\n"
             "exists (0:x8=0 /\\ x=1)\n",
}


def _cat(tmp_path, body: str):
    path = tmp_path / "m.cat"
    path.write_text(f'"m"\n{body}\n')
    return load_model(str(path))


@pytest.mark.parametrize("arch", sorted(EXCLUSIVES))
@pytest.mark.parametrize("axiom", ["empty [SC] as no-seq-cst", "empty [A] as no-c-atomic",
                                   "empty M \\ NA as every-access-non-atomic"])
def test_a_cat_models_c_sets_do_not_hold_a_store_conditional(tmp_path, arch, axiom):
    # was: the write carried the annotation sc, C's seq_cst, so SC and A held it (and NA
    # did not): herd's aarch64.cat ordered it as an acquire ([A | Q]; po) and lost a state
    result = check(parse_litmus(EXCLUSIVES[arch], "t.litmus"), _cat(tmp_path, axiom))
    assert result.positive > 0, (arch, axiom)  # not Never


@pytest.mark.parametrize("arch", sorted(EXCLUSIVES))
def test_a_mm_models_sc_annotation_is_seq_cst_only(arch):
    model = load_model_text('model m "m"\naxiom NoSeqCst : empty [sc] "no seq_cst access"\n')
    assert check(parse_litmus(EXCLUSIVES[arch], "t.litmus"), model).positive > 0


def test_the_store_conditional_has_its_own_name():
    model = load_model_text('model m "m"\naxiom NoStcond : empty [stcond] "no store-conditional"\n')
    assert check(parse_litmus(EXCLUSIVES["AArch64"], "t.litmus"), model).positive == 0
