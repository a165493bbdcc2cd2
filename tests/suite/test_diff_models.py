"""`mmdsl diff-models`: exactly the tests whose reference verdicts differ, and their executions."""

from __future__ import annotations

import json

import pytest
from refdata import classic_verdicts
from suitefiles import mmdsl

from mmdsl.suite.diffmodels import differences
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite


def _reference_differences(suite, a: str, b: str) -> dict[str, str]:
    """{test key: the model that allows it} for the classic tests whose herd verdicts differ."""
    ref = classic_verdicts()
    out = {}
    for t in suite.tests:
        v = ref[t.key.split("/")[-1]]
        if v[a] != v[b]:
            out[t.key] = a if v[a] == "Allowed" else b
    return out


@pytest.mark.parametrize("a, b", [("tso", "pso"), ("sc", "tso"), ("pso", "rmo"), ("sc", "rmo")])
def test_differences_are_the_reference_differences(a, b):
    suite = load_suite("litmus/classic")
    ma, mb = model_columns(suite, [a, b])
    diff = differences(run_suite(suite, [ma, mb], jobs=1), ma, mb)
    got = {d.test: d.allowed_by for d in diff.differences}
    assert got == _reference_differences(suite, a, b)
    assert diff.failed == []


def test_cli_lists_the_differences_and_writes_both_executions(tmp_path):
    proc = mmdsl("diff-models", "tso", "pso", "--suite", "litmus/classic", "-o", str(tmp_path), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    suite = load_suite("litmus/classic")
    expected = _reference_differences(suite, "tso", "pso")
    assert lines[0] == f"tso and pso differ on {len(expected)} of the {len(suite.tests)} tests of classic:"
    assert [ln.split()[0] for ln in lines[1:1 + len(expected)]] == list(expected)
    assert "  MP         allowed by pso, forbidden by tso" in lines
    assert lines[-3:-1] == ["tso allows 0 of them", f"pso allows {len(expected)} of them"]
    assert lines[-1].startswith(f"wrote {2 * len(expected)} diagram(s) and {2 * len(expected)} text explanation(s)")
    svg = (tmp_path / "c" / "MP.pso.witness.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "MP" in svg
    witness = (tmp_path / "MP.pso.witness.txt").read_text()
    assert "Observation MP Sometimes 1 3" in witness and "a witness: rf:" in witness
    forbidden = (tmp_path / "lisa" / "MP.tso.forbidden.txt").read_text()
    assert "Observation MP Never 0 3" in forbidden
    assert "tso (acyclic): cycle " in forbidden  # the violated axiom and its cycle


def test_cli_json_and_a_model_file(tmp_path):
    proc = mmdsl("diff-models", "models/tso.mm", "tso-axioms", "--suite", "litmus/classic", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["a"], data["b"], data["differences"]) == ("tso", "tso-axioms", [])


def test_programs_with_loops_are_listed_and_say_why_nothing_is_written(tmp_path):
    """archtest runs under the explorer: PO tells SC and TSO apart (DESIGN.md: TSO breaks PO
    only), and its loop keeps the checker from finding executions to write -- said, not a crash."""
    proc = mmdsl("diff-models", "sc", "tso", "--suite", "litmus/archtest", "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["sc and tso differ on 1 of the 2 tests of archtest:", "  po  allowed by tso, forbidden by sc"]
    assert lines[-1] == ("no executions written for po: po has a loop, and execution diagrams come from the "
                         "axiomatic checker, which runs loop-free tests")
