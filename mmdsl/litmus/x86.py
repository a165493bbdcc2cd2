"""herd's X86 dialect (Intel syntax): MOV [x],$1 / MOV EAX,[y] / MFENCE / XCHG / LOCK."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from .x86common import X86Syntax, cell_grammar, number

_REGS = (
    "EAX EBX ECX EDX ESI EDI ESP EBP AX BX CX DX AL BL CL DL AH BH CH DH "
    "RAX RBX RCX RDX RSI RDI RSP RBP R8 R9 R10 R11 R12 R13 R14 R15 "
    "R8D R9D R10D R11D R12D R13D R14D R15D"
).split()


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"(" + "|".join(sorted(_REGS, key=len, reverse=True)) + r"|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = number()
    imm = pp.Group(pp.Suppress("$") + (num("n") | name("s")))("imm") | pp.Group(num("n"))("imm")
    mem = pp.Group(
        pp.Suppress("[") + (pp.Group(reg)("r") | pp.Group(name)("a") | pp.Group(num)("k"))
        + pp.Optional(pp.Suppress("+") + (pp.Group(reg)("r") | pp.Group(num)("k"))) + pp.Suppress("]")
    )("mem")
    return cell_grammar(mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym"))


class X86Dialect(X86Syntax):
    name = "X86"
    archs = ("X86",)
    instruction_help = "an x86 instruction in Intel syntax, e.g. MOV [x],$1 / MOV EAX,[y] / MFENCE"

    def grammar(self) -> pp.ParserElement:
        return _grammar()


DIALECT = X86Dialect()
