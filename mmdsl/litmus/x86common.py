"""What the two x86 syntaxes share: the cell grammar's frame, operands, and the lowering of mnemonics."""

from __future__ import annotations

import pyparsing as pp

from ..core.errors import UnsupportedError
from ..core.program import OLD, Assign, BinOp, Branch, Const, Fence, Load, Reg, Rmw, Store, UnOp
from .finals import bounded_int
from .threadtable import CellCode, CellError, TableDialect

FLAG = "%zf"  # the zero flag CMP sets and JE/JNE read
TMP = "%tmp"

# operands: ("imm", value) | ("reg", name) | ("mem", core address expression)
_ARITH = {"add": "add", "sub": "sub", "xor": "xor", "or": "or", "and": "and"}


def number() -> pp.ParserElement:
    """An integer literal of either syntax (decimal or 0x hexadecimal, at most 64 bits)."""
    return pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int)


def cell_grammar(operand_: pp.ParserElement) -> pp.ParserElement:
    """One cell: labels, then optionally ``[LOCK] MNEMONIC operand, ...``."""
    mnemonic = pp.Regex(r"[A-Za-z]+")("mnemonic")
    lock = pp.Optional(pp.CaselessKeyword("LOCK")("lock") + pp.Optional(pp.Suppress(";")))
    label = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    instr = lock + mnemonic + pp.Optional(pp.Group(pp.DelimitedList(operand_, ","))("operands"))
    return pp.ZeroOrMore(label)("labels") + pp.Optional(instr) + pp.StringEnd()


class X86Syntax(TableDialect):
    """Base of the Intel (X86) and AT&T (X86_64) dialects: they differ in grammar only."""

    att = False  # AT&T: source operand first, lower-case fences

    def grammar(self) -> pp.ParserElement:  # pragma: no cover - abstract
        raise NotImplementedError

    def reg_name(self, name: str) -> str:
        """A register operand as the core names it."""
        return name

    def parse_cell(self, text: str) -> CellCode:
        try:
            parsed = self.grammar().parse_string(text, parse_all=True)
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        labels = [lab["label"] for lab in parsed.get("labels", [])]
        if "mnemonic" not in parsed:
            return CellCode(labels=labels)
        ops = [operand(o, self.reg_name) for o in parsed["operands"]] if "operands" in parsed else []
        if self.att:
            ops.reverse()  # lower_x86 wants the destination first
        return lower_x86(parsed["mnemonic"], "lock" in parsed, ops, labels)

    def fence_text(self, kind: str) -> str:
        spelled = x86_fence(kind, self.name)
        return spelled.lower() if self.att else spelled.upper()


def x86_int(text: str) -> int:
    """An integer of either syntax: hexadecimal with 0x, otherwise decimal (herd: 010 is ten)."""
    return int(text, 16) if "x" in text.lower() else int(text, 10)


def operand(node, reg_name=lambda r: r) -> tuple:
    """One parsed operand of either syntax (``sym``, ``reg``, ``imm`` or ``mem`` group) as
    ``(kind, value)``; ``reg_name`` spells a register (AT&T drops its ``%``).

    A memory operand's parts are a register (``r``), a location (``a``; AT&T's ``rip``
    base adds nothing) and an offset (``k``; zero adds nothing).
    """
    kind = node.get_name()
    if kind == "sym":
        return ("sym", node[0])
    if kind == "reg":
        return ("reg", reg_name(node[0]))
    if kind == "imm":
        return ("imm", x86_int(node["n"]) if "n" in node else node["s"])
    parts = []
    for p in node:
        k = p.get_name()
        if k == "r":
            parts.append(Reg(reg_name(p[0])))
        elif k == "a":
            if p[0] != "rip":
                parts.append(Const(p[0]))
        elif x86_int(p[0]):
            parts.append(Const(x86_int(p[0])))
    if not parts:
        parts = [Const(0)]
    addr = parts[0] if len(parts) == 1 else BinOp("add", parts[0], parts[1])
    return ("mem", addr)


def _val(op):
    kind, v = op
    if kind == "imm":
        return Const(v)
    if kind == "reg":
        return Reg(v)
    raise CellError("a memory operand cannot be used here")


_JUMPS = ("je", "jne", "jmp", "jz", "jnz")
_KNOWN = {"mov", "xchg", "cmpxchg", "add", "sub", "xor", "or", "and", "inc", "dec", "cmp",
          "mfence", "lfence", "sfence", *_JUMPS}


def _base(m: str) -> str:
    """The mnemonic without its AT&T size suffix (movq -> mov)."""
    if m in _KNOWN:
        return m
    if m[-1:] in ("b", "w", "l", "q") and m[:-1] in _KNOWN:
        return m[:-1]
    return m


X86_FENCES = ("mfence", "lfence", "sfence")


def x86_fence(kind: str, dialect: str) -> str:
    """The x86 fence instruction for a fence kind; an UnsupportedError for a kind x86 lacks."""
    if kind.lower() not in X86_FENCES:
        raise UnsupportedError(f"{dialect} has no fence instruction '{kind}'",
                               expected="one of " + ", ".join(f.upper() for f in X86_FENCES))
    return kind


def lower_x86(mnemonic: str, lock: bool, operands: list, labels: list[str]) -> CellCode:
    """Lower one x86 instruction given in Intel order (destination first)."""
    code = CellCode(labels=list(labels))
    m = mnemonic.lower()
    if _base(m) not in _KNOWN:
        raise CellError(f"unsupported x86 instruction '{mnemonic}'", 0,
                        "MOV, XCHG, CMPXCHG, ADD, SUB, XOR, OR, AND, INC, DEC, CMP, JE, JNE, JMP, MFENCE, LFENCE, SFENCE")
    target = None
    if m in _JUMPS:
        if len(operands) != 1 or operands[0][0] != "sym":
            raise CellError(f"{mnemonic} needs a label", 0, f"{mnemonic} LABEL")
        target = operands[0][1]
        operands = []
    for o in operands:
        if o[0] == "sym":
            raise CellError(f"'{o[1]}' is neither a register nor an operand", 0,
                            "a register, an immediate ($1) or a memory operand")
    expected_arity = {"mfence": 0, "lfence": 0, "sfence": 0, "inc": 1, "dec": 1}
    arity = expected_arity.get(_base(m), 0 if m in _JUMPS else 2)
    if len(operands) != arity:
        raise CellError(f"{mnemonic} takes {arity} operand{'s' if arity != 1 else ''}, not {len(operands)}", 0)
    ins = code.instrs
    atomic = frozenset({"atomic"})
    base = _base(m)
    if lock and base not in _ARITH and base not in ("inc", "dec", "xchg", "cmpxchg"):
        raise CellError(f"LOCK cannot prefix {mnemonic}", 0, "LOCK with ADD, SUB, XOR, OR, AND, INC, DEC, XCHG or CMPXCHG")
    if base in ("mfence", "lfence", "sfence"):
        ins.append(Fence(base))
    elif base == "mov":
        dst, src = operands
        if dst[0] == "mem":
            if src[0] == "mem":
                raise CellError("MOV cannot copy memory to memory", 0)
            ins.append(Store(dst[1], _val(src)))
        elif src[0] == "mem":
            ins.append(Load(dst[1], src[1]))
        elif dst[0] == "reg":
            ins.append(Assign(dst[1], _val(src)))
        else:
            raise CellError("MOV needs a register or memory destination", 0)
    elif base == "xchg":
        a, b = operands
        if a[0] == "mem" and b[0] == "reg":
            a, b = b, a
        if a[0] == "reg" and b[0] == "mem":
            ins.append(Rmw(a[1], b[1], Reg(a[1]), annots=atomic))
        elif a[0] == "reg" and b[0] == "reg":
            ins.extend([Assign(TMP, Reg(a[1])), Assign(a[1], Reg(b[1])), Assign(b[1], Reg(TMP))])
        else:
            raise CellError("XCHG needs a register operand", 0)
    elif base == "cmpxchg":
        mem, reg = operands
        if mem[0] != "mem" or reg[0] != "reg":
            raise CellError("CMPXCHG takes a memory operand and a register", 0)
        acc = "EAX" if reg[1].isupper() else "rax"
        # ZF: was the old value the accumulator's? The RMW overwrites the accumulator
        # with the old value, so compare against a copy taken before it
        ins.append(Assign(TMP, Reg(acc)))
        ins.append(Rmw(acc, mem[1], Reg(reg[1]), cond=BinOp("eq", Reg(OLD), Reg(acc)),
                       annots=atomic if lock else frozenset()))
        ins.append(Assign(FLAG, BinOp("eq", Reg(acc), Reg(TMP))))
    elif base in _ARITH or base in ("inc", "dec"):
        if base in ("inc", "dec"):
            (dst,) = operands
            op, src = ("add" if base == "inc" else "sub"), ("imm", 1)
        else:
            dst, src = operands
            op = _ARITH[base]
        if dst[0] == "mem":
            if src[0] == "mem":
                raise CellError(f"{mnemonic} cannot combine two memory operands", 0)
            result = BinOp(op, Reg(TMP), _val(src))
            if lock:
                ins.append(Rmw(TMP, dst[1], BinOp(op, Reg(OLD), _val(src)), annots=atomic))
            else:  # a plain read then a plain write
                ins.append(Load(TMP, dst[1]))
                ins.append(Store(dst[1], result))
        elif dst[0] == "reg":
            if src[0] == "mem":
                ins.append(Load(TMP, src[1]))
                ins.append(Assign(dst[1], BinOp(op, Reg(dst[1]), Reg(TMP))))
            else:
                ins.append(Assign(dst[1], BinOp(op, Reg(dst[1]), _val(src))))
            result = Reg(dst[1])
        else:
            raise CellError(f"{mnemonic} needs a register or memory destination", 0)
        # ZF, as herd's X86 semantics and Intel's manual set it: is the result zero?
        ins.append(Assign(FLAG, BinOp("eq", result, Const(0))))
    elif base == "cmp":
        a, b = operands
        vals = []
        for o in (a, b):
            if o[0] == "mem":
                ins.append(Load(TMP if not vals else TMP + "2", o[1]))
                vals.append(Reg(TMP if len(vals) == 0 else TMP + "2"))
            else:
                vals.append(_val(o))
        ins.append(Assign(FLAG, BinOp("eq", vals[0], vals[1])))
    elif base in _JUMPS:
        cond = None if base == "jmp" else (Reg(FLAG) if base in ("je", "jz") else UnOp("not", Reg(FLAG)))
        code.jumps.append((len(ins), target))
        ins.append(Branch(cond, -1))
    return code
