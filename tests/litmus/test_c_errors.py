"""Bad C tests: malformed code is a LitmusError, an unsupported construct an UnsupportedError, each at file:line:col."""

from __future__ import annotations

import pytest
from c_source import c_test
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.litmus import parse_litmus

# (body, error class, line, column, words the message must contain); the body starts on line 3
CASES = [
    ("P0(int *x) {\n  int r0 = READ_ONCE(*x)\n}", LitmusError, 5, 1, "expected ';'"),
    ("P0(int *x) { if (*x == 1 { } }", LitmusError, 3, 26, "expected ')'"),
    ("P0(int *x) { int r = ; }", LitmusError, 3, 22, "expected an expression"),
    ("P0(int *x) { @ }", LitmusError, 3, 14, "expected a statement or '}'"),
    ("int y[2];\nP0(int *x) { }", UnsupportedError, 3, 5, "array 'y'"),
    ("P0(int *x) { r0 = 1; }", LitmusError, 3, 14, "unknown name 'r0'"),
    ("P0(int *x) { break; }", LitmusError, 3, 14, "'break' outside a loop"),
    ("P1(int *x) { }", LitmusError, 3, 1, "expected 'P0'"),
    ("P0(int *x) { int x = 1; }", LitmusError, 3, 18, "name of a parameter"),
    ("P0(int *x) { int r = READ_ONCE(x); }", LitmusError, 3, 32, "READ_ONCE(*x)"),
    ("P0(int *x) { int r = READ_ONCE(*x, 1); }", LitmusError, 3, 22, "takes 1 argument, not 2"),
    ("P0(int *x) { int r = atomic_load_explicit(x, 3); }", LitmusError, 3, 46, "memory_order_relaxed"),
    ("P0(int *x) { int r = smp_mb(); }", LitmusError, 3, 22, "returns no value"),
    ("P0(int *x) { int r = 08; }", LitmusError, 3, 22, "expected an expression"),
    ("P0(int *x) {\n  int r = x[1];\n}", UnsupportedError, 4, 11, "array indexing"),
    ("P0(int ***x) { }", UnsupportedError, 3, 8, "pointer to pointer to pointer"),
    ("P0(int **x) { int r = **x; }", UnsupportedError, 3, 24, "pointer to pointer"),
    ("P0(int *x) { int r = **x; }", UnsupportedError, 3, 23, "pointer to pointer"),
    ("P0(int *x) { int r = *(x + 1); }", UnsupportedError, 3, 24, "pointer arithmetic"),
    ("P0(int *x) { foo(x); }", UnsupportedError, 3, 14, "call to 'foo'"),
    ("P0(int *x) { goto L; }", UnsupportedError, 3, 14, "'goto'"),
    ("P0(int *x) { L: *x = 1; }", UnsupportedError, 3, 14, "a label"),
    ("P0(int *x) { return; }", UnsupportedError, 3, 14, "'return'"),
    ("P0(int *x) { switch (*x) { } }", UnsupportedError, 3, 14, "'switch'"),
    ("P0(int *x) { struct s a; }", LitmusError, 3, 23, "unknown struct 's'"),
    ("P0(int *x) { int r = *x ? 1 : 2; }", UnsupportedError, 3, 22, "'?:'"),
    ("P0(int *x) { int r = *x << 1; }", UnsupportedError, 3, 22, "shift"),
    ("P0(int *x) { int r = x->f; }", LitmusError, 3, 22, "'->f' needs a pointer to a struct"),
    ("P0(int *x) { int r; int r; }", LitmusError, 3, 25, "'r' is declared twice in the same block"),
    ("P0(int *x) { int r; if (r) { int r = 1; } }", UnsupportedError, 3, 34, "again in an inner block"),
    ("P0(int x) { }", UnsupportedError, 3, 8, "not a pointer"),
    ("P0(int *x) { x = 1; }", UnsupportedError, 3, 14, "assigning to parameter 'x'"),
    ("P0(int *x) { int r = atomic_compare_exchange_weak(x, &r, 1); }", UnsupportedError, 3, 22, "spuriously"),
    ("P0(int *x) { int r = 0; int *p = &r; }", UnsupportedError, 3, 34, "address"),
    ("helper(int *x) { }", LitmusError, 4, 1, "no thread functions"),
]


@pytest.mark.parametrize("body, cls, line, col, words", CASES)
def test_error_class_position_and_message(body, cls, line, col, words):
    with pytest.raises(cls) as info:
        parse_litmus(c_test(body), "bad.litmus")
    err = info.value
    assert type(err) is cls
    assert (err.pos.file, err.pos.line, err.pos.col) == ("bad.litmus", line, col)
    assert str(err).startswith(f"bad.litmus:{line}:{col}: ")
    assert words in str(err)


def test_condition_must_name_locals_of_the_thread():
    with pytest.raises(LitmusError, match=r"bad.litmus:4:1: .*names 0:r9, and P0 has no local 'r9'"):
        parse_litmus(c_test("P0(int *x) { int r0 = *x; }", cond="exists (0:r9=1)"), "bad.litmus")
    with pytest.raises(LitmusError, match="names 2:r0, and there are 1 threads"):
        parse_litmus(c_test("P0(int *x) { int r0 = *x; }", cond="exists (2:r0=1)"), "bad.litmus")


def test_axiomatic_engine_refuses_loops_by_name(tmp_path):
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model

    p = parse_litmus(c_test("P0(int *x) {\n  while (READ_ONCE(*x) == 0) {}\n}"), "loop.litmus")
    with pytest.raises(UnsupportedError, match=r"loop.litmus:4:3: .*has a loop .*explorer"):
        check(p, load_model("sc"))


@pytest.mark.parametrize("body, cls, line, col, words", [CASES[0], CASES[18], CASES[14]])
def test_cli_reports_one_paragraph_and_exit_code_2(tmp_path, body, cls, line, col, words):
    f = tmp_path / "bad.litmus"
    f.write_text(c_test(body))
    result = CliRunner().invoke(app, ["run", str(f), "-m", "sc"])
    assert result.exit_code == 2
    assert f"{f}:{line}:{col}: " in result.output and words in result.output
    assert "Traceback" not in result.output
