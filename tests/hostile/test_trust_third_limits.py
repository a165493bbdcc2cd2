"""Issue 27, item 4: time and memory that grew without bound -- ``check-model`` without a
``--timeout``, a quadratic check of fence names, a manifest repeating one glob 200,000 times
loaded outside the time limit, and ``suite --jobs 10000`` starting a process per test.

Bounds are on work (calls made, processes started); the one wall-clock bound is a
``--timeout`` test, with a margin of ten times its limit.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from mmdsl.suite import local
from mmdsl.suite.manifest import load_suite, load_suite_within
from mmdsl.suite.run import default_jobs, model_columns, run_suite

ROOT = Path(__file__).resolve().parents[2]
SB = ROOT / "litmus" / "classic" / "SB.litmus"


def mmdsl(*args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "mmdsl", *map(str, args)], capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mmdsl {' '.join(map(str, args))} ran past 120 s")


def test_check_model_stops_at_its_timeout(tmp_path):
    """A cat union of 600,000 terms takes longer than a second to read: --timeout 1 stops it."""
    path = tmp_path / "union.cat"
    path.write_text('"union"\nlet r = ' + " | ".join(["po"] * 600_000) + "\nacyclic r as big\n")
    start = time.monotonic()
    r = mmdsl("check-model", path, "--timeout", "1")
    assert time.monotonic() - start < 60  # wall-clock: --timeout 1 stopped it (60 times the limit)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"timeout: checking model {path}: timed out after 1 s" in r.stderr
    ok = mmdsl("check-model", "tso", "--timeout", "30")
    assert ok.returncode == 0 and "ok: model 'tso' is well formed" in ok.stdout


def test_fence_names_are_checked_against_one_index(tmp_path, monkeypatch):
    """1,000 fences: each name is looked up once, not against every earlier fence's spellings
    (half a million lookups before); a clash is still found, case blind, and named."""
    from mmdsl.lang import load_model
    from mmdsl.lang.ir import FenceDecl

    calls = []
    real = FenceDecl.spellings
    monkeypatch.setattr(FenceDecl, "spellings", property(lambda self: calls.append(1) or real.fget(self)))
    head = 'model f "many fences"\nreorder {\n   R W\n R - -\n W Y -\n}\nforwarding own-writes\n'
    path = tmp_path / "fences.mm"
    path.write_text(head + "".join(f"fence f{i} aka g{i} orders M * M cost 1\n" for i in range(1000)))
    model = load_model(path)
    assert len(model.fences) == 1000
    assert len(calls) < 10_000
    clash = tmp_path / "clash.mm"
    clash.write_text(head + "fence mb orders M * M cost 1\nfence sync aka MB orders W * W cost 1\n")
    r = mmdsl("check-model", clash)
    assert r.returncode == 2 and f"{clash}:9:1" in r.stderr, r.stderr
    assert "fence name 'mb' is already used by fence 'mb'" in r.stderr


def test_a_glob_repeated_200000_times_is_looked_up_once(tmp_path, monkeypatch):
    from mmdsl.suite import manifest

    (tmp_path / "SB.litmus").write_text(SB.read_text())
    (tmp_path / "manifest.yaml").write_text(
        "name: big\nmodels: [sc]\ntests: [" + ", ".join(['"*.litmus"'] * 200_000) + "]\n")
    globs = []
    real = manifest._glob
    monkeypatch.setattr(manifest, "_glob", lambda root, pattern: globs.append(pattern) or real(root, pattern))
    suite = load_suite(tmp_path)
    assert [t.key for t in suite.tests] == ["SB"] and globs == ["*.litmus"]


def test_loading_a_manifest_counts_against_the_timeout(tmp_path, monkeypatch):
    from mmdsl.core.limits import TimeLimitError
    from mmdsl.suite import manifest

    (tmp_path / "SB.litmus").write_text(SB.read_text())
    (tmp_path / "manifest.yaml").write_text('name: slow\nmodels: [sc]\ntests: ["*.litmus"]\n')
    real = manifest._glob

    def slow(root, pattern):
        end = time.monotonic() + 60
        while time.monotonic() < end:  # busy, as a huge manifest is
            pass
        return real(root, pattern)

    monkeypatch.setattr(manifest, "_glob", slow)
    start = time.monotonic()
    with pytest.raises(TimeLimitError, match=f"loading the suite '{tmp_path}': timed out after 0.5 s"):
        load_suite_within(tmp_path, 0.5)
    assert time.monotonic() - start < 30  # wall-clock: the 60 s glob was cut (limit 0.5 s)


def test_jobs_are_capped_at_the_tests_and_the_cores(tmp_path, monkeypatch):
    for name in ("SB", "MP", "LB", "IRIW", "WRC"):
        (tmp_path / f"{name}.litmus").write_text((SB.parent / f"{name}.litmus").read_text())
    spawned = []
    real = local.LocalPool._spawn
    monkeypatch.setattr(local.LocalPool, "_spawn", lambda self: spawned.append(1) or real(self))
    suite = load_suite(tmp_path)
    run = run_suite(suite, model_columns(suite, ["sc"]), jobs=10_000)
    assert len(run.cells) == 5 and all(c.status == "ok" for c in run.cells.values())
    assert len(spawned) == run.jobs == min(5, default_jobs())


@pytest.mark.parametrize("term", ["~(x=2)", "a[1]=0", "0:EAX=0 \\/ ~x=3"])
def test_a_condition_of_20000_terms_is_read_in_linear_time(term):
    """The grammar took about a millisecond per term (a minute for 16,000); read flat, 20,000
    terms take a fraction of a second: 5 CPU seconds is a margin of ten and more."""
    from budget import cpu_budget

    from mmdsl.litmus import parse_litmus

    text = ("X86 big\n{ x=0; int a[2]; }\n P0 ;\n MOV [x],$1 ;\nexists ("
            + " /\\ ".join([term] * 20_000) + ")\n")
    with cpu_budget(5):
        program = parse_litmus(text, "big.litmus")
    prop = program.condition.prop
    assert len(prop.items) == (20_000 if "\\/" not in term else 20_001)  # a \/ ~b /\ c \/ ...


def test_a_condition_read_flat_keeps_the_grammars_errors():
    from mmdsl.core.errors import LitmusError
    from mmdsl.litmus import parse_litmus

    head = "X86 t\n{ x=0; int a[2]; }\n P0 ;\n MOV [x],$1 ;\n"
    for cond, where, words in (("exists (x=1 /\\ )", "5:13", "malformed final condition at '/\\ )'"),
                               ("exists (a[5]=1 \\/ ~x=1)", "5:9", "'a[5]' is past the end of array 'a'"),
                               ("exists (x=1 \\/ a=1)", "5:16", "'a' is an array of 2 cells")):
        with pytest.raises(LitmusError) as e:
            parse_litmus(head + cond + "\n", "t.litmus")
        assert f"t.litmus:{where}:" in str(e.value) and words in str(e.value), str(e.value)


def test_a_cat_union_of_200000_terms_is_read_and_run_in_linear_time(tmp_path):
    """Time grew with the square of the terms (5,000: 1.2 s, 40,000: 21 s, 200,000: past a
    minute), and running it then overflowed the C stack (a chain of 200,000 lazy maps)."""
    from budget import cpu_budget

    path = tmp_path / "union.cat"
    path.write_text('"union"\nlet r = ' + " | ".join(["po", "rf"] * 100_000) + "\nacyclic r as big\n")
    with cpu_budget(60):
        r = mmdsl("run", SB, "-m", path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("Test SB Allowed")


def test_a_union_of_many_relations_is_not_a_deep_c_recursion():
    from mmdsl.relations import Rel
    from mmdsl.relations.algebra import union_all

    one = Rel(3, (0b010, 0, 0))
    assert union_all(3, [one] * 300_000 + [Rel(3, (0, 0b100, 0))]).rows == (0b010, 0b100, 0)
