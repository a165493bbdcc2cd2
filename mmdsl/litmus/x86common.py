"""What the two x86 syntaxes share: the cell grammar's frame, operands, and fence spelling."""

from __future__ import annotations

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import BinOp, Const
from .finals import bounded_int
from .threadtable import CellCode, TableDialect
from .x86_64_regs import PlainRegisters, X86_64Registers
from .x86_lower import lower_x86


def number() -> pp.ParserElement:
    """An integer literal of either syntax (decimal or 0x hexadecimal, at most 64 bits)."""
    return pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)


def cell_grammar(operand_: pp.ParserElement) -> pp.ParserElement:
    """One cell: labels, then optionally ``[LOCK] MNEMONIC operand, ...``."""
    mnemonic = pp.Regex(r"[A-Za-z][A-Za-z0-9]*")("mnemonic")
    lock = pp.Optional(pp.CaselessKeyword("LOCK")("lock") + pp.Optional(pp.Suppress(";")))
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = lock + mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand_, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


class X86Syntax(TableDialect):
    """Base of the Intel (X86) and AT&T (X86_64) dialects: they differ in grammar and registers."""

    att = False  # AT&T: source operand first, lower-case fences
    registers: X86_64Registers = PlainRegisters()

    def grammar(self) -> pp.ParserElement:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_cell(self, text: str) -> CellCode:
        try:
            parsed = self.grammar().parse_with_tabs().parse_string(text, parse_all=True)  # columns past a tab
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        labels = [lab["label"] for lab in parsed.get("labels", [])]
        if "mnemonic" not in parsed:
            return CellCode(labels=labels)
        ops = [operand(o, self.registers) for o in parsed["operands"]] if "operands" in parsed else []
        if self.att:
            ops.reverse()  # lower_x86 wants the destination first
        return lower_x86(parsed["mnemonic"], "lock" in parsed, ops, labels, self.registers, self.att)

    def fence_text(self, kind: str) -> str:
        spelled = x86_fence(kind, self.name)
        return spelled.lower() if self.att else spelled.upper()


def x86_int(text: str) -> int:
    """An integer of either syntax: hexadecimal with 0x, otherwise decimal (herd: 010 is ten)."""
    return int(text, 16) if "x" in text.lower() else int(text, 10)


def operand(node, regs: X86_64Registers) -> tuple:
    """One parsed operand of either syntax (``sym``, ``reg``, ``imm`` or ``mem`` group) as
    ``(kind, value)``; ``regs`` names and reads the registers.

    A memory operand's parts are a base register (``r``), an index register (``i``)
    times a scale (``s``), a location (``a``) and an offset (``k``; zero adds nothing).
    AT&T's ``x(%rip)`` is the location ``x``.
    """
    kind = node.get_name()
    if kind == "sym":
        return ("sym", node[0])
    if kind == "reg":
        return ("reg", regs.name(node[0]))
    if kind == "imm":
        return ("imm", x86_int(node["n"]) if "n" in node else node["s"])
    parts = []
    index = None
    scale = 1
    for p in node:
        k = p.get_name()
        if k == "r":
            name = regs.name(p[0])
            if name != "rip":
                parts.append(regs.read(name))
        elif k == "i":
            index = regs.read(regs.name(p[0]))
        elif k == "s":
            scale = x86_int(p[0])
        elif k == "a":
            if p[0] != "rip":
                parts.append(Const(p[0]))
        elif x86_int(p[0]):
            parts.append(Const(x86_int(p[0])))
    if index is not None and scale:
        parts.append(index if scale == 1 else BinOp("mul", index, Const(scale)))
    if not parts:
        parts = [Const(0)]
    addr = parts[0]
    for more in parts[1:]:
        addr = BinOp("add", addr, more)
    return ("mem", addr)


X86_FENCES = ("mfence", "lfence", "sfence")


def x86_fence(kind: str, dialect: str) -> str:
    """The x86 fence instruction for a fence kind; an UnsupportedError for a kind x86 lacks."""
    if kind.lower() not in X86_FENCES:
        raise UnsupportedError(f"{dialect} has no fence instruction '{kind}'",
                               expected="one of " + ", ".join(f.upper() for f in X86_FENCES))
    return kind
