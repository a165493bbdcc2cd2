"""herd's stock sc.cat and x86tso.cat, loaded unchanged, give herd's verdicts.

The .cat files are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B; not
copied into the repository); every test here skips, saying so, when that folder is absent.
Expectations: the x86 corpus's verdicts.csv (herd7 7.58 under these very files) and the
classic suite's verdicts.csv (herd7 7.57, sc.cat and x86tso.cat).
"""

from __future__ import annotations

import pytest
from refdata import REFERENCE, SHARED_REFERENCE, classic_verdicts, x86_corpus

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
pytestmark = pytest.mark.skipif(not (HERD_CATS / "sc.cat").is_file(),
                                reason=f"herd's stock models are not in {HERD_CATS}")
CATS = {"sc": "sc.cat", "tso": "x86tso.cat"}


def cat_model(column: str):
    return load_model(str(HERD_CATS / CATS[column]))


def corpus_rows(every: int) -> list[dict]:
    return x86_corpus()[::every]


def _check_rows(rows) -> list:
    models = {c: cat_model(c) for c in CATS}
    wrong = []
    for row in rows:
        program = load_litmus(row["file"])
        for column, model in models.items():
            got = check(program, model, collect="none").observation
            if got != row[column]:
                wrong.append((row["test"], CATS[column], got, row[column]))
    return wrong


def test_a_sample_of_the_x86_corpus_gives_herds_observation():
    rows = corpus_rows(25)
    assert len(rows) > 100
    assert _check_rows(rows) == []


@pytest.mark.slow
def test_the_whole_x86_corpus_gives_herds_observation():
    """2,595 tests x 2 models, about 45 s on one core."""
    rows = corpus_rows(1)
    assert len(rows) == 2595
    assert _check_rows(rows) == []


CLASSIC = [(d, t, m) for d in ("X86", "LISA") for t, vs in sorted(classic_verdicts().items())
           for m in vs if m in CATS and (m == "sc" or d == "X86")
           if (REFERENCE / "classic" / d / f"{t}.litmus").exists()]


@pytest.mark.parametrize("dialect, test, column", CLASSIC)
def test_classic_suite_gives_herds_verdict(dialect, test, column):
    program = load_litmus(REFERENCE / "classic" / dialect / f"{test}.litmus")
    result = check(program, cat_model(column), collect="none")
    assert result.verdict == classic_verdicts()[test][column]
    assert result.positive + result.negative > 0


def test_the_cat_models_agree_with_the_bundled_sc_and_tso_on_the_classic_shapes():
    for test in ("SB", "MP", "IRIW", "WRC", "2+2W", "R", "S", "SB+fences", "R+fences"):
        program = load_litmus(REFERENCE / "classic" / "X86" / f"{test}.litmus")
        for column, bundled in (("sc", "sc"), ("tso", "tso")):
            a = check(program, cat_model(column), collect="none")
            b = check(program, load_model(bundled), collect="none")
            assert a.states == b.states, (test, column)


def test_x86tso_lowers_to_the_ir_the_checker_evaluates():
    m = cat_model("tso")
    assert m.title == "X86 TSO" and m.table is None
    assert [a.name for a in m.axioms][-1] == "tso"
    assert len(m.includes) >= 4  # stdlib, x86fences, filters, cos, cos-no-opt, cross


def stock_models():
    return sorted(HERD_CATS.glob("*.cat")) if HERD_CATS.is_dir() else []


def test_every_stock_model_loads_or_is_refused_by_name_at_a_place():
    loaded = 0
    for path in stock_models():
        try:
            lower_cat_file(path, [HERD_CATS])
            loaded += 1
        except MmdslError as err:
            assert err.pos is not None and err.pos.line >= 1, path.name
            assert err.pos.file and err.pos.file.endswith((".cat", ".bell")), path.name
    # 48 of the 89 .cat files when the loader landed; 50 with the RISC-V sets (riscv.cat,
    # riscv-tso.cat: see docs/cat.md); 48 since the ARM barrier sets: herd.cat and pretty.cat
    # then read DMB.ST as a set (aarch64fences.cat) where filters.cat wants a relation, and
    # are refused at that place, as herd7 7.58 itself refuses them on PPC and ARM tests;
    # 61 with the AArch64 built-ins (aarch64.cat and its includes, aarch32.cat) and the C
    # sets and generate_orders (rc11.cat, the c11 family); 62 with the Linux-kernel model (its
    # bell and lock.cat); 63 with herd's SPEC and EXEC (ncos.cat, ctrl-bis.cat); 67 with
    # linearisations (simple-c11.cat, c11_orig.cat, riscv-total.cat); 73 with the models that
    # compute co themselves (uniproccat.cat, sccat.cat, coscat.cat, minimalcat.cat,
    # prettycat.cat, herdcat.cat: test_herd_own_co_cats.py); 74 with herd's si
    # (x86tso-mixed.cat: test_herd_x86tso_mixed_cat.py); 75 with pco (cos-ok-opt.cat:
    # test_herd_own_co_cats.py); 74 when the register names became a catdep model's (aarch64hwreqs.cat
    # alone declares no catdep and is refused, as herd7 refuses it); 75 with a statement's
    # `let ... in` (deps-instances.cat); 76 with lock.cat alone (it names herd's spinlock
    # sets); bench/count_stock_cats.py prints the count and what stops the rest,
    # test_herd_stock_cat_loads.py pins each against herd7
    assert loaded >= 76


# what stops the other models the issue names, today: each a named refusal at its place
# (update this list as constructs and dialects arrive; riscv.cat loads since the RISC-V
# sets: tests/axiomatic/test_herd_riscv_cat.py)
@pytest.mark.parametrize("model, where, words", [
    # (rc11.cat loads since the C sets: tests/axiomatic/test_herd_c11_cat.py)
    # (linux-kernel.cat loads since its bell and lock.cat: tests/axiomatic/test_herd_linux_cat.py);
    # (lock.cat alone loads since it names herd's spinlock sets: tests/axiomatic/test_herd_lock_cat.py)
    # herd.cat and pretty.cat: herd runs them on RISC-V only, where AArch64's fence sets are
    # unbound; mmdsl lowers a model once for every architecture
    ("herd.cat", "filters.cat:7:15", "'&' between a set and a relation"),
    # (simple-c11.cat, c11_orig.cat load since linearisations: tests/lang/test_cat_linearisations.py)
    # (sccat.cat and the other models that compute co themselves load since cat_own_co:
    # tests/axiomatic/test_herd_own_co_cats.py)
])
def test_what_stops_the_next_models_is_named_at_its_place(model, where, words):
    with pytest.raises(MmdslError) as info:
        lower_cat_file(HERD_CATS / model, [HERD_CATS])
    assert words in info.value.message
    assert str(info.value.pos).endswith(where)
