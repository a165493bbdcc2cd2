"""Hostile model files: long chains, deep nesting, many annotations, many errors, include loops.

Each must load and run (when it is valid) or end in a located model error with exit code 2:
never a RecursionError, a traceback or a hang.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from budget import cpu_budget
from typer.testing import CliRunner

from mmdsl.cli.app import app

REPO = Path(__file__).resolve().parents[2]
SB = str(REPO / "litmus" / "classic" / "SB.litmus")
COM = "rf | co | fr"
DIFF_RF, DIFF_0, DIFF_IW = " \\ rf", " \\ 0)", " \\ IW"  # (no backslash inside an f-string's braces)

runner = CliRunner()


def run_sb(tmp_path: Path, text: str):
    path = tmp_path / "hostile.mm"
    path.write_text(text)
    return path, runner.invoke(app, ["run", "-m", str(path), SB])


def check_model(tmp_path: Path, text: str):
    path = tmp_path / "hostile.mm"
    path.write_text(text)
    return path, runner.invoke(app, ["check-model", str(path)])


def assert_sc_verdict(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    assert "Observation SB Never" in result.output


def assert_located_error(result, path: Path, fragment: str):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert f"{path}:" in result.output and "model error" in result.output, result.output
    assert fragment in result.output, result.output


# ----- long but valid: they load, print and run --------------------------------------------

LONG_VALID = {
    "inverse x1000": f"axiom sc : acyclic (po{'^-1' * 1000}) | {COM}",
    "closures x1000": f"axiom sc : acyclic (po{'^-1+?' * 500}) | {COM}",
    "difference x1000": f"axiom sc : acyclic (po{DIFF_RF * 1000}) | {COM}",
    "union x1000": f"axiom sc : acyclic po{' | po' * 1000} | {COM}",
    "sequence x1000": f"axiom sc : acyclic po | {COM} | (po{' ; po' * 1000})",
    "intersection x1000": f"axiom sc : acyclic (po{' & po' * 1000}) | {COM}",
    "complement x150": f"axiom sc : acyclic {'~' * 150}(po | {COM})",
    "parentheses x150": f"axiom sc : acyclic {'(' * 150}po | {COM}{')' * 150}",
    "nested differences x100": f"axiom sc : acyclic {'(' * 100}po{DIFF_0 * 100} | {COM}",
    "class difference x1000": f"class A = M{DIFF_IW * 1000}\naxiom sc : acyclic ([A] ; po ; [A]) | {COM}",
}


@pytest.mark.parametrize("case", sorted(LONG_VALID))
def test_long_valid_models_run(tmp_path, case):
    path, result = run_sb(tmp_path, f"model long\n{LONG_VALID[case]}\n")
    assert_sc_verdict(result)
    result = runner.invoke(app, ["check-model", str(path)])
    assert result.exit_code == 0, result.output
    assert "ok: model 'long' is well formed" in result.output


def test_a_chain_of_a_thousand_lets_runs(tmp_path):
    lets = "".join(f"let a{i + 1} = a{i} | po\n" for i in range(1000))
    path, result = run_sb(tmp_path, f"model lets\nlet a0 = {COM}\n{lets}axiom sc : acyclic a1000\n")
    assert_sc_verdict(result)


def test_fence_selection_follows_a_chain_of_a_thousand_lets(tmp_path):
    lets = "".join(f"let a{i + 1} = a{i} | rfe\n" for i in range(1000))
    path = tmp_path / "lets.mm"
    path.write_text("model lets\nreorder {\n  R W\n R - -\n W Y -\n}\nforwarding own-writes\n"
                    f"fence mfence orders M * M cost 3\nlet a0 = rfe | co | fr\n{lets}"
                    "axiom uniproc : acyclic po-loc | rf | co | fr\naxiom tso : acyclic ppo | fence | a1000\n")
    result = runner.invoke(app, ["fences", "-m", str(path), SB])
    assert result.exit_code == 0, result.output
    assert "Total 2 fence(s), cost 6" in result.output


# ----- absurd: a located error, quickly -------------------------------------------------------

@pytest.mark.parametrize("depth", [201, 100_000])
def test_absurd_parentheses_are_a_located_error(tmp_path, depth):
    with cpu_budget(10):
        path, result = check_model(tmp_path, f"model deep\naxiom sc : acyclic {'(' * depth}po{')' * depth}\n")
    assert_located_error(result, path, f"nested too deeply to be read ({depth} levels of brackets here)")
    assert f"{path}:2:{19 + depth}:" in result.output  # the deepest bracket


def test_absurd_complement_chain_is_a_located_error(tmp_path):
    path, result = check_model(tmp_path, f"model deep\naxiom sc : acyclic {'~' * 100_000}po\n")
    assert_located_error(result, path, "a chain of 100000 '~'")


def test_expression_nested_past_the_bound_is_a_located_error(tmp_path):
    text = f"model deep\naxiom sc : acyclic {'(' * 180}po{DIFF_0 * 180} | {COM}\n"
    path, result = run_sb(tmp_path, text)
    assert_located_error(result, path, "expression nested too deeply")
    assert f"{path}:2:" in result.output


def test_set_let_chain_past_the_bound_is_a_located_error(tmp_path):
    lets = "".join(f"let s{i + 1} = s{i} | acq\n" for i in range(400))
    text = f"model deep\nlet s0 = R\n{lets}class C = s400\nreorder {{\n  C W\n C - -\n W Y -\n}}\n"
    path, result = check_model(tmp_path, text)
    assert_located_error(result, path, "expression nested too deeply")
    assert result.output.count("model error") == 1  # what is built on it is not reported again


def test_class_chain_past_the_bound_is_a_located_error(tmp_path):
    classes = "".join(f"class C{i + 1} = C{i} | acq\n" for i in range(400))
    text = f"model deep\nclass C0 = R\n{classes}reorder {{\n  C400 W\n C400 - -\n W Y -\n}}\n"
    path, result = check_model(tmp_path, text)
    assert_located_error(result, path, "expression nested too deeply")


def test_a_thousand_errors_are_reported_together(tmp_path):
    axioms = "".join(f"axiom a{i} : acyclic po | nope{i}\n" for i in range(1000))
    path, result = check_model(tmp_path, f"model many\n{axioms}")
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.startswith(f"{path}:")]
    assert len(lines) == 1000
    assert [int(ln.split(":")[1]) for ln in lines] == list(range(2, 1002))
    assert result.output.rstrip().endswith("1000 errors")


# ----- many annotations: the partition check is polynomial ------------------------------------

def _annotated_model(n: int) -> str:
    names = [f"a{i:02d}" for i in range(n)]
    anyof = " | ".join(names)
    return textwrap.dedent(f"""\
        model annotated
        annotation {", ".join(names)}
        class Rx = R & ({anyof})
        class Rn = R \\ Rx
        class Wx = W & ({anyof})
        class Wn = W \\ Wx
        reorder {{
               Rx Rn Wx Wn
          Rx   -  -  -  -
          Rn   -  -  -  -
          Wx   -  -  -  -
          Wn   Y  Y  Y  -
        }}
        """)


def _load_time(path: Path) -> float:
    """CPU seconds to lower ``path``, measured in a child process (killed if it hangs)."""
    code = ("import sys, time\nfrom mmdsl.lang.lower import lower_model_file\n"
            "lower_model_file(sys.argv[2])\n"  # the grammar is built once, not timed
            "t = time.process_time(); lower_model_file(sys.argv[1]); print(time.process_time() - t)\n")
    warm = path.with_name("warm.mm")
    warm.write_text("model warm\naxiom sc : acyclic po\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), str(warm)], capture_output=True, text=True,
                          timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return float(done.stdout.strip())


@pytest.mark.parametrize("n", [24, 200])
def test_a_table_over_many_annotations_loads_in_well_under_a_second(tmp_path, n):
    path = tmp_path / "annotated.mm"
    path.write_text(_annotated_model(n))
    assert _load_time(path) < 0.5


def test_an_overlap_among_many_annotations_names_the_smallest_shape(tmp_path):
    text = _annotated_model(24).replace("class Rn = R \\ Rx", "class Rn = R \\ a05")
    path, result = check_model(tmp_path, text)
    assert_located_error(result, path, "the table rows overlap: a read annotated a23 is in 'Rx' and 'Rn'")


def test_classes_that_defeat_the_check_are_an_error_not_a_hang(tmp_path):
    a = [f"a{i:02d}" for i in range(30)]
    b = [f"b{i:02d}" for i in range(30)]
    pairs = " | ".join(f"({x} & {y})" for x, y in zip(a, b))
    text = (f"model hard\nannotation {', '.join(a + b)}\nclass P = R & ({' | '.join(a)})\n"
            f"class Q = M & ({pairs})\nclass C = P | Q\nclass D = M \\ C\n"
            "reorder {\n       C  D\n  C  -  -\n  D  -  -\n}\n")
    with cpu_budget(20):
        path, result = check_model(tmp_path, text)
    assert_located_error(result, path, "too intricate to check")


# ----- includes ----------------------------------------------------------------------------------

def test_an_include_cycle_is_a_located_error(tmp_path):
    (tmp_path / "a.mm").write_text('model a\ninclude "b"\naxiom sc : acyclic po | rf | co | fr\n')
    (tmp_path / "b.mm").write_text('model b\ninclude "c.mm"\n')
    (tmp_path / "c.mm").write_text('model c\ninclude "a.mm"\n')
    result = runner.invoke(app, ["check-model", str(tmp_path / "a.mm")])
    assert result.exit_code == 2
    assert f"{tmp_path / 'c.mm'}:2:1: model error: include cycle: a.mm -> b.mm -> c.mm -> a.mm" in result.output


def test_a_wide_diamond_of_includes_is_read_once(tmp_path):
    (tmp_path / "base.mm").write_text("model base\nlet com = rf | co | fr\nfence f orders M * M cost 1\n")
    for i in range(50):
        (tmp_path / f"mid{i}.mm").write_text(f'model mid{i}\ninclude "base.mm"\nlet x{i} = po | com\n')
    top = "".join(f'include "mid{i}.mm"\n' for i in range(50))
    path, result = run_sb(tmp_path, f"model top\n{top}axiom sc : acyclic x0 | x49\n")
    assert_sc_verdict(result)
