"""Hostile whole C programs for `mmdsl check`: malformed C, unsupported constructs, huge arrays and
loops without --unroll get a located error or a bounded search -- never a traceback or a hang."""

from __future__ import annotations

import pytest
from budget import cpu_budget
from refdata import SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.cli.app import app

runner = CliRunner()
HEAD = "#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\n"


def _check(tmp_path, body: str, *args):
    prog = tmp_path / "p.c"
    prog.write_text(HEAD + body)
    with cpu_budget(30):
        r = runner.invoke(app, ["check", str(prog), *args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "Traceback" not in r.output
    return r


def test_syntax_error_located(tmp_path):
    r = _check(tmp_path, "int main(void) { int x = ; return 0; }\n")
    assert r.exit_code == 2
    assert "p.c:4:" in r.output and "syntax error" in r.output


def test_missing_main(tmp_path):
    r = _check(tmp_path, "int x;\n")
    assert r.exit_code == 2 and "no function 'main'" in r.output


def test_unknown_header(tmp_path):
    r = _check(tmp_path, "#include <sys/mman.h>\nint main(void) { return 0; }\n")
    assert r.exit_code == 2 and "p.c:4:" in r.output and "No such file" in r.output


@pytest.mark.parametrize("body, word", [
    ("int main(void) { l: goto l; return 0; }\n", "goto"),
    ("int f(int n) { return n ? f(n - 1) : 0; }\nint main(void) { return f(3); }\n", "recurs"),
    ("int g(void) { return 1; }\nint main(void) { int (*p)(void) = g; return p(); }\n", ""),
    ("#include <stdlib.h>\nint x;\nint main(void) { free(&x); return 0; }\n", "free of anything but"),
    # int pointers in shared memory are read; their arithmetic and an address as initial value are not
    ("int a[2];\nint main(void) { int *p = a; p = p + 1; *p = 1; return 0; }\n", "arithmetic '+' on the address"),
    ("int x;\nint *p = &x;\nint main(void) { *p = 1; return 0; }\n", "initial value of 'p'"),
    ("int **pp;\nint main(void) { return 0; }\n", "pointer to pointer"),
])
def test_unsupported_construct_refused_with_a_location(tmp_path, body, word):
    r = _check(tmp_path, body)
    assert r.exit_code == 2, r.output
    assert "p.c:" in r.output
    assert word in r.output.lower()


def test_huge_array_refused(tmp_path):
    r = _check(tmp_path, "int a[100000000];\nint main(void) { a[0] = 1; return 0; }\n")
    assert r.exit_code == 2 and "p.c:4:" in r.output and "constant size" in r.output


def test_endless_loop_without_unroll_is_a_livelock_not_a_hang(tmp_path):
    r = _check(tmp_path, "atomic_int x;\nint main(void) { while (atomic_load(&x) == 0) ; return 0; }\n", "-m", "sc")
    assert r.exit_code == 1 and "livelock" in r.output


def test_counting_loop_without_unroll_stops_at_max_states(tmp_path):
    r = _check(tmp_path, "int x;\nint main(void) { while (1) x = x + 1; return 0; }\n",
               "-m", "sc", "--max-states", "2000")
    assert r.exit_code in (1, 2), r.output
    assert "2000 states" in r.output or "livelock" in r.output or "unsupported" in r.output.lower()


def test_out_of_bounds_index_refused(tmp_path):
    r = _check(tmp_path, "int a[2];\nint main(void) { a[5] = 1; return 0; }\n")
    assert r.exit_code == 2 and "out of the bounds" in r.output


RC11 = SHARED_REFERENCE / "herd-cats" / "rc11.cat"
needs_rc11 = pytest.mark.skipif(not RC11.is_file(), reason="herd's rc11.cat (../shared/reference/herd-cats) absent")


@needs_rc11
@pytest.mark.parametrize("body, located", [
    # a counter unrolled past the checker's value domains: refused at its first write
    ("int c;\nvoid *w(void *a) { for (int i = 0; i < 12; i++) c = c + 3; return NULL; }\n"
     "int main(void) { pthread_t t; pthread_create(&t, NULL, w, NULL); c = c + 3; return 0; }\n", "p.c:6:66:"),
    # unsupported C: the front end's located refusal, under the cat model too
    ("int x;\nint main(void) { int *p = &x; p = p + 1; return *p; }\n", "p.c:5:"),
    ("int main(void) { int x = ; }\n", "p.c:4:"),
])
def test_cat_model_refusals_are_located(tmp_path, body, located):
    r = _check(tmp_path, body, "-m", str(RC11), "--max-states", "20000", "--unroll", "12")
    assert r.exit_code == 2, r.output
    assert located in r.output, r.output


@needs_rc11
def test_cat_model_search_bounded_by_max_states(tmp_path):
    body = ("int x;\nvoid *w(void *a) { x = 1; x = 2; return NULL; }\n"
            "int main(void) { pthread_t a, b; pthread_create(&a, NULL, w, NULL); pthread_create(&b, NULL, w, NULL);"
            " x = 3; return 0; }\n")
    r = _check(tmp_path, body, "-m", str(RC11), "--max-states", "5")
    assert r.exit_code == 2 and "--max-states" in r.output, r.output


@pytest.mark.parametrize("command", [["fences", "-m", "tso"], ["draw", "-m", "tso", "--show", "violation"]])
def test_fences_and_draw_locate_a_syntax_error(tmp_path, command):
    prog = tmp_path / "p.c"
    prog.write_text(HEAD + "int main(void) { int x = ; return 0; }\n")
    r = runner.invoke(app, [command[0], str(prog), *command[1:], "-o", str(tmp_path / "out")])
    assert r.exit_code == 2 and "p.c:4:" in r.output and "Traceback" not in r.output


def test_fences_say_when_no_fence_can_help(tmp_path):
    prog = tmp_path / "p.c"
    prog.write_text(HEAD + "int x;\nint main(void) { x = 1; assert(x == 2); return 0; }\n")
    with cpu_budget(30):
        r = runner.invoke(app, ["fences", str(prog), "-m", "tso", "-o", str(tmp_path / "f.c")])
    assert r.exit_code == 1 and "No fence can help" in r.output, r.output
    assert not (tmp_path / "f.c").exists()
