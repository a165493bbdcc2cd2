"""Parser for herd's cat language: tokens, then a precedence-climbing parser into a small AST.

Hand-written rather than a textX grammar or pyparsing because cat's syntax leans on
layout a declarative grammar handles badly: application is juxtaposition (``domain r``,
``f e ++ S``), ``*`` is the postfix closure or the infix product depending on what
follows it, names contain ``-`` and ``.`` (``po-loc``, ``cos-opt``), the title line is
free text, and comments nest. Every node keeps the SourcePos of its first token, so a
construct the lowering does not support is refused at its file:line:col.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import ModelError, SourcePos

KEYWORDS = {
    "let", "rec", "and", "in", "as", "acyclic", "irreflexive", "empty", "show", "unshow",
    "flag", "include", "fun", "match", "with", "end", "try", "if", "then", "else", "from",
    "procedure", "call", "enum", "instructions", "default", "forall", "do", "events", "test",
    "undefined_unless", "when", "assert",
}
MAX_DEPTH = 50  # nesting of expressions: deeper is refused, not a RecursionError

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<hash>\#[^\n]*|//[^\n]*)
  | (?P<str>"[^"\n]*")
  | (?P<tag>'[A-Za-z_][A-Za-z0-9_.\-]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)
  | (?P<num>[0-9]+)
  | (?P<op>\^[ \t]*-[ \t]*1|\^\+|\^\*|\|\||\+\+|->|[|;\\&*~+?\[\](){},=^:])
""", re.VERBOSE)


@dataclass
class Tok:
    kind: str  # name, kw, str, tag, num, op, eof
    text: str
    pos: SourcePos


def tokenize(text: str, file: str | None) -> list[Tok]:
    """The tokens of a cat file; comments ``(* ... *)`` nest, ``#`` starts a line comment."""
    out: list[Tok] = []
    i, line, col = 0, 1, 1
    n = len(text)

    def advance(s: str) -> None:
        nonlocal line, col
        nl = s.count("\n")
        if nl:
            line += nl
            col = len(s) - s.rfind("\n")
        else:
            col += len(s)

    while i < n:
        if text.startswith("(*", i):
            start = SourcePos(file, line, col)
            depth, j = 0, i
            while j < n:
                if text.startswith("(*", j):
                    depth += 1
                    j += 2
                elif text.startswith("*)", j):
                    depth -= 1
                    j += 2
                    if depth == 0:
                        break
                else:
                    j += 1
            if depth:
                raise ModelError("comment '(*' is never closed", start, expected="'*)'")
            advance(text[i:j])
            i = j
            continue
        m = _TOKEN.match(text, i)
        if m is None:
            raise ModelError(f"unexpected character {text[i]!r}", SourcePos(file, line, col))
        kind = m.lastgroup
        s = m.group()
        if kind not in ("ws", "hash"):
            if kind == "name" and s in KEYWORDS:
                kind = "kw"
            out.append(Tok(kind, s, SourcePos(file, line, col)))
        advance(s)
        i = m.end()
    out.append(Tok("eof", "", SourcePos(file, line, col)))
    return out


# ----- AST -------------------------------------------------------------------------
@dataclass
class Node:
    kind: str  # see Parser: var, empty, universe, op, app, tuple, fun, letin, try, match, ...
    pos: SourcePos
    args: tuple = ()
    text: str = ""


@dataclass
class Stmt:
    kind: str  # let, check, show, include, if, with, procedure, call, unsupported
    pos: SourcePos
    data: dict


# binary operators by precedence, low to high (herd's: | ++ ; \ & *); True = right assoc.
_BINARY = [("|", "union"), ("++", "add"), (";", "seq"), ("\\", "diff"), ("&", "inter"), ("*", "product")]
_LEVEL = {sym: k for k, (sym, _) in enumerate(_BINARY)}
_STARTS = {"name", "str", "tag", "num"}


class Parser:
    def __init__(self, text: str, file: str | None):
        self.toks = tokenize(text, file)
        self.i = 0
        self.depth = 0

    # ----- helpers
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Tok:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def at(self, text: str) -> bool:
        t = self.tok
        return t.kind in ("op", "kw") and t.text == text

    def expect(self, text: str, what: str = "") -> Tok:
        if not self.at(text):
            t = self.tok
            got = "end of file" if t.kind == "eof" else repr(t.text)
            raise ModelError(f"expected '{text}'{what} but found {got}", t.pos, expected=f"'{text}'")
        return self.next()

    def name(self) -> Tok:
        t = self.tok
        if t.kind != "name":
            got = "end of file" if t.kind == "eof" else repr(t.text)
            raise ModelError(f"expected a name but found {got}", t.pos, expected="a name")
        return self.next()

    def starts_expr(self, t: Tok | None = None) -> bool:
        t = t or self.tok
        if t.kind in _STARTS:
            return True
        if t.kind == "op":
            return t.text in ("(", "[", "{", "~")
        return t.kind == "kw" and t.text in ("fun", "match", "try", "let", "if")

    def starts_operand(self, t: Tok) -> bool:
        """After ``*``: does an operand follow (product) or not (postfix closure)?"""
        return t.kind in _STARTS or (t.kind == "op" and t.text in ("(", "[", "{", "~"))

    def condition(self) -> Node:
        """A variant condition: "v", not, &&, ||, parentheses."""
        left = self.cond_and()
        while self.at("||"):
            t = self.next()
            left = Node("vor", t.pos, (left, self.cond_and()))
        return left

    def cond_and(self) -> Node:
        left = self.cond_atom()
        while self.tok.kind == "op" and self.tok.text == "&" and self.peek().text == "&":
            t = self.next()
            self.next()
            left = Node("vand", t.pos, (left, self.cond_atom()))
        return left

    def cond_atom(self) -> Node:
        t = self.tok
        if t.kind == "str":
            self.next()
            return Node("variant", t.pos, text=t.text[1:-1])
        if t.kind == "name" and t.text == "not":
            self.next()
            return Node("vnot", t.pos, (self.cond_atom(),))
        if self.at("("):
            self.next()
            c = self.condition()
            self.expect(")")
            return c
        raise ModelError("a variant condition is a name in double quotes (with not, &&, ||)", t.pos,
                         expected='"variant"')

    # ----- statements
    def model(self) -> tuple[str, list[Stmt]]:
        # herd 7.58's title: NAME NAME, NAME "string", NAME, "string" or nothing, then
        # `catdep`; a third word (`withco` after `X86 TSO`) is a syntax error there, as here
        title_parts = []
        if self.tok.kind in ("name", "num") and self.tok.text != "catdep":
            title_parts.append(self.next().text)
            if self.tok.kind in ("name", "num", "str") and self.tok.text != "catdep":
                title_parts.append(self.next().text.strip('"'))
        elif self.tok.kind == "str":
            title_parts.append(self.next().text.strip('"'))
        if self.tok.kind == "name" and self.tok.text == "catdep":
            title_parts.append(self.next().text)
        stmts = self.statements(top=True)
        if self.tok.kind != "eof":
            t = self.tok
            raise ModelError(f"unexpected {t.text!r}: expected a statement (let, include, acyclic, "
                             "irreflexive, empty, show, ...)", t.pos)
        return " ".join(title_parts), stmts

    def statements(self, top: bool = False, until: tuple = ()) -> list[Stmt]:
        out = []
        while True:
            t = self.tok
            if t.kind == "eof" or (t.kind == "kw" and t.text in until):
                return out
            if t.kind != "kw" or t.text not in _STATEMENT_KWS:
                # a check may start with '~' (negated): ~empty r
                if t.kind == "op" and t.text == "~" and self.peek().text in ("acyclic", "irreflexive", "empty"):
                    out.append(self.check(flag=False))
                    continue
                return out
            out.append(self.statement())

    def statement(self) -> Stmt:
        t = self.tok
        k = t.text
        if k == "let":
            self.next()
            rec = False
            if self.at("rec"):
                self.next()
                rec = True
            binds = [self.binding()]
            while self.at("and"):
                self.next()
                binds.append(self.binding())
            when = None
            if self.at("when"):  # let rec ... when <check>: herd's checked fixpoint
                w = self.next()
                when = self.check(flag=False)
                when.pos = w.pos
            if self.at("in"):  # herd's grammar: a statement `let ...` may end with `in` (in_opt), which
                self.next()  # changes nothing (deps-instances.cat); the next statement follows
            return Stmt("let", t.pos, {"rec": rec, "binds": binds, "when": when})
        if k in ("acyclic", "irreflexive", "empty"):
            return self.check(flag=False)
        if k == "assert":  # assert CHECK: herd stops with an error when CHECK fails
            self.next()
            st = self.check(flag="assert")
            st.pos = t.pos
            return st
        if k in ("flag", "undefined_unless"):
            self.next()
            st = self.check(flag=k)
            st.pos = t.pos
            return st
        if k in ("show", "unshow"):
            self.next()
            items = [self.expr()]
            while self.at(","):
                self.next()
                items.append(self.expr())
            alias = None
            if self.at("as"):
                self.next()
                alias = self.name().text
            return Stmt("show", t.pos, {"items": items, "alias": alias, "un": k == "unshow"})
        if k == "include":
            self.next()
            s = self.tok
            if s.kind != "str":
                raise ModelError("include expects a file name in double quotes", s.pos, expected='"file.cat"')
            self.next()
            return Stmt("include", t.pos, {"file": s.text[1:-1], "pos": s.pos})
        if k == "if":
            self.next()
            cond = self.condition()
            then = self.statements(until=("else", "end"))
            other: list[Stmt] = []
            if self.at("else"):
                self.next()
                other = self.statements(until=("end",))
            self.expect("end", " to close 'if'")
            return Stmt("if", t.pos, {"cond": cond, "then": then, "else": other})
        if k == "with":
            self.next()
            var = self.name()
            self.expect("from")
            e = self.expr()
            return Stmt("with", t.pos, {"var": var.text, "expr": e})
        if k == "procedure":
            self.next()
            nm = self.name()
            params = self.params()
            self.expect("=")
            body = self.statements(until=("end",))
            self.expect("end", " to close 'procedure'")
            return Stmt("procedure", t.pos, {"name": nm.text, "params": params, "body": body})
        if k == "call":
            self.next()
            nm = self.name()
            arg = self.atom()
            alias = None
            if self.at("as"):
                self.next()
                alias = self.name().text
            return Stmt("call", t.pos, {"name": nm.text, "arg": arg, "alias": alias})
        if k == "enum":  # bell: enum NAME = 'a || 'b || ...
            self.next()
            nm = self.name()
            self.expect("=")
            tags = [self.tag()]
            while self.at("||"):
                self.next()
                tags.append(self.tag())
            return Stmt("enum", t.pos, {"name": nm.text, "tags": tags})
        if k == "instructions":  # bell: instructions R[{'a, 'b}] (which tags an event may carry)
            self.next()
            kind = self.name()
            self.expect("[")
            e = self.expr()
            self.expect("]")
            return Stmt("instructions", t.pos, {"kind": kind.text, "expr": e})
        # default, forall, events, test ... : parsed loosely, refused later
        return self.unsupported_statement()

    def tag(self) -> str:
        t = self.tok
        if t.kind != "tag":
            got = "end of file" if t.kind == "eof" else repr(t.text)
            raise ModelError(f"expected a tag ('name) but found {got}", t.pos, expected="a tag")
        self.next()
        return t.text[1:]

    def unsupported_statement(self) -> Stmt:
        t = self.next()
        depth = 0
        # skip to the next statement keyword at nesting depth 0
        while self.tok.kind != "eof":
            s = self.tok
            if s.kind == "op" and s.text in ("(", "[", "{"):
                depth += 1
            elif s.kind == "op" and s.text in (")", "]", "}"):
                depth -= 1
            elif depth <= 0 and s.kind == "kw" and s.text in _STATEMENT_KWS and s.text not in ("default",):
                break
            elif s.kind == "kw" and s.text == "end" and depth <= 0:
                self.next()
                break
            self.next()
        return Stmt("unsupported", t.pos, {"what": t.text})

    def check(self, flag: bool) -> Stmt:
        t = self.tok
        neg = False
        if self.at("~"):
            self.next()
            neg = True
        test = self.next()
        if test.text == "~":  # flag ~empty
            neg = True
            test = self.next()
        if test.text not in ("acyclic", "irreflexive", "empty"):
            raise ModelError(f"expected acyclic, irreflexive or empty but found {test.text!r}", test.pos)
        e = self.expr()
        name = None
        if self.at("as"):
            self.next()
            name = self.name().text
        return Stmt("check", t.pos, {"test": test.text, "neg": neg, "expr": e, "name": name, "flag": flag})

    def params(self) -> list[str] | str:
        """``(a, b)`` or ``(a)`` (a tuple of names) or a bare name."""
        if self.at("("):
            self.next()
            names = []
            if not self.at(")"):
                names.append(self.name().text)
                while self.at(","):
                    self.next()
                    names.append(self.name().text)
            self.expect(")")
            return names
        return self.name().text

    def binding(self) -> dict:
        if self.at("("):
            t = self.tok
            names = self.params()
            self.expect("=")
            return {"name": None, "names": names, "params": None, "expr": self.expr(), "pos": t.pos}
        nm = self.name()
        params = None
        if not self.at("="):
            params = self.params()
        self.expect("=", f" in the definition of '{nm.text}'")
        e = self.expr()
        return {"name": nm.text, "params": params, "expr": e, "pos": nm.pos}

    # ----- expressions
    def expr(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ModelError(f"expression nested more than {MAX_DEPTH} deep", self.tok.pos)
        try:
            t = self.tok
            if self.at("let"):
                self.next()
                rec = False
                if self.at("rec"):
                    self.next()
                    rec = True
                binds = [self.binding()]
                while self.at("and"):
                    self.next()
                    binds.append(self.binding())
                self.expect("in", " after 'let ...'")
                body = self.expr()
                return Node("letin", t.pos, (rec, binds, body))
            if self.at("fun"):
                self.next()
                params = self.params()
                self.expect("->")
                return Node("fun", t.pos, (params, self.expr()))
            return self.binary(0)
        finally:
            self.depth -= 1

    def binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.prefix()
        sym, op = _BINARY[level]
        left = self.binary(level + 1)
        if sym == "*":
            if self.at("*") and self.starts_operand(self.peek()):
                t = self.next()
                right = self.binary(level + 1)
                return Node("op", t.pos, (left, right), "product")
            return left
        if sym == "\\":  # left associative
            while self.at(sym):
                t = self.next()
                left = Node("op", t.pos, (left, self.binary(level + 1)), op)
            return left
        if not self.at(sym):
            return left
        # associative (herd: right): a flat chain, read in a loop (a thousand | are no deeper)
        t = self.tok
        items = [left]
        while self.at(sym):
            self.next()
            items.append(self.binary(level + 1))
        return Node("op", t.pos, tuple(items), op)

    def prefix(self) -> Node:
        if self.at("~"):
            t = self.next()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ModelError(f"expression nested more than {MAX_DEPTH} deep", t.pos)
            try:
                return Node("op", t.pos, (self.prefix(),), "compl")
            finally:
                self.depth -= 1
        return self.postfix()

    def postfix(self) -> Node:
        e = self.application()
        first, chain = self.tok, 0
        while True:
            t = self.tok
            if t.kind != "op":
                return e
            chain += 1  # each postfix operator nests what it applies to one level deeper
            if self.depth + chain > MAX_DEPTH and self._postfix_op(t):
                n = self._postfix_chain()
                raise ModelError(f"expression nested more than {MAX_DEPTH} deep: a chain of "
                                 f"{chain - 1 + n} postfix operators", first.pos)
            if t.text.startswith("^") and t.text.endswith("1"):
                self.next()
                e = Node("op", t.pos, (e,), "inv")
            elif t.text in ("+", "^+"):
                self.next()
                e = Node("op", t.pos, (e,), "plus")
            elif t.text == "?":
                self.next()
                e = Node("op", t.pos, (e,), "opt")
            elif t.text == "^*" or (t.text == "*" and not self.starts_operand(self.peek())):
                self.next()
                e = Node("op", t.pos, (e,), "star")
            else:
                return e

    def _postfix_op(self, t) -> bool:
        return t.kind == "op" and (t.text.startswith("^") or t.text in ("+", "?")
                                   or (t.text == "*" and not self.starts_operand(self.peek())))

    def _postfix_chain(self) -> int:
        """How many postfix operators follow, from the current token (the tokens are consumed:
        the caller reports an error)."""
        n = 0
        while self._postfix_op(self.tok):
            self.next()
            n += 1
        return n

    def application(self) -> Node:
        e = self.atom()
        while self.starts_expr() and not self.at("~") and self.tok.kind != "kw":
            arg = self.atom()
            e = Node("app", arg.pos if e is None else e.pos, (e, arg))
        return e

    def atom(self) -> Node:
        t = self.tok
        if t.kind == "name":
            self.next()
            if t.text == "_":
                return Node("universe", t.pos)
            return Node("var", t.pos, text=t.text)
        if t.kind == "num":
            self.next()
            if t.text != "0":
                raise ModelError(f"number {t.text} where a set or relation is expected (only 0, the empty "
                                 "relation, is one)", t.pos)
            return Node("empty", t.pos)
        if t.kind == "tag":
            self.next()
            return Node("tag", t.pos, text=t.text[1:])
        if t.kind == "str":
            self.next()
            return Node("string", t.pos, text=t.text[1:-1])
        if self.at("("):
            self.next()
            if self.at(")"):
                self.next()
                return Node("tuple", t.pos, ())
            items = [self.expr()]
            while self.at(","):
                self.next()
                items.append(self.expr())
            self.expect(")")
            return items[0] if len(items) == 1 else Node("tuple", t.pos, tuple(items))
        if self.at("["):
            self.next()
            e = self.expr()
            self.expect("]")
            return Node("op", t.pos, (e,), "toid")
        if self.at("{"):
            self.next()
            items = []
            if not self.at("}"):
                items.append(self.expr())
                while self.at(","):
                    self.next()
                    items.append(self.expr())
            self.expect("}")
            return Node("setlit", t.pos, tuple(items))
        if self.at("try"):
            self.next()
            e = self.expr()
            self.expect("with", " after 'try ...'")
            return Node("try", t.pos, (e, self.expr()))
        if self.at("if"):
            self.next()
            cond = self.condition()
            self.expect("then")
            a = self.expr()
            self.expect("else")
            return Node("ifexpr", t.pos, (cond, a, self.expr()))
        if self.at("match"):
            self.next()
            e = self.expr()
            self.expect("with", " after 'match ...'")
            cases = []
            if self.at("||"):
                self.next()
            while True:
                pat = self.expr()
                self.expect("->")
                body = self.expr()
                cases.append((pat, body))
                if self.at("||"):
                    self.next()
                    continue
                break
            self.expect("end", " to close 'match'")
            return Node("match", t.pos, (e, cases))
        if self.at("let") or self.at("fun"):
            return self.expr()
        got = "end of file" if t.kind == "eof" else repr(t.text)
        raise ModelError(f"expected an expression but found {got}", t.pos, expected="a set or relation")


_STATEMENT_KWS = {
    "let", "acyclic", "irreflexive", "empty", "show", "unshow", "flag", "include", "if", "with",
    "procedure", "call", "enum", "instructions", "default", "forall", "events", "test",
    "undefined_unless", "assert",
}


def parse_cat(text: str, file: str | None) -> tuple[str, list[Stmt]]:
    """(title, statements) of a cat file's text."""
    try:
        return Parser(text, file).model()
    except RecursionError:
        raise ModelError("model nested too deeply to read", SourcePos(file, 1, 1)) from None
