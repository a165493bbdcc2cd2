"""herd's LISA dialect: r[], w[], f[], rmw[], b[], mov, with diy's dependency idioms."""

from __future__ import annotations

from functools import lru_cache

import pyparsing as pp

from ..core.program import OLD, Assign, BinOp, Branch, Const, Fence, Load, Reg, Rmw, Store, UnOp
from .finals import bounded_int
from .threadtable import CellCode, CellError, TableDialect

_OPS = {"add": "add", "xor": "xor", "and": "and", "eq": "eq", "neq": "ne", "sub": "sub", "or": "or"}


@lru_cache(maxsize=1)
def _grammar():
    reg = pp.Regex(r"(r[0-9]+|%[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])")("reg")
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")
    num = pp.Regex(r"-?[0-9]+").set_parse_action(bounded_int)
    annots = pp.Group(
        pp.Suppress("[") + pp.Optional(pp.DelimitedList(pp.Regex(r"[A-Za-z_][A-Za-z0-9_.\-]*"), ",")) + pp.Suppress("]")
    )("annots")
    value = pp.Group(reg)("r") | pp.Group(num)("k") | pp.Group(name)("a")
    reg_or_addr = pp.Group(reg)("r") | pp.Group(name)("a")
    reg_or_imm = pp.Group(reg)("r") | pp.Group(num)("k")
    addr_op = pp.Group(reg_or_addr + pp.Optional(pp.Suppress("+") + reg_or_imm))("addr")
    operation = pp.Group(
        pp.Suppress("(") + pp.one_of(list(_OPS))("op") + value + value + pp.Suppress(")")
    )("binop") | value
    def kw(word):
        return pp.Regex(word + r"(?=\s*\[)")
    labels = pp.Group(pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*")("label") + pp.Suppress(":"))
    fence_sets = pp.Optional(pp.Regex(r"\{[^}]*\}\s*\{[^}]*\}"))
    instr = (
        pp.Group(pp.Suppress(kw("rmw")) + annots + reg + pp.Group(operation)("opn") + addr_op)("rmw")
        | pp.Group(pp.Suppress(kw("r")) + annots + reg + addr_op)("load")
        | pp.Group(pp.Suppress(kw("w")) + annots + addr_op + pp.Group(reg_or_imm)("val"))("store")
        | pp.Group(pp.Suppress(kw("f")) + annots + fence_sets)("fence")
        | pp.Group(pp.Suppress(kw("b")) + annots + pp.Optional(reg) + name("target"))("branch")
        | pp.Group(pp.Suppress(pp.Keyword("mov")) + reg + pp.Group(operation)("opn"))("mov")
    )
    return pp.ZeroOrMore(labels)("labels") + pp.Optional(instr) + pp.StringEnd()


def _value(node):
    kind = node.get_name()
    if kind == "r":
        return Reg(node[0])
    if kind == "k":
        return Const(int(node[0]))
    if kind == "a":
        return Const(node[0])
    if kind == "binop":
        return BinOp(_OPS[node["op"]], _value(node[1]), _value(node[2]))
    raise ValueError(kind)


def _addr(node):
    base = _value(node[0])
    if len(node) > 1:
        return BinOp("add", base, _value(node[1]))
    return base


def _subst(e, reg: str):
    """Replace register ``reg`` by the value read (``%old``) in an rmw operation."""
    if isinstance(e, Reg) and e.name == reg:
        return Reg(OLD)
    if isinstance(e, BinOp):
        return BinOp(e.op, _subst(e.left, reg), _subst(e.right, reg))
    if isinstance(e, UnOp):
        return UnOp(e.op, _subst(e.arg, reg))
    return e


class LisaDialect(TableDialect):
    name = "LISA"
    archs = ("LISA", "Bell")
    instruction_help = (
        "a LISA instruction: r[annots] REG ADDR, w[annots] ADDR VALUE, f[KIND], "
        "rmw[annots] REG OP ADDR, b[] REG LABEL, mov REG OP"
    )

    def parse_cell(self, text: str) -> CellCode:
        try:
            parsed = _grammar().parse_with_tabs().parse_string(text, parse_all=True)  # columns past a tab
        except pp.ParseBaseException as err:
            raise self.cell_error(text, err) from None
        code = CellCode(labels=[lab["label"] for lab in parsed.get("labels", [])])
        kind = next((k for k in ("rmw", "load", "store", "fence", "branch", "mov") if k in parsed), None)
        if kind is None:
            return code
        ins = parsed[kind]
        annots = frozenset(ins["annots"]) if "annots" in ins else frozenset()
        if kind == "load":
            code.instrs.append(Load(ins["reg"], _addr(ins["addr"]), annots))
        elif kind == "store":
            code.instrs.append(Store(_addr(ins["addr"]), _value(ins["val"][0]), annots))
        elif kind == "fence":
            if not annots:
                raise CellError("a LISA fence names its kind, as in f[mb]", 0, "f[KIND]")
            code.instrs.append(Fence(",".join(ins["annots"]), annots))
        elif kind == "rmw":
            reg = ins["reg"]
            op = _value(ins["opn"][0])
            code.instrs.append(Rmw(reg, _addr(ins["addr"]), _subst(op, reg), annots=annots))
        elif kind == "branch":
            cond = Reg(ins["reg"]) if "reg" in ins else None
            code.jumps.append((0, ins["target"]))
            code.instrs.append(Branch(cond, -1))
        elif kind == "mov":
            code.instrs.append(Assign(ins["reg"], _value(ins["opn"][0])))
        return code

    def fence_text(self, kind: str) -> str:
        return f"f[{kind}]"

    def can_write_dependency(self, program, dep) -> bool:
        from .asm_dependencies import LISA, can_write

        return can_write(LISA, program, dep)

    def write_with_devices(self, program, fences: list[tuple[int, int, str]], deps: list) -> str:
        """The source with fences and dependencies (diy's idioms) written in (``asm_dependencies``)."""
        from .asm_dependencies import LISA, write_with_devices

        return write_with_devices(self, LISA, program, fences, deps)


DIALECT = LisaDialect()
