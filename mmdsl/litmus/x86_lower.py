"""Lowering of one x86 instruction (either syntax, destination first) to core instructions."""

from __future__ import annotations

from ..core.program import OLD, Assign, BinOp, Branch, Const, Expr, Fence, Load, Reg, Rmw, Store, UnOp
from .threadtable import END_OF_THREAD, CellCode, CellError
from .x86_64_regs import WIDTHS, X86_64Registers, ones, signed, signed64, truncate

FLAG = "%zf"  # the zero flag CMP sets and JE/JNE read
TMP = "%tmp"
TMP2 = "%tmp2"

# operands: ("imm", value) | ("reg", name) | ("mem", core address expression)
_ARITH = {"add": "add", "sub": "sub", "xor": "xor", "or": "or", "and": "and"}
_JUMPS = ("je", "jne", "jmp", "jz", "jnz")
_FENCES = ("mfence", "lfence", "sfence")
_KNOWN = {"mov", "xchg", "cmpxchg", "add", "sub", "xor", "or", "and", "inc", "dec", "cmp", *_FENCES, *_JUMPS}
_SHIFTS = ("shl", "sal", "shr", "sar")
_NOPS = ("nop", "endbr64")
_KNOWN_64 = {*_KNOWN, *_SHIFTS, *_NOPS, "ret"}  # X86_64 reads more, as herd's X86_64 parser
_HELP = "MOV, XCHG, CMPXCHG, ADD, SUB, XOR, OR, AND, INC, DEC, CMP, JE, JNE, JMP, MFENCE, LFENCE, SFENCE"
_HELP_64 = ("mov, xchg, cmpxchg, add, sub, xor, or, and, inc, dec, cmp, shl, sal, shr, sar, je, jne, jmp, "
            "ret, nop, nopl, nopw, endbr64, mfence, lfence, sfence (with size suffixes b w l q)")


def split_mnemonic(m: str, known) -> tuple[str, int | None]:
    """The mnemonic without its AT&T size suffix, and the width the suffix gives (movl -> mov, 32)."""
    if m in known:
        return m, None
    if m in ("nopl", "nopw", "retq"):
        return m[:-1], None
    if m[-1:] in WIDTHS and m[:-1] in known:
        return m[:-1], WIDTHS[m[-1]]
    return m, None


class _Lowering:
    """The core instructions of one x86 instruction, reading and writing registers as ``regs`` says."""

    def __init__(self, regs: X86_64Registers, width: int, code: CellCode):
        self.regs = regs
        self.w = width  # the operation's width in bits
        self.code = code
        self.ins = code.instrs

    def val(self, op) -> Expr:
        kind, v = op
        if kind == "imm":
            return Const(v)
        if kind == "reg":
            e = self.regs.read(v)
            return truncate(e, self.w) if self.w < self.regs.width(v) else e
        raise CellError("a memory operand cannot be used here")

    def load(self, addr: Expr, tmp: str = TMP) -> Expr:
        self.ins.append(Load(tmp, addr))
        return truncate(Reg(tmp), self.w)

    def set(self, name: str, value: Expr) -> None:
        full, e = self.regs.write(name, value)
        self.ins.append(Assign(full, e))

    def whole(self, name: str) -> bool:
        """Can ``name`` take a value read from memory directly (a full-width access)?"""
        return self.regs.is_whole(name) and self.w == 64

    def flag(self, result: Expr) -> None:
        # ZF, as herd's X86 semantics and Intel's manual set it: is the result zero?
        self.ins.append(Assign(FLAG, BinOp("eq", result, Const(0))))


def operation_width(regs: X86_64Registers, suffix: int | None, operands: list) -> int:
    """The width of an operation: its suffix's, else its first register operand's, else 64 bits."""
    if not regs.sized:
        return 64
    if suffix:
        return suffix
    for kind, v in operands:
        if kind == "reg" and regs.width(v) != 64:
            return regs.width(v)
        if kind == "reg":
            return 64
    return 64


def lower_x86(mnemonic: str, lock: bool, operands: list, labels: list[str],
              regs: X86_64Registers, att: bool = False) -> CellCode:
    """Lower one x86 instruction given in Intel order (destination first)."""
    code = CellCode(labels=list(labels))
    m = mnemonic.lower()
    known = _KNOWN_64 if att else _KNOWN
    base, suffix = split_mnemonic(m, known)
    if base not in known:
        raise CellError(f"unsupported x86 instruction '{mnemonic}'", 0, _HELP_64 if att else _HELP)
    if base in _NOPS:  # herd reads NOP, nopl/nopw with any operand, endbr64: no effect
        return code
    target = None
    if base in _JUMPS:
        if len(operands) != 1 or operands[0][0] != "sym":
            raise CellError(f"{mnemonic} needs a label", 0, f"{mnemonic} LABEL")
        target = operands[0][1]
        operands = []
    for o in operands:
        if o[0] == "sym":
            raise CellError(f"'{o[1]}' is neither a register nor an operand", 0,
                            "a register, an immediate ($1) or a memory operand")
    expected_arity = {"mfence": 0, "lfence": 0, "sfence": 0, "inc": 1, "dec": 1, "ret": 0}
    arity = expected_arity.get(base, 0 if base in _JUMPS else 2)
    if base in _SHIFTS and len(operands) == 1:
        operands = [operands[0], ("imm", 1)]  # AT&T's one-operand form shifts by one
    if len(operands) != arity:
        raise CellError(f"{mnemonic} takes {arity} operand{'s' if arity != 1 else ''}, not {len(operands)}", 0)
    if lock and base not in _ARITH and base not in ("inc", "dec", "xchg", "cmpxchg"):
        raise CellError(f"LOCK cannot prefix {mnemonic}", 0, "LOCK with ADD, SUB, XOR, OR, AND, INC, DEC, XCHG or CMPXCHG")
    if lock and not (operands[0][0] == "mem" or (base == "xchg" and operands[1][0] == "mem")):
        # Intel SDM, LOCK: "#UD if the LOCK prefix is used ... when the destination operand is not memory"
        raise CellError(f"LOCK {mnemonic} needs a memory destination (on a register it is undefined: #UD)", 0,
                        f"LOCK {mnemonic} with a memory operand as its destination")
    if base == "cmpxchg" and len(operands) == 2:
        width_ops = [operands[1], operands[0]]  # the register's width, not the accumulator's
    else:
        width_ops = operands
    low = _Lowering(regs, operation_width(regs, suffix, width_ops), code)
    if base in _FENCES:
        low.ins.append(Fence(base))
    elif base == "ret":  # the end of the thread, as herd reads ret (variant telechat)
        code.jumps.append((len(low.ins), END_OF_THREAD))
        low.ins.append(Branch(None, -1))
    elif base == "mov":
        _mov(low, operands)
    elif base == "xchg":
        _xchg(low, operands)
    elif base == "cmpxchg":
        _cmpxchg(low, operands, lock)
    elif base in _ARITH or base in ("inc", "dec"):
        _arith(low, base, mnemonic, operands, lock)
    elif base in _SHIFTS:
        _shift(low, base, mnemonic, operands)
    elif base == "cmp":
        vals = []
        for o in operands:
            vals.append(low.load(o[1], TMP if not vals else TMP2) if o[0] == "mem" else truncate(low.val(o), low.w))
        low.ins.append(Assign(FLAG, BinOp("eq", vals[0], vals[1])))
    elif base in _JUMPS:
        cond = None if base == "jmp" else (Reg(FLAG) if base in ("je", "jz") else UnOp("not", Reg(FLAG)))
        code.jumps.append((len(low.ins), target))
        low.ins.append(Branch(cond, -1))
    return code


def _mov(low: _Lowering, operands) -> None:
    dst, src = operands
    if dst[0] == "mem":
        if src[0] == "mem":
            raise CellError("MOV cannot copy memory to memory", 0)
        low.ins.append(Store(dst[1], low.val(src)))  # memory keeps the value whole, as in herd
    elif src[0] == "mem":
        if low.whole(dst[1]):
            low.ins.append(Load(low.regs.family(dst[1]), src[1]))
        else:
            low.set(dst[1], low.load(src[1]))
    elif dst[0] == "reg":
        low.set(dst[1], low.val(src))
    else:
        raise CellError("MOV needs a register or memory destination", 0)


def _xchg(low: _Lowering, operands) -> None:
    a, b = operands
    if a[0] == "mem" and b[0] == "reg":
        a, b = b, a
    atomic = frozenset({"atomic"})
    if a[0] == "reg" and b[0] == "mem":
        if low.whole(a[1]):
            full = low.regs.family(a[1])
            low.ins.append(Rmw(full, b[1], Reg(full), annots=atomic))
        else:
            low.ins.append(Rmw(TMP, b[1], low.val(a), annots=atomic))
            low.set(a[1], truncate(Reg(TMP), low.w))
    elif a[0] == "reg" and b[0] == "reg":
        low.ins.append(Assign(TMP, low.val(a)))
        vb = low.val(b)
        if low.regs.family(a[1]) == low.regs.family(b[1]) and a[1] != b[1]:  # xchg %al,%ah
            low.ins.append(Assign(TMP2, vb))
            vb = Reg(TMP2)
        low.set(a[1], vb)
        low.set(b[1], Reg(TMP))
    else:
        raise CellError("XCHG needs a register operand", 0)


def _cmpxchg(low: _Lowering, operands, lock: bool) -> None:
    mem, reg = operands
    if mem[0] != "mem" or reg[0] != "reg":
        raise CellError("CMPXCHG takes a memory operand and a register", 0)
    annots = frozenset({"atomic"}) if lock else frozenset()
    acc = low.regs.accumulator(low.w, reg[1])
    if low.whole(acc):
        # ZF: was the old value the accumulator's? The RMW overwrites the accumulator
        # with the old value, so compare against a copy taken before it
        full = low.regs.family(acc)
        low.ins.append(Assign(TMP, Reg(full)))
        low.ins.append(Rmw(full, mem[1], low.val(reg), cond=BinOp("eq", Reg(OLD), Reg(full)), annots=annots))
        low.ins.append(Assign(FLAG, BinOp("eq", Reg(full), Reg(TMP))))
        return
    w = low.w
    low.ins.append(Assign(TMP, low.val(("reg", acc))))
    low.ins.append(Rmw(TMP2, mem[1], low.val(reg), cond=BinOp("eq", truncate(Reg(OLD), w), Reg(TMP)), annots=annots))
    low.ins.append(Assign(FLAG, BinOp("eq", truncate(Reg(TMP2), w), Reg(TMP))))
    if w == 32:  # on failure the value read, zero-extended; on success the accumulator is left alone
        full = low.regs.family(acc)
        kept = BinOp("and", Reg(full), BinOp("mul", Reg(FLAG), Const(~ones(32))))
        low.ins.append(Assign(full, BinOp("or", kept, truncate(Reg(TMP2), 32))))
    else:  # 8 or 16 bits: only the low bits change, and on success they are equal
        low.set(acc, Reg(TMP2))


def _arith(low: _Lowering, base: str, mnemonic: str, operands, lock: bool) -> None:
    if base in ("inc", "dec"):
        (dst,) = operands
        op, src = ("add" if base == "inc" else "sub"), ("imm", 1)
    else:
        dst, src = operands
        op = _ARITH[base]
    w = low.w
    if dst[0] == "mem":
        if src[0] == "mem":
            raise CellError(f"{mnemonic} cannot combine two memory operands", 0)
        result = truncate(BinOp(op, truncate(Reg(TMP), w), low.val(src)), w)
        if lock:
            new = truncate(BinOp(op, truncate(Reg(OLD), w), low.val(src)), w)
            low.ins.append(Rmw(TMP, dst[1], new, annots=frozenset({"atomic"})))
        else:  # a plain read then a plain write
            low.ins.append(Load(TMP, dst[1]))
            low.ins.append(Store(dst[1], result))
    elif dst[0] == "reg":
        if src[0] == "mem":
            low.set(dst[1], BinOp(op, low.val(dst), low.load(src[1])))
        else:
            low.set(dst[1], BinOp(op, low.val(dst), low.val(src)))
        result = low.val(dst)
    else:
        raise CellError(f"{mnemonic} needs a register or memory destination", 0)
    low.flag(result)


def _shift(low: _Lowering, base: str, mnemonic: str, operands) -> None:
    """SHL/SAL, SHR, SAR as Intel's manual says: the count masked to 5 bits (6 for 64-bit
    operands), the result cut to the operand's width; flags unchanged by a zero count."""
    dst, count = operands
    w = low.w
    cmask = 63 if w == 64 else 31
    if count[0] == "mem":
        raise CellError(f"the count of {mnemonic} is an immediate or a register (%cl)", 0)
    c = Const(count[1] & cmask) if count[0] == "imm" else BinOp("and", low.val(count), Const(cmask))
    if dst[0] == "mem":
        v = low.load(dst[1])
    elif dst[0] == "reg":
        v = low.val(dst)
    else:
        raise CellError(f"{mnemonic} needs a register or memory destination", 0)
    if base in ("shl", "sal"):
        r = signed64(BinOp("shl", v, c)) if w == 64 else truncate(BinOp("shl", v, c), w)
    elif base == "shr":
        r = signed64(BinOp("shr", BinOp("and", v, Const(ones(64))), c)) if w == 64 else BinOp("shr", v, c)
    else:  # sar: shift the signed value
        r = BinOp("shr", signed64(v), c) if w == 64 else truncate(BinOp("shr", signed(v, w), c), w)
    if dst[0] == "mem":
        low.ins.append(Store(dst[1], r))
        result = r
    else:
        low.set(dst[1], r)
        result = low.val(dst)
    if isinstance(c, Const):
        if c.value:
            low.flag(result)
        return
    zero = BinOp("eq", c, Const(0))
    low.ins.append(Assign(FLAG, BinOp("lor", BinOp("land", zero, Reg(FLAG)),
                                      BinOp("land", UnOp("not", zero), BinOp("eq", result, Const(0))))))
