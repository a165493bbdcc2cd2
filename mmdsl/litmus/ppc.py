"""herd's PPC dialect: loads, stores, lwarx/stwcx., Power's fences, and diy's ALU, compare and branch idioms."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import Assign, BinOp, Const, Expr, Fence, Load, Program, Reg, Store, StoreCond, UnOp
from .asm_common import Operands, bind_symbolic_init, parse_asm_cell, split_symbolic_init
from .finals import bounded_int
from .layout import Layout
from .threadtable import CellCode, CellError, TableDialect, lower_table_test

EXCL = "X"  # herd's PPC annotation set X: the accesses of lwarx and stwcx.
CR0 = "cr0"  # condition register field 0: 0 equal, -1 less, 1 greater (what the branches test)
FENCES = {"sync": "sync", "hwsync": "sync", "lwsync": "lwsync", "isync": "isync", "eieio": "eieio"}

_REG = r"(?:r(?:[12][0-9]|3[01]|[0-9])|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"
_LOADS = ("lwz", "ld", "lbz", "lhz")
_STORES = ("stw", "std", "stb", "sth")
_ALU = {"add": "add", "sub": "sub", "subf": "subf", "xor": "xor", "or": "or", "and": "and", "mullw": "mul",
        "divw": "div0"}
_ALU_IMM = {"addi": "add", "subi": "sub", "xori": "xor", "ori": "or", "andi.": "and", "mulli": "mul"}
# conditional branches on cr0, as herd reads them (bit lt, gt or eq set or clear)
_BRANCHES = {"beq": "eq", "bne": "ne", "blt": "lt", "bge": "ge", "bgt": "gt", "ble": "le", "bnl": "ge", "bng": "le"}

HELP = ("a PPC instruction: lbz/lhz/lwz/ld RD,D(RA), lbzx/lhzx/lwzx/ldx RD,RA,RB, stb/sth/stw/std RS,D(RA), "
        "stbx/sthx/stwx/stdx RS,RA,RB, lwarx RD,RA,RB, stwcx. RS,RA,RB, li/lis RD,N, mr RD,RS, addi/subi RD,RA,N, "
        "add/sub/subf/xor/or/and/mullw/divw[.] RD,RA,RB, xori/ori/andi./mulli RD,RA,N, cmpw RA,RB, cmpwi RA,N, "
        "b/beq/bne/blt/bge/bgt/ble/bnl/bng LABEL, sync, hwsync, lwsync, eieio, isync, nop")


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(_REG)
    num = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    num.add_parse_action(lambda t: int(t[0], 16) if "x" in t[0].lower() else int(t[0], 10))
    mem = pp.Group(num("off") + pp.Suppress("(") + reg("base") + pp.Suppress(")"))("mem")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    operand = mem | pp.Group(reg)("reg") | pp.Group(num)("imm") | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[a-z][a-z0-9]*\.?")("mnemonic")
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


def compare(a: Expr, b: Expr) -> Expr:
    """The cr0 value of comparing ``a`` with ``b``: -1 less, 0 equal, 1 greater."""
    return BinOp("sub", BinOp("gt", a, b), BinOp("lt", a, b))


def _displaced(ops: Operands) -> Expr:
    """herd's other spelling of D(RA): ``lwz RD,D,RA``."""
    off, base = ops.imm(1), ops.reg(2)
    return BinOp("add", base, Const(off)) if off else base


def _indexed(ops: Operands, a: int, b: int) -> Expr:
    return BinOp("add", ops.reg_or_zero(a), ops.reg(b))


def lower_instruction(mnemonic: str, ops: Operands, code: CellCode) -> None:
    """Append the core instructions of one PPC instruction to ``code``."""
    out = code.instrs
    m = mnemonic
    if m in _LOADS or m in _STORES:
        ops.arity(2, 3)
        addr = ops.mem(1) if len(ops.nodes) == 2 else _displaced(ops)
        if m in _LOADS:
            out.append(Load(ops.dst(0), addr))
        else:
            out.append(Store(addr, ops.reg(0)))
    elif m.endswith("x") and (m[:-1] in _LOADS or m[:-1] in _STORES):
        ops.arity(3)
        if m[:-1] in _LOADS:
            out.append(Load(ops.dst(0), _indexed(ops, 1, 2)))
        else:
            out.append(Store(_indexed(ops, 1, 2), ops.reg(0)))
    elif m in ("lwarx", "ldarx"):
        ops.arity(3)
        out.append(Load(ops.dst(0), _indexed(ops, 1, 2), frozenset({EXCL, "lr"})))
    elif m in ("stwcx.", "stdcx."):
        # cr0 is 0 (eq) when the store succeeds, 1 (ne) when it fails: beq/bne test it
        ops.arity(3)
        out.append(StoreCond(CR0, _indexed(ops, 1, 2), ops.reg(0), frozenset({EXCL, "stcond"}), reservation_dep="data"))
    elif m in FENCES:
        ops.arity(0)
        out.append(Fence(FENCES[m]))
    elif m in ("li", "lis"):
        ops.arity(2)
        out.append(Assign(ops.dst(0), Const(ops.imm(1) << (16 if m == "lis" else 0))))
    elif m == "mr":
        ops.arity(2)
        out.append(Assign(ops.dst(0), ops.reg(1)))
    elif m.rstrip(".") in _ALU:
        ops.arity(3)
        op = _ALU[m.rstrip(".")]
        a, b = ops.reg(1), ops.reg(2)
        if op == "div0":
            # divw: the low words as signed 32-bit numbers, the quotient in the low word
            # (Power ISA, divw: the high word and a zero divisor's result are undefined;
            # mmdsl sign-extends the quotient and gives 0 for a zero divisor: docs/litmus.md)
            a, b = UnOp("sext32", a), UnOp("sext32", b)
            out.append(Assign(ops.dst(0), UnOp("sext32", BinOp(op, a, b))))
        else:
            out.append(Assign(ops.dst(0), BinOp("sub", b, a) if op == "subf" else BinOp(op, a, b)))
        if m.endswith("."):
            out.append(Assign(CR0, compare(Reg(ops.dst(0)), Const(0))))
    elif m in _ALU_IMM:
        ops.arity(3)
        left = ops.reg_or_zero(1) if m in ("addi", "subi") else ops.reg(1)
        out.append(Assign(ops.dst(0), BinOp(_ALU_IMM[m], left, Const(ops.imm(2)))))
        if m.endswith("."):
            out.append(Assign(CR0, compare(Reg(ops.dst(0)), Const(0))))
    elif m in ("cmpw", "cmpwi", "cmpd", "cmpdi"):
        _compare(m, ops, out)
    elif m == "b":
        ops.arity(1)
        code.jump(ops.label(0), None)
    elif m in _BRANCHES:
        ops.arity(1)
        code.jump(ops.label(0), BinOp(_BRANCHES[m], Reg(CR0), Const(0)))
    elif m == "nop":
        ops.arity(0)
    else:
        raise CellError(f"unsupported PPC instruction '{mnemonic}'", 0, HELP)


def _compare(m: str, ops: Operands, out: list) -> None:
    nodes = ops.nodes
    if len(nodes) == 3 and ops.kind(0) == "sym":  # cmpw crN,RA,RB: only cr0 is modelled
        if nodes[0][0] != "cr0":
            raise CellError(f"'{m}' into condition register field '{nodes[0][0]}': only cr0 is supported", 0)
        ops = Operands(m, nodes[1:])
    ops.arity(2)
    right = Const(ops.imm(1)) if m.endswith("i") else ops.reg(1)
    out.append(Assign(CR0, compare(ops.reg(0), right)))


class PpcDialect(TableDialect):
    name = "PPC"
    archs = ("PPC",)
    instruction_help = HELP

    def parse_cell(self, text: str) -> CellCode:
        return parse_asm_cell(self, _grammar(), text, Operands, lower_instruction)

    def lower(self, layout: Layout) -> Program:
        layout, symbolic = split_symbolic_init(layout)
        return bind_symbolic_init(lower_table_test(layout, self), layout, symbolic)

    def can_write_dependency(self, program: Program, dep) -> bool:
        from .asm_dependencies import PPC, can_write

        return can_write(PPC, program, dep)

    def write_with_devices(self, program: Program, fences: list[tuple[int, int, str]], deps: list) -> str:
        """The source with fences and dependencies (diy's idioms) written in (``asm_dependencies``)."""
        from .asm_dependencies import PPC, write_with_devices

        return write_with_devices(self, PPC, program, fences, deps)

    def fence_text(self, kind: str) -> str:
        if kind in FENCES.values():
            return kind
        raise UnsupportedError(f"PPC has no fence instruction '{kind}'", expected="sync, lwsync, eieio or isync")


DIALECT = PpcDialect()
