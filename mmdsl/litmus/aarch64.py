"""herd's AArch64 dialect: loads and stores, acquire/release, exclusives, atomics, barriers, ALU and branches."""

from __future__ import annotations

import re
from functools import lru_cache

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import OLD, Assign, BinOp, Const, Expr, Fence, Load, Reg, Rmw, Store, StoreCond, UnOp
from .asm_common import Operands, assign, parse_asm_cell
from .finals import bounded_int
from .threadtable import CellCode, CellError, TableDialect

# herd's annotations of AArch64 events (aarch64.cat's A, Q, L, X, NoRet): LDAR/LDAXR/SWPA
# read with A (acquire, RCsc), LDAPR with Q (acquire, RCpc), STLR/STLXR/SWPL write with L
# (release); exclusives are X; an atomic whose result goes to the zero register (STADD)
# reads with NoRet.
ACQ, ACQ_PC, REL, EXCL, NORET = "A", "Q", "L", "X", "NoRet"

_GPR = r"(?:[XW](?:[12]?[0-9]|30)|[XW]ZR)(?![A-Za-z0-9_])"
_ZERO = ("XZR", "WZR")
W_MAX = 2 ** 32  # an immediate given to a W register must fit in 32 bits

# the barrier options of DMB and DSB, as herd spells its fence sets (DMB.ISHLD ...)
BARRIER_OPTIONS = ("SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "OSH", "OSHST", "OSHLD", "NSH", "NSHST", "NSHLD")

_ALU = {"ADD": "add", "SUB": "sub", "EOR": "xor", "AND": "and", "ORR": "or", "SDIV": "div0"}
_CONDS = {"EQ": "eq", "NE": "ne", "GT": "gt", "GE": "ge", "LT": "lt", "LE": "le"}
# atomic memory operations: LDxxx Rs,Rt,[Xn] and their no-return STxxx Rs,[Xn]
_AMO_OPS = {"ADD": "add", "EOR": "xor", "SET": "or", "CLR": None, "SMAX": "max", "SMIN": "min",
            "UMAX": "umax", "UMIN": "umin"}
_AMO = re.compile(r"(LD|ST)(ADD|EOR|SET|CLR|SMAX|SMIN|UMAX|UMIN)(A|L|AL)?(B|H)?")
_SWP = re.compile(r"SWP(A|L|AL)?(B|H)?")
# (the byte and halfword forms, B H SB SH SW, are matched to be refused by name)
_LOADS = re.compile(r"(LDR|LDUR|LDAR|LDAPR|LDAPUR|LDXR|LDAXR)(B|H|SB|SH|SW)?")
_STORES = re.compile(r"(STR|STUR|STLR|STLUR|STXR|STLXR)(B|H)?")
_CAS = re.compile(r"CAS(P)?(A|L|AL)?(B|H)?")
_PAIRS = re.compile(r"LDA?XP|STL?XP|LDN?P|STN?P|LDPSW|LDIAPP|STILP")  # pair accesses, refused by name below
FLAGS = "%nzcv"  # CMP's result, Rn - Rm, read by B.cond

HELP = ("an AArch64 instruction: LDR/STR Rt,[Xn{,#imm|,Xm|,Wm,SXTW}], LDAR/LDAPR/STLR, LDXR/LDAXR, "
        "STXR/STLXR Ws,Rt,[Xn], SWP[A][L], CAS[A][L] Rs,Rt,[Xn], LD{ADD,EOR,SET,CLR,SMAX,SMIN,UMAX,UMIN}[A][L], "
        "ST{ADD,EOR,SET,CLR,SMAX,SMIN,UMAX,UMIN}[L], "
        "MOV, ADD/SUB/EOR/AND/ORR Rd,Rn,{Rm|#imm}, SDIV Rd,Rn,Rm, NEG, CMP, B.EQ/B.NE/..., CBZ/CBNZ Rt,LABEL, B LABEL, "
        "DMB/DSB {SY,ST,LD,ISH,ISHST,ISHLD,OSH,OSHST,OSHLD,NSH...}, ISB, NOP")


def reg_name(name: str) -> str:
    """The register a name stands for: W5 and X5 are both X5 (herd's conditions say 0:X5)."""
    up = name.upper()
    if up in _ZERO:
        return "XZR"
    return "X" + up[1:] if up[0] in "WX" and up[1:].isdigit() else name


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(_GPR, flags=re.IGNORECASE)
    num = pp.Regex(r"[-+]?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)
    num.add_parse_action(lambda t: int(t[0], 16) if "x" in t[0].lower() else int(t[0], 10))
    imm = pp.Suppress("#") + num
    extend = pp.Regex(r"(SXTW|UXTW|SXTX|UXTX|LSL)(?![A-Za-z0-9_])", flags=re.IGNORECASE)
    ext_op = pp.Group(extend("ext") + pp.Optional(imm("amount")))
    mem = pp.Group(pp.Suppress("[") + reg("base")
                   + pp.Optional(pp.Suppress(",") + (pp.Group(imm)("off") | reg("index")))
                   + pp.Optional(pp.Suppress(",") + ext_op("extend")) + pp.Suppress("]"))("mem")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    operand = mem | pp.Group(ext_op)("extend") | pp.Group(reg)("reg") | pp.Group(imm)("imm") | pp.Group(name)("sym")
    mnemonic = pp.Regex(r"[A-Za-z][A-Za-z0-9]*(\.[A-Za-z]+)?")("mnemonic")
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


class _Operands(Operands):
    """The operands of one instruction, read as the mnemonic needs them."""

    def _reg_text(self, i: int) -> str:
        if self.kind(i) != "reg":
            raise CellError(f"operand {i + 1} of '{self.m}' must be a register", 0)
        return self.nodes[i][0].upper()

    def is_w(self, i: int) -> bool:
        return self._reg_text(i).startswith("W")

    def reg(self, i: int) -> Expr:
        name = reg_name(self._reg_text(i))
        return Const(0) if name == "XZR" else Reg(name)

    def dst(self, i: int) -> str | None:
        name = reg_name(self._reg_text(i))
        return None if name == "XZR" else name

    def imm(self, i: int, width_of: int | None = None) -> int:
        if self.kind(i) != "imm":
            raise CellError(f"operand {i + 1} of '{self.m}' must be an immediate #N", 0)
        value = self.nodes[i][0]
        if width_of is not None and self.is_w(width_of) and not -(W_MAX // 2) <= value < W_MAX:
            raise CellError(f"immediate #{value} does not fit the 32-bit register of '{self.m}'", 0)
        return value

    def value(self, i: int, width_of: int) -> Expr:
        """A register or an immediate operand."""
        return Const(self.imm(i, width_of)) if self.kind(i) == "imm" else self.reg(i)

    def mem(self, i: int) -> Expr:
        if self.kind(i) != "mem":
            raise CellError(f"operand {i + 1} of '{self.m}' must be a memory operand [Xn...]", 0)
        node = self.nodes[i]
        base = reg_name(node["base"].upper())
        if node["base"].upper().startswith("W"):
            raise CellError(f"the base register of '{self.m}' must be an X register, not {node['base']}", 0)
        addr: Expr = Const(0) if base == "XZR" else Reg(base)
        if "extend" in node:
            ext = node["extend"]
            if ext["ext"].upper() == "LSL" and "amount" in ext and ext["amount"][0] != 0 or \
                    ext["ext"].upper() != "LSL" and "amount" in ext:
                raise CellError(f"'{self.m}': scaled index registers are not supported", 0,
                                "[Xn,Xm], [Xn,Wm,SXTW] or [Xn,Wm,UXTW]")
            if "index" not in node:
                raise CellError(f"'{self.m}': an extend needs an index register", 0)
        if "off" in node:
            off = node["off"][0]
            return BinOp("add", addr, Const(off)) if off else addr
        if "index" in node:
            index = reg_name(node["index"].upper())
            return addr if index == "XZR" else BinOp("add", addr, Reg(index))
        return addr


def _order(suffix: str | None, noret: bool = False) -> frozenset[str]:
    """The annotations of an atomic's A / L / AL suffix. herd reads an atomic whose result
    goes to the zero register (``noret``: STADD, SWPA ...,WZR, CASA WZR,...) with NoRet
    in place of its acquire."""
    s = suffix or ""
    acquire = {NORET} if noret else {ACQ} if "A" in s else set()
    return frozenset(acquire | ({REL} if "L" in s else set()))


def lower_instruction(mnemonic: str, ops: _Operands, code: CellCode) -> None:
    """Append the core instructions of one AArch64 instruction to ``code``."""
    m = mnemonic.upper()
    if (cm := _CAS.fullmatch(m)) is not None and cm.group(1):
        raise UnsupportedError(f"AArch64 compare-and-swap pair '{mnemonic}' is not supported by mmdsl",
                               hint="CASP reads and writes a pair of one wide location; herd7 7.58 reads it only under "
                                    "-variant mixed, as mixed-size accesses that may tear (tests/litmus/data/arm-pairs), "
                                    "which mmdsl does not model; supported: CAS, CASA, CASL, CASAL on W and X registers")
    if _PAIRS.fullmatch(m):
        raise UnsupportedError(f"AArch64 pair access '{mnemonic}' is not supported by mmdsl",
                               hint="a pair reads or writes two adjacent registers' worth of one location; herd7 "
                                    "7.58 accepts pairs only under -variant mixed with a wide location (int128_t x), "
                                    "as mixed-size accesses that may tear (tests/litmus/data/arm-pairs), which mmdsl "
                                    "does not model")
    if _sub_word(m):
        raise UnsupportedError(f"AArch64 byte and halfword access '{mnemonic}' is not supported by mmdsl",
                               hint="mmdsl reads whole-register accesses (W and X); herd reads sub-word ones as "
                                    "mixed-size accesses, which mmdsl does not model")
    if (lm := _LOADS.fullmatch(m)) is not None:
        _load(lm.group(1), mnemonic, ops, code)
    elif (sm := _STORES.fullmatch(m)) is not None:
        _store(sm.group(1), mnemonic, ops, code)
    elif cm is not None:
        _cas(cm.group(2), ops, code)
    elif (wm := _SWP.fullmatch(m)) is not None:
        ops.arity(3)
        code.instrs.append(Rmw(ops.dst(1), ops.mem(2), ops.reg(0), annots=_order(wm.group(1), ops.dst(1) is None)))
    elif (am := _AMO.fullmatch(m)) is not None and am.group(2) in _AMO_OPS:
        _amo(am, mnemonic, ops, code)
    elif m in ("DMB", "DSB"):
        ops.arity(1)
        if ops.kind(0) != "sym" or ops.nodes[0][0].upper() not in BARRIER_OPTIONS:
            raise CellError(f"'{mnemonic}' needs a barrier option", 0, ", ".join(BARRIER_OPTIONS))
        code.instrs.append(Fence(f"{m.lower()}-{ops.nodes[0][0].lower()}"))
    elif m == "ISB":
        if ops.nodes and not (ops.kind(0) == "sym" and ops.nodes[0][0].upper() == "SY"):
            raise CellError("'ISB' takes no operand (or SY)", 0)
        code.instrs.append(Fence("isb"))
    elif m == "MOV":
        ops.arity(2)
        assign(code, ops.dst(0), ops.value(1, 0))
    elif m in _ALU:
        _alu(m, ops, code)
    elif m == "NEG":
        ops.arity(2)
        assign(code, ops.dst(0), _sized(ops, UnOp("neg", ops.reg(1))))
    elif m == "CMP":
        ops.arity(2)
        code.instrs.append(Assign(FLAGS, BinOp("sub", ops.reg(0), ops.value(1, 0))))
    elif m.startswith("B.") and m[2:] in _CONDS:
        ops.arity(1)
        code.jump(ops.label(0), BinOp(_CONDS[m[2:]], Reg(FLAGS), Const(0)))
    elif m in ("CBZ", "CBNZ"):
        ops.arity(2)
        code.jump(ops.label(1), BinOp("eq" if m == "CBZ" else "ne", ops.reg(0), Const(0)))
    elif m == "B":
        ops.arity(1)
        code.jump(ops.label(0), None)
    elif m == "NOP":
        ops.arity(0)
    else:
        raise CellError(f"unsupported AArch64 instruction '{mnemonic}'", 0, HELP)


def _sub_word(m: str) -> bool:
    """Whether ``m`` is a byte or halfword form (LDRB, STRH, LDRSW, SWPALB, LDADDH ...)."""
    for pattern in (_LOADS, _STORES, _SWP, _AMO, _CAS):
        found = pattern.fullmatch(m)
        if found is not None:
            return found.group(found.re.groups) in ("B", "H", "SB", "SH", "SW")
    return False


def _load(kind: str, mnemonic: str, ops: _Operands, code: CellCode) -> None:
    ops.arity(2)
    annots = {"LDAR": {ACQ}, "LDAPR": {ACQ_PC}, "LDAPUR": {ACQ_PC}, "LDXR": {EXCL, "lr"},
              "LDAXR": {EXCL, "lr", ACQ}}.get(kind, set())
    code.instrs.append(Load(ops.dst(0), ops.mem(1), frozenset(annots)))


def _store(kind: str, mnemonic: str, ops: _Operands, code: CellCode) -> None:
    if kind in ("STXR", "STLXR"):
        ops.arity(3)
        annots = {EXCL, "stcond"} | ({REL} if kind == "STLXR" else set())
        code.instrs.append(StoreCond(ops.dst(0), ops.mem(2), ops.reg(1), frozenset(annots)))
        return
    ops.arity(2)
    annots = {REL} if kind in ("STLR", "STLUR") else set()
    code.instrs.append(Store(ops.mem(1), ops.reg(0), frozenset(annots)))


def _amo(am: re.Match, mnemonic: str, ops: _Operands, code: CellCode) -> None:
    """LDADD Rs,Rt,[Xn] (Rt gets the old value; to the zero register it is herd's NoRet),
    STADD Rs,[Xn] (LDADD Rs,XZR,[Xn])."""
    store_form = am.group(1) == "ST"
    if store_form and am.group(3) in ("A", "AL"):
        raise CellError(f"'{mnemonic}': the store forms take no acquire suffix", 0)
    ops.arity(2 if store_form else 3)
    src = ops.reg(0)
    dst = None if store_form else ops.dst(1)
    addr = ops.mem(1 if store_form else 2)
    annots = _order(am.group(3), dst is None)
    op = _AMO_OPS[am.group(2)]
    if op is None:  # CLR: old AND NOT src
        new: Expr = BinOp("and", Reg(OLD), BinOp("xor", src, Const(-1)))
    elif op in ("max", "min", "umax", "umin"):
        signed = op in ("max", "min")
        cond = BinOp(("gt" if signed else "ugt") if op.endswith("max") else ("lt" if signed else "ult"),
                     Reg(OLD), src)
        new = BinOp("add", BinOp("mul", cond, Reg(OLD)), BinOp("mul", BinOp("sub", Const(1), cond), src))
    else:
        new = BinOp(op, Reg(OLD), src)
    code.instrs.append(Rmw(dst, addr, new, annots=frozenset(annots)))


def _cas(suffix: str | None, ops: _Operands, code: CellCode) -> None:
    """CAS[A][L] Rs,Rt,[Xn]: read [Xn] into Rs; when it equals Rs, write Rt there. herd reads
    the acquire on the read (also when it fails), the release on the write, NoRet when Rs is
    the zero register; its three ways (and the write's dependency on Rs) are ``Rmw.compared``'s."""
    ops.arity(3)
    compared = ops.reg(0)
    annots = _order(suffix, ops.dst(0) is None)
    code.instrs.append(Rmw(ops.dst(0), ops.mem(2), ops.reg(1), cond=BinOp("eq", Reg(OLD), compared),
                           annots=frozenset(annots), compared=compared))


def _alu(m: str, ops: _Operands, code: CellCode) -> None:
    """ADD/SUB/EOR/AND/ORR Rd,Rn,{Rm[,SXTW|UXTW|LSL #0]|#imm}."""
    ops.arity(3, 4)
    if len(ops.nodes) == 4:
        ext = ops.nodes[3]
        if ops.kind(3) != "extend" or ops.kind(2) != "reg" or \
                (ext[0]["ext"].upper() == "LSL" and "amount" in ext[0] and ext[0]["amount"][0] != 0):
            raise CellError(f"'{m}': only an extended register (SXTW, UXTW) or LSL #0 is supported "
                            "as the fourth operand", 0)
    a, b = ops.reg(1), ops.value(2, 0)
    if m == "SDIV":
        if len(ops.nodes) != 3 or ops.kind(2) != "reg":
            raise CellError("'SDIV' divides two registers: SDIV Rd,Rn,Rm", 0)
        if ops.is_w(0):
            a, b = UnOp("sext32", a), UnOp("sext32", b)
    assign(code, ops.dst(0), _sized(ops, BinOp(_ALU[m], a, b)))


def _sized(ops: _Operands, e: Expr) -> Expr:
    """An ALU result written to Rd: 64-bit for an X register; for a W register the low 32
    bits, sign-extended, as herd7 represents W values (``MOV W1,#0; SUB W0,W1,#1`` leaves
    X0 = -1 in herd7 7.58; the Arm ARM zero-extends, X0 = 0xffffffff: the low word, which
    every W operation reads, is the same). SDIV by zero gives 0 (Arm ARM, SDIV: "if the
    divisor is zero the result is zero")."""
    return UnOp("sext32", e) if ops.is_w(0) else e


class AArch64Dialect(TableDialect):
    name = "AArch64"
    archs = ("AArch64", "ARM64")
    instruction_help = HELP

    def norm_reg(self, name: str) -> str:
        return reg_name(name)

    def parse_cell(self, text: str) -> CellCode:
        return parse_asm_cell(self, _grammar(), text, _Operands, lower_instruction)

    def can_write_dependency(self, program, dep) -> bool:
        from .asm_dependencies import AARCH64, can_write

        return can_write(AARCH64, program, dep)

    def write_with_devices(self, program, fences: list[tuple[int, int, str]], deps: list) -> str:
        """The source with fences and dependencies (diy7's idioms) written in (``asm_dependencies``)."""
        from .asm_dependencies import AARCH64, write_with_devices

        return write_with_devices(self, AARCH64, program, fences, deps)

    def fence_text(self, kind: str) -> str:
        if kind == "isb":
            return "ISB"
        parts = kind.split("-")
        if len(parts) == 2 and parts[0] in ("dmb", "dsb") and parts[1].upper() in BARRIER_OPTIONS:
            return f"{parts[0].upper()} {parts[1].upper()}"
        raise UnsupportedError(f"AArch64 has no fence instruction '{kind}'",
                               expected="dmb-sy, dmb-ld, dmb-st, dmb-ish..., dsb-..., isb")


DIALECT = AArch64Dialect()
