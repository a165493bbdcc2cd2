"""herd's options on `mmdsl run`: -variant, -skipcheck, -through, -show with -o DIR, -conf, -I.

The model is a small cat file written here (no stdlib.cat needed): SC as one named check
under the variant "strong", else only SC per location. The verdicts pinned are the
classic ones (DESIGN.md: SB forbidden under SC, allowed under anything weaker) and
SB's four candidate final states; herd's meaning of each option is in
mmdsl/lang/herd_options.py and mmdsl/render/herd_dot_out.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.cli.run_main import herd_spellings, parse_run_args

ROOT = Path(__file__).resolve().parents[2]
SB = str(ROOT / "litmus/classic/SB.litmus")
MODEL = '''"variant test"
if "strong"
  acyclic po | rf | co | fr as sc
else
  acyclic (po & loc) | rf | co | fr as uniproc
end
'''

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, ["run", *map(str, args)])


@pytest.fixture
def cat(tmp_path):
    path = tmp_path / "var.cat"
    path.write_text(MODEL)
    return path


def observation(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("Observation"))


def states(output: str) -> int:
    return int(next(line for line in output.splitlines() if line.startswith("States")).split()[1])


def test_variant_takes_the_branch_of_the_cat_model(cat):
    weak = invoke(SB, "-m", cat)
    assert weak.exit_code == 0 and observation(weak.output) == "Observation SB Sometimes 1 3"
    strong = invoke(SB, "-m", cat, "--variant", "strong")
    assert strong.exit_code == 0 and observation(strong.output) == "Observation SB Never 0 3"
    listed = invoke(SB, "-m", cat, "--variant", "other,strong")  # herd's comma-separated list
    assert observation(listed.output) == "Observation SB Never 0 3"


def test_skipcheck_and_through_let_executions_past_the_checks(cat):
    skipped = invoke(SB, "-m", cat, "--variant", "strong", "--skipcheck", "sc")
    assert observation(skipped.output) == "Observation SB Sometimes 1 3" and states(skipped.output) == 4
    other = invoke(SB, "-m", cat, "--variant", "strong", "--skipcheck", "uniproc")
    assert observation(other.output) == "Observation SB Never 0 3"
    through = invoke(SB, "-m", cat, "--variant", "strong", "--through", "all")
    assert observation(through.output) == "Observation SB Sometimes 1 3" and states(through.output) == 4
    assert observation(invoke(SB, "-m", cat, "--variant", "strong", "--through", "none").output) \
        == "Observation SB Never 0 3"
    bad = invoke(SB, "-m", cat, "--through", "some")
    assert bad.exit_code == 2 and "unknown -through 'some'" in bad.output


def test_skipcheck_names_an_axiom_of_a_bundled_model():
    r = invoke(SB, "-m", "sc", "--skipcheck", "sc")
    assert observation(r.output) == "Observation SB Sometimes 1 3"
    assert observation(invoke(SB, "-m", "sc").output) == "Observation SB Never 0 3"  # options last one run


@pytest.mark.parametrize("show, graphs", [("prop", 0), ("neg", 3), ("cond", 0), ("wit", 0), ("all", 3)])
def test_o_writes_one_dot_file_per_test_with_the_shown_executions(cat, tmp_path, show, graphs):
    out = tmp_path / "out"
    r = invoke(SB, "-m", cat, "--variant", "strong", "-o", out, "--show", show)
    assert r.exit_code == 0, r.output
    dot = out / "SB.dot"
    assert (dot.read_text().count("digraph") if dot.exists() else 0) == graphs


def test_o_under_through_shows_the_forbidden_witness(cat, tmp_path):
    r = invoke(SB, "-m", cat, "--variant", "strong", "--through", "all", "-o", tmp_path, "--show", "prop")
    assert r.exit_code == 0
    assert (tmp_path / "SB.dot").read_text().count("digraph") == 1


def test_o_with_herds_default_show_writes_nothing_and_says_so(cat, tmp_path):
    r = invoke(SB, "-m", cat, "-o", tmp_path / "out")
    assert r.exit_code == 0 and "-show none" in r.output and not (tmp_path / "out").exists()


def test_conf_file_gives_model_variant_and_include_dirs(cat, tmp_path):
    conf = tmp_path / "strong.cfg"
    conf.write_text(f"# a herd configuration\nmodel {cat.name}\nvariant strong\n\ngraph columns\nfontsize 8\n")
    r = invoke(SB, "--conf", conf)
    assert r.exit_code == 0, r.output
    assert observation(r.output) == "Observation SB Never 0 3"
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "checks.cat").write_text('"inc"\nacyclic po | rf | co | fr as sc\n')
    (tmp_path / "top.cat").write_text('"top"\ninclude "checks.cat"\n')
    (tmp_path / "top.cfg").write_text("model top.cat\ninclude inc\n")
    assert observation(invoke(SB, "--conf", tmp_path / "top.cfg").output) == "Observation SB Never 0 3"
    assert observation(invoke(SB, "-m", tmp_path / "top.cat", "-I", inc).output) == "Observation SB Never 0 3"


def test_conf_errors_are_located_and_herd_only_keys_refused_by_name(tmp_path):
    bad = tmp_path / "bad.cfg"
    bad.write_text("model sc\n  frobnicate yes\n")
    r = invoke(SB, "--conf", bad)
    assert r.exit_code == 2 and "bad.cfg:2:3" in r.output and "unknown key 'frobnicate'" in r.output
    herd = tmp_path / "herd.cfg"
    herd.write_text("speedcheck true\n")
    r = invoke(SB, "--conf", herd)
    assert r.exit_code == 2 and "herd.cfg:1:1" in r.output and "'speedcheck'" in r.output
    loop = tmp_path / "loop.cfg"
    loop.write_text("local-conf loop.cfg\n")
    r = invoke(SB, "--conf", loop)
    assert r.exit_code == 2 and "nested more than" in r.output
    assert invoke(SB, "--conf", tmp_path / "missing.cfg").exit_code == 2


def test_herds_single_dash_spellings_are_read_on_the_fast_path_and_by_typer(cat):
    argv = [SB, "-model", str(cat), "-variant", "strong", "-skipcheck", "sc", "-show", "all"]
    spelled = herd_spellings(argv)
    assert spelled == [SB, "--model", str(cat), "--variant", "strong", "--skipcheck", "sc", "--show", "all"]
    assert herd_spellings(["-m", "-variant"]) == ["-m", "-variant"]  # a value is left alone
    parsed = parse_run_args(spelled)
    assert parsed["variant"] == ["strong"] and parsed["skipcheck"] == ["sc"] and parsed["show"] == "all"
    for extra in ([], ["--draw-format", "dot"]):  # fast path, then typer (an option it alone reads)
        proc = subprocess.run([sys.executable, "-m", "mmdsl", "run", SB, "-model", str(cat), "-variant", "strong",
                               *extra], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert "Observation SB Never 0 3" in proc.stdout


def test_a_variant_no_condition_tests_is_warned_of(cat):
    r = invoke(SB, "-m", cat, "--variant", "strong,mixed")
    assert observation(r.output) == "Observation SB Never 0 3"
    assert "no condition of model var tests the variant(s) mixed" in r.output
    assert "warning" not in invoke(SB, "-m", cat, "--variant", "strong").output
    assert "variant(s) strong" in invoke(SB, "-m", "sc", "--variant", "strong").output  # a .mm model has none
