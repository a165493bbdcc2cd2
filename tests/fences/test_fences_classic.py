"""Classic shapes: a single full fence kind needs exactly one fence per relaxed po pair of the diy cycle."""

from __future__ import annotations

import pytest

from fences_reference import CLASSIC, FULL_FENCE, classic_cycles, classic_verdicts, relaxed_pairs_on_cycle
from mmdsl.axiomatic import check
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.writer import write_fenced
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

CYCLES = classic_cycles()
VERDICTS = classic_verdicts()
CASES = [(shape, model) for shape in CYCLES for model in FULL_FENCE if VERDICTS[shape][model] == "A"]


def test_every_allowed_case_is_covered():
    # 12 shapes; SB, R, RWC, W+RWC allowed from TSO on; everything allowed under RMO
    assert len(CASES) == 4 + 8 + 12


@pytest.mark.parametrize("shape,model_name", CASES, ids=[f"{s}-{m}" for s, m in CASES])
def test_minimum_full_fences(shape, model_name, tmp_path):
    model = load_model(model_name)
    program = load_litmus(CLASSIC / f"{shape}.litmus")
    assert check(program, model).verdict == "Allowed"
    sel = select_fences(program, model, FenceOptions(kinds=[FULL_FENCE[model_name]]))
    expected = relaxed_pairs_on_cycle(CYCLES[shape], model_name)
    assert sel.status == "OPTIMAL"
    assert len(sel.fences) == expected
    assert sel.cost == 3 * expected
    assert {c.kind.name for c in sel.fences} == {FULL_FENCE[model_name]}
    # one fence per thread holding a relaxed pair of the cycle: never two in one thread
    assert len({c.place.tid for c in sel.fences}) == expected
    assert sel.after.verdict == "Forbidden"
    assert check(sel.fenced, model).verdict == "Forbidden"
    # the written test reads back and is forbidden too
    out = tmp_path / f"{shape}.litmus"
    reread = write_fenced(program, sel.fences, out)
    assert load_litmus(out).name == shape
    assert check(reread, model).verdict == "Forbidden"
    assert out.read_text().count("MFENCE") == expected


@pytest.mark.parametrize("shape", sorted(CYCLES))
def test_forbidden_cases_need_nothing(shape):
    for model_name in FULL_FENCE:
        if VERDICTS[shape][model_name] != "F":
            continue
        sel = select_fences(load_litmus(CLASSIC / f"{shape}.litmus"), load_model(model_name))
        assert not sel.needed and sel.fences == [] and sel.cost == 0


@pytest.mark.parametrize("shape", ["SB", "MP", "ISA2", "IRIW", "WRC", "W+RWC"])
def test_herd_fenced_variants_are_forbidden(shape):
    # the +fences files of the reference (a fence between every pair) need nothing more
    for model_name in ("tso", "pso", "rmo"):
        sel = select_fences(load_litmus(CLASSIC / f"{shape}+fences.litmus"), load_model(model_name))
        assert not sel.needed


C_CASES = [(s, m) for s, m in CASES if (CLASSIC / "c" / f"{s}.litmus").exists()]


@pytest.mark.parametrize("shape,model_name", C_CASES, ids=[f"c-{s}-{m}" for s, m in C_CASES])
def test_c_forms_get_the_same_answer_and_write_back(shape, model_name, tmp_path):
    model = load_model(model_name)
    program = load_litmus(CLASSIC / "c" / f"{shape}.litmus")
    sel = select_fences(program, model, FenceOptions(kinds=[FULL_FENCE[model_name]]))
    assert sel.status == "OPTIMAL" and len(sel.fences) == relaxed_pairs_on_cycle(CYCLES[shape], model_name)
    reread = write_fenced(program, sel.fences, tmp_path / f"{shape}.litmus")
    assert check(reread, model).verdict == "Forbidden"
    assert (tmp_path / f"{shape}.litmus").read_text().count("smp_mb();") == len(sel.fences)
