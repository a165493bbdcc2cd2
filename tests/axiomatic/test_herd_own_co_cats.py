"""herd's stock models that compute co themselves (uniproccat, sccat, coscat, minimalcat, prettycat, herdcat), and cos-ok-opt.cat (herd's pco), loaded unchanged, give herd's output.

The .cat files are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B; not
copied into the repository); every test here skips, saying so, when that folder is absent.
Expectations: herd7 7.58's whole output for each test, committed in tests/axiomatic/data/own-co
(regenerate.sh there says how: computed with herd7 7.58, options -set-libdir <libdir>
-I <herd-cats> -model <herd-cats>/M.cat, one test per run): the final states, the
witness counts and the Observation. herd counts one candidate per reads-from and final
write of each observed location, so the counts pin mmdsl's enumeration too
(W3+unobserved, W3+observed, S+poss: three writes to a location, observed or not).
cos-ok-opt.cat generates co from herd's ``pco``, which without ``-optace true`` is co0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, herd_outputs_file, outcome

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
DATA = Path(__file__).parent / "data" / "own-co"
MODELS = ["uniproccat", "sccat", "coscat", "minimalcat", "prettycat", "herdcat", "cos-ok-opt"]
pytestmark = pytest.mark.skipif(not all((HERD_CATS / f"{m}.cat").is_file() for m in MODELS),
                                reason=f"herd's uniproccat.cat ... herdcat.cat are not in {HERD_CATS}")


def herd_outputs(name: str) -> dict[str, str]:
    """{test file (repository-relative): herd's output} of one data file."""
    return herd_outputs_file(DATA / name)


def disagreements(model_name: str, data: str, every: int = 1) -> list[tuple]:
    model = load_model(str(HERD_CATS / f"{model_name}.cat"))
    wrong = []
    expected = sorted(herd_outputs(data).items())
    assert expected
    for f, text in expected[::every]:
        want = outcome(text)
        got = outcome(herd_block(check(load_litmus(ROOT / f), model), show_time=False))
        if got != want:
            wrong.append((f, got[1:], want[1:], sorted(map(sorted, got[0] ^ want[0]))[:4]))
    return wrong


@pytest.mark.parametrize("model_name", ["uniproccat", "sccat", "coscat", "minimalcat", "cos-ok-opt"])
def test_the_classic_shapes_give_herds_states_counts_and_observation(model_name):
    assert disagreements(model_name, f"{model_name}.classic.herd.txt") == []


def test_a_sample_of_ppc_and_arm_under_herdcat_gives_herds_output():
    assert disagreements("herdcat", "herdcat.sample.herd.txt", every=2) == []


@pytest.mark.slow
def test_every_ppc_and_arm_test_under_prettycat_gives_herds_output():  # about 10 s of CPU
    assert len(herd_outputs("prettycat.ppc-arm.herd.txt")) == 807
    assert disagreements("prettycat", "prettycat.ppc-arm.herd.txt") == []


def test_the_models_own_co_is_a_binding_and_the_candidates_pick_final_writes():
    model = lower_cat_file(HERD_CATS / "uniproccat.cat", [HERD_CATS])
    assert model.own_co
    names = [b.name for g in model.lets for b in g.bindings]
    assert "co'" in names and "fr'" in names  # the model's co and fr; "co" stays the candidate's
    assert {a.name for a in model.axioms} >= {"sc-per-location"}
    # S+poss: three writes to x; herd has one candidate per final write (5), not per order (10)
    test = load_litmus(ROOT / "litmus/x86/tests/non-mixed-size/CO/S+poss.litmus")
    result = check(test, load_model(str(HERD_CATS / "uniproccat.cat")))
    assert (result.positive, result.negative) == (0, 5)


def test_naming_a_generated_relation_the_model_never_defines_is_refused_at_its_place(tmp_path):
    # herd binds no fr, coe ... when the model computes co itself; mmdsl's would be the
    # candidate's, a silently different relation
    (tmp_path / "m.cat").write_text('"m"\nlet co = co0+\nacyclic po-loc | co | fre as u\n')
    with pytest.raises(MmdslError) as info:
        lower_cat_file(tmp_path / "m.cat", [HERD_CATS])
    assert "'fre' names herd's generated coherence order" in info.value.message
    assert str(info.value.pos).endswith("m.cat:3:23")
    assert "m.cat:2:5" in info.value.message


def test_a_model_that_generates_co_is_not_one_that_computes_it():
    model = lower_cat_file(HERD_CATS / "x86tso.cat", [HERD_CATS])
    assert not model.own_co



@pytest.mark.parametrize("model_name, words", [("uniproccat", "computes co itself"),
                                               ("cos-ok-opt", "generates co from pco")])
def test_a_c_read_modify_write_is_refused_at_its_place(model_name, words):
    # herd makes it one event (R and W); such a model names no C set, so mmdsl would read it
    # over two events and decide otherwise (herd: Never; mmdsl's two events: Sometimes)
    test = load_litmus(ROOT / "litmus/c11/tests/rmw/counter+cas-sc.litmus")
    with pytest.raises(MmdslError) as info:
        check(test, load_model(str(HERD_CATS / f"{model_name}.cat")))
    assert f"a C read-modify-write under a herd model that {words}" in info.value.message
    assert (info.value.pos.line, info.value.pos.col) == (6, 5)


def test_pco_is_co0_and_the_model_generates_co_from_it():
    model = lower_cat_file(HERD_CATS / "cos-ok-opt.cat", [HERD_CATS])
    assert not model.own_co and model.c_rmw_refusal == "generates co from pco"
    assert {"ConsCo", "co-generation"} <= {a.name for a in model.axioms}
    # a C model reads herd's one-event RMWs itself: rc11.cat's candidates are not refused
    assert lower_cat_file(HERD_CATS / "rc11.cat", [HERD_CATS]).c_rmw_refusal == ""
