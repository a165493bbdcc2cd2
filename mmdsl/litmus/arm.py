"""herd's ARM (v7) dialect: LDR/STR, LDREX/STREX, DMB/DSB/ISB, and diy's ALU, compare and branch idioms."""

from __future__ import annotations

import re
from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import Assign, BinOp, Const, Expr, Fence, Load, Program, Reg, Store, StoreCond
from .asm_common import Operands, bind_symbolic_init, parse_asm_cell, split_symbolic_init
from .finals import bounded_int
from .layout import Layout
from .threadtable import CellCode, CellError, TableDialect, lower_table_test

EXCL = "X"  # herd's ARM annotation set X: the accesses of LDREX and STREX
ZFLAG = "Z"  # the Z flag: 1 when the last flag-setting compare found its operands equal
BARRIER_OPTIONS = ("SY", "ST", "ISH", "ISHST", "NSH", "NSHST", "OSH", "OSHST")

_REG = r"(?:[Rr](?:1[0-2]|[0-9])|SP|LR|PC|FP|IP|sp|lr|pc|fp|ip|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"
_ALU = {"ADD": "add", "SUB": "sub", "AND": "and", "ORR": "or", "EOR": "xor", "XOR": "xor"}
_CONDITIONAL = re.compile(r"(MOV|MOVW|MOVT|LDR|STR|ADD|SUB|AND|ORR|EOR|STREX|LDREX)(EQ|NE|CS|CC|MI|PL|VS|VC|HI|LS|GE|LT|GT|LE)")

HELP = ("an ARM instruction: LDR/STR RT,[RN] / [RN,#K] / [RN,RM] / [RN,RM,LSL #K], LDREX RT,[RN], STREX RD,RT,[RN], "
        "MOV RD,#K / RD,RM, ADD/SUB/AND/ORR/EOR[S] RD,RN,RM / RD,RN,#K, CMP RN,RM / RN,#K, "
        "B/BEQ/BNE LABEL, CBZ/CBNZ RN,LABEL, DMB/DSB [SY|ST|ISH|ISHST|NSH|NSHST|OSH|OSHST], ISB, NOP")


def norm_reg(name: str) -> str:
    """herd reads ARM registers in any case; IP is R12."""
    if name.startswith("%"):
        return name
    up = name.upper()
    return "R12" if up == "IP" else up


def fence_kind(mnemonic: str, option: str = "SY") -> str:
    """The fence kind of a barrier: ``DMB`` (= DMB SY) is dmb, ``DMB ST`` dmb-st, ``ISB`` isb."""
    base = mnemonic.lower()
    return base if option == "SY" else f"{base}-{option.lower()}"


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(_REG).set_parse_action(lambda t: norm_reg(t[0]))
    num = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    num.add_parse_action(lambda t: int(t[0], 16) if "x" in t[0].lower() else int(t[0], 10))
    imm = pp.Group(pp.Suppress("#") + num)("imm")
    shift = pp.Group(pp.CaselessKeyword("LSL") + pp.Suppress("#") + num)("shift")
    mem = pp.Group(pp.Suppress("[") + reg("base")
                   + pp.Optional(pp.Suppress(",") + (pp.Group(pp.Suppress("#") + num)("off") | reg("index"))
                                 + pp.Optional(pp.Suppress(",") + shift))
                   + pp.Suppress("]"))("mem")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    operand = mem | pp.Group(reg)("reg") | imm | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[A-Za-z][A-Za-z0-9]*")("mnemonic")
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


def _mem(ops: Operands, i: int) -> Expr:
    if ops.kind(i) == "reg":  # herd also reads LDR RT,RN (no brackets) as LDR RT,[RN]
        return ops.reg(i)
    ops._need(i, "mem", "a memory operand [RN], [RN,#K] or [RN,RM]")
    node = ops.nodes[i]
    base: Expr = Reg(node["base"])
    if "index" in node:
        index: Expr = Reg(node["index"])
        if "shift" in node:
            index = BinOp("shl", index, Const(node["shift"][1]))
        return BinOp("add", base, index)
    if "off" in node and node["off"][0]:
        return BinOp("add", base, Const(node["off"][0]))
    return base


def _operand2(ops: Operands, i: int) -> Expr:
    """A register or an immediate #K."""
    return Const(ops.imm(i)) if ops.kind(i) == "imm" else ops.reg(i)


def _refuse_pc(m: str, ops: Operands) -> None:
    """PC (R15) as an operand: writing it branches to the value (``LDR PC,[R1]`` jumps to what it
    loads) and reading it gives the instruction's own address; neither is a data register here."""
    for k, node in enumerate(ops.nodes):
        kind = node.get_name()
        regs = [node[0]] if kind == "reg" else [node.get("base"), node.get("index")] if kind == "mem" else []
        if "PC" in regs:
            what = ("writing PC branches to the value written" if k == 0 and kind == "reg" and m not in
                    ("STR", "STREX", "CMP", "CBZ", "CBNZ") else "reading PC gives the instruction's address")
            raise UnsupportedError(f"PC as an operand of '{m}' is not supported: {what}, and litmus "
                                   "threads have no instruction addresses", hint="use a general register R0-R12")


def lower_instruction(mnemonic: str, ops: Operands, code: CellCode) -> None:
    """Append the core instructions of one ARM instruction to ``code``."""
    out = code.instrs
    m = mnemonic.upper()
    _refuse_pc(m, ops)
    if m in ("LDR", "STR"):
        ops.arity(2)
        if m == "LDR":
            out.append(Load(ops.dst(0), _mem(ops, 1)))
        else:
            out.append(Store(_mem(ops, 1), ops.reg(0)))
    elif m == "LDREX":
        ops.arity(2)
        out.append(Load(ops.dst(0), _mem(ops, 1), frozenset({EXCL, "lr"})))
    elif m == "STREX":  # STREX RD,RT,[RN]: RD is 0 when the store succeeds, 1 when it fails
        ops.arity(3)
        out.append(StoreCond(ops.dst(0), _mem(ops, 2), ops.reg(1), frozenset({EXCL, "stcond"}), reservation_dep="addr"))
    elif m in ("DMB", "DSB"):
        ops.arity(0, 1)
        option = "SY"
        if ops.nodes:
            if ops.kind(0) != "sym" or ops.nodes[0][0].upper() not in BARRIER_OPTIONS:
                raise CellError(f"unknown option of '{m}'", 0, " ".join(BARRIER_OPTIONS))
            option = ops.nodes[0][0].upper()
        out.append(Fence(fence_kind(m, option)))
    elif m == "ISB":
        ops.arity(0)
        out.append(Fence("isb"))
    elif m in ("MOV", "MOVW"):
        ops.arity(2)
        out.append(Assign(ops.dst(0), _operand2(ops, 1) if m == "MOV" else Const(ops.imm(1))))
    elif m in ("LDRD", "STRD", "LDREXD", "STREXD"):
        raise UnsupportedError(f"ARM doubleword access '{mnemonic}' is not supported by mmdsl",
                               hint="it reads or writes two adjacent words of one location, a mixed-size access "
                               "mmdsl does not model; herd7 7.58 does not parse it either "
                               "(tests/litmus/data/arm-pairs)")
    elif m == "EORS":
        raise UnsupportedError("ARM instruction 'EORS' is not supported: herd7 reads it as EOR (its lexer "
                               "drops the S, so the flags are not set) and mmdsl follows herd's ARM",
                               hint="EOR then CMP RD,#0")
    elif m == "ANDEQ" and ops.nodes and len({n[0] for n in ops.nodes if n.get_name() == "reg"}) == 1 \
            and len(ops.nodes) == 3 and all(ops.kind(k) == "reg" for k in range(3)):
        pass  # ANDEQ R,R,R: the historical no-op (herd reads it as one)
    elif m in _ALU or (m.endswith("S") and m[:-1] in _ALU):
        ops.arity(3)
        op = _ALU[m.rstrip("S")] if m not in _ALU else _ALU[m]
        if op == "xor" and ops.kind(2) == "imm":
            raise CellError(f"'{m}' takes three registers in herd's ARM", 0)
        out.append(Assign(ops.dst(0), BinOp(op, ops.reg(1), _operand2(ops, 2))))
        if m not in _ALU:  # the S form sets Z
            out.append(Assign(ZFLAG, BinOp("eq", Reg(ops.dst(0)), Const(0))))
    elif m == "CMP":
        ops.arity(2)
        out.append(Assign(ZFLAG, BinOp("eq", ops.reg(0), _operand2(ops, 1))))
    elif m == "B":
        ops.arity(1)
        code.jump(ops.label(0), None)
    elif m in ("BEQ", "BNE"):
        ops.arity(1)
        code.jump(ops.label(0), BinOp("ne" if m == "BEQ" else "eq", Reg(ZFLAG), Const(0)))
    elif m in ("CBZ", "CBNZ"):
        ops.arity(2)
        code.jump(ops.label(1), BinOp("eq" if m == "CBZ" else "ne", ops.reg(0), Const(0)))
    elif m == "NOP":
        ops.arity(0)
    elif _CONDITIONAL.fullmatch(m):
        raise UnsupportedError(f"conditionally executed ARM instruction '{mnemonic}' is not supported",
                               hint="herd7 gives a predicated instruction no control dependency, so branching "
                               "around it (CMP, BNE LABEL) is a different test: herd forbids that one where it "
                               "allows the predicated one (tests/litmus/data/arm-predicated)")
    else:
        raise CellError(f"unsupported ARM instruction '{mnemonic}'", 0, HELP)


class ArmDialect(TableDialect):
    name = "ARM"
    archs = ("ARM",)
    instruction_help = HELP

    def norm_reg(self, name: str) -> str:
        return norm_reg(name)

    def parse_cell(self, text: str) -> CellCode:
        return parse_asm_cell(self, _grammar(), text, Operands, lower_instruction)

    def lower(self, layout: Layout) -> Program:
        layout, symbolic = split_symbolic_init(layout)
        return bind_symbolic_init(lower_table_test(layout, self), layout, symbolic)

    def can_write_dependency(self, program: Program, dep) -> bool:
        from .asm_dependencies import ARM, can_write

        return can_write(ARM, program, dep)

    def write_with_devices(self, program: Program, fences: list[tuple[int, int, str]], deps: list) -> str:
        """The source with fences and dependencies (diy's idioms) written in (``asm_dependencies``)."""
        from .asm_dependencies import ARM, write_with_devices

        return write_with_devices(self, ARM, program, fences, deps)

    def fence_text(self, kind: str) -> str:
        base, _, option = kind.partition("-")
        if base in ("dmb", "dsb") and (not option or option.upper() in BARRIER_OPTIONS):
            return f"{base.upper()} {option.upper()}".strip()
        if kind == "isb":
            return "ISB"
        raise UnsupportedError(f"ARM has no fence instruction '{kind}'",
                               expected="dmb, dmb-st, dsb, dsb-st, dmb-ish ... or isb")


DIALECT = ArmDialect()
