"""Tab-indented x86, LISA and .rmm sources: errors and instructions are placed on the real text.

pyparsing expands tabs before parsing unless told not to; these parsers now keep them (as
the C grammar and the init/final grammars do), so a column after a tab counts the tab as
one character, like every other position mmdsl prints.
"""

from __future__ import annotations

import pytest

from mmdsl.core.errors import MmdslError
from mmdsl.litmus import load_litmus

RMM = "forbidden\n\tCS CS\n\nprocess\ntext\n\tL0: write: x := 1;\n\tCS: read: $r := x\n\nprocess\ntext\n\tCS: write: x := 2\n"


def _pos(path):
    with pytest.raises(MmdslError) as info:
        load_litmus(path)
    return info.value.pos.line, info.value.pos.col


def test_rmm_error_after_a_tab(tmp_path):
    f = tmp_path / "t.rmm"
    f.write_text(RMM)  # no data block: x is undeclared at its use
    assert _pos(f) == (6, 13)  # 20 with tabs expanded


def test_rmm_instruction_position_after_a_tab(tmp_path):
    f = tmp_path / "t.rmm"
    f.write_text("forbidden\n\tCS CS\ndata\n\tx = 0 : [0:2]\n\nprocess\ntext\n\tL0: write: x := 1;\n"
                 "\tCS: write: x := 3\n\nprocess\ntext\n\tCS: write: x := 2\n")
    t = load_litmus(f).threads[0]
    assert [(i.pos.line, i.pos.col) for i in t.instrs if i.pos][:2] == [(8, 6), (9, 6)]


def test_x86_error_after_a_tab(tmp_path):
    f = tmp_path / "t.litmus"
    f.write_text("X86 T\n{ x=0; }\n P0          | P1          ;\n MOV\t[x],$1 | MOV EAX,[x] ;\n"
                 " MOV\t[y],\t@@ | MOV EBX,[y] ;\nexists (1:EAX=1)\n")
    assert _pos(f) == (5, 9)  # the ',' (13 with tabs expanded, past the end of the cell)


def test_x86_and_lisa_instruction_positions_with_tabs(tmp_path):
    f = tmp_path / "t.litmus"
    f.write_text("X86 T\n{ x=0; }\n P0\t| P1 ;\n MOV\t[x],$1\t| MOV EAX,[x] ;\nexists (1:EAX=1)\n")
    ins = load_litmus(f).threads[1].instrs[0]
    assert ins.pos.line == 4 and ins.text.startswith("MOV EAX")
    f.write_text("LISA T\n{ x=0; }\n P0\t| P1 ;\n w[]\tx 1\t| r[] r1 x ;\nexists (1:r1=1)\n")
    ins = load_litmus(f).threads[1].instrs[0]
    assert ins.pos.line == 4 and ins.text.startswith("r[] r1 x")
