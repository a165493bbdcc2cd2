"""Expectations from herd `.litmus.expected` files and `Result:` comments, and `--bless`."""

from __future__ import annotations

import pytest
from refdata import REFERENCE, classic_verdicts
from suitefiles import CLASSIC, make_suite, matrix, mmdsl

from mmdsl.suite.bless import bless
from mmdsl.suite.manifest import ManifestError, load_manifest, load_suite
from mmdsl.suite.run import model_columns, run_suite

HERD_OUTPUT = """Test {name} Allowed
States 4
0:EAX=0; 1:EAX=0;
0:EAX=0; 1:EAX=1;
0:EAX=1; 1:EAX=0;
0:EAX=1; 1:EAX=1;
Ok
Witnesses
Positive: 1 Negative: 3
Condition exists (0:EAX=0 /\\ 1:EAX=0)
Observation {name} {word} 1 3
Time {name} 0.01
"""


def _run(suite, models):
    return run_suite(suite, model_columns(suite, models), jobs=1, executor="inline")


def test_expected_files_speak_for_the_first_model_or_the_named_one(tmp_path):
    folder = make_suite(tmp_path, "name: x\nmodels: [tso, sc]\ntests: '*.litmus'\n", tests=("SB", "MP"))
    (tmp_path / "SB.litmus.expected").write_text(HERD_OUTPUT.format(name="SB", word="Sometimes"))
    (tmp_path / "SB.litmus.sc.expected").write_text(HERD_OUTPUT.format(name="SB", word="Always"))
    (tmp_path / "MP.litmus.expected").write_text(HERD_OUTPUT.format(name="MP", word="Never"))
    suite = load_manifest(folder)
    run = _run(suite, [])
    assert run.expectation("SB", "tso").word == "Sometimes"  # T.litmus.expected: the first model
    assert run.expectation("SB", "sc").word == "Always"  # T.litmus.sc.expected
    assert run.expectation("MP", "sc") is None
    assert run.outcome("SB", "tso") == "held" and run.outcome("MP", "tso") == "held"
    assert run.outcome("SB", "sc") == "mismatch"  # herd would say Never under sc
    assert run.expectation("SB", "sc").describe() == "Always (SB.litmus.sc.expected:11)"


def test_a_manifest_expectation_wins_over_a_file(tmp_path):
    folder = make_suite(tmp_path, "name: x\nmodels: [tso]\ntests: '*.litmus'\nexpect:\n  SB: {tso: Allowed}\n",
                        tests=("SB",))
    (tmp_path / "SB.litmus.expected").write_text(HERD_OUTPUT.format(name="SB", word="Never"))
    run = _run(load_manifest(folder), [])
    assert run.expectation("SB", "tso").origin == "manifest" and run.outcome("SB", "tso") == "held"


def test_herd_output_without_observation_is_an_error(tmp_path):
    folder = make_suite(tmp_path, "name: x\nmodels: [tso]\ntests: '*.litmus'\n", tests=("SB",))
    (tmp_path / "SB.litmus.expected").write_text("Test SB Allowed\nStates 0\n")
    with pytest.raises(ManifestError, match="no 'Observation NAME Never|Sometimes|Always' line") as info:
        load_manifest(folder)
    assert info.value.pos.file.endswith("SB.litmus.expected")


def test_result_comments_are_read_from_the_source(tmp_path):
    """A Linux-kernel style `(* Result: ... *)` comment; the comment is blanked for parsing,
    so it is read from the program's source. Outside a comment the word means nothing."""
    lisa_sb = (CLASSIC / "lisa" / "SB.litmus").read_text()
    lines = lisa_sb.split("\n")
    (tmp_path / "SB.litmus").write_text("\n".join([lines[0], "(*", " * Result: Sometimes", " *)", *lines[1:]]))
    (tmp_path / "MP.litmus").write_text((CLASSIC / "lisa" / "MP.litmus").read_text()
                                        .replace("\n", "\n(* Result: Always *)\n", 1))
    suite = load_suite(tmp_path)
    run = _run(suite, ["tso", "sc"])
    sb = run.expectation("SB", "tso")
    assert (sb.word, sb.origin, sb.pos.line, sb.pos.col) == ("Sometimes", "Result comment", 3, 12)
    assert run.expectation("SB", "sc") is None  # Result: speaks for the first model only
    assert run.outcome("SB", "tso") == "held"
    assert run.outcome("MP", "tso") == "mismatch"  # MP is Never under TSO, not Always
    assert run.exit_code() == 1


BLESS_MANIFEST = """\
# a comment that must survive
name: mini   # trailing comment
models: [sc, tso]
tests: ["*.litmus", "lisa/*.litmus"]
expect:
  SB: {sc: F, tso: F, reason: "deliberately wrong"}   # keep me
  MP:
    sc: Never   # keep me too
  lisa/SB: {sc: Forbidden}
# the end
"""


def test_bless_edits_only_the_expectations(tmp_path):
    path = make_suite(tmp_path, BLESS_MANIFEST, tests=("SB", "MP", "LB"), lisa=("SB",))
    suite = load_manifest(path)
    run = _run(suite, [])
    assert run.exit_code() == 1
    report = bless(run)
    assert report.changed == [("SB", "tso", "Forbidden", "Allowed")]
    assert ("LB", "tso", "Forbidden") in report.added and ("MP", "tso", "Never") not in report.added
    text = path.read_text()
    for kept in ("# a comment that must survive", "name: mini   # trailing comment", "# keep me",
                 "sc: Never   # keep me too", "# the end", 'reason: "deliberately wrong"'):
        assert kept in text
    assert '  SB: {sc: F, tso: A, reason: "deliberately wrong"}   # keep me' in text  # A/F style kept
    assert "  lisa/SB: {sc: Forbidden, tso: Allowed}" in text
    assert "    sc: Never   # keep me too\n    tso: Forbidden" in text
    blessed = _run(load_manifest(path), [])
    assert blessed.exit_code() == 0 and blessed.outcomes() == {"held": 8}
    ref = classic_verdicts()
    assert all(matrix(blessed)[(t, m)] == ref[t.split("/")[-1]][m] for t, m in blessed.cells)
    assert bless(blessed).changed == [] and path.read_text() == text  # blessing twice changes nothing


def test_bless_without_expect_appends_it(tmp_path):
    path = make_suite(tmp_path, "name: mini\nmodels: [sc]\ntests: '*.litmus'", tests=("SB",))
    bless(_run(load_manifest(path), []))
    assert path.read_text() == "name: mini\nmodels: [sc]\ntests: '*.litmus'\nexpect:\n  SB: {sc: Forbidden}\n"


def test_cli_bless_then_the_suite_passes(tmp_path):
    make_suite(tmp_path, "name: mini\nmodels: [sc, tso]\ntests: '*.litmus'\nexpect: {}\n", tests=("SB", "R"))
    proc = mmdsl("suite", str(tmp_path), "--bless", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert f"blessed {tmp_path}/manifest.yaml: 0 changed, 4 added" in proc.stdout
    assert (tmp_path / "manifest.yaml").read_text().endswith(
        "expect:\n  R: {sc: Forbidden, tso: Allowed}\n  SB: {sc: Forbidden, tso: Allowed}\n")
    assert mmdsl("suite", str(tmp_path), "--jobs", "1").returncode == 0


def test_x86_manifest_keys_are_every_reference_path():
    """The bundled x86 suite: every test of the corpus, each with herd's two Observation words."""
    import csv

    with open(REFERENCE / "x86-corpus" / "verdicts.csv") as f:
        rows = {r["path"][: -len(".litmus")]: r for r in csv.DictReader(f)}
    suite = load_suite("litmus/x86")
    assert sorted(suite.keys) == sorted(rows)
    assert all(suite.expect[(k, m)].word == rows[k][m] for k in rows for m in ("sc", "tso"))
