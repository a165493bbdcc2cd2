"""Hostile data-type harnesses in the C dialect: recursion, deep and exponential inlining, huge unrolling,
pool exhaustion, and a --spec serial run cut short by --timeout -- each a located error, never a hang."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from budget import cpu_budget

from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.litmus import parse_litmus


def _c(body: str, header: str = "") -> str:
    return f"C t\n{header}{{ }}\n{body}\nlocations [0:r0;]\n"


def _refused(text: str, cls=UnsupportedError):
    with cpu_budget(10), pytest.raises(cls) as info:
        parse_litmus(text, "h.litmus")
    assert info.value.pos is not None and info.value.pos.file == "h.litmus"
    return info.value


def test_mutual_recursion_through_many_functions_is_refused_by_name():
    n = 30
    funcs = "\n".join(f"int f{i}(int x) {{ return f{(i + 1) % n}(x); }}" for i in range(n))
    err = _refused(_c(funcs + "\nP0() { int r0 = f0(1); }"))
    assert "calls nested deeper than 16" in err.message or "recursive call" in err.message


def test_a_three_cycle_of_calls_names_the_chain():
    funcs = "int a(int x) { return b(x); }\nint b(int x) { return c(x); }\nint c(int x) { return a(x); }"
    err = _refused(_c(funcs + "\nP0() { int r0 = a(1); }"))
    assert "recursive call to 'a' (a -> b -> c -> a)" in err.message


def test_a_deep_chain_of_calls_is_refused_past_the_nesting_bound():
    n = 200
    funcs = "\n".join(f"int f{i}(int x) {{ return f{i + 1}(x); }}" for i in range(n)) + f"\nint f{n}(int x) {{ return x; }}"
    err = _refused(_c(funcs + "\nP0() { int r0 = f0(1); }"))
    assert "calls nested deeper than 16" in err.message


def test_exponential_inlining_stops_at_the_instruction_bound():
    n = 15  # f_k calls f_{k-1} twice: 2^15 copies of f0
    funcs = ["int f0(int x) { return x + 1; }"]
    funcs += [f"int f{k}(int x) {{ return f{k - 1}(x) + f{k - 1}(x); }}" for k in range(1, n + 1)]
    err = _refused(_c("int g;\n" + "\n".join(funcs) + f"\nP0() {{ int r0 = f{n}(1); g = r0; }}"))
    assert "more than 20000 instructions after inlining and unrolling" in err.message


def test_a_huge_unroll_of_nested_loops_stops_at_the_instruction_bound():
    body = "int x;\nP0() { int r0 = 0; while (x == 0) { while (x == 0) { while (x == 0) { r0 = r0 + 1; } } } }"
    err = _refused(_c(body, header="unroll=1000\n"))
    assert "more than 20000 instructions" in err.message


def test_an_unroll_past_the_bound_and_a_malformed_unroll_are_refused():
    for value in ("1001", "0", "-3", "lots"):
        err = _refused(_c("P0() { int r0 = 0; }", header=f"unroll={value}\n"), LitmusError)
        assert "from 1 to 1000" in str(err)


def test_mallocs_beyond_the_pool_in_an_unrolled_loop_are_refused():
    body = ("struct node { int v; };\nstruct node pool[64];\n"
            "P0() { int r0 = 0; while (1) { struct node *n = malloc(sizeof(struct node)); n->v = 1; } }")
    err = _refused(_c(body, header="unroll=100\n"))
    assert "beyond the 64 node(s) of pool 'pool'" in err.message


SLOW_SET = """\
C slow-set
unroll=3
{ pool1.key = 0; pool1.next = 2; pool2.key = 9; }
struct node { int key; struct node *next; int marked; spinlock_t lock; };
struct node pool[5];
struct node *head = malloc(sizeof(struct node));
struct node *tail = malloc(sizeof(struct node));
int add(int key) {
    struct node *n = malloc(sizeof(struct node));
    n->key = key;
    while (1) {
        struct node *pred = head;
        struct node *curr = pred->next;
        while (curr->key < key) { pred = curr; curr = curr->next; }
        spin_lock(&pred->lock); spin_lock(&curr->lock);
        if (!pred->marked && !curr->marked && pred->next == curr) {
            int found = curr->key == key;
            if (!found) { n->next = curr; pred->next = n; }
            spin_unlock(&curr->lock); spin_unlock(&pred->lock);
            return !found;
        }
        spin_unlock(&curr->lock); spin_unlock(&pred->lock);
    }
}
P0() { int r0 = add(1); int r1 = add(3); }
P1() { int r2 = add(2); }
locations [0:r0; 0:r1; 1:r2;]
"""


def test_a_long_spec_serial_exploration_stops_at_the_timeout(tmp_path: Path):
    path = tmp_path / "slow-set.litmus"
    path.write_text(SLOW_SET)
    start = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-m", "mmdsl", "explore", str(path), "-m", "relaxed", "--spec", "serial",
                            "--timeout", "2"], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("explore --spec serial --timeout 2 ran past 60 s")
    assert time.perf_counter() - start < 60  # wall-clock: --timeout 2 stopped it (30 times the limit)
    assert "Traceback" not in r.stderr
    assert r.returncode == 1 and "timed out after 2" in r.stderr, r.stderr[-500:]
