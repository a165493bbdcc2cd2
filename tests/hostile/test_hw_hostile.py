"""Hostile inputs to `mmdsl hw`: test text never reaches the C source or a shell as code."""

from __future__ import annotations

import platform
import shutil
from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.hardware.harness import build_harness
from mmdsl.litmus import load_litmus


def _program(tmp_path, text, name="T.litmus"):
    f = tmp_path / name
    f.write_text(text)
    return load_litmus(f)


def test_names_that_are_c_code_do_not_reach_the_source(tmp_path):
    text = ('X86 SB+system\n"*/ system(rm); exit(1); /*"\n{ main=0; printf=1; }\n P0 | P1 ;\n'
            ' MOV [main],$1 | MOV [printf],$1 ;\n MOV EAX,[printf] | MOV EAX,[main] ;\n'
            'exists (0:EAX=0 /\\ 1:EAX=0)\n')
    src = build_harness(_program(tmp_path, text, 'evil;$(rm).litmus'), "asm").source
    for word in ("system", "(rm)", "exit(1)", "printf=", "main=", "*/ "):
        assert word not in src
    assert "static int64_t *loc_0;" in src and "loc_0[i] = INT64_C(0);" in src
    assert "loc_1[i] = INT64_C(1);" in src  # printf's initial value, under a generated name


@pytest.mark.skipif(shutil.which("gcc") is None or platform.machine() != "x86_64", reason="needs x86-64 and gcc")
def test_a_file_name_with_shell_syntax_runs_as_data(tmp_path):
    from typer.testing import CliRunner

    from mmdsl.cli.app import app

    f = tmp_path / "a;$(touch pwned)`touch pwned2`.litmus"
    f.write_text("X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
                 "exists (0:EAX=0 /\\ 1:EAX=0)\n")
    r = CliRunner().invoke(app, ["hw", str(f), "-n", "1000"])
    assert r.exit_code == 0, r.output
    assert "Observation SB" in r.stdout
    assert not list(tmp_path.glob("pwned*")) and not list(Path.cwd().glob("pwned*"))


def test_constants_are_integers_that_fit_in_64_bits(tmp_path):
    from mmdsl.core.errors import LitmusError
    from mmdsl.hardware.codegen import c_int

    with pytest.raises(LitmusError, match="too large"):  # the front end stops it first
        _program(tmp_path, "X86_64 Big\n{ x=99999999999999999999999; }\n P0 ;\n movq $1,(x) ;\nexists (x=1)\n")
    for bad in (1 << 63, -(1 << 63) - 1, "x); system(\"rm", True):  # and the generator checks again
        with pytest.raises(UnsupportedError):
            c_int(bad)
    assert c_int(-(1 << 63)) == "(-INT64_C(9223372036854775807) - 1)" and c_int(-5) == "INT64_C(-5)"


def test_a_location_used_as_a_value_is_refused_with_its_place(tmp_path):
    p = _program(tmp_path, "C P\n{ int *p = x; }\nP0(int **p, int *x) { int *r0 = READ_ONCE(*p); }\n"
                           "exists (0:r0=x)\n")
    with pytest.raises(UnsupportedError, match="as data") as err:
        build_harness(p, "c11")
    assert "T.litmus" in str(err.value) or "register" in str(err.value)


def test_many_threads_are_refused_not_run(tmp_path):
    cols = " | ".join(f"P{k}" for k in range(17))
    row = " | ".join("MOV [x],$1" for _ in range(17))
    p = _program(tmp_path, f"X86 Many\n{{ }}\n {cols} ;\n {row} ;\nexists (x=1)\n")
    with pytest.raises(UnsupportedError, match="17 threads"):
        build_harness(p, "asm")
