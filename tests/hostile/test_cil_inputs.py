"""Hostile C# files and CIL listings: mcs's own errors at file:line:col, unsupported CIL refused
by name with its method and IL offset, endless set-up bounded, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from budget import cpu_budget
from cs_source import HEADER, needs_mono
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.litmus import load_litmus, parse_litmus

DATA = Path(__file__).resolve().parents[1] / "litmus" / "cil" / "data"
runner = CliRunner()


def _main(threads: str = "Thread t = new Thread(P); t.Start(); t.Join();", after: str = "") -> str:
    return f"static void Main() {{ {threads} {after} }}"


@needs_mono
@pytest.mark.parametrize("body, words", [
    ("class L { static int x; static void P() { x = 1 } " + _main() + " }",
     "h.cs:3:49: litmus error: mcs: CS1002: ; expected"),  # the line and column of the missing ;
    ("class L { static long x; static void P() { x = 5; Debug.Assert(x == 5); } " + _main() + " }",
     "L::P IL_0001: CIL opcode 'conv.i8' is not supported in a thread"),
    ("class L { static int x; static int F(int n) { return n == 0 ? 0 : F(n - 1); } "
     "static void P() { x = F(3); Debug.Assert(x == 0); } " + _main() + " }", "L::F IL_"),
    ("class L { static int x; static void P() { x = 1; } " + _main() + " }", "has no assertion left"),
    ("class L { static int x; static void P() { x = 1; } "
     + _main("Thread t = new Thread(P); t.Start(); x = 2; t.Join();", "Debug.Assert(x == 1);") + " }",
     "Main uses field 'L::x' while its threads run"),
    ("class L { static int x; static void P() { try { x = 1; } catch (System.Exception) { x = 2; } "
     "Debug.Assert(x == 1); } " + _main() + " }", "a 'catch' handler"),
    ("class L { static int x; static void P() { System.Console.WriteLine(x); Debug.Assert(x == 0); } "
     + _main() + " }", "method 'System.Console::WriteLine' is not supported in a thread"),
    ("class L { static void P() { Debug.Assert(true); } " + _main("new Thread(P).Start();") + " }",
     "Main does not join every thread it starts"),
    ("class L { static int x; static void P(object o) { Debug.Assert(x == 0); } "
     + _main("Thread t = new Thread(P); t.Start(1); t.Join();") + " }", "ParameterizedThreadStart"),
    ("class L { static void Main() { } }", "Main starts no thread"),
    ("class L { static int[] a = new int[2]; static void P() { a[0] = 1; Debug.Assert(a[0] == 1); } "
     + _main() + " }", "L::.cctor IL_0001: CIL opcode 'newarr' is not supported"),  # arrays: not read yet
    ("class L { static object o = new object(); static int x; static void P() { lock (o) { while (x == 0) "
     "Monitor.Wait(o); } Debug.Assert(x == 1); } " + _main() + " }",
     "method 'System.Threading.Monitor::Wait' is not supported in a thread"),  # nor Wait/Pulse
    ("class B { public int v; } class L { static B b; static void P() { for (int i = 0; i < 2; i++) b = new B(); "
     "Debug.Assert(b.v == 0); } " + _main() + " }", "'new' inside a loop"),
    ("class A { public virtual int F() { return 1; } } class B : A { public override int F() { return 2; } } "
     "class L { static int x; static A a = new B(); static void P() { x = a.F(); Debug.Assert(x == 2); } "
     + _main() + " }", "call of virtual method 'A::F'"),
    ("class L { static int x; static void P() { Debug.Assert(x == 0); } "
     + _main("Thread t = new Thread(P); try { t.Start(); } finally { x = 0; } t.Join();") + " }",
     "try blocks in Main are not supported"),
])
def test_bad_csharp_is_a_clear_error(tmp_path, body, words):
    path = tmp_path / "h.cs"
    path.write_text(HEADER + body)
    r = runner.invoke(app, ["explore", str(path), "-m", "dotnet"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert words in r.output and "h.cs" in r.output, r.output


@needs_mono
def test_endless_main_is_bounded(tmp_path):
    path = tmp_path / "h.cs"
    path.write_text(HEADER + "class L { static int x; static void Main() { while (true) { x = x + 1; } } }")
    with cpu_budget(30), pytest.raises(MmdslError, match="more than 100000 instructions"):
        load_litmus(path)


def test_missing_mono_is_named(monkeypatch, tmp_path):
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MmdslError) as info:
        parse_litmus(HEADER + "class L { }", str(tmp_path / "h.cs"))
    assert "mcs and monodis" in str(info.value) and "mono-mcs mono-utils" in str(info.value)


def _listing(edit) -> str:
    lines = (DATA / "Rw.il").read_text().splitlines()
    return "\n".join(edit(lines))


def _replace_in_reader(old: str, new: str):
    def edit(lines):
        out, inside = [], False
        for line in lines:
            if "default void Reader" in line:
                inside = True
            if inside and old in line:
                line, inside = line.replace(old, new), False
            out.append(line)
        return out
    return edit


@pytest.mark.parametrize("edit, words", [
    (_replace_in_reader("ldsfld int32 Rw::d1", "ldc.i4 zzz"), "cannot read 'ldc.i4 zzz'"),
    (_replace_in_reader("ldsfld int32 Rw::d1", "ldc.i4.0\n\tIL_002c:  brtrue IL_9999\n\tIL_002d:  ldsfld int32 Rw::d1"),
     "a jump to IL_9999"),
    (_replace_in_reader("ldsfld int32 Rw::d1", "localloc"), "CIL opcode 'localloc' is not supported"),
    (_replace_in_reader("ldsfld int32 Rw::d1", "pop"), "the evaluation stack is empty"),
    (_replace_in_reader("ldsfld int32 Rw::d1", "ldsfld int32 Rw::nowhere"), "not a field of this program"),
    (lambda lines: [ln for ln in lines if ".entrypoint" not in ln], "no entry point"),
    (lambda lines: lines[:len(lines) // 2], "ends inside"),
    (lambda lines: [], "no entry point"),
])
def test_bad_listing_is_located(edit, words):
    with pytest.raises(MmdslError) as info:
        parse_litmus(_listing(edit), "h.il")
    assert words in str(info.value), str(info.value)
    assert "h.il" in str(info.value)


@needs_mono
def test_fences_cannot_write_csharp_back(tmp_path):
    path = tmp_path / "sb.cs"
    path.write_text(HEADER + "class T { static int x, y, r0, r1; static void P0() { x = 1; r0 = y; } "
                    "static void P1() { y = 1; r1 = x; } "
                    + _main("Thread t0 = new Thread(P0), t1 = new Thread(P1); t0.Start(); t1.Start(); "
                            "t0.Join(); t1.Join();", "Debug.Assert(r0 == 1 || r1 == 1);") + " }")
    r = runner.invoke(app, ["fences", str(path), "-m", "dotnet", "-o", str(tmp_path / "out.cs")])
    assert r.exit_code == 2 and "the CIL dialect cannot write fenced tests back" in r.output, r.output
    assert "MemoryBarrier" not in (tmp_path / "out.cs").read_text() if (tmp_path / "out.cs").exists() else True
