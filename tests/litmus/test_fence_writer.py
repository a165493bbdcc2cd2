"""Writing fenced tests back in the table dialects (LISA, X86, X86_64): new rows, all else byte-identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.core.program import Fence
from mmdsl.litmus import dialect_for, load_litmus, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "litmus" / "classic"


def _write(program, insertions):
    return dialect_for(program.arch).write_with_fences(program, insertions)


def _without_new_lines(text: str, original: str) -> str:
    """Drop the lines the writer added (kept lines must match the original exactly)."""
    old = original.splitlines()
    new = text.splitlines()
    kept = [line for line in new if line in old]
    return "\n".join(kept)


def test_sb_matches_herds_fenced_variant():
    program = load_litmus(CLASSIC / "SB.litmus")
    text = _write(program, [(0, 1, "mfence"), (1, 1, "mfence")])
    fenced_herd = (CLASSIC / "SB+fences.litmus").read_text()
    def table(t: str) -> str:
        return t[t.index(" P0"):t.index("exists")]

    assert table(text) == table(fenced_herd)  # diyone7's own MFENCE row, byte for byte
    assert _without_new_lines(text, program.source) == program.source.rstrip("\n")


def test_lisa_and_x86_64_rows():
    lisa = load_litmus(CLASSIC / "lisa" / "ISA2.litmus")
    text = _write(lisa, [(2, 1, "ll"), (0, 1, "ss")])
    assert " f[ss]   |          | f[ll]    ;\n w[] y 1 |" in text
    reread = parse_litmus(text)
    assert [type(i).__name__ for i in reread.threads[2].instrs] == ["Load", "Fence", "Load"]
    assert reread.threads[1].instrs == lisa.threads[1].instrs
    x64 = parse_litmus("""X86_64 SB
{
}
 P0          | P1          ;
 movq $1,(x) | movq $1,(y) ;
 movq (y),%rax | movq (x),%rax ;
exists (0:rax=0 /\\ 1:rax=0)
""")
    text = _write(x64, [(1, 1, "mfence")])
    # the new row takes the widths of the row it goes above
    assert text.splitlines()[5:7] == ["               | mfence        ;", " movq (y),%rax | movq (x),%rax ;"]
    assert isinstance(parse_litmus(text).threads[1].instrs[1], Fence)


def test_two_fences_before_one_row_and_at_the_end():
    program = load_litmus(CLASSIC / "SB.litmus")
    text = _write(program, [(0, 1, "mfence"), (0, 1, "sfence"), (1, 2, "lfence")])
    reread = parse_litmus(text)
    assert [i.kind for i in reread.threads[0].instrs if isinstance(i, Fence)] == ["mfence", "sfence"]
    assert isinstance(reread.threads[1].instrs[-1], Fence)


def test_labels_move_to_the_fence():
    program = parse_litmus("""X86 jump
{
}
 P0              | P1          ;
 MOV [x],$1      | MOV [y],$1  ;
 JMP L0          | MOV EAX,[x] ;
 L0: MOV EAX,[y] |             ;
exists (0:EAX=0 /\\ 1:EAX=0)
""")
    text = _write(program, [(0, 2, "mfence")])
    assert " L0: MFENCE      |             ;\n     MOV EAX,[y] |             ;" in text
    reread = parse_litmus(text)
    jump = reread.threads[0].instrs[1]
    assert isinstance(reread.threads[0].instrs[jump.target], Fence)


def test_unwritable_fences_and_places():
    program = load_litmus(CLASSIC / "SB.litmus")
    with pytest.raises(UnsupportedError, match="X86 has no fence instruction 'membar'"):
        _write(program, [(0, 1, "membar")])
    add = parse_litmus("""X86 add
{
}
 P0         ;
 ADD [x],$1 ;
exists (x=1)
""")
    with pytest.raises(UnsupportedError, match="cannot go inside 'ADD \\[x\\],\\$1'"):
        _write(add, [(0, 1, "mfence")])
