"""What the assembly dialects share: reading a cell, operand readers, herd's symbolic registers (``%x0``)."""

from __future__ import annotations

import re
from dataclasses import replace

import pyparsing as pp

from ..core.errors import LitmusError
from ..core.program import Assign, BinOp, Const, Expr, Program, Reg
from .finals import bounded_int
from .layout import Layout, Region
from .threadtable import CellCode, CellError

# an init item naming a symbolic register without a thread: `%x0=x` or `%x0 = 1`
_ITEM = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*([^;\s]+)[ \t]*;?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?(?:0x[0-9a-fA-F]+|[0-9]+)")
_START = re.compile(r"(?:^|(?<=[;{\s]))%")


def split_symbolic_init(layout: Layout) -> tuple[Layout, list[tuple[str, object, int]]]:
    """The layout with its ``%name=value`` init items blanked (offsets kept), and those items
    as (register, value, offset in the file)."""
    if layout.init is None or "%" not in layout.init.text:
        return layout, []
    text = layout.init.text
    items = []
    out = list(text)
    for m in _ITEM.finditer(text):
        if not _START.match(text, m.start()):
            continue
        raw = m.group(2)
        at = layout.init.offset + m.start()
        if not _NAME.fullmatch(raw):
            raise LitmusError(f"symbolic register %{m.group(1)} is given '{raw}'", layout.pos(at),
                              expected="a number or a location name")
        if raw[0].isdigit() or raw[0] == "-":
            try:
                bounded_int(raw, 0, [raw])
            except Exception as err:  # the literal is wider than 64 bits
                raise LitmusError(str(getattr(err, "msg", err)), layout.pos(at)) from None
            value: object = int(raw, 16) if "x" in raw.lower() else int(raw, 10)
        else:
            value = raw
        items.append(("%" + m.group(1), value, at))
        for k in range(m.start(), m.end()):
            if out[k] != "\n":
                out[k] = " "
    return replace(layout, init=Region("".join(out), layout.init.offset)), items


def bind_symbolic_init(program: Program, layout: Layout, items: list[tuple[str, object, int]]) -> Program:
    """Give each symbolic register's initial value to the thread whose code uses it (herd:
    one thread only, else the register is ambiguous; one no code names is an error)."""
    if not items:
        return program
    users: dict[str, list[int]] = {}
    for t in program.threads:
        names = set()
        for ins in t.instrs:
            for attr in ("addr", "value", "expr", "cond", "new"):
                e = getattr(ins, attr, None)
                if e is not None and hasattr(e, "regs"):
                    names |= e.regs()
            dst = getattr(ins, "dst", None)
            if dst:
                names.add(dst)
        for n in names:
            if n.startswith("%"):
                users.setdefault(n, []).append(t.tid)
    for reg, value, at in items:
        tids = users.get(reg, [])
        if not tids:
            raise LitmusError(f"symbolic register {reg} does not appear in the code", layout.pos(at))
        if len(tids) > 1:
            raise LitmusError(f"ambiguous symbolic register {reg}: used by "
                              + ", ".join(program.threads[t].name for t in tids), layout.pos(at),
                              expected="a symbolic register named in one thread only (or 'N:REG=...')")
        th = program.threads[tids[0]]
        th.reg_init[reg] = value
    return program


def assign(code: CellCode, dst: str | None, e: Expr) -> None:
    """Append ``dst := e`` to ``code``, unless ``dst`` is a zero register (None)."""
    if dst is not None:
        code.instrs.append(Assign(dst, e))


def parse_asm_cell(dialect, grammar, text: str, operands, lower) -> CellCode:
    """One cell of an assembly test: its labels, then its instruction lowered by ``lower``
    (``operands`` reads the operands as the mnemonic needs them)."""
    try:
        parsed = grammar.parse_string(text, parse_all=True)
    except pp.ParseBaseException as err:
        raise dialect.cell_error(text, err) from None
    code = CellCode(labels=[lab["label"] for lab in parsed.get("labels", [])])
    if "mnemonic" not in parsed:
        return code
    ops = operands(parsed["mnemonic"], parsed["operands"] if "operands" in parsed else [])
    lower(parsed["mnemonic"], ops, code)
    return code


class Operands:
    """The operands of one instruction, read as the mnemonic needs them."""

    def __init__(self, mnemonic: str, nodes):
        self.m = mnemonic
        self.nodes = list(nodes)

    def arity(self, *n: int) -> None:
        if len(self.nodes) not in n:
            want = " or ".join(str(k) for k in n)
            raise CellError(f"'{self.m}' takes {want} operands, not {len(self.nodes)}", 0)

    def kind(self, i: int) -> str:
        return self.nodes[i].get_name()

    def _need(self, i: int, kind: str, what: str) -> None:
        """Refuse operand ``i`` unless it is of ``kind``, naming what it should be and what it is."""
        if self.kind(i) != kind:
            found = self.nodes[i][0] if self.kind(i) in ("sym", "reg", "imm") else None
            shown = f", not '{found}'" if isinstance(found, (str, int)) and len(str(found)) <= 40 else ""
            raise CellError(f"operand {i + 1} of '{self.m}' must be {what}{shown}", 0)

    def reg(self, i: int) -> Expr:
        self._need(i, "reg", "a register")
        return Reg(self.nodes[i][0])

    def reg_or_zero(self, i: int) -> Expr:
        """RA of an indexed access or of addi: r0 there reads as 0 (the Power ISA, and herd)."""
        self._need(i, "reg", "a register")
        name = self.nodes[i][0]
        return Const(0) if name == "r0" else Reg(name)

    def dst(self, i: int) -> str:
        self._need(i, "reg", "a register")
        return self.nodes[i][0]

    def imm(self, i: int) -> int:
        self._need(i, "imm", "an immediate")
        return self.nodes[i][0]

    def mem(self, i: int) -> Expr:
        self._need(i, "mem", "a memory operand D(RA)")
        node = self.nodes[i]
        base: Expr = Reg(node["base"])
        return BinOp("add", base, Const(node["off"])) if node["off"] else base

    def label(self, i: int) -> str:
        self._need(i, "sym", "a label")
        return self.nodes[i][0]
