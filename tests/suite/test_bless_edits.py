"""`--bless` on manifests written in every way YAML allows: line endings, block scalars,
aliases, edits that meet at one place, and `--json` (issue 9, item 13)."""

from __future__ import annotations

import json

import pytest
from suitefiles import make_suite, mmdsl

from mmdsl.suite.bless import bless
from mmdsl.suite.manifest import ManifestError, load_manifest
from mmdsl.suite.run import model_columns, run_suite


def _bless(path):
    suite = load_manifest(path)
    return bless(run_suite(suite, model_columns(suite, []), jobs=1, executor="inline"))


def _expect(path) -> dict:
    return {k: e.word for k, e in load_manifest(path).expect.items()}


FULL = {("SB", "sc"): "Forbidden", ("SB", "tso"): "Allowed", ("MP", "sc"): "Forbidden", ("MP", "tso"): "Forbidden"}


def test_additions_to_the_last_entry_and_new_entries_meet_in_order(tmp_path):
    """The last block entry's new line and the new entries go at one place: once they came out
    interleaved (`MP: {...}` before `tso: Allowed`), which is not YAML."""
    path = make_suite(tmp_path, "name: m\nmodels: [sc, tso]\ntests: ['*.litmus']\nexpect:\n  SB:\n    sc: F\n",
                      tests=("SB", "MP"))
    _bless(path)
    assert path.read_text().endswith("expect:\n  SB:\n    sc: F\n    tso: Allowed\n"
                                     "  MP: {sc: Forbidden, tso: Forbidden}\n")
    assert _expect(path) == FULL


def test_crlf_line_endings_are_kept(tmp_path):
    text = "name: m\r\nmodels: [sc, tso]\r\ntests: ['*.litmus']  # c\r\nexpect:\r\n  SB:\r\n    sc: A\r\n"
    path = make_suite(tmp_path, None, tests=("SB", "MP")) / "manifest.yaml"
    path.write_bytes(text.encode())
    report = _bless(path)
    assert report.changed == [("SB", "sc", "Allowed", "Forbidden")]
    data = path.read_bytes()
    assert data == (b"name: m\r\nmodels: [sc, tso]\r\ntests: ['*.litmus']  # c\r\nexpect:\r\n  SB:\r\n"
                    b"    sc: F\r\n    tso: Allowed\r\n  MP: {sc: Forbidden, tso: Forbidden}\r\n")
    assert _expect(path) == FULL


def test_crlf_manifest_without_expect_gets_one_in_crlf(tmp_path):
    path = make_suite(tmp_path, None, tests=("SB",)) / "manifest.yaml"
    path.write_bytes(b"name: m\r\nmodels: [sc]\r\ntests: ['*.litmus']\r\n")
    _bless(path)
    assert path.read_bytes() == b"name: m\r\nmodels: [sc]\r\ntests: ['*.litmus']\r\nexpect:\r\n  SB: {sc: Forbidden}\r\n"


@pytest.mark.parametrize("block", ["|", "|-", "|+", ">", ">-"])
def test_a_block_scalar_word_is_replaced_by_a_plain_word(tmp_path, block):
    text = (f"name: m\ndescription: |\n  several\n  lines\nmodels: [sc, tso]\ntests: ['*.litmus']\n"
            f"expect:\n  SB:\n    sc: {block}\n      A\n    reason: |\n      kept as it is\n  MP:\n    tso: {block}\n"
            f"      Forbidden\n")
    path = make_suite(tmp_path, text, tests=("SB", "MP"))
    report = _bless(path)
    assert report.changed == [("SB", "sc", "Allowed", "Forbidden")]
    out = path.read_text()
    assert "    sc: F\n    reason: |\n      kept as it is\n    tso: Allowed\n" in out
    assert out.startswith("name: m\ndescription: |\n  several\n  lines\n")
    assert _expect(path) == FULL
    assert load_manifest(path).expect[("SB", "sc")].reason == "kept as it is\n"


def test_an_expectation_shared_through_an_alias_is_refused_where_it_is(tmp_path):
    text = "name: m\nmodels: [sc, tso]\ntests: ['*.litmus']\nexpect:\n  SB: &both {sc: F}\n  MP: *both\n"
    path = make_suite(tmp_path, text, tests=("SB", "MP"))
    with pytest.raises(ManifestError, match="shared with another entry through a YAML alias") as info:
        _bless(path)
    assert (info.value.pos.line, info.value.pos.col) == (6, 3)  # the alias
    assert path.read_text() == text
    assert not [p for p in tmp_path.iterdir() if "blessing" in p.name]


def test_an_alias_that_needs_no_edit_is_left_alone(tmp_path):
    text = "name: m\nmodels: [sc, tso]\ntests: ['*.litmus']\nexpect:\n  SB: {sc: &f F}\n  MP: {sc: *f, tso: F}\n"
    path = make_suite(tmp_path, text, tests=("SB", "MP"))
    _bless(path)
    assert path.read_text() == text.replace("{sc: &f F}", "{sc: &f F, tso: Allowed}")


def test_cli_bless_json_is_one_json_document(tmp_path):
    make_suite(tmp_path, "name: m\nmodels: [sc, tso]\ntests: ['*.litmus']\n", tests=("SB",))
    proc = mmdsl("suite", str(tmp_path), "--bless", "--json", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["bless"]["added"] == [{"test": "SB", "model": "sc", "word": "Forbidden"},
                                        {"test": "SB", "model": "tso", "word": "Allowed"}]
    assert proc.stderr == ""


def test_cli_bless_json_failure_is_in_the_one_json_document(tmp_path):
    text = "name: m\nmodels: [sc, tso]\ntests: ['*.litmus']\nexpect:\n  SB: &e {sc: F}\n  MP: *e\n"
    make_suite(tmp_path, text, tests=("SB", "MP"))
    proc = mmdsl("suite", str(tmp_path), "--bless", "--json", "--jobs", "1")
    assert proc.returncode == 2
    report = json.loads(proc.stdout)  # one document: the report, with why blessing failed
    assert report["bless"]["error"]["line"] == 6 and "alias" in report["bless"]["error"]["message"]
    assert "Traceback" not in proc.stderr
