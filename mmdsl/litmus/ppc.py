"""herd's PPC dialect: loads and stores, lwarx/stwcx., sync/lwsync/eieio/isync, and the ALU,
compare and branch idioms of diy's Power tests."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import Assign, BinOp, Branch, Const, Expr, Fence, Load, Program, Reg, Store, StoreCond
from .finals import bounded_int
from .layout import Layout
from .symbregs import bind_symbolic_init, split_symbolic_init
from .threadtable import CellCode, CellError, TableDialect, lower_table_test

EXCL = "X"  # herd's PPC annotation set X: the accesses of lwarx and stwcx.
CR0 = "cr0"  # condition register field 0: 0 equal, -1 less, 1 greater (what the branches test)
FENCES = {"sync": "sync", "lwsync": "lwsync", "isync": "isync", "eieio": "eieio"}

_REG = r"(?:r(?:[12][0-9]|3[01]|[0-9])|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"
_LOADS = ("lwz", "ld", "lbz", "lhz")
_STORES = ("stw", "std", "stb", "sth")
_ALU = {"add": "add", "sub": "sub", "subf": "subf", "xor": "xor", "or": "or", "and": "and", "mullw": "mul"}
_ALU_IMM = {"addi": "add", "xori": "xor", "ori": "or", "andi.": "and", "mulli": "mul"}
# conditional branches on cr0, as herd reads them (bit lt, gt or eq set or clear)
_BRANCHES = {"beq": "eq", "bne": "ne", "blt": "lt", "bge": "ge", "bgt": "gt", "ble": "le"}

HELP = ("a PPC instruction: lwz/ld RD,D(RA), lwzx/ldx RD,RA,RB, stw/std RS,D(RA), stwx/stdx RS,RA,RB, "
        "lwarx RD,RA,RB, stwcx. RS,RA,RB, li RD,N, mr RD,RS, addi RD,RA,N, add/sub/subf/xor/or/and[.] "
        "RD,RA,RB, xori/ori/andi. RD,RA,N, cmpw RA,RB, cmpwi RA,N, b/beq/bne/blt/bge/bgt/ble LABEL, "
        "sync, lwsync, eieio, isync, nop")


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


class Operands:
    """The operands of one instruction, read as the mnemonic needs them (shared with ARM)."""

    def __init__(self, mnemonic: str, nodes):
        self.m = mnemonic
        self.nodes = list(nodes)

    def arity(self, *n: int) -> None:
        if len(self.nodes) not in n:
            want = " or ".join(str(k) for k in n)
            raise CellError(f"'{self.m}' takes {want} operands, not {len(self.nodes)}", 0)

    def kind(self, i: int) -> str:
        return self.nodes[i].get_name()

    def _need(self, i: int, kind: str, what: str) -> None:
        if self.kind(i) != kind:
            found = self.nodes[i][0] if self.kind(i) in ("sym", "reg", "imm") else None
            shown = f", not '{found}'" if isinstance(found, (str, int)) and len(str(found)) <= 40 else ""
            raise CellError(f"operand {i + 1} of '{self.m}' must be {what}{shown}", 0)

    def reg(self, i: int) -> Expr:
        self._need(i, "reg", "a register")
        return Reg(self.nodes[i][0])

    def reg_or_zero(self, i: int) -> Expr:
        """RA of an indexed access or of addi: r0 there reads as 0 (the Power ISA, and herd)."""
        self._need(i, "reg", "a register")
        name = self.nodes[i][0]
        return Const(0) if name == "r0" else Reg(name)

    def dst(self, i: int) -> str:
        self._need(i, "reg", "a register")
        return self.nodes[i][0]

    def imm(self, i: int) -> int:
        self._need(i, "imm", "an immediate")
        return self.nodes[i][0]

    def mem(self, i: int) -> Expr:
        self._need(i, "mem", "a memory operand D(RA)")
        node = self.nodes[i]
        base: Expr = Reg(node["base"])
        return BinOp("add", base, Const(node["off"])) if node["off"] else base

    def label(self, i: int) -> str:
        self._need(i, "sym", "a label")
        return self.nodes[i][0]


def compare(a: Expr, b: Expr) -> Expr:
    """The cr0 value of comparing ``a`` with ``b``: -1 less, 0 equal, 1 greater."""
    return BinOp("sub", BinOp("gt", a, b), BinOp("lt", a, b))


def _indexed(ops: Operands, a: int, b: int) -> Expr:
    return BinOp("add", ops.reg_or_zero(a), ops.reg(b))


def lower_instruction(mnemonic: str, ops: Operands, code: CellCode) -> None:
    """Append the core instructions of one PPC instruction to ``code``."""
    out = code.instrs
    m = mnemonic
    if m in _LOADS or m in _STORES:
        ops.arity(2)
        if m in _LOADS:
            out.append(Load(ops.dst(0), ops.mem(1)))
        else:
            out.append(Store(ops.mem(1), ops.reg(0)))
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
        out.append(StoreCond(CR0, _indexed(ops, 1, 2), ops.reg(0), frozenset({EXCL, "sc"}), reservation_dep="data"))
    elif m in FENCES:
        ops.arity(0)
        out.append(Fence(FENCES[m]))
    elif m == "li":
        ops.arity(2)
        out.append(Assign(ops.dst(0), Const(ops.imm(1))))
    elif m == "mr":
        ops.arity(2)
        out.append(Assign(ops.dst(0), ops.reg(1)))
    elif m.rstrip(".") in _ALU:
        ops.arity(3)
        op = _ALU[m.rstrip(".")]
        a, b = ops.reg(1), ops.reg(2)
        out.append(Assign(ops.dst(0), BinOp("sub", b, a) if op == "subf" else BinOp(op, a, b)))
        if m.endswith("."):
            out.append(Assign(CR0, compare(Reg(ops.dst(0)), Const(0))))
    elif m in _ALU_IMM:
        ops.arity(3)
        left = ops.reg_or_zero(1) if m == "addi" else ops.reg(1)
        out.append(Assign(ops.dst(0), BinOp(_ALU_IMM[m], left, Const(ops.imm(2)))))
        if m.endswith("."):
            out.append(Assign(CR0, compare(Reg(ops.dst(0)), Const(0))))
    elif m in ("cmpw", "cmpwi", "cmpd", "cmpdi"):
        _compare(m, ops, out)
    elif m == "b":
        ops.arity(1)
        code.jumps.append((len(out), ops.label(0)))
        out.append(Branch(None, -1))
    elif m in _BRANCHES:
        ops.arity(1)
        code.jumps.append((len(out), ops.label(0)))
        out.append(Branch(BinOp(_BRANCHES[m], Reg(CR0), Const(0)), -1))
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
        try:
            parsed = _grammar().parse_string(text, parse_all=True)
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        code = CellCode(labels=[lab["label"] for lab in parsed.get("labels", [])])
        if "mnemonic" not in parsed:
            return code
        ops = Operands(parsed["mnemonic"], parsed["operands"] if "operands" in parsed else [])
        lower_instruction(parsed["mnemonic"], ops, code)
        return code

    def lower(self, layout: Layout) -> Program:
        layout, symbolic = split_symbolic_init(layout)
        return bind_symbolic_init(lower_table_test(layout, self), layout, symbolic)

    def fence_text(self, kind: str) -> str:
        if kind in FENCES.values():
            return kind
        raise UnsupportedError(f"PPC has no fence instruction '{kind}'", expected="sync, lwsync, eieio or isync")


DIALECT = PpcDialect()
