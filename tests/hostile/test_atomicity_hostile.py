"""ATOMIC_BEGIN/ATOMIC_END used wrongly: refused at the marker's line and column, never a traceback."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import MmdslError

HEAD = "#include <pthread.h>\n#include <atomicity.h>\nint x;\n"
MAIN = "\nint main(void) { pthread_t t; pthread_create(&t, NULL, w, NULL); pthread_join(t, NULL); return 0; }\n"


def load(tmp_path, body: str):
    from mmdsl.litmus.cprog import load_c_program

    path = tmp_path / "h.c"
    path.write_text(HEAD + body + MAIN)
    return load_c_program(str(path))


@pytest.mark.parametrize("body, message, line, col", [
    ("void *w(void *a) { x = 1; ATOMIC_END(); return NULL; }",
     "ATOMIC_END() in 'w' closes no block", 4, 27),
    ("void *w(void *a) { ATOMIC_BEGIN(); x = 1; }",
     "ATOMIC_BEGIN() in 'w' is never closed", 4, 20),
    ("void *w(void *a) { ATOMIC_BEGIN(); ATOMIC_BEGIN(); x = 1; ATOMIC_END(); ATOMIC_END(); return NULL; }",
     "a second ATOMIC_BEGIN() in 'w' while the block opened at", 4, 36),
    ("void *w(void *a) { ATOMIC_BEGIN(); if (x) return NULL; ATOMIC_END(); return NULL; }",
     "'return' inside the atomic block opened at", 4, 43),
    ("void *w(void *a) { while (1) { ATOMIC_BEGIN(); if (x) break; ATOMIC_END(); } return NULL; }",
     "'break' inside the atomic block opened at", 4, 55),
    ("void *w(void *a) { ATOMIC_BEGIN(); for (int i = 0; i < 2; i++) { if (i) break; } ATOMIC_END(); "
     "return NULL; }", None, None, None),  # a break that stays inside the block is fine
    ("void *w(void *a) { ATOMIC_BEGIN(); ATOMIC_END(); int k = ATOMIC_END(); return NULL; }",
     "ATOMIC_END() inside an expression", 4, 58),
    ("void *w(void *a) { ATOMIC_BEGIN(1); x = 1; ATOMIC_END(); return NULL; }",
     "'ATOMIC_BEGIN' takes no arguments", 4, 20),
    # a block across functions: opened in the thread, closed by a function it calls
    ("void close_it(void) { ATOMIC_END(); }\nvoid *w(void *a) { ATOMIC_BEGIN(); close_it(); return NULL; }",
     "ATOMIC_END() in 'close_it' closes no block", 4, 23),
])
def test_misplaced_markers_are_refused_where_they_are(tmp_path, body, message, line, col):
    if message is None:
        assert len(load(tmp_path, body).atomic_blocks) == 1
        return
    with pytest.raises(MmdslError) as err:
        load(tmp_path, body)
    assert message in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (line, col)


def test_begin_inside_an_expression_is_refused(tmp_path):
    with pytest.raises(MmdslError) as err:
        load(tmp_path, "void *w(void *a) { ATOMIC_BEGIN(); int k = ATOMIC_BEGIN(); ATOMIC_END(); return NULL; }")
    assert "ATOMIC_BEGIN() inside an expression" in err.value.message


def test_a_block_two_threads_run_at_once_is_judged_per_thread(tmp_path):
    """Both threads in the same block at the same time: each carries its own position."""
    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    path = tmp_path / "two.c"
    path.write_text(HEAD + """pthread_mutex_t m;
void *w(void *a) { ATOMIC_BEGIN(); pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); ATOMIC_END();
                   return NULL; }
int main(void) { pthread_t s, t; pthread_create(&s, NULL, w, NULL); pthread_create(&t, NULL, w, NULL);
                 ATOMIC_BEGIN(); pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); ATOMIC_END();
                 pthread_join(s, NULL); pthread_join(t, NULL); return 0; }
""")
    r = check_atomicity(load_c_program(str(path)), load_model("sc"))
    assert [b.verdicts["C"] for b in r.blocks] == ["checked", "checked"]


def test_more_blocks_than_a_marker_can_name_are_refused(tmp_path):
    calls = "".join(f"void f{i}(void) {{ ATOMIC_BEGIN(); x = {i}; ATOMIC_END(); }}\n" for i in range(63))
    body = calls + "void *w(void *a) { " + "".join(f"f{i}(); " for i in range(63)) + "return NULL; }"
    with pytest.raises(MmdslError) as err:
        load(tmp_path, body)
    assert "more than 62 atomic blocks" in err.value.message


def test_a_state_limit_is_a_clear_error_not_a_traceback():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "mmdsl", "check", "litmus/atomicity/stringbuffer.c", "--atomicity",
                           "--max-states", "50"], cwd=root, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert "limit: checking the atomicity of stringbuffer: the search reached 50 states" in proc.stderr
    assert "hint: raise --max-states" in proc.stderr and "Traceback" not in proc.stderr


def test_a_mover_block_closed_by_atomic_end_is_refused(tmp_path):
    with pytest.raises(MmdslError) as err:
        load(tmp_path, "void *w(void *a) { MOVER_BEGIN(); x = 1; ATOMIC_END(); return NULL; }")
    assert "ATOMIC_END() in 'w' closes the MOVER_BEGIN() at" in err.value.message
    assert err.value.expected == "MOVER_END()"
    assert (err.value.pos.line, err.value.pos.col) == (4, 42)
