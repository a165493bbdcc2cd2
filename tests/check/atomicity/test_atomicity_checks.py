"""Small programs, one idea each: what each mode calls a mover, the definite witnesses (a stale
read, a deadlock, a wait that never ends), blocks never reached, nesting, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[3]
HEAD = "#include <pthread.h>\n#include <atomicity.h>\n"
TWO_THREADS = """
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
"""


def with_args(a: int, b: int) -> str:
    """A main that starts ``worker`` twice, with arguments ``a`` and ``b``."""
    first = TWO_THREADS.replace("worker, NULL", f"worker, (void *){a}", 1)
    return first.replace("worker, NULL", f"worker, (void *){b}", 1)


def judge(tmp_path, body: str, main: str = TWO_THREADS):
    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    path = tmp_path / "p.c"
    path.write_text(HEAD + body + main)
    return check_atomicity(load_c_program(str(path)), load_model("sc"))


def only(result):
    (block,) = result.blocks
    return block


def test_locked_increment_is_atomic_in_every_mode(tmp_path):
    r = judge(tmp_path, """
pthread_mutex_t m; int x;
void *worker(void *arg) { ATOMIC_BEGIN(); pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m);
                          ATOMIC_END(); return NULL; }
""")
    b = only(r)
    assert b.verdicts == {"I": "checked", "L": "checked", "C": "checked", "W": "checked"}
    assert r.races == {"m": "mutex", "x": "protected by m"}
    assert r.counts("C") == {"check": 1, "noise": 0, "error": 0}


def test_racy_increment_is_possibly_not_atomic(tmp_path):
    # one read and one write of a racy x: two non-movers, but no read sees a foreign write twice
    b = only(judge(tmp_path, """
int x;
void *worker(void *arg) { ATOMIC_BEGIN(); x = x + 1; ATOMIC_END(); return NULL; }
"""))
    assert b.verdicts == {"I": "noise", "L": "noise", "C": "noise", "W": "noise"}
    assert b.definite is None
    assert b.possible["mover"][0] == "accesses x after a non-mover or a release (not a left mover there)"
    assert b.possible["ind"][0] == "a second dependent step: accesses x"


def test_two_reads_that_differ_are_definitely_not_atomic(tmp_path):
    b = only(judge(tmp_path, """
int x; int y;
void *worker(void *arg) { int a, c; ATOMIC_BEGIN(); a = x; c = x; ATOMIC_END(); x = a + c + 1; return NULL; }
"""))
    assert b.verdicts == {"I": "error", "L": "error", "C": "error", "W": "error"}
    assert b.definite == "read x=1 where the block had seen x=0: another thread wrote it in between"
    writer = [ln for ln in b.trace if ": W x=1" in ln]
    assert writer and not writer[0].startswith(b.trace[-1].split(":")[0])  # the other thread wrote it


def test_release_then_acquire_breaks_movers_only_when_contended(tmp_path):
    # lock v is the thread's own (thread-local): its acquire and release commute with everything
    r = judge(tmp_path, """
pthread_mutex_t m; pthread_mutex_t v[3]; int x;
void *worker(void *arg) {
    int me = (int)(long)arg;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&v[me]); pthread_mutex_unlock(&v[me]);
    pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m);
    ATOMIC_END();
    return NULL;
}
""", main=with_args(1, 2))
    b = only(r)
    # movers: R L R .. is broken; independence and the revised movers see v's steps as movers
    assert b.verdicts == {"I": "checked", "L": "noise", "C": "checked", "W": "checked"}
    assert set(b.possible) == {"mover"}
    assert r.races["v[1]"] == "mutex, thread-local"


def test_nested_acquires_break_independence_only(tmp_path):
    b = only(judge(tmp_path, """
pthread_mutex_t m; pthread_mutex_t n; int x;
void *worker(void *arg) {
    ATOMIC_BEGIN();
    pthread_mutex_lock(&m); pthread_mutex_lock(&n); x = x + 1; pthread_mutex_unlock(&n); pthread_mutex_unlock(&m);
    ATOMIC_END();
    pthread_mutex_lock(&n); x = x + 1; pthread_mutex_unlock(&n);
    return NULL;
}
"""))
    assert b.verdicts == {"I": "noise", "L": "checked", "C": "checked", "W": "checked"}


def test_a_wait_inside_a_block_never_completes(tmp_path):
    b = only(judge(tmp_path, """
int go;
void *worker(void *arg) { ATOMIC_BEGIN(); while (go == 0) { } ATOMIC_END(); return NULL; }
"""))
    assert b.verdicts["C"] == "error"
    assert b.definite == "worker#1 can never leave the block from here (it waits forever)"
    assert b.trace[-1].startswith("worker#1: ATOMIC_BEGIN()")


def test_a_block_the_harness_never_calls_is_not_reached(tmp_path):
    r = judge(tmp_path, """
pthread_mutex_t m; int x;
void unused(void) { ATOMIC_BEGIN(); x = 1; ATOMIC_END(); }
void *worker(void *arg) { ATOMIC_BEGIN(); pthread_mutex_lock(&m); x = 2; pthread_mutex_unlock(&m);
                          ATOMIC_END(); return NULL; }
""")
    assert [b.verdicts["C"] for b in r.blocks] == ["not reached", "checked"]
    assert r.counts("C") == {"check": 1, "noise": 0, "error": 0}


def test_an_atomic_function_called_inside_another_is_checked_in_both(tmp_path):
    r = judge(tmp_path, """
pthread_mutex_t m; int x;
int get(void) { int v; ATOMIC_BEGIN(); pthread_mutex_lock(&m); v = x; pthread_mutex_unlock(&m); ATOMIC_END();
                return v; }
void *worker(void *arg) { ATOMIC_BEGIN(); int v = get(); pthread_mutex_lock(&m); x = v + 1;
                          pthread_mutex_unlock(&m); ATOMIC_END(); return NULL; }
""")
    inner, outer = r.blocks
    assert inner.verdicts["C"] == "checked"
    assert outer.verdicts["C"] == "noise"  # acquire after release, two contended acquires
    assert outer.definite is None  # x is read once only: no witness that it is not atomic


def test_an_assertion_failing_inside_a_block_is_not_a_block_that_never_completes(tmp_path):
    b = only(judge(tmp_path, """
#include <assert.h>
pthread_mutex_t m; int x;
void *worker(void *arg) { ATOMIC_BEGIN(); pthread_mutex_lock(&m); x = x + 1; assert(x < 2);
                          pthread_mutex_unlock(&m); ATOMIC_END(); return NULL; }
"""))
    # the second thread fails while holding m; the first then waits for m forever: no block is to blame
    assert b.verdicts["C"] == "checked"


def run(*args):
    return subprocess.run([sys.executable, "-m", "mmdsl", *args], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=600)


def test_cli_reports_and_exits_one_on_a_definite_error():
    proc = run("check", "litmus/atomicity/stringbuffer.c", "--atomicity", "--json")
    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)
    assert out["counts"]["W"] == {"check": 9, "noise": 0, "error": 1}
    assert [b["block"] for b in out["blocks"] if b["definitely_not_atomic"]] == ["sb_append@14"]


def test_cli_refuses_other_models_and_programs_without_blocks(tmp_path):
    proc = run("check", "litmus/atomicity/stringbuffer.c", "-m", "tso", "--atomicity")
    assert proc.returncode == 2
    assert "--atomicity under model 'tso'" in proc.stderr and "-m sc" in proc.stderr
    plain = ROOT / "litmus" / "programs-c" / "peterson-sc.c"
    if plain.exists():
        proc = run("check", str(plain), "--atomicity")
        assert proc.returncode == 2 and "marks no block" in proc.stderr


def test_opposite_lock_orders_deadlock_inside_the_block(tmp_path):
    r = judge(tmp_path, """
pthread_mutex_t m[2]; int x;
void *worker(void *arg) {
    int me = (int)(long)arg;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&m[me]); pthread_mutex_lock(&m[1 - me]); x = x + 1;
    pthread_mutex_unlock(&m[1 - me]); pthread_mutex_unlock(&m[me]);
    ATOMIC_END();
    return NULL;
}
""", main=with_args(0, 1))
    b = only(r)
    assert b.verdicts == {"I": "error", "L": "error", "C": "error", "W": "error"}
    assert "waits for mutex m[1] held by worker#2" in b.definite
    assert "waits for mutex m[0] held by worker#1" in b.definite


def test_mover_blocks_take_only_both_movers(tmp_path):
    """The seed's `mover` specification: a locked increment is atomic but not a mover; a
    thread-local one is a mover."""
    r = judge(tmp_path, """
pthread_mutex_t m; int x; int mine[3];
void *worker(void *arg) {
    int me = (int)(long)arg;
    MOVER_BEGIN(); pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); MOVER_END();
    MOVER_BEGIN(); mine[me] = mine[me] + 1; MOVER_END();
    return NULL;
}
""", main=with_args(1, 2))
    locked, local = r.blocks
    assert (locked.kind, local.kind) == ("mover", "mover")
    assert locked.possible["mover"][0] == "acquires m: not a both-mover in a mover block"
    assert locked.possible["ind"][0] == "acquires m: a dependent step in a mover block"
    assert set(locked.verdicts.values()) == {"noise"}
    assert set(local.verdicts.values()) == {"checked"}


def test_models_judged_by_their_table_not_their_name(tmp_path):
    """The movers are defined over interleavings: a weaker table named sc is refused, sc under
    another name is accepted (and gives sc's verdicts)."""
    import pytest

    from mmdsl.check.atomicity import check_atomicity
    from mmdsl.core.errors import UnsupportedError
    from mmdsl.lang import load_model
    from mmdsl.litmus.cprog import load_c_program

    sc = (ROOT / "models" / "sc.mm").read_text()
    weak, renamed = tmp_path / "weak.mm", tmp_path / "mine.mm"
    weak.write_text(sc.replace("    W    -    -", "    W    Y    -"))
    renamed.write_text(sc.replace("model sc ", "model mine ", 1))
    cp = load_c_program(str(ROOT / "litmus" / "atomicity" / "stringbuffer-deadlock.c"))
    with pytest.raises(UnsupportedError, match="under model 'sc' .its table lets accesses pass"):
        check_atomicity(cp, load_model(str(weak)))
    counts = check_atomicity(cp, load_model(str(renamed))).counts("W")
    assert counts == {"check": 9, "noise": 0, "error": 1}
