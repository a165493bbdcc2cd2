"""Write a C litmus test back with fence statements inserted before chosen instructions."""

from __future__ import annotations

from collections import Counter

from ..core.errors import LitmusError, UnsupportedError
from ..core.program import Program
from .c_statements import Boundary


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
    source = program.source
    edits: dict[int, list[tuple[Boundary, str]]] = {}
    for tid, index, statement, b in _placed(dialect, program, insertions):
        at = edits.setdefault(smap.body_offset + b.offset, [])
        if statement not in [s for _, s in at]:  # the same fence from several copies of the place: once
            at.append((b, statement))
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


def _placed(dialect, program: Program, insertions):
    """Each insertion as (tid, index, its C statement, the source place it is written at)."""
    smap = program.layout
    if smap is None or not hasattr(smap, "boundaries"):
        raise UnsupportedError(f"test '{program.name}' was not read from C source; cannot write it back as C")
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
        yield tid, index, statement, b


def shared_fence_notes(dialect, program: Program, insertions) -> list[str]:
    """What ``-o`` did with fences whose source place has several copies in the program.

    A function is inlined at each of its calls and an ``unroll=N`` loop body copied N
    times: one statement of the source stands for several places of the program. A fence
    is written once, in the function's (or the loop's) own text, so it runs at every copy;
    when the chosen fences needed it at fewer copies, the written test has more fences
    than the selection (it is re-checked as written). One line per such fence.
    """
    smap = program.layout
    chosen: dict[tuple[int, str], set] = {}
    for tid, index, statement, b in _placed(dialect, program, insertions):
        chosen.setdefault((b.offset, statement), set()).add((tid, index))
    notes = []
    for (offset, statement), wanted in sorted(chosen.items()):
        copies = {(tid, b.index) for tid, bs in enumerate(smap.boundaries) for b in bs if b.offset == offset}
        copies |= wanted
        if len(copies) < 2:
            continue
        line = program.source.count("\n", 0, smap.body_offset + offset) + 1
        fn = next((name for name, start, end in smap.inlined if start <= offset < end), None)
        where = [f"in {fn}(), inlined at each call"] if fn else []
        if any(start < offset < end for start, end in smap.unrolled):  # the loop statement itself is not
            where.append(f"in a loop unrolled {smap.unroll} times")
        per = ", ".join(f"P{t} x{n}" for t, n in sorted(Counter(t for t, _ in copies).items()))
        note = (f"'{statement}' before line {line} is {' and '.join(where) or 'copied'}: written once there, it runs at all "
                f"{len(copies)} copies of that place ({per})")
        if len(wanted) < len(copies):
            note += (f"; the chosen fences need it at {len(wanted)} of them, so the written test has "
                     f"{len(copies) - len(wanted)} fence(s) more than the selection")
        notes.append(note)
    return notes


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
