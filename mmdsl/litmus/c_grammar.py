"""herd's C litmus subset: a pyparsing grammar for the thread functions, building a small AST.

The grammar accepts a little more than the dialect supports (array indexing, struct
members, ``goto``, ``return``, shifts, the conditional operator, any function call) so
that the lowering (``c_lower``) can name the unsupported construct instead of failing
with a bare syntax error. Every node records ``at``, its offset in the parsed text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pyparsing as pp

from .finals import bounded_int


# ----- AST ----------------------------------------------------------------------
@dataclass
class Node:
    at: int


@dataclass
class Num(Node):
    value: int


@dataclass
class Name(Node):
    name: str


@dataclass
class Unary(Node):
    op: str  # ! - + ~ * & ++ -- (prefix)
    arg: "Node"


@dataclass
class Binary(Node):
    op: str
    left: "Node"
    right: "Node"


@dataclass
class Call(Node):
    name: str
    args: list


@dataclass
class Postfix(Node):
    """``a[i]``, ``a.f``, ``a->f``, ``a++``, ``a--``: kind is '[]', '.', '->', '++' or '--'."""

    kind: str
    arg: "Node"
    extra: object = None


@dataclass
class Ternary(Node):
    cond: "Node"
    then: "Node"
    other: "Node"


@dataclass
class AssignExpr(Node):
    op: str  # = += -= *= /= %= &= |= ^= <<= >>=
    target: "Node"
    value: "Node"


@dataclass
class CType:
    words: tuple[str, ...]  # base type words, qualifiers removed
    volatile: bool
    atomic: bool


@dataclass
class Declarator(Node):
    name: str
    stars: int
    star_volatile: bool  # a qualifier after '*' (int *volatile p)
    array: bool
    init: "Node | None"
    size: "Node | None" = None  # the size of an array declarator (x[3])


@dataclass
class Stmt(Node):
    end: int = field(default=-1, kw_only=True)


@dataclass
class Decl(Stmt):
    ctype: CType
    items: list[Declarator]


@dataclass
class ExprStmt(Stmt):
    expr: Node


@dataclass
class Empty(Stmt):
    pass


@dataclass
class Block(Stmt):
    stmts: list[Stmt]


@dataclass
class If(Stmt):
    cond: Node
    then: Stmt
    other: Stmt | None


@dataclass
class While(Stmt):
    cond: Node
    body: Stmt


@dataclass
class DoWhile(Stmt):
    body: Stmt
    cond: Node


@dataclass
class For(Stmt):
    init: Stmt | None
    cond: Node | None
    step: Node | None
    body: Stmt


@dataclass
class Atomic(Stmt):
    """``atomic { ... }``: the block is one indivisible step (lowered by ``c_atomic``)."""

    body: Block


@dataclass
class Jump(Stmt):
    kind: str  # break continue


@dataclass
class Return(Stmt):
    value: "Node | None"


@dataclass
class Unsupported(Stmt):
    """A statement the grammar recognises only to reject it by name (goto, return ...)."""

    what: str


@dataclass
class Param(Node):
    ctype: CType
    decl: Declarator


@dataclass
class Function(Node):
    name: str
    params: list[Param]
    body: Block
    header_end: int
    returns: "CType | None" = None  # the declared return type (None: none written)
    return_stars: int = 0


@dataclass
class StructDef(Node):
    """``struct NAME { fields };`` at the top level: each field of each node is a location."""

    name: str
    fields: list[Decl]


@dataclass
class GlobalDecl(Node):
    """A declaration at the top level: a shared variable, a struct variable or a node pool."""

    decl: Decl


# ----- grammar -------------------------------------------------------------------
TYPE_WORDS = (
    "int long short char unsigned signed bool _Bool void "
    "atomic_int atomic_uint atomic_long atomic_ulong atomic_bool atomic_intptr_t atomic_t atomic_long_t "
    "spinlock_t intptr_t uintptr_t size_t "
    "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t"
).split()
ATOMIC_TYPES = {w for w in TYPE_WORDS if w.startswith("atomic_")}
QUALIFIERS = ("volatile", "const", "_Atomic")
STATEMENT_WORDS = ("if else while do for break continue goto return switch case default "
                   "struct union typedef enum sizeof").split()
RESERVED = set(TYPE_WORDS) | set(QUALIFIERS) | set(STATEMENT_WORDS)


def _tok(pattern: str, name: str):
    return pp.Regex(pattern).set_name(name)


def _c_int(text: str) -> int:
    digits = text.rstrip("uUlL")
    if digits[:2] in ("0x", "0X"):
        return int(digits, 16)
    return int(digits, 8) if digits.startswith("0") else int(digits)


def _fold_binary(s, loc, toks):
    items = list(toks)
    node = items[0]
    for i in range(1, len(items), 2):
        node = Binary(node.at, items[i], node, items[i + 1])
    return node


def _level(operand, op):
    return (operand + pp.ZeroOrMore(op + operand)).set_parse_action(_fold_binary)


def _ctype(toks) -> CType:
    words = [w for w in toks if w not in QUALIFIERS and w != "struct"]
    if "struct" in toks:  # struct NAME: the words are ("struct", NAME)
        words = ["struct", *words]
    return CType(tuple(words), "volatile" in toks, "_Atomic" in toks or any(w in ATOMIC_TYPES for w in words))


@lru_cache(maxsize=1)
def grammar() -> pp.ParserElement:
    """The whole body of a C litmus test: one or more thread functions."""
    kw = {w: pp.Keyword(w) for w in RESERVED}
    ident = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*").set_name("a name")
    ident.add_condition(lambda t: t[0] not in RESERVED)
    number = pp.Regex(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*(?![0-9A-Za-z_])").set_name("a number")
    number.set_parse_action(bounded_int)
    LP, RP = pp.Suppress("("), pp.Suppress(")")
    LB, RB = pp.Suppress("{"), pp.Suppress(pp.Literal("}").set_name("a statement or '}'"))
    SEMI = pp.Suppress(pp.Literal(";").set_name("';'"))

    expr = pp.Forward().set_name("an expression")
    assign = pp.Forward().set_name("an expression")
    unary = pp.Forward()

    num = number.copy().add_parse_action(lambda s, at, t: Num(at, _c_int(t[0])))
    call = (ident + LP - pp.Group(pp.Optional(pp.DelimitedList(assign))) + RP).set_parse_action(
        lambda s, at, t: Call(at, t[0], list(t[1])))
    name = ident.copy().set_parse_action(lambda s, at, t: Name(at, t[0]))
    paren = LP + expr + RP
    primary = (num | call | name | paren).set_name("an expression")

    def _postfix(s, at, t):
        node = t[0]
        for p in t[1:]:
            node = Postfix(node.at, p[0], node, p[1] if len(p) > 1 else None)
        return node

    post_op = pp.Group(
        pp.Literal("[") + expr + pp.Suppress("]")
        | pp.Literal("->") + ident
        | pp.Literal(".") + ident
        | pp.Literal("++")
        | pp.Literal("--")
    )
    postfix = (primary + pp.ZeroOrMore(post_op)).set_parse_action(_postfix)
    un_op = _tok(r"\+\+|--|!(?!=)|~|-(?![-=>])|\+(?![+=])|\*(?!=)|&(?![&=])", "a unary operator")
    unary <<= (un_op + unary).set_parse_action(lambda s, at, t: Unary(at, t[0], t[1])) | postfix
    sizeof = (kw["sizeof"] + LP + pp.Located(pp.SkipTo(")")) + RP).set_parse_action(
        lambda s, at, t: Call(at, "sizeof", [Name(t[1], " ".join(t[2][0].split()))]))
    unary_any = sizeof | unary

    mul = _level(unary_any, _tok(r"[*/%](?!=)", "'*', '/' or '%'"))
    add = _level(mul, _tok(r"\+(?![+=])|-(?![-=>])", "'+' or '-'"))
    shift = _level(add, _tok(r"(<<|>>)(?!=)", "a shift"))
    rel = _level(shift, _tok(r"<=|>=|<(?![<=])|>(?![>=])", "a comparison"))
    eq = _level(rel, _tok(r"==|!=", "'==' or '!='"))
    band = _level(eq, _tok(r"&(?![&=])", "'&'"))
    bxor = _level(band, _tok(r"\^(?!=)", "'^'"))
    bor = _level(bxor, _tok(r"\|(?![|=])", "'|'"))
    land = _level(bor, pp.Literal("&&"))
    lor = _level(land, pp.Literal("||"))
    cond = pp.Forward()
    cond <<= (lor + pp.Optional(pp.Literal("?") + expr + pp.Suppress(":") + cond)).set_parse_action(
        lambda s, at, t: t[0] if len(t) == 1 else Ternary(t[0].at, t[0], t[2], t[3]))
    assign_op = _tok(r"(<<|>>|[-+*/%&|^])?=(?!=)", "an assignment")
    assign <<= ((unary + assign_op + assign).set_parse_action(
        lambda s, at, t: AssignExpr(t[0].at, t[1], t[0], t[2])) | cond).set_name("an expression")
    expr <<= assign
    for e, name in ((expr, "an expression"), (assign, "an expression"), (unary, "an expression"),
                    (cond, "an expression")):
        e.set_name(name)

    # ---- declarations ----
    qualifier = pp.MatchFirst([kw[q] for q in QUALIFIERS])
    type_word = pp.MatchFirst([kw[w] for w in sorted(TYPE_WORDS, key=len, reverse=True)])
    struct_type = kw["struct"] + ident
    ctype = (pp.ZeroOrMore(qualifier) + (struct_type | type_word + pp.ZeroOrMore(type_word | qualifier))
             + pp.ZeroOrMore(qualifier)).set_parse_action(lambda s, at, t: _ctype(list(t)))
    stars = pp.Group(pp.ZeroOrMore(pp.Literal("*") + pp.ZeroOrMore(qualifier)))
    array = pp.Group(pp.Optional(pp.Literal("[") + pp.Optional(expr) + pp.Suppress("]")))

    def _declarator(s, at, t):
        st = list(t[0])
        init = t[3] if len(t) > 3 else None
        arr = t[2]
        return Declarator(at, t[1], st.count("*"), any(q in st for q in QUALIFIERS), bool(len(arr)), init,
                          arr[1] if len(arr) > 1 else None)

    declarator = (stars + ident + array + pp.Optional(pp.Suppress(pp.Regex(r"=(?!=)")) - assign)).set_parse_action(
        _declarator)
    decl = (ctype - pp.Group(pp.DelimitedList(declarator)) - SEMI).set_parse_action(
        lambda s, at, t: Decl(at, t[0], list(t[1])))

    # ---- statements ----
    stmt = pp.Forward().set_name("a statement")
    block = pp.Located(LB + pp.Group(pp.ZeroOrMore(stmt)) + RB).set_parse_action(
        lambda s, at, t: Block(t[0], list(t[1][0]), end=t[2]))
    if_stmt = (kw["if"] - LP + expr + RP + stmt + pp.Optional(kw["else"].suppress() - stmt)).set_parse_action(
        lambda s, at, t: If(at, t[1], t[2], t[3] if len(t) > 3 else None))
    while_stmt = (kw["while"] - LP + expr + RP + stmt).set_parse_action(lambda s, at, t: While(at, t[1], t[2]))
    do_stmt = (kw["do"] - stmt + kw["while"].suppress() + LP + expr + RP + SEMI).set_parse_action(
        lambda s, at, t: DoWhile(at, t[1], t[2]))
    none = pp.Empty().set_parse_action(lambda: [None])
    for_init = decl | (expr + SEMI).set_parse_action(lambda s, at, t: ExprStmt(at, t[0])) | SEMI + none
    for_stmt = (kw["for"] - LP + for_init + (expr | none) + SEMI + (expr | none) + RP + stmt).set_parse_action(
        lambda s, at, t: For(at, t[1], t[2], t[3], t[4]))
    atomic = (pp.Keyword("atomic") + pp.FollowedBy("{") - block).set_parse_action(
        lambda s, at, t: Atomic(at, t[1]))
    jump = ((kw["break"] | kw["continue"]) - SEMI).set_parse_action(lambda s, at, t: Jump(at, t[0]))
    rejected = (
        (kw["goto"] + ident + SEMI).set_parse_action(lambda s, at, t: Unsupported(at, "goto"))
        | (kw["return"] + pp.Optional(expr, default=None) + SEMI).set_parse_action(
            lambda s, at, t: Return(at, t[1]))
        | (kw["switch"] + LP + expr + RP + block).set_parse_action(lambda s, at, t: Unsupported(at, "switch"))
        | (kw["struct"] + ident + pp.FollowedBy("{") + pp.SkipTo("}") + pp.Literal("}") + SEMI).set_parse_action(
            lambda s, at, t: Unsupported(at, "a struct definition inside a function"))
        | ((kw["union"] | kw["typedef"] | kw["enum"]) + pp.SkipTo(";") + SEMI).set_parse_action(
            lambda s, at, t: Unsupported(at, t[0]))
        | (ident + pp.Suppress(pp.Regex(r":(?!:)"))).set_parse_action(lambda s, at, t: Unsupported(at, "a label"))
    )
    expr_stmt = (expr - SEMI).set_parse_action(lambda s, at, t: ExprStmt(at, t[0]))
    empty = SEMI.copy().set_parse_action(lambda s, at, t: Empty(at))
    stmt <<= pp.Located(block | if_stmt | while_stmt | do_stmt | for_stmt | atomic | jump | rejected | decl
                        | expr_stmt | empty).set_parse_action(_with_end)
    stmt.set_name("a statement")

    # ---- thread functions ----
    param = (ctype + declarator).set_parse_action(lambda s, at, t: Param(at, t[0], t[1]))
    params = pp.Group(pp.Optional(kw["void"].suppress() + pp.FollowedBy(")") | pp.DelimitedList(param)))
    ret_type = pp.Group(pp.Optional(ctype + pp.Group(pp.ZeroOrMore(pp.Literal("*")))))
    header = pp.Located(ret_type + ident + LP + params + RP + pp.FollowedBy("{"))
    function = (header - block).set_parse_action(_function)
    struct_def = (kw["struct"] + ident + LB + pp.Group(pp.ZeroOrMore(decl)) + RB + SEMI).set_parse_action(
        lambda s, at, t: StructDef(at, t[1], list(t[2])))
    global_decl = decl.copy().add_parse_action(lambda s, at, t: GlobalDecl(at, t[0]))
    body = pp.ZeroOrMore(struct_def | function | global_decl) + pp.StringEnd().set_name(
        "a thread function 'P0(int *x) { ... }'")
    body.ignore(pp.cpp_style_comment)
    # keep tabs: by default pyparsing expands them before parsing, and every ``at`` would then be an
    # offset into the expanded text, not the source (the Linux tests indent with tabs)
    body.parse_with_tabs()
    return body


def _function(s, at, t):
    start, (ret, name, params), end, body = t[0], t[1], t[2], t[3]
    returns, stars = (ret[0], len(ret[1])) if len(ret) else (None, 0)
    if returns is not None and returns.words == ("void",) and not stars:
        returns = None
    return Function(start, name, list(params), body, end, returns, stars)


def _with_end(s, loc, toks):
    start, node, end = toks[0], toks[1][0], toks[2]
    node.at = start
    node.end = end
    return node
