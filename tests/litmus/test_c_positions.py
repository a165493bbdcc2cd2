"""Every instruction lowered from C source points (line:col) at the text of the statement it came from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mmdsl.core.errors import LitmusError
from mmdsl.litmus import dialect_for, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
SUITES = ("linux", "c11", "classic", "datatypes", "programs")


def _c_tests() -> list[Path]:
    found = []
    for suite in SUITES:
        for p in sorted((ROOT / "litmus" / suite).rglob("*.litmus")):
            with open(p, encoding="utf-8") as f:
                if f.readline().startswith("C "):
                    found.append(p)
    return found


ALL = _c_tests()
# the fast sample: the tab-indented tests (the Linux kernel's), the programs with if/else and loops
FAST = [p for p in ALL if "\t" in p.read_text(encoding="utf-8")][:12] + [
    p for p in ALL if p.relative_to(ROOT / "litmus").parts[0] in ("datatypes", "programs")]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


HEADER = re.compile(r"(if|while|for)\s*\(")


def one_statement(text: str) -> bool:
    """``text`` is one whole C statement: ``...;``, a loop or if header, ``else`` or ``do ... while (c);``.

    (An instruction's text is cut from the source at the same offsets as its position, so a
    wrong offset shows as a text that starts or ends in the middle of a statement.)
    """
    depth, semis = 0, 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
        semis += c == ";" and depth == 0
    if depth or "{" in text or "}" in text:
        return False
    if text == "else":
        return True
    if HEADER.match(text):  # `if (c)`, `for (...)`, or `if (c) break;` (one branch)
        return text.endswith(")") or re.search(r"\)\s*(break|continue)\s*;$", text) is not None
    return semis == 1 and text.endswith(";")  # `do ... while (c);` too


def misplaced(source: str, path: str) -> list[str]:
    """The instructions whose position does not start the statement text they carry."""
    program = parse_litmus(source, path)
    lines = source.split("\n")
    wrong = []
    for thread in program.threads:
        for i, ins in enumerate(thread.instrs):
            if ins.pos is None or not ins.text:
                continue
            want = "do" if ins.text.startswith("do ... ") else _squash(ins.text)
            at = "" if ins.pos.line > len(lines) else "\n".join(lines[ins.pos.line - 1:])[ins.pos.col - 1:]
            if not one_statement(ins.text) or not _squash(at[:len(ins.text) + 200]).startswith(want):
                wrong.append(f"P{thread.tid}[{i}] {ins.text!r} at {ins.pos.line}:{ins.pos.col}: {at[:30]!r}")
    return wrong


TABBED = (
    "C tabbed\n"
    "\n"
    "{}\n"
    "\n"
    "P0(int *x, int *y)\n"
    "{\n"
    "\tWRITE_ONCE(*x, 1);\n"
    "\t\tsmp_mb();\n"
    "\tWRITE_ONCE(*y, 1);\n"
    "}\n"
    "\n"
    "P1(int *x, int *y, spinlock_t *l)\n"
    "{\n"
    "\tint r0;\n"
    "\tint r1;\n"
    "\n"
    "\tspin_lock(l);\n"
    "\tr0 = READ_ONCE(*y);\n"
    "\tif (r0) {\n"
    "\t\tr1 = xchg(x, 2);\n"
    "\t} else {\n"
    "\t\tr1 = READ_ONCE(*x);\n"
    "\t}\n"
    "\tspin_unlock(l);\n"
    "}\n"
    "\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n"
)


def test_tab_indented_statements_keep_their_line_and_column():
    program = parse_litmus(TABBED, "tabbed.litmus")
    where = {(ins.text, ins.pos.line, ins.pos.col) for t in program.threads for ins in t.instrs if ins.pos}
    assert ("smp_mb();", 8, 3) in where
    assert ("WRITE_ONCE(*y, 1);", 9, 2) in where
    assert ("r1 = xchg(x, 2);", 20, 3) in where
    assert ("else", 21, 4) in where
    assert ("spin_unlock(l);", 24, 2) in where
    assert misplaced(TABBED, "tabbed.litmus") == []


def test_an_error_after_tabs_names_its_own_column():
    source = TABBED.replace("\tr0 = READ_ONCE(*y);", "\tr0 = READ_ONCE(*q);")
    with pytest.raises(LitmusError) as err:
        parse_litmus(source, "tabbed.litmus")
    assert (err.value.pos.line, err.value.pos.col) == (18, 18), err.value


@pytest.mark.parametrize("path", FAST, ids=lambda p: str(p.relative_to(ROOT / "litmus")))
def test_bundled_c_tests_sample(path):
    assert misplaced(path.read_text(encoding="utf-8"), str(path)) == []


@pytest.mark.slow
def test_every_bundled_c_test():
    assert len(ALL) > 250
    wrong = [w for p in ALL for w in misplaced(p.read_text(encoding="utf-8"), str(p))]
    assert wrong == []


def test_fences_written_back_into_a_tab_indented_test_land_between_statements():
    program = parse_litmus(TABBED, "tabbed.litmus")
    written = dialect_for("C").write_with_fences(program, [(0, 2, "wmb")])
    assert "\n\tsmp_wmb();\n\tWRITE_ONCE(*y, 1);\n" in written
    assert written.replace("\tsmp_wmb();\n", "", 1) == TABBED  # everything else byte for byte


def test_an_error_in_a_tab_indented_init_block_names_its_column():
    source = TABBED.replace("{}\n", "{\n\tx=1;\t\t@;\n}\n", 1)
    with pytest.raises(LitmusError) as err:
        parse_litmus(source, "tabbed.litmus")
    assert (err.value.pos.line, err.value.pos.col) == (4, 8), err.value
