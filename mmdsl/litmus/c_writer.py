"""Write a C litmus test back with fence statements inserted before chosen instructions."""

from __future__ import annotations

from ..core.errors import LitmusError, UnsupportedError
from ..core.program import Program
from .c_lower import Boundary


def choose_boundary(boundaries: list[Boundary], index: int) -> Boundary | None:
    """The place where a statement runs exactly when instruction ``index`` is reached.

    Several statement boundaries may share an instruction index (the end of an inner
    block and the statement after it): the outermost one is reached by every path,
    including the jumps of the inner control flow. Among equals, the last in source order
    (after declarations that produce no instruction).
    """
    found = [b for b in boundaries if b.index == index]
    if not found:
        return None
    depth = min(b.depth for b in found)
    return [b for b in found if b.depth == depth][-1]


def write_with_fences(dialect, program: Program, insertions) -> str:
    """The test's source with a fence statement of each kind inserted before the given instructions.

    ``insertions`` holds ``(tid, before_instr_index, fence_kind)``; an index equal to the
    number of instructions of the thread means at the end of its function.
    """
    smap = program.layout
    if smap is None or not hasattr(smap, "boundaries"):
        raise UnsupportedError(f"test '{program.name}' was not read from C source; cannot write it back as C")
    if not getattr(smap, "rewritable", True):
        raise UnsupportedError(f"test '{program.name}' inlines functions or unrolls loops: one source place "
                               "stands for many instructions, so its fences cannot be written back as C",
                               hint="the fences are listed by thread, instruction and source line instead")
    source = program.source
    edits: dict[int, list[tuple[Boundary, str]]] = {}
    for tid, index, kind in insertions:
        if not 0 <= tid < len(program.threads):
            raise LitmusError(f"cannot insert a fence in thread {tid}: test '{program.name}' has "
                              f"{len(program.threads)} threads")
        instrs = program.threads[tid].instrs
        if not 0 <= index <= len(instrs):
            raise LitmusError(f"cannot insert a fence before instruction {index} of P{tid}: it has "
                              f"{len(instrs)} instructions")
        statement = dialect.fence_text(kind)
        b = choose_boundary(smap.boundaries[tid], index)
        if b is None:
            ins = instrs[index]
            raise UnsupportedError(
                f"cannot write a fence before instruction {index} of P{tid} ('{ins.text}') in C: that place is "
                "inside a statement, a loop condition or an unbraced body", ins.pos,
                hint="rewrite the statement (e.g. split the expression, or 'while (1) { if (!(c)) break; ... }')",
            )
        edits.setdefault(smap.body_offset + b.offset, []).append((b, statement))
    raw: list[tuple[int, int, str]] = []  # (offset, order at that offset, text to insert)
    for offset, items in edits.items():
        raw.extend(_edits(source, offset, items[0][0], [s for _, s in items], smap.body_offset))
    out, last = [], 0
    for offset, _, text in sorted(raw):
        out.append(source[last:offset])
        out.append(text)
        last = offset
    out.append(source[last:])
    return "".join(out)


def _edits(text: str, offset: int, b: Boundary, statements: list[str], body_offset: int):
    """The insertions that put ``statements`` at boundary ``b`` (at ``offset`` in the file)."""
    joined = " ".join(statements)
    if b.wrap_end is not None:  # an unbraced body: `if (c) break;` -> `if (c) { smp_mb(); break; }`
        return [(offset, 1, "{ " + joined + " "), (body_offset + b.wrap_end, 0, " }")]
    line_start = text.rfind("\n", 0, offset) + 1
    lead = text[line_start:offset]
    if lead.strip():  # something precedes on the same line: insert inline
        if b.at_end and text[offset - 1] not in " \t":
            return [(offset, 1, " " + joined + " ")]
        return [(offset, 1, joined + " ")]
    indent = lead
    if b.at_end:
        indent = _indent_of(text, body_offset + b.prev) if b.prev is not None else lead + "    "
        if b.prev is not None and _line_start(text, body_offset + b.prev) == line_start:
            indent = lead + "    "
    return [(line_start, 1, "".join(f"{indent}{s}\n" for s in statements))]

def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _indent_of(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip())]
