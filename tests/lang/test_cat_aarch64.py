"""The cat constructs and AArch64 built-ins herd's aarch64.cat needs, on cat files written for these tests.

herd's own aarch64.cat is run against herd7's output in tests/litmus/test_aarch64.py.
"""

from __future__ import annotations

import pytest
from refdata import ROOT

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError, UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus

HAND = ROOT / "litmus" / "aarch64" / "tests" / "hand"
DEPS = ROOT / "litmus" / "aarch64" / "tests" / "deps-and-fences"

STDLIB = """stdlib
let po-loc = po & loc
let rfe = rf & ext
let fre = fr & ext
let emptyset = domain 0
let fencerel(B) = (po & (_ * B)) ; po
"""
SC_PER_LOC = "acyclic po-loc | rf | co | fr as coherence\n"


def model(tmp_path, text, name="m.cat"):
    (tmp_path / "stdlib.cat").write_text(STDLIB)
    p = tmp_path / name
    p.write_text(text)
    return lower_cat_file(p)


def verdict(m, path):
    return check(load_litmus(path), m, collect="none").verdict


def refused(tmp_path, text, name="m.cat") -> MmdslError:
    with pytest.raises(MmdslError) as info:
        model(tmp_path, text, name)
    return info.value


def test_barrier_and_release_acquire_sets_order_what_herd_says(tmp_path):
    """DMB.SY / DMB.ST / DMB.LD are the dialect's fences; L and A the release write, acquire read."""
    m = model(tmp_path, "M\n" + SC_PER_LOC
              + "let bob = fencerel(DMB.SY | DMB.ISHST | DMB.ISHLD) | [L]; po; [A] | [A | Q]; po | po; [L]\n"
                "acyclic bob | rfe | fre | co as order\n")
    assert verdict(m, HAND / "MP+dmb.ishst+dmb.ishld.litmus") == "Forbidden"
    assert verdict(m, HAND / "MP+popl+poq.litmus") == "Forbidden"
    assert verdict(m, HAND / "SB+dmb.ishld.litmus") == "Forbidden"  # this toy orders it; aarch64.cat does not
    m2 = model(tmp_path, "M\n" + SC_PER_LOC + "acyclic fencerel(DMB.ISHST) | rfe | fre | co as order\n")
    assert verdict(m2, HAND / "MP+dmb.ishst+dmb.ishld.litmus") == "Allowed"


def test_explicit_accesses_are_every_access_and_implicit_ones_none(tmp_path):
    m = model(tmp_path, "M\nempty (M \\ Exp) | NExp | TLBI | FAULT as only-explicit\n" + SC_PER_LOC)
    assert verdict(m, DEPS / "MP+fence+addr.litmus") == "Allowed"


def test_an_atomics_acquire_is_its_read_and_its_release_its_write(tmp_path):
    m = model(tmp_path, "M\nempty (A & W) | (L & R) as halves\nempty (NoRet & W) as noret\n" + SC_PER_LOC)
    assert verdict(m, HAND / "SB+swpals.litmus") == "Allowed"  # no axiom fails: the sets hold the right halves
    m = model(tmp_path, "M\nempty range([A]; rmw; [L]) as no-acqrel-pair\n")
    assert verdict(m, HAND / "SB+swpals.litmus") == "Forbidden"  # SWPAL: the pair exists


def test_match_with_and_assert_over_sets_empty_on_every_execution(tmp_path):
    m = model(tmp_path, 'M\nlet rec pick (rs, ps) = match ps with\n|| {} -> rs\n|| p ++ ps -> pick (rs, ps)\nend\n'
                        "let choices r = pick ({r & (TLBI * W)}, (TLBI * W) \\ r)\n"
                        "with chosen from choices (po)\n"
                        "assert empty chosen\n"
                        "acyclic po | rf | co | fr | chosen as sc\n")
    assert verdict(m, DEPS / "MP+fence+addr.litmus") == "Forbidden"


@pytest.mark.parametrize("text, words, line", [
    ("M\nassert empty po\n", "cat 'assert'", 2),
    ("M\nlet s = match po with || {} -> po end\nacyclic s\n", "'match ... with' over the events or pairs", 2),
    ("M\nwith x from po\nacyclic x\n", "not a set of relations", 2),
    ("M\nacyclic po | iico_data\n", "'iico_data'", 2),  # register-level: only in a catdep model
    ("M\nacyclic [B]; po\n", "'B'", 2),
])
def test_what_mmdsl_cannot_decide_is_refused_at_its_place(tmp_path, text, words, line):
    err = refused(tmp_path, text)
    assert words in err.message and err.pos.line == line


def test_a_users_own_dependency_definitions_stay_their_own(tmp_path):
    """Only a catdep model's data/addr/ctrl computed from register events keep mmdsl's relations
    (aarch64deps.cat's); a user's 'let data' is the user's, catdep or not."""
    m = model(tmp_path, "M\nlet data = 0\nlet addr = 0\nacyclic addr | data | rfe as deps\n")
    assert verdict(m, DEPS / "LB+datas.litmus") == "Allowed"
    m = model(tmp_path, "M\nacyclic addr | data | rfe as deps\n")
    assert verdict(m, DEPS / "LB+datas.litmus") == "Forbidden"
    m = model(tmp_path, "M catdep\nlet data = 0\nlet addr = 0\nacyclic addr | data | rfe as deps\n")
    assert verdict(m, DEPS / "LB+datas.litmus") == "Allowed"
    # computed from register events (herd's iico_data, DATA): mmdsl's own dependency relation
    m = model(tmp_path, "M catdep\nlet data = [R]; (iico_data; [DATA]; iico_data) & ~id\nacyclic data | rfe as deps\n")
    assert verdict(m, DEPS / "LB+datas.litmus") == "Forbidden"
    assert isinstance(refused(tmp_path, "M\nlet data = [R]; iico_data\nacyclic data | rfe\n"), UnsupportedError)


def test_register_level_names_are_refused_as_unsupported_outside_herds_files(tmp_path):
    assert isinstance(refused(tmp_path, "M\nacyclic po | rf-reg\n"), UnsupportedError)
