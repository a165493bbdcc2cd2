"""The Mono symbol-file reader: IL offsets to C# lines, from a committed .mdb (no mono needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.litmus.cil.mdb import line_at, method_lines

DATA = Path(__file__).parent / "data"


def test_peterson_line_table():
    lines = method_lines((DATA / "Peterson.exe.mdb").read_bytes())
    p0 = lines[0x06000002]  # monodis's "method line 2": Peterson::P0 (litmus/csharp/Peterson.cs lines 9-15)
    assert line_at(p0, 0x01) == 10  # stsfld flag0: flag0 = 1;
    assert line_at(p0, 0x07) == 11  # stsfld turn: turn = 1;
    assert line_at(p0, 0x2e) == 13  # stsfld counter: counter = counter + 1;
    assert line_at(p0, 0x34) == 14  # stsfld flag0: flag0 = 0;
    assert line_at(lines[0x06000003], 0x07) == 19  # P1's turn = 0;


@pytest.mark.parametrize("data", [b"", b"\x00" * 64, b"garbage" * 40,
                                  (DATA / "Peterson.exe.mdb").read_bytes()[:100]])
def test_bad_symbol_files_give_no_lines(data):
    assert method_lines(data) == {}
