"""Memorax's program format (`.rmm`): the pyparsing grammar and the syntax tree it builds.

The grammar follows Memorax's manual ("simplified grammar", doc/grammar.simplified.txt
of github.com/memorax/memorax), learnt from the manual and the example programs; no code
of Memorax is used. Every node carries the (line, col) of its first character, so the
lowering (``rmm_lower``) can locate its errors as file:line:col.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pyparsing as pp

from ..core.errors import LitmusError, SourcePos, line_col

RESERVED = ("if", "then", "else", "while", "do", "read", "write", "locked", "cas", "goto", "true",
            "false", "my", "me", "other", "process", "not", "nop", "syncwr", "fence", "data",
            "registers", "text", "forbidden", "predicates", "either", "or", "assume", "macro",
            "endmacro", "syncrd", "llfence", "ssfence")
MAX_VALUE = 1 << 62


@dataclass(frozen=True)
class Node:
    """A syntax node: its kind, its parts, and where it starts (line, col)."""

    kind: str
    parts: tuple
    at: tuple[int, int] = field(compare=False)


@dataclass
class VarDecl:
    name: str
    value: int | None  # None for '*'
    domain: tuple[int, int] | None  # None for no domain or ':Z'
    at: tuple[int, int]


@dataclass
class ProcessDecl:
    count: int
    data: list[VarDecl]
    registers: list[VarDecl]
    body: list  # labelled statements: Node("lstmt", (labels, stmt))
    at: tuple[int, int]


@dataclass
class RmmFile:
    forbidden: list[list[tuple[str, tuple[int, int]]]]  # label tuples, each label with its place
    data: list[VarDecl]
    processes: list[ProcessDecl]
    forbidden_at: tuple[int, int]


def _at(text: str, loc: int) -> tuple[int, int]:
    while loc < len(text) and text[loc].isspace():  # an action's place may precede white space
        loc += 1
    return line_col(text, loc)


def _node(kind: str):
    def action(s, loc, toks):
        return Node(kind, tuple(toks), _at(s, loc))
    return action


@lru_cache(maxsize=1)
def _grammar():
    kw = {w: pp.Keyword(w) for w in RESERVED}
    sup = pp.Suppress
    ident = pp.Regex(r"[_a-zA-Z][_a-zA-Z0-9]*")
    label = (~pp.MatchFirst(list(kw.values())) + ident).set_name("a name")
    reg = pp.Regex(r"\$[_a-zA-Z0-9]+").set_name("a register ($name)")
    placed_label = (~pp.MatchFirst(list(kw.values())) + ident).set_parse_action(
        lambda s, loc, t: pp.ParseResults([(t[0], _at(s, loc))])).set_name("a label")
    nat = pp.Regex(r"[0-9]+").set_parse_action(lambda s, loc, t: _bounded(s, loc, t[0]))

    expr = pp.Forward()
    unit = pp.Forward()
    unit <<= (reg.copy().set_parse_action(_node("reg"))
              | nat.copy().add_parse_action(_node("num"))
              | (sup("-") + unit).set_parse_action(_node("neg"))
              | (sup("(") + expr + sup(")"))
              | kw["me"].copy().set_parse_action(_node("refused"))
              | (kw["other"] + nat).set_parse_action(_node("refused"))
              | (pp.Literal("@") + nat).set_parse_action(_node("refused"))).set_name("an expression")
    expr <<= (unit + pp.ZeroOrMore(pp.one_of("+ -") + unit)).set_parse_action(_arith).set_name("an expression")
    expr.set_name("an expression")
    unit.set_name("an expression")

    bexpr = pp.Forward()
    cmp = (expr + pp.one_of("= != <= >= < >").set_name("a comparison") + expr).set_parse_action(
        lambda s, loc, t: Node("cmp", (t[1], t[0], t[2]), _at(s, loc)))
    batom = (kw["true"].copy().set_parse_action(_node("true"))
             | kw["false"].copy().set_parse_action(_node("false"))
             | (sup("[") + bexpr + sup("]"))
             | cmp)
    bnot = (sup(kw["not"]) + batom).set_parse_action(_node("not")) | batom
    band = (bnot + pp.ZeroOrMore(sup("&&") + bnot)).set_parse_action(_chain("and"))
    bexpr <<= (band + pp.ZeroOrMore(sup("||") + band)).set_parse_action(_chain("or")).set_name("a condition")
    bexpr.set_name("a condition")

    memloc = ((sup("[") + expr + sup("]")).set_parse_action(_node("ptr"))
              | (ident + sup("[") + (kw["my"] | nat) + sup("]")).set_parse_action(_node("local"))
              | label.copy().set_parse_action(_node("global"))).set_name("a memory location")

    stmt = pp.Forward()
    lstmt = pp.Forward()
    stmt_list = pp.Group(lstmt + pp.ZeroOrMore(sup(";") + lstmt) + sup(pp.Optional(";")))
    read_kw = pp.Regex(r"read\s*:")
    write_kw = pp.Regex(r"write\s*:")
    stmt <<= (
        kw["nop"].copy().set_parse_action(_node("nop"))
        | (sup(read_kw) + reg + sup(":=") + memloc).set_parse_action(_node("read"))
        | (sup(read_kw) + memloc + sup("=") + expr).set_parse_action(_node("read_assume"))
        | (sup(pp.Regex(r"locked\s+write\s*:")) + memloc + sup(":=") + expr).set_parse_action(
            _node("locked_write"))
        | (sup(write_kw) + memloc + sup(":=") + expr).set_parse_action(_node("write"))
        | (sup(pp.Regex(r"syncwr\s*:")) + memloc + sup(":=") + expr).set_parse_action(_node("syncwr"))
        | (sup(kw["cas"]) + sup("(") + memloc + sup(",") + expr + sup(",") + expr + sup(")")
           ).set_parse_action(_node("cas"))
        | kw["fence"].copy().set_parse_action(_node("fence"))
        | pp.Regex(r"(ll|ss)fence\b").set_parse_action(lambda s, loc, t: Node("vips", (t[0],), _at(s, loc)))
        | (pp.Regex(r"syncrd\s*:") + ((reg + ":=" + memloc) | (memloc + "=" + expr))).set_parse_action(
            lambda s, loc, t: Node("vips", ("syncrd:",), _at(s, loc)))
        | (reg + sup(":=") + expr).set_parse_action(_node("assign"))
        | (sup(pp.Regex(r"assume\s*:")) + bexpr).set_parse_action(_node("assume"))
        | (sup(kw["if"]) + bexpr + sup(kw["then"]) + lstmt + pp.Optional(sup(kw["else"]) + lstmt)
           ).set_parse_action(_node("if"))
        | (sup(kw["while"]) + bexpr + sup(kw["do"]) + lstmt).set_parse_action(_node("while"))
        | (sup(kw["goto"]) + label).set_parse_action(_node("goto"))
        | (sup(kw["either"]) + sup("{") + stmt_list + pp.ZeroOrMore(sup(kw["or"]) + stmt_list) + sup("}")
           ).set_parse_action(_node("either"))
        | (sup(kw["locked"]) + sup("{") + stmt_list + pp.ZeroOrMore(sup(kw["or"]) + stmt_list) + sup("}")
           ).set_parse_action(_node("locked_block"))
        | (sup("{") + stmt_list + sup("}")).set_parse_action(_node("block"))
    ).set_name("a statement")
    stmt.set_name("a statement")
    lstmt.set_name("a statement")
    lstmt <<= (pp.Group(pp.ZeroOrMore(placed_label + sup(":"))) + stmt).set_parse_action(
        _node("lstmt")).set_name("a statement")

    init_value = (pp.Literal("*") | pp.Regex(r"-?[0-9]+"))
    domain = pp.Optional(sup(":") + (pp.Group(sup("[") + pp.Regex(r"-?[0-9]+") + sup(":")
                                              + pp.Regex(r"-?[0-9]+") + sup("]")) | pp.Literal("Z")))
    var_decl = (label + sup("=") + init_value + pp.Group(domain)).set_parse_action(_var)
    reg_decl = (reg + sup("=") + init_value + pp.Group(domain)).set_parse_action(_var)
    data = sup(kw["data"]) + pp.Group(var_decl + pp.ZeroOrMore(sup(pp.Optional(",")) + var_decl))
    registers = sup(kw["registers"]) + pp.Group(reg_decl + pp.ZeroOrMore(sup(pp.Optional(",")) + reg_decl))
    count = pp.Optional(sup("(") + nat + sup(")"), default=1)
    process = (kw["process"].copy().set_name("'process'") + count + pp.Optional(data, default=[]) + pp.Optional(registers, default=[])
               + sup(kw["text"]) + stmt_list).set_parse_action(_process)
    any_label = pp.Literal("*").set_parse_action(lambda s, loc, t: pp.ParseResults([("*", _at(s, loc))]))
    tuple_ = pp.Group(pp.OneOrMore(placed_label | any_label))
    forbidden = kw["forbidden"] + pp.Group(tuple_ + pp.ZeroOrMore(sup(";") + tuple_))
    predicates = sup(kw["predicates"]) + bexpr + pp.ZeroOrMore(sup(";") + bexpr)
    top = (forbidden + sup(pp.Optional(predicates)) + pp.Group(pp.Optional(data, default=[]))
           + pp.Group(pp.OneOrMore(process)) + pp.StringEnd())
    top.ignore(pp.c_style_comment)
    top.ignore(pp.dbl_slash_comment)
    return top


def _bounded(s: str, loc: int, text: str) -> int:
    v = int(text)
    if v > MAX_VALUE:
        raise pp.ParseFatalException(s, loc, f"the number {text[:20]} is too large (at most 2^62)")
    return v


def _arith(s, loc, toks):
    out = toks[0]
    for i in range(1, len(toks), 2):
        out = Node("add" if toks[i] == "+" else "sub", (out, toks[i + 1]), out.at)
    return out


def _chain(kind: str):
    def action(s, loc, toks):
        if len(toks) == 1:
            return toks[0]
        return Node(kind, tuple(toks), toks[0].at)
    return action


def _var(s, loc, toks):
    name, value, dom = toks[0], toks[1], toks[2]
    v = None if value == "*" else _bounded(s, loc, value.lstrip("-")) * (-1 if value.startswith("-") else 1)
    domain = None
    if len(dom) and not isinstance(dom[0], str):
        lo, hi = int(dom[0][0]), int(dom[0][1])
        if lo > hi:
            raise pp.ParseFatalException(s, loc, f"the domain [{lo}:{hi}] of '{name}' is empty")
        domain = (lo, hi)
    return VarDecl(name, v, domain, _at(s, loc))


def _process(s, loc, toks):
    return ProcessDecl(int(toks[1]), list(toks[2]), list(toks[3]), list(toks[4]), _at(s, loc))


def parse_rmm_text(text: str, path: str | None, origin=None) -> RmmFile:
    """Parse a `.rmm` program; a syntax error is a LitmusError at file:line:col.

    ``origin`` maps a (line, col) of ``text`` to the file's, when ``text`` is the file with
    its macros expanded (``rmm_macros``); the tree keeps the places in ``text``.
    """
    origin = origin or (lambda at: at)
    try:
        toks = _grammar().parse_with_tabs().parse_string(text, parse_all=True)  # offsets into the text itself
    except (pp.ParseException, pp.ParseFatalException) as err:
        msg = err.msg
        found = text[err.loc:err.loc + 20].split("\n")[0]
        if not found and err.loc >= len(text.rstrip()):
            found = "end of file"
        if msg == "Expected end of text":
            msg = "unexpected text: expected ';' between statements, or 'process'"
        raise LitmusError(f"{msg} (at '{found}')" if "xpected" in msg else msg,
                          SourcePos(path, *origin(line_col(text, err.loc))),
                          expected=None if "not supported" in msg else "Memorax's .rmm syntax") from None
    forbidden = [list(tup) for tup in toks[1]]
    data = list(toks[2][0]) if len(toks[2]) and len(toks[2][0]) else []
    return RmmFile(forbidden, data, list(toks[-1]), forbidden_at=origin(line_col(text, text.find("forbidden"))))
