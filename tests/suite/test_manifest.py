"""Manifests: the suite manifest format (docs/suites.md), each kind of mistake with its file:line:col."""

from __future__ import annotations

import textwrap

import pytest
from refdata import ROOT
from suitefiles import make_suite, mmdsl

from mmdsl.suite.manifest import ManifestError, load_manifest, load_suite

GOOD = """\
name: mini
description: three classic shapes
models: [sc, tso]
engine: axiomatic
tests: ["*.litmus", "lisa/*.litmus"]
expect:
  SB:      {sc: Forbidden, tso: Allowed}
  lisa/SB: {sc: F, tso: A, reason: "store buffering: W->R relaxed from TSO on"}
  MP:
    sc: Never
    tso: never
"""


def test_good_manifest_reads_every_field(tmp_path):
    suite = load_manifest(make_suite(tmp_path, GOOD, lisa=("SB",)))
    assert suite.name == "mini" and suite.description == "three classic shapes"
    assert [m.column for m in suite.models] == ["sc", "tso"]
    assert suite.keys == ["LB", "MP", "SB", "lisa/SB"]
    assert suite.expect[("SB", "tso")].word == "Allowed"
    assert suite.expect[("lisa/SB", "sc")].word == "Forbidden"  # F is short for Forbidden
    assert suite.expect[("lisa/SB", "sc")].reason.startswith("store buffering")
    assert suite.expect[("MP", "tso")].word == "Never"  # observation words, any case
    pos = suite.expect[("SB", "tso")].pos
    assert (pos.line, pos.col) == (7, 33)


def _error(tmp_path, manifest: str, **kw) -> ManifestError:
    path = make_suite(tmp_path, textwrap.dedent(manifest), **kw)
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    return info.value


# every kind of mistake: (manifest, line, col, words the message must contain)
BAD = {
    "unknown model": ("name: x\nmodels: [sc, tsoo]\ntests: '*.litmus'\n", 2, 14, "unknown model 'tsoo'"),
    "missing model file": ("name: x\nmodels: [sc, ../nowhere.mm]\ntests: '*.litmus'\n", 2, 14,
                           "model file '../nowhere.mm' not found"),
    "missing test file": ("name: x\nmodels: [sc]\ntests: [SB.litmus, XX.litmus]\n", 3, 20,
                          "test file 'XX.litmus' not found"),
    "glob matching nothing": ("name: x\nmodels: [sc]\ntests:\n  - '*.litmus'\n  - 'ppc/*.litmus'\n", 5, 5,
                              "the glob 'ppc/*.litmus' matches no file"),
    "bad verdict word": ("name: x\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: {sc: Maybe}\n", 5, 12,
                         "bad verdict word 'Maybe'"),
    "test not in the suite": ("name: x\nmodels: [sc]\ntests: 'S*.litmus'\nexpect:\n  MP: {sc: F}\n", 5, 3,
                              "expectation for 'MP', which is not in the suite"),
    "model not in the suite": ("name: x\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: {tso: A}\n", 5, 8,
                               "expectation for model 'tso', which the suite does not run"),
    "unknown key": ("name: x\nmodels: [sc]\ntests: '*.litmus'\nexpected:\n  SB: {sc: F}\n", 4, 1,
                    "unknown key 'expected'"),
    "unknown engine": ("name: x\nengine: herd\nmodels: [sc]\ntests: '*.litmus'\n", 2, 9, "unknown engine 'herd'"),
    "duplicate key": ("name: x\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: {sc: F}\n  SB: {sc: A}\n", 6, 3,
                      "'SB' appears twice"),
    "same test twice, with and without .litmus": (
        "name: x\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: {sc: F}\n  MP: {sc: F}\n  SB.litmus: {sc: A}\n", 7, 3,
        "'SB.litmus' and 'SB' (line 5) name the same test 'SB'"),
    "missing tests": ("name: x\nmodels: [sc]\n", 1, 1, "the manifest has no 'tests'"),
    "not YAML": ("name: x\nmodels: [sc\ntests: '*.litmus'\n", 3, 6, "not valid YAML"),
    "not a mapping": ("- name: x\n", 1, 1, "the manifest must be a mapping"),
    "entry not a mapping": ("name: x\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: Forbidden\n", 5, 7,
                            "the expectations of 'SB' must be a mapping"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_manifest_says_what_and_where(tmp_path, case):
    manifest, line, col, words = BAD[case]
    err = _error(tmp_path, manifest)
    assert words in err.message
    assert (err.pos.file, err.pos.line, err.pos.col) == (str(tmp_path / "manifest.yaml"), line, col), str(err)


def test_unknown_model_hint_lists_bundled_models(tmp_path):
    err = _error(tmp_path, BAD["unknown model"][0])
    assert "bundled models:" in err.hint and "tso" in err.hint


def test_cli_reports_a_bad_manifest_in_one_paragraph_with_exit_2(tmp_path):
    make_suite(tmp_path, BAD["bad verdict word"][0])
    proc = mmdsl("suite", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"{tmp_path}/manifest.yaml:5:12: manifest error: bad verdict word 'Maybe'")
    assert "Traceback" not in proc.stderr


def test_model_path_relative_to_the_manifest(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "mine.mm").write_text((ROOT / "models" / "tso.mm").read_text())
    suite = load_manifest(make_suite(tmp_path / "s", "name: x\nmodels: [sc, ../models/mine.mm, t2=tso]\n"
                                                      "tests: '*.litmus'\nexpect:\n  SB: {mine: A, t2: A}\n"))
    assert [m.column for m in suite.models] == ["sc", "mine", "t2"]
    assert suite.models[1].source == str((tmp_path / "models" / "mine.mm").resolve())


def test_folder_without_manifest_is_every_test_below_it(tmp_path):
    suite = load_suite(make_suite(tmp_path, None, tests=("SB",), lisa=("MP",)))
    assert suite.keys == ["SB", "lisa/MP"] and suite.models == [] and suite.expect == {}


def test_bundled_suite_found_by_its_litmus_path():
    suite = load_suite("litmus/classic")
    assert suite.name == "classic" and len(suite.tests) >= 47


def test_selecting_tests_by_key_pattern():
    from mmdsl.suite.manifest import select_tests

    suite = load_suite("litmus/classic")
    top = select_tests(suite, ["*"]).keys
    assert top and all("/" not in k for k in top) and "SB+fences" in top
    assert select_tests(suite, ["lisa/S*", "c/SB"]).keys == ["lisa/S", "lisa/SB", "c/SB"]
    assert set(select_tests(suite, ["**/MP"]).keys) == {"lisa/MP", "c/MP"}
    assert select_tests(suite, ["lisa/SB.litmus"]).keys == ["lisa/SB"]  # the suffix, as `expect` allows it
    with pytest.raises(ManifestError, match="no test of suite 'classic' matches 'ppc/\\*'"):
        select_tests(suite, ["ppc/*"])
