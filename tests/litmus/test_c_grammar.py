"""Every construct of the C dialect lowers to the hand-written core instructions it stands for."""

from __future__ import annotations

import pytest
from c_source import lower, shape

from mmdsl.axiomatic import check
from mmdsl.core.program import (
    OLD, Assign, BinOp, Branch, Const, Fence, Load, Nop, Reg, Rmw, Store, UnOp,
)
from mmdsl.core.errors import LitmusError
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

X, Y, L = Const("x"), Const("y"), Const("l")
A = frozenset


def instrs(body: str, tid: int = 0, **kw) -> list[tuple]:
    return [shape(i) for i in lower(body, **kw).threads[tid].instrs]


def one(stmt: str, params: str = "int *x, int *y", decls: str = "int r0; int r1;") -> list[tuple]:
    return instrs(f"P0({params}) {{ {decls} {stmt} }}")


@pytest.mark.parametrize("stmt, expected", [
    ("r0 = READ_ONCE(*x);", [Load("r0", X, A({"once"}))]),
    ("WRITE_ONCE(*x, 1);", [Store(X, Const(1), A({"once"}))]),
    ("*x = 1;", [Store(X, Const(1))]),
    ("r0 = *x;", [Load("r0", X)]),
    ("r0 = smp_load_acquire(x);", [Load("r0", X, A({"acq"}))]),
    ("smp_store_release(y, r0);", [Store(Y, Reg("r0"), A({"rel"}))]),
    ("smp_mb();", [Fence("mb")]),
    ("smp_rmb();", [Fence("rmb")]),
    ("smp_wmb();", [Fence("wmb")]),
    ("MemoryBarrier();", [Fence("mb")]),
    ("r0 = atomic_load_explicit(x, memory_order_relaxed);", [Load("r0", X, A({"rlx"}))]),
    ("r0 = atomic_load_explicit(x, memory_order_acquire);", [Load("r0", X, A({"acq"}))]),
    ("r0 = atomic_load(x);", [Load("r0", X, A({"sc"}))]),
    ("atomic_store_explicit(x, 2, memory_order_release);", [Store(X, Const(2), A({"rel"}))]),
    ("atomic_store_explicit(x, 2, memory_order_seq_cst);", [Store(X, Const(2), A({"sc"}))]),
    ("r0 = atomic_exchange_explicit(x, 3, memory_order_acq_rel);", [Rmw("r0", X, Const(3), annots=A({"acq", "rel"}))]),
    ("r0 = atomic_fetch_add_explicit(x, 2, memory_order_relaxed);",
     [Rmw("r0", X, BinOp("add", Reg(OLD), Const(2)), annots=A({"rlx"}))]),
    ("r0 = atomic_fetch_sub_explicit(x, 1, memory_order_release);",
     [Rmw("r0", X, BinOp("sub", Reg(OLD), Const(1)), annots=A({"rel"}))]),
    ("atomic_thread_fence(memory_order_seq_cst);", [Fence("mb", A({"sc"}))]),
    ("atomic_thread_fence(memory_order_acquire);", [Fence("acquire", A({"acq"}))]),
    # a fully ordered kernel RMW is F[mb]; R; W; F[mb], as herd's linux-kernel semantics makes it
    ("r0 = xchg(x, 1);", [Fence("mb"), Rmw("r0", X, Const(1), annots=A({"mb"})), Fence("mb")]),
    ("r0 = xchg_relaxed(x, r1);", [Rmw("r0", X, Reg("r1"), annots=A({"once"}))]),
    # a failed cmpxchg reads as READ_ONCE; its fences are marked (no fence when it fails)
    ("r0 = cmpxchg(x, 0, 1);", [Fence("mb", A({"cmpxchg-mb"})), Rmw("r0", X, Const(1), BinOp("eq", Reg(OLD), Const(0)),
                                annots=A({"mb"}), fail_annots=A({"once"})), Fence("mb", A({"cmpxchg-mb"}))]),
    ("r0 = cmpxchg_acquire(x, 0, 1);", [Rmw("r0", X, Const(1), BinOp("eq", Reg(OLD), Const(0)), annots=A({"acq"}),
                                        fail_annots=A({"once"}))]),
    ("atomic_add(2, x);", [Rmw(None, X, BinOp("add", Reg(OLD), Const(2)), annots=A({"once", "noreturn"}))]),
    ("atomic_inc(x);", [Rmw(None, X, BinOp("add", Reg(OLD), Const(1)), annots=A({"once", "noreturn"}))]),
    ("r0 = atomic_fetch_add(1, x);", [Fence("mb"), Rmw("r0", X, BinOp("add", Reg(OLD), Const(1)), annots=A({"mb"})),
                                      Fence("mb")]),
    ("r0 = atomic_fetch_add(x, 1);", [Rmw("r0", X, BinOp("add", Reg(OLD), Const(1)), annots=A({"sc"}))]),
    ("r0 = atomic_add_return_release(5, x);",
     [Rmw("%t0", X, BinOp("add", Reg(OLD), Const(5)), annots=A({"rel"})),
      Assign("r0", BinOp("add", Reg("%t0"), Const(5)))]),
    ("r0 = atomic_read(x); atomic_set(y, 1);", [Load("r0", X, A({"once"})), Store(Y, Const(1), A({"once"}))]),
    ("atomic_thread_fence(memory_order_release);", [Fence("release", A({"rel"}))]),
    ("atomic_thread_fence(memory_order_acq_rel);", [Fence("acq_rel", A({"acq", "rel"}))]),
    ("atomic_thread_fence(memory_order_relaxed);", []),
    ("r0 = atomic_load_explicit(x, memory_order_consume);", [Load("r0", X, A({"acq", "con"}))]),
    ("r0 = atomic_fetch_or_explicit(x, 4, memory_order_relaxed);",
     [Rmw("r0", X, BinOp("or", Reg(OLD), Const(4)), annots=A({"rlx"}))]),
    ("r0 = atomic_fetch_xor(x, 1);", [Rmw("r0", X, BinOp("xor", Reg(OLD), Const(1)), annots=A({"sc"}))]),
    ("r0 = atomic_cmpxchg_release(x, 1, 2);",
     [Rmw("r0", X, Const(2), BinOp("eq", Reg(OLD), Const(1)), annots=A({"rel"}), fail_annots=A({"once"}))]),
    ("r0 = atomic_dec_return(x);",
     [Fence("mb"), Rmw("%t0", X, BinOp("sub", Reg(OLD), Const(1)), annots=A({"mb"})), Fence("mb"),
      Assign("r0", BinOp("sub", Reg("%t0"), Const(1)))]),
    ("r0 = xchg(x, r0);", [Fence("mb"), Rmw("%t0", X, Reg("r0"), annots=A({"mb"})), Fence("mb"),
                           Assign("r0", Reg("%t0"))]),
    ("smp_mb__before_atomic(); barrier(); rcu_read_lock(); synchronize_rcu(); rcu_read_unlock();",
     [Fence("before-atomic"), Fence("barrier"), Fence("rcu-lock"), Fence("sync-rcu"), Fence("rcu-unlock")]),
    ("r0 = rcu_dereference(*x); rcu_assign_pointer(*y, 1); smp_store_mb(*x, 2);",
     [Load("r0", X, A({"once"})), Store(Y, Const(1), A({"rel"})), Store(X, Const(2), A({"once"})), Fence("mb")]),
    ("r0 = READ_ONCE(*x) + READ_ONCE(*y);",
     [Load("%t0", X, A({"once"})), Load("%t1", Y, A({"once"})), Assign("r0", BinOp("add", Reg("%t0"), Reg("%t1")))]),
])
def test_accesses_and_fences(stmt, expected):
    assert one(stmt) == [shape(e) for e in expected]


def test_c11_rmws_and_locks_are_one_event_in_herd_and_kernel_rmws_two():
    # herd's C: atomic_exchange, atomic_fetch_add, compare_exchange, spin_lock are one event;
    # linux-kernel.def's xchg, cmpxchg, atomic_*_return two (lang/cat_rmw.py reads them so)
    body = ("P0(atomic_int *x, int *y, spinlock_t *l) { int r0; int r1; "
            "r0 = atomic_exchange_explicit(x, 3, memory_order_relaxed); r1 = atomic_fetch_add(x, 1); "
            "atomic_compare_exchange_strong(x, &r0, 2); spin_lock(l); r0 = xchg(y, 1); "
            "r1 = cmpxchg_acquire(y, 0, 1); r0 = atomic_add_return(1, y); }")
    rmws = [i for i in lower(body).threads[0].instrs if isinstance(i, Rmw)]
    assert [i.one_event for i in rmws] == [True, True, True, True, False, False, False]


def test_spinlocks():
    assert one("spin_lock(l); spin_unlock(l); r0 = spin_trylock(l);", params="spinlock_t *l") == [shape(e) for e in [
        Rmw(None, L, Const(1), BinOp("eq", Reg(OLD), Const(0)), blocking=True, annots=A({"lock"})),
        Store(L, Const(0), A({"unlock"})),
        Rmw("%t0", L, Const(1), BinOp("eq", Reg(OLD), Const(0)), annots=A({"lock"})),
        Assign("r0", BinOp("eq", Reg("%t0"), Const(0))),
    ]]


def test_volatile_parameters_and_pointer_locals_annotate_accesses():
    got = one("r0 = *y; *y = 2; r1 = READ_ONCE(*y); volatile int *p = x; *p = 1; int *q = x; *q = 3;",
              params="int *x, volatile int *y")
    assert got == [shape(e) for e in [
        Load("r0", Y, A({"volatile"})), Store(Y, Const(2), A({"volatile"})), Load("r1", Y, A({"volatile", "once"})),
        Assign("p", X), Store(Reg("p"), Const(1), A({"volatile"})), Assign("q", X), Store(Reg("q"), Const(3)),
    ]]


def test_plain_access_to_an_atomic_type_is_seq_cst():
    assert one("*x = 1; r0 = *x;", params="atomic_int *x") == [
        shape(Store(X, Const(1), A({"sc"}))), shape(Load("r0", X, A({"sc"})))]


def test_locals_arithmetic_and_comparisons():
    got = one("int a = 7, b; b = (a + 2) * 3 - a / 2 % 4; b = a ^ 1 | 2 & 3; b = (a == 1) != (a < 2) + (a <= 3);"
              " b = (a > 4) + (a >= 5); b = !a || a && b; b = ~a; b = -a; b += 1; b--; ++b;", decls="")
    a, b = Reg("a"), Reg("b")
    assert got == [shape(e) for e in [
        Assign("a", Const(7)),
        Assign("b", BinOp("sub", BinOp("mul", BinOp("add", a, Const(2)), Const(3)),
                          BinOp("mod", BinOp("div", a, Const(2)), Const(4)))),
        Assign("b", BinOp("or", BinOp("xor", a, Const(1)), Const(2))),  # 2 & 3 folded
        Assign("b", BinOp("ne", BinOp("eq", a, Const(1)), BinOp("add", BinOp("lt", a, Const(2)),
                                                                  BinOp("le", a, Const(3))))),
        Assign("b", BinOp("add", BinOp("gt", a, Const(4)), BinOp("ge", a, Const(5)))),
        Assign("b", BinOp("lor", UnOp("not", a), BinOp("land", a, b))),
        Assign("b", BinOp("sub", UnOp("neg", a), Const(1))),
        Assign("b", UnOp("neg", a)),
        Assign("b", BinOp("add", b, Const(1))),
        Assign("b", BinOp("sub", b, Const(1))),
        Assign("b", BinOp("add", b, Const(1))),
    ]]


def test_if_else_lowers_to_branches_with_resolved_targets():
    got = one("r0 = *x; if (r0 == 1) { *y = 1; } else { *y = 2; } *x = 3;")
    assert got == [shape(e) for e in [
        Load("r0", X),
        Branch(BinOp("ne", Reg("r0"), Const(1)), 4),
        Store(Y, Const(1)),
        Branch(None, 5),
        Store(Y, Const(2)),
        Store(X, Const(3)),
    ]]


def test_short_circuit_conditions_read_only_what_c_reads():
    # Peterson's test: `turn` is read only when lock1 == 1; `if (c) break;` is one branch
    got = one("while (1) { if ((*x != 1) || (*y == 0)) break; }")
    assert got == [shape(e) for e in [
        Nop(),                                            # loop entry
        Load("%t0", X),
        Branch(BinOp("ne", Reg("%t0"), Const(1)), 6),     # lock1 != 1: break (6 = the end)
        Load("%t1", Y),
        Branch(BinOp("eq", Reg("%t1"), Const(0)), 6),     # turn == 0: break
        Branch(None, 1),                                  # back to the loop body
    ]]


def test_short_circuit_value_uses_a_temporary():
    got = one("r0 = *x && *y;")
    assert got == [shape(e) for e in [
        Assign("%t0", Const(0)),
        Load("%t1", X),
        Branch(UnOp("not", Reg("%t1")), 6),
        Load("%t2", Y),
        Branch(UnOp("not", Reg("%t2")), 6),
        Assign("%t0", Const(1)),
        Assign("r0", Reg("%t0")),
    ]]


def test_while_with_condition_and_continue():
    got = one("while (*x != 1) { if (r0) { *y = 1; continue; } r0 = 1; }")
    assert got == [shape(e) for e in [
        Nop(),
        Load("%t0", X),
        Branch(BinOp("eq", Reg("%t0"), Const(1)), 8),
        Branch(UnOp("not", Reg("r0")), 6),
        Store(Y, Const(1)),
        Branch(None, 1),                                  # continue: test again
        Assign("r0", Const(1)),
        Branch(None, 1),
    ]]


def test_for_and_do_while_loops():
    got = one("for (int i = 0; i < 2; i++) { WRITE_ONCE(*x, i); } do { r0 = r0 + 1; } while (r0 < 3);")
    i = Reg("i")
    assert got == [shape(e) for e in [
        Assign("i", Const(0)),
        Nop(),
        Branch(BinOp("ge", i, Const(2)), 6),
        Store(X, i, A({"once"})),
        Assign("i", BinOp("add", i, Const(1))),
        Branch(None, 2),
        Nop(),
        Assign("r0", BinOp("add", Reg("r0"), Const(1))),
        Branch(BinOp("lt", Reg("r0"), Const(3)), 7),
    ]]


def test_sibling_blocks_may_declare_the_same_local():
    got = one("for (int i = 0; i < 1; i++) { *x = i; } for (int i = 1; i < 2; i++) { int t = i; *y = t; }"
              " { int t = 2; }", decls="")
    assert [s[1] for s in got if s[0] == "Assign"] == ["i", "i", "i", "t", "i", "t"]


def test_loops_are_backward_branches():
    p = lower("P0(int *x) { while (READ_ONCE(*x) == 0) {} }\nP1(int *x) { WRITE_ONCE(*x, 1); }")
    assert p.threads[0].has_loops() and not p.threads[1].has_loops()


def test_compare_exchange_follows_herd():
    got = one("r0 = 1; r1 = atomic_compare_exchange_strong_explicit(x, &r0, 2, memory_order_acquire, "
              "memory_order_relaxed);")
    assert got == [shape(e) for e in [
        Assign("r0", Const(1)),
        Rmw("%t0", X, Const(2), BinOp("eq", Reg(OLD), Reg("r0")), annots=A({"acq"}),
            fail_annots=A({"rlx"})),                      # a failed one reads relaxed
        Assign("%t1", BinOp("eq", Reg("%t0"), Reg("r0"))),
        Assign("r0", Reg("%t0")),                         # on failure `expected` gets the value read
        Assign("r1", Reg("%t1")),
    ]]


def test_compare_exchange_with_a_shared_expected_value():
    got = one("r0 = atomic_compare_exchange_strong_explicit(x, y, 3, memory_order_release, memory_order_relaxed);")
    assert got == [shape(e) for e in [
        Load("%t0", Y),                                   # read *expected
        Rmw("%t1", X, Const(3), BinOp("eq", Reg(OLD), Reg("%t0")), annots=A({"rel"}), fail_annots=A({"rlx"})),
        Assign("%t2", BinOp("eq", Reg("%t1"), Reg("%t0"))),
        Branch(Reg("%t2"), 5),
        Store(Y, Reg("%t1")),                             # failure: *expected = the value read
        Assign("r0", Reg("%t2")),
    ]]


def test_the_registry_finds_the_c_dialect():
    from mmdsl.litmus import dialect_for
    from mmdsl.litmus.c import DIALECT

    assert dialect_for("C") is DIALECT and hasattr(DIALECT, "write_with_fences")


def test_compare_exchange_outcomes_under_sc():
    p = lower("P0(int *x) { int e = 0; int ok = atomic_compare_exchange_strong(x, &e, 5); }\n"
              "P1(int *x) { WRITE_ONCE(*x, 1); }", cond="exists (0:ok=0 /\\ 0:e=1 /\\ x=1)")
    r = check(p, load_model("sc"))
    # P1 first: CAS fails and copies 1 into e; P1 last: CAS succeeds, then x is overwritten by 1
    assert r.verdict == "Allowed"
    finals = {tuple(sorted((k[2] if k[0] == "reg" else k[1], v) for k, v in s)) for s in r.states}
    assert finals == {(("e", 1), ("ok", 0), ("x", 1)), (("e", 0), ("ok", 1), ("x", 1))}


def test_positions_and_texts():
    p = lower("P0(int *x, int *y)\n{\n  int r0 = READ_ONCE(*x);\n  if (r0 == 1) {\n"
              "    WRITE_ONCE(*y,\n      1);\n  }\n}")
    load, branch, store = p.threads[0].instrs
    assert (load.pos.line, load.pos.col, load.text) == (5, 3, "int r0 = READ_ONCE(*x);")
    assert (branch.pos.line, branch.pos.col, branch.text) == (6, 3, "if (r0 == 1)")
    assert (store.pos.line, store.pos.col, store.text) == (7, 5, "WRITE_ONCE(*y, 1);")
    assert load.pos.file == "t.litmus"


def test_condition_registers_are_the_threads_locals():
    p = lower("P0(int *x) { int r0 = *x; }\nP1(int *x) { *x = 1; int r0 = 0; }",
              cond="exists (0:r0=1 /\\ 1:r0=0 /\\ x=1)")
    r = check(p, load_model("sc"))
    assert r.verdict == "Allowed" and len(r.states) == 2


def test_c_initialisers_and_comments():
    p = lower("P0(int *x, int *p) { // a C comment\n int r0 = *x; /* another */ }",
              init="int x = 1; int *p = &x; volatile int z = 2; 0:r0 = 5;",
              cond="(* an OCaml comment *) exists (0:r0=1)")
    assert p.init == {"x": 1, "p": "x", "z": 2}
    assert p.threads[0].reg_init == {"r0": 5}


def test_braces_in_c_comments_do_not_move_the_regions():
    # the final condition is found by counting braces: those of comments do not count
    p = lower("P0(int *x) {\n  *x = 1; /* { */\n  // } {\n}", cond="exists (x=1)")
    assert [type(i).__name__ for i in p.threads[0].instrs] == ["Store"]
    assert p.condition.text() == "exists (x=1)"
    text = "C t\nLink=http://example.org/x\n{ }\nP0(int *x) { *x = 1; }\nexists (x=1)\n"
    assert parse_litmus(text, "t.litmus").info["Link"] == "http://example.org/x"
    with pytest.raises(LitmusError, match="comment '/\\*' is never closed") as info:
        lower("P0(int *x) {\n  *x = 1; /* {\n}")
    assert (info.value.pos.line, info.value.pos.col) == (4, 11)


def test_herd_style_test_with_tabs_and_doc():
    text = ("C MP+pooncerelease+poacquireonce\n\"Doc\"\n{}\n\nP0(int *x, int *y)\n{\n\tWRITE_ONCE(*x, 1);\n"
            "\tsmp_store_release(y, 1);\n}\n\nP1(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n"
            "\tr0 = smp_load_acquire(y);\n\tr1 = READ_ONCE(*x);\n}\n\nexists (1:r0=1 /\\ 1:r1=0)\n")
    from mmdsl.litmus import parse_litmus

    p = parse_litmus(text, "mp.litmus")
    assert p.doc == "Doc" and [t.name for t in p.threads] == ["P0", "P1"]
    assert check(p, load_model("sc")).verdict == "Forbidden"
    assert check(p, load_model("pso")).verdict == "Allowed"
