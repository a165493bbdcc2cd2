"""The X86_64 dialect (AT&T syntax) of the litmus-tests-x86 corpus: movq $1,(x) / movq (y),%rax."""

from __future__ import annotations

import re
from functools import lru_cache

import pyparsing as pp

from ..core.errors import LitmusError
from ..core.program import Program
from .layout import Layout
from .x86_64_regs import PARTS, X86_64Registers, condition_register
from .x86common import X86Syntax, cell_grammar, number

_PROC_REG = re.compile(r"(?<![A-Za-z0-9_])([0-9]+)\s*:\s*(%?[A-Za-z_][A-Za-z0-9_]*)")


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"%[A-Za-z][A-Za-z0-9]*")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = number()
    # $1, $x, and as herd reads them, a bare number (shl 2,%eax)
    imm = pp.Group(pp.Suppress("$") + (num("n") | name("s")))("imm") | pp.Group(num("n"))("imm")
    # (x), (%rax), x(%rip), 8(%rax), 0(%rax,%rbx,8), %cs:0(%rax,%rax,1)
    scaled = (pp.Optional(pp.Group(reg)("r"))
              + pp.Optional(pp.Suppress(",") + pp.Group(reg)("i") + pp.Optional(pp.Suppress(",") + pp.Group(num)("s"))))
    mem = pp.Group(
        pp.Optional(pp.Suppress(reg + ":"))
        + pp.Optional(pp.Group(name)("a") | pp.Group(num)("k"))
        + pp.Suppress("(") + (pp.Group(name)("a") | scaled) + pp.Suppress(")")
    )("mem")
    return cell_grammar(mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym"))


class X86_64Dialect(X86Syntax):
    name = "X86_64"
    archs = ("X86_64",)
    att = True
    instruction_help = "an x86-64 instruction in AT&T syntax, e.g. movq $1,(x) / movq (y),%rax / mfence"
    registers = X86_64Registers()

    def grammar(self) -> pp.ParserElement:
        return _grammar()

    def norm_reg(self, name: str) -> str:
        """A register of the init or the condition: ``RAX`` and ``%rax`` are ``rax``, as herd prints it."""
        return condition_register(name)[0]

    def lower(self, layout: Layout) -> Program:
        _refuse_parts(layout)
        return super().lower(layout)


def _refuse_parts(layout: Layout) -> None:
    """herd reads only whole registers (``0:rax``) in the init and the condition: refuse ``0:eax``."""
    for region in (layout.init, layout.final):
        for m in _PROC_REG.finditer(region.text):
            complaint = condition_register(m.group(2))[1]
            if complaint:
                full = PARTS[m.group(2).lstrip("%").lower()][0]
                raise LitmusError(complaint, layout.pos(region.offset + m.start(2)), expected=f"{m.group(1)}:{full}")


DIALECT = X86_64Dialect()
