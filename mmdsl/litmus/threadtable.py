"""The thread table of assembly-style tests (LISA, X86, X86_64) and its lowering to the core."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import pyparsing as pp

from ..core.errors import LitmusError, UnsupportedError
from ..core.program import Branch, Expr, Instr, Nop, Program, Thread
from .finals import fatal_message, parse_final, parse_init
from .layout import Layout

_PROC = re.compile(r"P([0-9]+)")
END_OF_THREAD = "%end"  # a jump target past the thread's last instruction (x86's ret)


@dataclass
class Cell:
    text: str
    offset: int  # into the file


@dataclass
class CellCode:
    """What one cell of the table lowers to."""

    labels: list[str] = field(default_factory=list)
    instrs: list[Instr] = field(default_factory=list)
    # (index into instrs, label) for branches whose target is a label
    jumps: list[tuple[int, str]] = field(default_factory=list)

    def jump(self, label: str, cond: Expr | None) -> None:
        """Append a branch to ``label`` (taken when ``cond`` is non-zero; always when None)."""
        self.jumps.append((len(self.instrs), label))
        self.instrs.append(Branch(cond, -1))


class CellError(Exception):
    """A dialect's complaint about one cell, located within the cell's text."""

    def __init__(self, message: str, at: int = 0, expected: str | None = None):
        super().__init__(message)
        self.message = message
        self.at = at
        self.expected = expected


class TableDialect:
    """Base of assembly-style dialects: parse one cell of the thread table."""

    name = "?"
    archs: tuple[str, ...] = ()
    instruction_help = ""

    def norm_reg(self, name: str) -> str:
        return name

    def parse_cell(self, text: str) -> CellCode:  # pragma: no cover - abstract
        raise NotImplementedError

    def lower(self, layout: Layout) -> Program:
        """The whole test (thread table, init, final condition) as a core program."""
        return lower_table_test(layout, self)

    def fence_text(self, kind: str) -> str:  # for writing fenced tests back
        raise NotImplementedError

    def write_with_fences(self, program: Program, insertions: list[tuple[int, int, str]]) -> str:
        """The test's source with a fence row inserted for each (thread, before instruction, kind).

        See ``write_table_with_fences``.
        """
        return write_table_with_fences(self, program, insertions)

    # ---- shared helpers ------------------------------------------------------
    def cell_error(self, text: str, err: pp.ParseBaseException) -> CellError:
        if fatal_message(err):
            return CellError(fatal_message(err), err.loc)
        found = text[err.loc:].strip().split()[0] if text[err.loc:].strip() else "end of instruction"
        return CellError(f"cannot parse instruction '{text.strip()}' (at '{found}')", err.loc,
                         self.instruction_help)


def split_table(layout: Layout) -> tuple[list[str], list[list[Cell]]]:
    """The thread names and the rows of cells of the body."""
    body = layout.body
    text = body.text
    rows: list[list[Cell]] = []
    pos = 0
    while True:
        semi = text.find(";", pos)
        if semi < 0:
            rest = text[pos:]
            if rest.strip():
                off = body.offset + pos + (len(rest) - len(rest.lstrip()))
                raise LitmusError("the last row of the thread table does not end with ';'", layout.pos(off),
                                  expected="';' at the end of every row")
            break
        row_text = text[pos:semi]
        cells = []
        cpos = pos
        for part in row_text.split("|"):
            cells.append(Cell(part, body.offset + cpos))
            cpos += len(part) + 1
        rows.append(cells)
        pos = semi + 1
    if not rows:
        raise LitmusError("no thread table", layout.pos(body.offset), expected="a row 'P0 | P1 ;'")
    header = rows[0]
    names = []
    for i, c in enumerate(header):
        name = c.text.strip()
        m = _PROC.fullmatch(name)
        if not m or int(m.group(1)) != i:
            off = c.offset + (len(c.text) - len(c.text.lstrip()))
            raise LitmusError(f"thread column {i} is named '{name}'", layout.pos(off), expected=f"'P{i}'")
        names.append(name)
    for row in rows[1:]:
        if len(row) != len(names):
            raise LitmusError(
                f"this row has {len(row)} cells but there are {len(names)} threads",
                layout.pos(row[0].offset + (len(row[0].text) - len(row[0].text.lstrip()))),
                expected=f"{len(names)} cells separated by '|'",
            )
    return names, rows[1:]


_CELL_CACHE: dict[tuple[str, str], CellCode] = {}


def lower_table_test(layout: Layout, dialect: TableDialect) -> Program:
    """Lower an assembly-style test to the core program."""
    names, rows = split_table(layout)
    mem_init, reg_init = parse_init(layout, dialect.norm_reg)
    condition, observed, filt = parse_final(layout, dialect.norm_reg)
    threads = []
    for tid, name in enumerate(names):
        instrs: list[Instr] = []
        labels: dict[str, int] = {}
        jumps: list[tuple[int, str, Cell]] = []
        for row in rows:
            cell = row[tid]
            text = cell.text.strip()
            if not text:
                continue
            key = (dialect.name, text)
            code = _CELL_CACHE.get(key)
            if code is None:
                try:
                    code = dialect.parse_cell(text)
                except CellError as err:
                    lead = len(cell.text) - len(cell.text.lstrip())
                    raise LitmusError(err.message, layout.pos(cell.offset + lead + err.at),
                                      expected=err.expected) from None
                except UnsupportedError as err:
                    lead = len(cell.text) - len(cell.text.lstrip())
                    err.pos = layout.pos(cell.offset + lead)
                    raise
                _CELL_CACHE[key] = code
            lead = len(cell.text) - len(cell.text.lstrip())
            pos = layout.pos(cell.offset + lead)
            for lab in code.labels:
                if lab in labels:
                    raise LitmusError(f"label '{lab}' is defined twice in {name}", pos)
                labels[lab] = len(instrs)
            base = len(instrs)
            for k, lab in code.jumps:
                jumps.append((base + k, lab, cell))
            for ins in code.instrs:
                instrs.append(_placed(ins, pos, text))
            if code.labels and not code.instrs:
                instrs.append(Nop(pos=pos, text=text))
        for idx, lab, cell in jumps:
            if lab == END_OF_THREAD:
                instrs[idx] = replace(instrs[idx], target=len(instrs))
                continue
            if lab not in labels:
                raise LitmusError(f"branch to unknown label '{lab}' in {name}", instrs[idx].pos,
                                  expected=f"one of {sorted(labels)}" if labels else "a label defined in this thread")
            instrs[idx] = replace(instrs[idx], target=labels[lab])
        regs = {r: v for (t, r), v in reg_init.items() if t == tid}
        threads.append(Thread(tid, name, instrs, regs))
    for (t, r), _ in reg_init.items():
        if t >= len(names):
            raise LitmusError(f"init gives register {r} to thread {t}, and there are {len(names)} threads",
                              layout.pos(layout.init.offset))
    _check_condition_threads(layout, condition, observed, len(names))
    return Program(
        name=layout.name, arch=layout.arch, threads=threads, init=mem_init, condition=condition,
        path=layout.path, doc=layout.doc, info=layout.info, observed=observed, filter=filt,
        source=layout.original, layout=(names, rows),
    )


def _placed(ins: Instr, pos, text: str) -> Instr:
    """``replace(ins, pos=pos, text=text)`` without re-running the dataclass ``__init__``: a
    cell's instructions are shared by every test with that cell (``_CELL_CACHE``) and get
    their place per test. The instructions are frozen dataclasses with no ``__post_init__``."""
    new = object.__new__(type(ins))
    fields = new.__dict__
    fields.update(ins.__dict__)
    fields["pos"] = pos
    fields["text"] = text
    return new


def _check_condition_threads(layout: Layout, condition, observed, nthreads: int) -> None:
    for key in [*condition.keys(), *observed]:
        if key[0] == "reg" and key[1] >= nthreads:
            raise LitmusError(
                f"the condition names register {key[2]} of thread {key[1]}, and there are {nthreads} threads",
                layout.pos(layout.final.offset),
            )


# ----- writing a fenced test back --------------------------------------------------------
_LABEL_PREFIX = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*[ \t]*:[ \t]*)+")
_NOT_MOVABLE = ("Load", "Store", "Rmw", "Branch", "Assume")


@dataclass
class _Block:
    row: int
    first: int  # index of its first instruction
    count: int
    labels: bool


def _blocks(dialect: TableDialect, rows: list[list[Cell]], tid: int) -> list[_Block]:
    """Which instructions of thread ``tid`` each non-empty cell lowered to (as the lowering did)."""
    out = []
    n = 0
    for r, row in enumerate(rows):
        text = row[tid].text.strip()
        if not text:
            continue
        key = (dialect.name, text)
        code = _CELL_CACHE.get(key) or dialect.parse_cell(text)
        count = len(code.instrs) or (1 if code.labels else 0)
        out.append(_Block(r, n, count, bool(code.labels)))
        n += count
    return out


def _row_text(row: list[Cell], contents: list[str], own_line: bool) -> str:
    """A new row shaped like ``row``: each content left-aligned in its column's width."""
    cells = []
    for c, (cell, content) in enumerate(zip(row, contents)):
        text = cell.text
        if c == 0:
            text = text[text.rfind("\n") + 1:]
        if not own_line:
            cells.append(f" {content} " if content else " ")
            continue
        lead = len(text) - len(text.lstrip(" \t"))
        cells.append(" " * lead + content.ljust(len(text) - lead))
    return "|".join(cells) + ";"


def write_table_with_fences(dialect: TableDialect, program: Program, insertions: list[tuple[int, int, str]],
                            text_of=None) -> str:
    """The source text with new rows holding the fences, everything else byte for byte.

    A fence before instruction i of thread t goes in a new row just above the row whose
    cell starts i (column t; empty cells elsewhere); labels of that cell move to the
    fence, so jumps to them run the fence too, as in the core IR's insertion. A fence
    cannot go inside one source instruction (between the read and the write of a
    non-locked ``ADD [x],$1``, say), except past instructions that do not touch memory.
    ``text_of`` spells an insertion's kind (default: the dialect's fence; the dependency
    writer passes instruction texts as they are).
    """
    if program.layout is None or not program.source:
        raise UnsupportedError(f"{program.name} was not read from a {dialect.name} file; cannot write it back")
    names, rows = program.layout
    text = program.source
    new_rows: dict[int, list[list[str]]] = {}  # row index (len(rows) = after the last) -> new rows
    relabel: dict[tuple[int, int], tuple[str, int, int]] = {}  # (row, tid) -> labels moved, their span
    for tid, index, kind in insertions:
        instrs = program.threads[tid].instrs
        fence = (text_of or dialect.fence_text)(kind)
        blocks = _blocks(dialect, rows, tid)
        if index >= len(instrs):
            r = len(rows)
        else:
            block = next(b for b in blocks if b.first <= index < b.first + b.count)
            skipped = instrs[block.first:index]
            if any(type(i).__name__ in _NOT_MOVABLE for i in skipped):
                raise UnsupportedError(f"a fence cannot go inside '{instrs[index].text}' ({names[tid]})",
                                       instrs[index].pos)
            r = block.row
            if block.labels and (r, tid) not in relabel:
                cell = rows[r][tid]
                m = _LABEL_PREFIX.match(cell.text, len(cell.text) - len(cell.text.lstrip()))
                if m:
                    relabel[(r, tid)] = (" ".join(m.group(0).split()), cell.offset + m.start(), cell.offset + m.end())
        slots = new_rows.setdefault(r, [])
        for slot in slots:
            if not slot[tid]:
                slot[tid] = fence
                break
        else:
            slot = [""] * len(names)
            slot[tid] = fence
            slots.append(slot)
    edits: list[tuple[int, int, str]] = []  # (offset, length replaced, new text)
    for (r, tid), (labels, start, end) in relabel.items():
        new_rows[r][0][tid] = f"{labels} {new_rows[r][0][tid]}"
        edits.append((start, end - start, " " * (end - start)))
    for r, slots in new_rows.items():
        if r == len(rows):
            last = rows[-1]
            at = last[-1].offset + len(last[-1].text) + 1
            edits.append((at, 0, "".join("\n" + _row_text(last, s, True) for s in slots)))
            continue
        first = rows[r][0]
        nl = first.text.rfind("\n")
        own_line = nl >= 0
        at = first.offset + nl + 1 if own_line else first.offset
        sep = "\n" if own_line else ""
        edits.append((at, 0, "".join(_row_text(rows[r], s, own_line) + sep for s in slots)))
    for at, length, new in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:at] + new + text[at + length:]
    return text
