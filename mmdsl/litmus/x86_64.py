"""The X86_64 dialect (AT&T syntax) of the litmus-tests-x86 corpus: movq $1,(x) / movq (y),%rax."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from .x86common import X86Syntax, cell_grammar, number


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"%[A-Za-z][A-Za-z0-9]*")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = number()
    imm = pp.Group(pp.Suppress("$") + (num("n") | name("s")))("imm")
    # (x), (%rax), x(%rip), 8(%rax)
    mem = pp.Group(
        pp.Optional(pp.Group(name)("a") | pp.Group(num)("k"))
        + pp.Suppress("(") + pp.Optional(pp.Group(reg)("r") | pp.Group(name)("a")) + pp.Suppress(")")
    )("mem")
    return cell_grammar(mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym"))


class X86_64Dialect(X86Syntax):
    name = "X86_64"
    archs = ("X86_64",)
    att = True
    instruction_help = "an x86-64 instruction in AT&T syntax, e.g. movq $1,(x) / movq (y),%rax / mfence"

    def grammar(self) -> pp.ParserElement:
        return _grammar()

    def norm_reg(self, name: str) -> str:
        return name[1:] if name.startswith("%") else name

    def reg_name(self, name: str) -> str:
        return name[1:]  # %rax -> rax


DIALECT = X86_64Dialect()
