"""herd's X86 dialect (Intel syntax): MOV [x],$1 / MOV EAX,[y] / MFENCE / XCHG / LOCK."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from .finals import bounded_int
from .threadtable import CellCode, TableDialect
from .x86common import lower_x86, operand, x86_fence

_REGS = (
    "EAX EBX ECX EDX ESI EDI ESP EBP AX BX CX DX AL BL CL DL AH BH CH DH "
    "RAX RBX RCX RDX RSI RDI RSP RBP R8 R9 R10 R11 R12 R13 R14 R15 "
    "R8D R9D R10D R11D R12D R13D R14D R15D"
).split()


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"(" + "|".join(sorted(_REGS, key=len, reverse=True)) + r"|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    imm = pp.Group(pp.Suppress("$") + (num("n") | name("s")))("imm") | pp.Group(num("n"))("imm")
    mem = pp.Group(
        pp.Suppress("[") + (pp.Group(reg)("r") | pp.Group(name)("a") | pp.Group(num)("k"))
        + pp.Optional(pp.Suppress("+") + (pp.Group(reg)("r") | pp.Group(num)("k"))) + pp.Suppress("]")
    )("mem")
    operand = mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[A-Za-z]+")("mnemonic")
    lock = pp.Optional(pp.CaselessKeyword("LOCK")("lock") + pp.Optional(pp.Suppress(";")))
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = lock + mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


class X86Dialect(TableDialect):
    name = "X86"
    archs = ("X86",)
    instruction_help = "an x86 instruction in Intel syntax, e.g. MOV [x],$1 / MOV EAX,[y] / MFENCE"

    def parse_cell(self, text: str) -> CellCode:
        try:
            parsed = _grammar().parse_string(text, parse_all=True)
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        labels = [lab["label"] for lab in parsed.get("labels", [])]
        if "mnemonic" not in parsed:
            return CellCode(labels=labels)
        mnem = parsed["mnemonic"]
        ops = [operand(o) for o in parsed["operands"]] if "operands" in parsed else []
        return lower_x86(mnem, "lock" in parsed, ops, labels)

    def fence_text(self, kind: str) -> str:
        return x86_fence(kind, self.name).upper()


DIALECT = X86Dialect()
