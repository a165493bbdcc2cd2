"""herd's PPC dialect: loads, stores, lwarx/stwcx., Power's fences, and diy's ALU, compare and branch idioms."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import Assign, BinOp, Branch, Const, Expr, Fence, Load, Nop, Program, Reg, Store, StoreCond, UnOp
from .asm_common import Operands, bind_symbolic_init, parse_asm_cell, split_symbolic_init
from .finals import bounded_int
from .layout import Layout
from .threadtable import CellCode, CellError, TableDialect, lower_table_test

EXCL = "X"  # herd's PPC annotation set X: the accesses of lwarx and stwcx.
CR0 = "cr0"  # condition register field 0: 0 equal, -1 less, 1 greater (what the branches test)
CR_FIELDS = tuple(f"cr{i}" for i in range(8))  # cr1 ... cr7 hold a compare's result the same way
M32 = 2 ** 32 - 1
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
        "add/sub/subf/xor/or/and/mullw/divw[.] RD,RA,RB, xori/ori/andi./mulli RD,RA,N, "
        "cmpw/cmplw [crN,]RA,RB, cmpwi/cmplwi [crN,]RA,N, b/beq/bne/blt/bge/bgt/ble/bnl/bng [crN,]LABEL, "
        "mfcr RD, rlwinm[.]/rlwimi RA,RS,SH,MB,ME, sync, hwsync, lwsync, eieio, isync, nop")


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
    elif m in ("cmpw", "cmpwi", "cmpd", "cmpdi", "cmplw", "cmplwi"):
        _compare(m, ops, out)
    elif m == "mfcr":
        ops.arity(1)
        _mfcr(ops.dst(0), code)
    elif m in ("rlwinm", "rlwinm.", "rlwimi"):  # herd has no rlwimi.
        ops.arity(5)
        rotated, mask = rotate_masked(m.rstrip("."), ops.reg(1), ops.imm(2), ops.imm(3), ops.imm(4))
        if m == "rlwimi":  # insert: RA keeps its bits outside the mask (its high word too)
            if ops.imm(3) > ops.imm(4):
                raise CellError("'rlwimi' with MB > ME is not supported (its wrapped mask covers the high word, "
                                "where the Power ISA inserts the rotated word again)", 0, "MB <= ME")
            rotated = BinOp("or", rotated, BinOp("and", ops.reg(0), Const(~mask)))
        out.append(Assign(ops.dst(0), rotated))
        if m == "rlwinm.":
            out.append(Assign(CR0, compare(Reg(ops.dst(0)), Const(0))))
    elif m == "b":
        ops.arity(1)
        code.jump(ops.label(0), None)
    elif m in _BRANCHES:
        ops.arity(1, 2)
        field = _field(ops, m) if len(ops.nodes) == 2 else CR0
        code.jump(ops.label(len(ops.nodes) - 1), BinOp(_BRANCHES[m], Reg(field), Const(0)))
    elif m == "nop":
        ops.arity(0)
    else:
        raise CellError(f"unsupported PPC instruction '{mnemonic}'", 0, HELP)


def _field(ops: Operands, m: str) -> str:
    """The condition register field named by operand 0 (``cr0`` ... ``cr7``)."""
    if ops.kind(0) != "sym" or ops.nodes[0][0] not in CR_FIELDS:
        raise CellError(f"operand 1 of '{m}' must be a condition register field", 0, "cr0 ... cr7")
    return ops.nodes[0][0]


def _compare(m: str, ops: Operands, out: list) -> None:
    field = CR0
    if len(ops.nodes) == 3 and ops.kind(0) == "sym":  # cmpw crN,RA,RB
        field = _field(ops, m)
        ops = Operands(m, ops.nodes[1:])
    ops.arity(2)
    left, right = ops.reg(0), Const(ops.imm(1)) if m.endswith("i") else ops.reg(1)
    if m.startswith("cmpl"):  # cmplw: the low words compared as unsigned values
        left, right = BinOp("and", left, Const(M32)), BinOp("and", right, Const(M32))
    out.append(Assign(field, compare(left, right)))


SET = 3  # in a thread with mfcr, a field holds 3 + its compare's -1, 0 or 1, so 0 is "never set" (herd: 0)


def _nibble(field: str) -> Expr:
    """The 4 bits (LT GT EQ SO) of a field in mfcr's encoding (``SET``; SO is 0; unset: 0)."""
    f = Reg(field)
    return BinOp("add", BinOp("add", BinOp("mul", BinOp("eq", f, Const(SET - 1)), Const(8)),
                               BinOp("mul", BinOp("eq", f, Const(SET + 1)), Const(4))),
                 BinOp("mul", BinOp("eq", f, Const(SET)), Const(2)))


def _mfcr(dst: str | None, code: CellCode) -> None:
    """mfcr RD: the condition register, field 0 in the top nibble of the low word. Its thread
    is then rewritten to tell a field never set (0, as herd's initial cr) from one set
    (``with_mfcr``)."""
    value: Expr = Const(0)
    for k, field in enumerate(CR_FIELDS):
        value = BinOp("add", value, BinOp("shl", _nibble(field), Const(28 - 4 * k)))
    code.instrs.append(Assign(dst, value) if dst else Nop())


def with_mfcr(thread) -> None:
    """Rewrite a thread that reads its condition register whole (mfcr): every field holds
    ``SET`` + the compare's result, and the branches test it so."""
    if not any(i.text.split()[:1] == ["mfcr"] for i in thread.instrs):
        return
    for k, ins in enumerate(thread.instrs):
        if isinstance(ins, StoreCond) and ins.dst in CR_FIELDS:
            raise UnsupportedError("'mfcr' in a thread with 'stwcx.' is not supported (its cr0 is 0 or 1, not a "
                                   "compare's)", ins.pos)
        if isinstance(ins, Assign) and ins.dst in CR_FIELDS:
            thread.instrs[k] = replace(ins, expr=BinOp("add", ins.expr, Const(SET)))
        elif isinstance(ins, Branch) and isinstance(ins.cond, BinOp) and isinstance(ins.cond.left, Reg) \
                and ins.cond.left.name in CR_FIELDS:
            thread.instrs[k] = replace(ins, cond=BinOp(ins.cond.op, ins.cond.left, Const(SET)))


def _bits(first: int, last: int) -> int:
    """The word with bits ``first`` to ``last`` set (bit 0 the most significant); 0 when first > last."""
    if first > last:
        return 0
    return ((1 << (32 - first)) - 1) & ~((1 << (31 - last)) - 1)


def rotate_masked(mnemonic: str, source: Expr, sh: int, mb: int, me: int) -> tuple[Expr, int]:
    """rlwinm/rlwimi: the low word of ``source`` rotated left by ``sh`` and the mask of bits ``mb``
    to ``me`` (bit 0 the most significant of the word; ``mb > me`` wraps around), and that mask."""
    for v, what in ((sh, "SH"), (mb, "MB"), (me, "ME")):
        if not 0 <= v <= 31:
            raise CellError(f"'{mnemonic}' {what} must be 0 to 31, not {v}", 0)
    mask = _bits(mb, me) if mb <= me else M32 ^ _bits(me + 1, mb - 1)
    word = BinOp("and", source, Const(M32))
    rotated = BinOp("and", BinOp("or", BinOp("shl", word, Const(sh)), BinOp("shr", word, Const(32 - sh))),
                    Const(M32))
    return BinOp("and", rotated, Const(mask)), mask


class PpcDialect(TableDialect):
    name = "PPC"
    archs = ("PPC",)
    instruction_help = HELP

    def parse_cell(self, text: str) -> CellCode:
        return parse_asm_cell(self, _grammar(), text, Operands, lower_instruction)

    def lower(self, layout: Layout) -> Program:
        layout, symbolic = split_symbolic_init(layout)
        program = bind_symbolic_init(lower_table_test(layout, self), layout, symbolic)
        for thread in program.threads:
            with_mfcr(thread)
        return program

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
