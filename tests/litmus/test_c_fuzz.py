"""Mutated C tests give a Program (and a result) or a clean MmdslError, never another exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus import dialect_for, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [p.read_text() for p in sorted((ROOT / "litmus" / "classic" / "c").glob("*.litmus"))[:8]]
SEEDS += [p.read_text() for p in sorted((ROOT / "litmus" / "programs").glob("*.litmus"))]
SEEDS.append("""C rich
{ int x = 1; int *p = &x; 0:r9 = 2; }
P0(atomic_int *x, volatile int *y, spinlock_t *l)
{
    int r0 = 0; int r1;
    for (int i = 0; i < 2; i++) { if (i == 1 && *y != 2) continue; r0 += atomic_fetch_add(x, 1); }
    do { spin_lock(l); r1 = READ_ONCE(*y); spin_unlock(l); } while (r1 == 5);
    if (!r0 || r1 > 3) { smp_mb(); } else { r1 = atomic_compare_exchange_strong(x, &r0, r1 % 2); }
    while (1) { if (xchg(y, 1) == 0) break; }
}
P1(int *x, int *y) { WRITE_ONCE(*y, 2); smp_store_release(x, 3); int r0 = smp_load_acquire(y) - -1; }
exists (0:r0=1 /\\ 1:r0=3 \\/ x=2)
""")
TOKENS = ["{", "}", "(", ")", ";", "*", "&", "&&", "=", "==", "while", "if", "else", "break", "continue",
          "int", "int *", "P0", "P1", "r0", "x", "READ_ONCE(", "WRITE_ONCE(*x, 1);", "smp_mb();", "0", "1",
          "-", "!", "~", "[", "]", "->", "?", ":", "(*", "*)", "//", "/*", "*/", "\n", "exists", "0:r0",
          "atomic_load_explicit(x, memory_order_acquire)", "spin_lock(l);", "\"", "08", "0x", "do", "for"]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[j:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_c_tests_fail_cleanly(text):
    try:
        program = parse_litmus(text, "m.litmus")
    except MmdslError as err:
        assert err.pos is not None and err.pos.file == "m.litmus"
        return
    assert program.threads
    try:
        if not program.has_loops():
            check(program, load_model("sc"))
        if program.arch.upper() == "C":
            dialect_for("C").write_with_fences(program, [(0, 0, "mb")])
    except MmdslError:
        pass
