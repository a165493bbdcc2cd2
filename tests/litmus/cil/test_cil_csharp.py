"""C# programs end to end (mcs, monodis, the CIL lowering, the explorer): each construct's
meaning pinned by a verdict that would differ were it read wrongly."""

from __future__ import annotations

import pytest
from cs_source import needs_mono, program, two_threads, verdict

pytestmark = needs_mono

LOST_UPDATE = two_threads("static int c;", "c = c + 1;", "c = c + 1;", "Debug.Assert(c == 2);")
ATOMIC_UPDATE = two_threads("static int c;", "Interlocked.Increment(ref c);", "Interlocked.Add(ref c, 1);",
                            "Debug.Assert(c == 2);")
SPINLOCK = """class T {
    static int l, c;
    static void Inc() {
        while (Interlocked.CompareExchange(ref l, 1, 0) != 0) { }
        c = c + 1;
        RELEASE;
    }
    static void Main() {
        Thread t0 = new Thread(Inc), t1 = new Thread(Inc);
        t0.Start(); t1.Start(); t0.Join(); t1.Join();
        Debug.Assert(c == 2);
    }
}
"""
MP = two_threads("static int data; static FLAG int flag; static int r = -1;",
                 "data = 1; flag = 1;", "while (flag == 0) { } r = data;", "Debug.Assert(r == 1);")
SB = two_threads("static int x, y, r0, r1;", "x = 1; FENCE r0 = y;", "y = 1; FENCE r1 = x;",
                 "Debug.Assert(r0 == 1 || r1 == 1);")


@pytest.mark.parametrize("body, model, expected", [
    (LOST_UPDATE, "sc", "Allowed"),                      # c = c + 1 is a read and a write
    (ATOMIC_UPDATE, "sc", "Forbidden"),                  # Interlocked: one atomic step
    (ATOMIC_UPDATE, "dotnet", "Forbidden"),
    (SPINLOCK.replace("RELEASE", "Volatile.Write(ref l, 0)"), "dotnet", "Forbidden"),  # release
    (SPINLOCK.replace("RELEASE", "l = 0"), "dotnet", "Allowed"),  # a plain write: c's write may pass it
    (SPINLOCK.replace("RELEASE", "l = 0"), "sc", "Forbidden"),
    (MP.replace("FLAG", "volatile"), "dotnet", "Forbidden"),  # volatile write = release, read = acquire
    (MP.replace("FLAG", ""), "dotnet", "Allowed"),
    (MP.replace("FLAG", ""), "tso", "Forbidden"),
    (SB.replace("FENCE", ""), "dotnet", "Allowed"),
    (SB.replace("FENCE", "Thread.MemoryBarrier();"), "dotnet", "Forbidden"),
    (SB.replace("FENCE", ""), "sc", "Forbidden"),
])
def test_concurrency_constructs(tmp_path, body, model, expected):
    assert verdict(program(tmp_path, body), model) == expected


def test_calls_arithmetic_and_conditionals(tmp_path):
    body = """class T {
    static int x, y;
    static int Twice(int v) { int w = v + v; return w; }
    static int Pick(bool b) { return b ? 10 : 20; }
    static void P0() {
        int big = 2147483647;
        big = big + 1;                       // int32 wraps
        x = Twice(3) + Pick(x == 0 && y == 0);
        Debug.Assert(big < 0);
        Debug.Assert(x == 16);
    }
    static void Main() {
        Thread t = new Thread(P0);
        t.Start(); t.Join();
        Debug.Assert(x == 16 && y == 0);
    }
}
"""
    prog = program(tmp_path, body)
    assert verdict(prog, "sc") == "Forbidden"
    wrong = program(tmp_path, body.replace("Debug.Assert(x == 16);", "Debug.Assert(x == 17);"), "W")
    assert verdict(wrong, "sc") == "Allowed"  # an assertion that fails is found


def test_instance_fields_objects_and_lambdas(tmp_path):
    body = """class Box { public int v; public volatile int ready;
    public void Fill() { v = 5; ready = 1; } }
class T {
    static void Main() {
        Box b = new Box();
        int seen = 0;
        Thread t0 = new Thread(b.Fill);
        Thread t1 = new Thread(() => { while (b.ready == 0) { } Debug.Assert(b.v == 5); });
        t0.Start(); t1.Start(); t0.Join(); t1.Join();
        Debug.Assert(b.v == 5 && seen == 0);
    }
}
"""
    prog = program(tmp_path, body)
    assert len(prog.threads) == 2
    assert verdict(prog, "dotnet") == "Forbidden"
    plain = program(tmp_path, body.replace("public volatile int ready", "public int ready"), "P")
    assert verdict(plain, "dotnet") == "Allowed"  # the flag no longer orders the reads and writes


def test_lock_statement_gives_mutual_exclusion(tmp_path):
    body = two_threads("static readonly object o = new object(); static int c;",
                       "lock (o) { c = c + 1; }", "lock (o) { c = c + 1; }", "Debug.Assert(c == 2);")
    prog = program(tmp_path, body)
    assert verdict(prog, "dotnet") == "Forbidden" and verdict(prog, "sc") == "Forbidden"
