"""herd's RISCV dialect: loads and stores, lr/sc, AMOs, fences, and the ALU and branches of diy's tests."""

from __future__ import annotations

import re
from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import OLD, BinOp, Const, Expr, Fence, Load, Reg, Rmw, Store, StoreCond, UnOp
from .asm_common import Operands, assign, parse_asm_cell
from .finals import bounded_int
from .threadtable import CellCode, CellError, TableDialect

# herd's names for the annotations (riscv.cat's Acq, Rel, AcqRel, X, AMO), plus lr and sc
ACQ, REL, ACQREL, EXCL, AMO = "Acq", "Rel", "AcqRel", "X", "AMO"

_ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", *[f"a{i}" for i in range(8)],
        *[f"s{i}" for i in range(2, 12)], "t3", "t4", "t5", "t6", "fp"]
_REG = r"(?:x(?:[12]?[0-9]|3[01])|" + "|".join(sorted(_ABI, key=len, reverse=True)) + r")(?![A-Za-z0-9_])"
_ZERO = ("x0", "zero")

_LOADS = {"lb": 8, "lh": 16, "lw": 32, "ld": 64, "lbu": 8, "lhu": 16, "lwu": 32}
_STORES = {"sb": 8, "sh": 16, "sw": 32, "sd": 64}
_AMOS = {"swap": None, "add": "add", "and": "and", "or": "or", "xor": "xor",
         "max": "gt", "min": "lt", "maxu": "ugt", "minu": "ult"}  # max/min: the comparison that keeps %old
_ALU = {"add": "add", "sub": "sub", "xor": "xor", "or": "or", "and": "and", "sll": "shl", "srl": "shr",
        "sra": "shr", "mul": "mul", "slt": "lt", "sltu": "ult", "div": "divrv", "rem": "remrv",
        "addw": "add", "subw": "sub", "mulw": "mul", "divw": "divrv", "remw": "remrv"}
_ALU_IMM = {"addi": "add", "xori": "xor", "ori": "or", "andi": "and", "slli": "shl", "srli": "shr",
            "srai": "shr", "slti": "lt", "sltiu": "lt", "addiw": "add"}
_BRANCHES = {"beq": "eq", "bne": "ne", "blt": "lt", "bge": "ge", "bltu": "lt", "bgeu": "ge"}
_FENCE_SETS = re.compile(r"i?o?r?w?")

HELP = ("a RISC-V instruction: l{b,h,w,d}[u][.aq...] / s{b,h,w,d}[.rl...] REG,OFF(REG), "
        "lr.{w,d}[.aq][.rl], sc.{w,d}[.aq][.rl], amo{swap,add,and,or,xor,max,min,maxu,minu}.{w,d}[.aq][.rl], "
        "fence PRED,SUCC, fence.tso, fence.i, add/sub/xor/or/and[i], addw/addiw/subw, mul[w], div[w], rem[w], li, mv, neg, not, nop, "
        "beq/bne/blt/bge[u]/beqz/bnez REG,REG,LABEL, j LABEL")


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(_REG)
    num = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    num.add_parse_action(lambda t: int(t[0], 16) if "x" in t[0].lower() else int(t[0], 10))
    mem = pp.Group(pp.Optional(num("off")) + pp.Suppress("(") + reg("base") + pp.Suppress(")"))("mem")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_.]*")
    operand = mem | pp.Group(reg)("reg") | pp.Group(num)("imm") | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[a-z][a-z0-9]*(\.[a-z0-9]+)*")("mnemonic")
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


def _order_annots(suffixes: list[str], mnemonic: str) -> frozenset[str]:
    """The annotations of the ordering suffixes: .aq -> Acq, .rl -> Rel, .aqrl or .aq.rl -> AcqRel."""
    aq = rl = False
    for s in suffixes:
        if s == "aq" and not aq:
            aq = True
        elif s == "rl" and not rl:
            rl = True
        elif s == "aqrl" and not (aq or rl):
            aq = rl = True
        else:
            raise CellError(f"'{mnemonic}': unknown or repeated ordering suffix '.{s}'", 0,
                            "at most one of .aq, .rl, .aqrl (or .aq.rl)")
    if aq and rl:
        return frozenset({ACQREL})
    return frozenset({ACQ} if aq else {REL} if rl else set())


class _Operands(Operands):
    """The operands of one instruction, read as the mnemonic needs them."""

    def reg(self, i: int) -> Expr:
        if self.kind(i) != "reg":
            raise CellError(f"operand {i + 1} of '{self.m}' must be a register", 0)
        name = self.nodes[i][0]
        return Const(0) if name in _ZERO else Reg(name)

    def dst(self, i: int) -> str | None:
        if self.kind(i) != "reg":
            raise CellError(f"operand {i + 1} of '{self.m}' must be a register", 0)
        name = self.nodes[i][0]
        return None if name in _ZERO else name

    def imm(self, i: int) -> int:
        if self.kind(i) != "imm":
            raise CellError(f"operand {i + 1} of '{self.m}' must be an immediate", 0)
        return self.nodes[i][0]

    def mem(self, i: int) -> Expr:
        if self.kind(i) != "mem":
            raise CellError(f"operand {i + 1} of '{self.m}' must be a memory operand OFF(REG)", 0)
        node = self.nodes[i]
        base = node["base"]
        base_e: Expr = Const(0) if base in _ZERO else Reg(base)
        off = node["off"] if "off" in node else 0
        return BinOp("add", base_e, Const(off)) if off else base_e


def _word(mnemonic: str, op: str, a: Expr, b: Expr) -> Expr:
    """The result of an RV64 ALU instruction: a 64-bit operation, or for the *w forms (addw,
    addiw, subw, mulw, divw, remw) one on the operands' low 32 bits whose 32-bit result is
    sign-extended (RISC-V unprivileged ISA, "RV64I Integer Computational Instructions"
    and "M Extension": divw/remw divide the low words). Division by zero gives all ones
    (-1) and a remainder equal to the dividend ("Division by zero" table of the M chapter)."""
    if not mnemonic.endswith("w"):
        return BinOp(op, a, b)
    if op in ("divrv", "remrv"):
        a, b = UnOp("sext32", a), UnOp("sext32", b)
    return UnOp("sext32", BinOp(op, a, b))


_SHAMT_BITS = {"slli": 6, "srli": 6, "srai": 6, "slliw": 5, "srliw": 5, "sraiw": 5}  # RV64I's shamt fields


def _check_shamt(mnemonic: str, ops: _Operands) -> None:
    """An immediate shift's amount fits its shamt field (0..63; 0..31 for the W forms), or the
    instruction has no encoding (the assembler refuses ``slli x5,x5,64``)."""
    bits = _SHAMT_BITS[mnemonic]
    if len(ops.nodes) == 3 and ops.kind(2) == "imm" and not 0 <= ops.imm(2) < 1 << bits:
        raise CellError(f"shift amount {ops.imm(2)} of '{mnemonic}' is out of range", 0,
                        f"a shift amount from 0 to {(1 << bits) - 1}")


def lower_instruction(mnemonic: str, ops: _Operands, code: CellCode) -> None:
    """Append the core instructions of one RISC-V instruction to ``code``."""
    if mnemonic in _SHAMT_BITS:
        _check_shamt(mnemonic, ops)
    parts = mnemonic.split(".")
    base = parts[0]
    if base in _LOADS or base in _STORES:
        annots = _order_annots(parts[1:], mnemonic)
        ops.arity(2)
        if base in _LOADS:
            code.instrs.append(Load(ops.dst(0), ops.mem(1), annots))
        else:
            code.instrs.append(Store(ops.mem(1), ops.reg(0), annots))
    elif base in ("lr", "sc") and len(parts) >= 2 and parts[1] in ("w", "d"):
        annots = _order_annots(parts[2:], mnemonic) | {EXCL, "lr" if base == "lr" else "stcond"}
        if base == "lr":
            ops.arity(2)
            code.instrs.append(Load(ops.dst(0), ops.mem(1), annots))
        else:
            ops.arity(3)
            code.instrs.append(StoreCond(ops.dst(0), ops.mem(2), ops.reg(1), annots))
    elif base.startswith("amo") and base[3:] in _AMOS and len(parts) >= 2 and parts[1] in ("w", "d"):
        annots = _order_annots(parts[2:], mnemonic) | {AMO}
        ops.arity(3)
        src = ops.reg(1)
        op = _AMOS[base[3:]]
        if op is None:
            new: Expr = src
        elif op in ("gt", "lt", "ugt", "ult"):
            new = _select(BinOp(op, Reg(OLD), src), Reg(OLD), src)
        else:
            new = BinOp(op, Reg(OLD), src)
        code.instrs.append(Rmw(ops.dst(0), ops.mem(2), new, annots=annots))
    elif base == "fence":
        _fence(mnemonic, parts, ops, code)
    elif mnemonic in _ALU:
        ops.arity(3)
        assign(code, ops.dst(0), _word(mnemonic, _ALU[mnemonic], ops.reg(1), ops.reg(2)))
    elif mnemonic in _ALU_IMM:
        ops.arity(3)
        assign(code, ops.dst(0), _word(mnemonic, _ALU_IMM[mnemonic], ops.reg(1), Const(ops.imm(2))))
    elif mnemonic == "li":
        ops.arity(2)
        assign(code, ops.dst(0), Const(ops.imm(1)))
    elif mnemonic == "mv":
        ops.arity(2)
        assign(code, ops.dst(0), ops.reg(1))
    elif mnemonic in ("neg", "not"):
        ops.arity(2)
        e = UnOp("neg", ops.reg(1)) if mnemonic == "neg" else BinOp("xor", ops.reg(1), Const(-1))
        assign(code, ops.dst(0), e)
    elif mnemonic == "nop":
        ops.arity(0)
    elif mnemonic in _BRANCHES:
        ops.arity(3)
        code.jump(ops.label(2), BinOp(_BRANCHES[mnemonic], ops.reg(0), ops.reg(1)))
    elif mnemonic in ("beqz", "bnez"):
        ops.arity(2)
        code.jump(ops.label(1), BinOp("eq" if mnemonic == "beqz" else "ne", ops.reg(0), Const(0)))
    elif mnemonic == "j":
        ops.arity(1)
        code.jump(ops.label(0), None)
    else:
        raise CellError(f"unsupported RISC-V instruction '{mnemonic}'", 0, HELP)


def _select(cond: Expr, a: Expr, b: Expr) -> Expr:
    """``cond ? a : b`` for a 0/1 condition, in the core's arithmetic."""
    return BinOp("add", BinOp("mul", cond, a), BinOp("mul", BinOp("sub", Const(1), cond), b))


def fence_kind(pred: str, succ: str) -> str:
    """The fence kind of ``fence PRED,SUCC``: herd's Fence.rw.w spelled as a model name, fence-rw-w.

    The device bits (i, o) order no memory access, so they are dropped where memory bits
    remain: ``fence iorw,iorw`` (a bare ``fence``) is the full fence ``fence-rw-rw``, as in
    herd's Fence.rw.rw. A fence with no memory bit on a side (``fence i,o``) keeps its
    spelling, which no model orders anything with.
    """
    mem_pred, mem_succ = pred.replace("i", "").replace("o", ""), succ.replace("i", "").replace("o", "")
    if mem_pred and mem_succ:
        return f"fence-{mem_pred}-{mem_succ}"
    return f"fence-{pred}-{succ}"


def _fence(mnemonic: str, parts: list[str], ops: _Operands, code: CellCode) -> None:
    if mnemonic in ("fence.tso", "fence.i"):
        ops.arity(0)
        code.instrs.append(Fence(mnemonic.replace(".", "-")))
        return
    if mnemonic != "fence":
        raise CellError(f"unsupported RISC-V fence '{mnemonic}'", 0, "fence PRED,SUCC, fence.tso or fence.i")
    if not ops.nodes:  # a bare fence is fence iorw,iorw
        code.instrs.append(Fence(fence_kind("iorw", "iorw")))
        return
    ops.arity(2)
    sets = []
    for i in range(2):
        if ops.kind(i) != "sym" or not ops.nodes[i][0] or not _FENCE_SETS.fullmatch(ops.nodes[i][0]):
            raise CellError(f"operand {i + 1} of 'fence' must be a set of i, o, r, w (in that order)", 0,
                            "fence r,rw / fence rw,w / ...")
        sets.append(ops.nodes[i][0])
    code.instrs.append(Fence(fence_kind(*sets)))


class RiscvDialect(TableDialect):
    name = "RISCV"
    archs = ("RISCV", "RISC-V")
    instruction_help = HELP

    def parse_cell(self, text: str) -> CellCode:
        return parse_asm_cell(self, _grammar(), text, _Operands, lower_instruction)

    def fence_text(self, kind: str) -> str:
        if kind in ("fence-tso", "fence-i"):
            return kind.replace("-", ".")
        parts = kind.split("-")
        if len(parts) == 3 and parts[0] == "fence":
            return f"fence {parts[1]},{parts[2]}"
        raise UnsupportedError(f"RISCV has no fence instruction '{kind}'",
                               expected="fence-PRED-SUCC (e.g. fence-rw-rw) or fence-tso")


DIALECT = RiscvDialect()
