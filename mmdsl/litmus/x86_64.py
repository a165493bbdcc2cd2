"""The X86_64 dialect (AT&T syntax) of the litmus-tests-x86 corpus: movq $1,(x) / movq (y),%rax."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from .finals import bounded_int
from .threadtable import CellCode, TableDialect
from .x86common import lower_x86, operand, x86_fence


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"%[A-Za-z][A-Za-z0-9]*")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    imm = pp.Group(pp.Suppress("$") + (num("n") | name("s")))("imm")
    # (x), (%rax), x(%rip), 8(%rax)
    mem = pp.Group(
        pp.Optional(pp.Group(name)("a") | pp.Group(num)("k"))
        + pp.Suppress("(") + pp.Optional(pp.Group(reg)("r") | pp.Group(name)("a")) + pp.Suppress(")")
    )("mem")
    operand = mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[A-Za-z]+")("mnemonic")
    lock = pp.Optional(pp.CaselessKeyword("lock")("lock") + pp.Optional(pp.Suppress(";")))
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = lock + mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


def _att_reg(name: str) -> str:
    return name[1:]  # %rax -> rax


class X86_64Dialect(TableDialect):
    name = "X86_64"
    archs = ("X86_64",)
    instruction_help = "an x86-64 instruction in AT&T syntax, e.g. movq $1,(x) / movq (y),%rax / mfence"

    def norm_reg(self, name: str) -> str:
        return name[1:] if name.startswith("%") else name

    def parse_cell(self, text: str) -> CellCode:
        try:
            parsed = _grammar().parse_string(text, parse_all=True)
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        labels = [lab["label"] for lab in parsed.get("labels", [])]
        if "mnemonic" not in parsed:
            return CellCode(labels=labels)
        ops = [operand(o, _att_reg) for o in parsed["operands"]] if "operands" in parsed else []
        ops.reverse()  # AT&T: source first; lower_x86 wants the destination first
        return lower_x86(parsed["mnemonic"], "lock" in parsed, ops, labels)

    def fence_text(self, kind: str) -> str:
        return x86_fence(kind, self.name).lower()


DIALECT = X86_64Dialect()
