"""Memorax's macro preprocessor for `.rmm` files: `macro NAME(p, ...) ... endmacro` and its calls, expanded by tokens.

The rules are those of Memorax's manual ("Macros"): a definition ``macro NAME(p0, ..., pn)
BODY endmacro`` may stand anywhere outside another definition; a call ``NAME(a0, ..., an)``
after the definition is replaced by BODY with each parameter replaced by its argument, a
sequence of tokens balanced in parentheses, with commas only inside parentheses. Calls
inside a body or an argument are expanded too; a macro calling itself, directly or not,
is an error. Expansion works on tokens, as Memorax's own preprocessor does (no code of it
is used), and keeps, for every character of the expanded text, the place in the file it
came from: an error in an expanded body names the line and column in the body.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..core.errors import LitmusError, SourcePos, line_col

MAX_TOKENS = 200_000  # the most tokens an expansion may produce (a guard against exponential macros)
MAX_DEPTH = 64  # the deepest chain of calls within calls

_TOKEN = re.compile(r"""
    (?P<gap>(?:\s+|/\*.*?\*/|//[^\n]*)+)
  | (?P<open_comment>/\*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<tok>\$[A-Za-z0-9_]*|[0-9]+|:=|!=|<=|>=|&&|\|\||.)
""", re.VERBOSE | re.DOTALL)
_RESERVED = ("macro", "endmacro", "process", "data", "registers", "text", "forbidden", "predicates")


@dataclass(frozen=True)
class _Tok:
    text: str
    kind: str  # "id" or "tok"
    at: int  # offset in the file
    gap: str  # the white space and comments before it in the file


@dataclass
class _Macro:
    name: str
    params: list[str]
    body: list[_Tok]
    at: int


class Expansion:
    """The expanded text and the way back from its places to the file's."""

    def __init__(self, source: str, text: str, starts: list[int], origins: list[int]):
        self.source = source
        self.text = text
        self._starts = starts  # offset in ``text`` where each piece begins
        self._origins = origins  # offset in ``source`` of that piece's first character
        self._line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    @property
    def expanded(self) -> bool:
        return self.text is not self.source

    def offset(self, offset: int) -> int:
        """The offset in the file of character ``offset`` of the expanded text."""
        if not self.expanded:
            return offset
        k = bisect.bisect_right(self._starts, offset) - 1
        if k < 0:
            return 0
        return min(self._origins[k] + offset - self._starts[k], len(self.source))

    def origin(self, at: tuple[int, int]) -> tuple[int, int]:
        """The file's (line, col) of the expanded text's (line, col) ``at``."""
        if not self.expanded:
            return at
        line, col = at
        off = self._line_starts[min(max(line, 1), len(self._line_starts)) - 1] + col - 1
        return line_col(self.source, self.offset(off))


def expand_macros(text: str, path: str | None) -> Expansion:
    """The file with its macros expanded (the text itself when it defines none)."""
    if not re.search(r"\b(end)?macro\b", text):
        return Expansion(text, text, [0], [0])
    return _Expander(text, path).run()


class _Expander:
    def __init__(self, text: str, path: str | None):
        self.source = text
        self.path = path
        self.macros: dict[str, _Macro] = {}
        self.produced = 0

    def error(self, message: str, at: int, **kw) -> LitmusError:
        return LitmusError(message, SourcePos(self.path, *line_col(self.source, at)), **kw)

    def tokens(self) -> list[_Tok]:
        out: list[_Tok] = []
        gap = ""
        for m in _TOKEN.finditer(self.source):
            kind = m.lastgroup
            if kind == "gap":
                gap = m.group()
            elif kind == "open_comment":
                raise self.error("a comment '/*' is never closed", m.start())
            else:
                out.append(_Tok(m.group(), kind, m.start(), gap))
                gap = ""
        return out

    def run(self) -> Expansion:
        toks = self.tokens()
        out = self.expand(toks, 0, len(toks), [], top=True)
        pieces: list[str] = []
        starts: list[int] = []
        origins: list[int] = []
        pos = 0
        for tok, gap_at in out:
            if tok.gap:
                starts.append(pos)
                origins.append(gap_at)
                pieces.append(tok.gap)
                pos += len(tok.gap)
            starts.append(pos)
            origins.append(tok.at)
            pieces.append(tok.text)
            pos += len(tok.text)
        pieces.append("\n")
        return Expansion(self.source, "".join(pieces), starts, origins)

    def expand(self, toks: list[_Tok], i: int, end: int, stack: list[tuple[str, int]], top: bool = False) -> list:
        """The tokens ``toks[i:end]`` with definitions taken out and calls expanded, each with its gap's place."""
        out: list = []
        while i < end:
            tok = toks[i]
            if tok.kind == "id" and tok.text == "macro":
                if not top:
                    where = "a macro's body" if stack else "a macro's arguments"
                    raise self.error(f"a macro definition inside {where}", tok.at)
                i = self.define(toks, i)
                continue
            if tok.kind == "id" and tok.text == "endmacro":
                raise self.error("'endmacro' without a 'macro' before it", tok.at)
            if tok.kind == "id" and tok.text in self.macros:
                i, body = self.call(toks, i, end, stack)
                out.extend(body)
                continue
            self.produced += 1
            if self.produced > MAX_TOKENS:
                at = stack[0][1] if stack else tok.at
                raise self.error(f"the macros expand to more than {MAX_TOKENS:,} tokens", at,
                                 hint="call fewer macros, or write the processes out")
            own = tok.gap and self.source[tok.at - len(tok.gap):tok.at] == tok.gap
            out.append((tok, tok.at - len(tok.gap) if own else tok.at))
            i += 1
        return out

    def define(self, toks: list[_Tok], i: int) -> int:
        start = toks[i].at
        i += 1
        if i >= len(toks) or toks[i].kind != "id":
            raise self.error("expected a macro name after 'macro'", toks[i].at if i < len(toks) else start)
        name_tok = toks[i]
        if name_tok.text in self.macros:
            raise self.error(f"macro '{name_tok.text}' defined twice (first at line "
                             f"{line_col(self.source, self.macros[name_tok.text].at)[0]})", name_tok.at)
        if name_tok.text in _RESERVED:
            raise self.error(f"'{name_tok.text}' is a keyword, not a macro name", name_tok.at)
        i += 1
        if i >= len(toks) or toks[i].text != "(":
            raise self.error(f"expected '(' after the macro name '{name_tok.text}'",
                             toks[i].at if i < len(toks) else name_tok.at)
        params: list[str] = []
        i += 1
        while i < len(toks) and toks[i].text != ")":
            tok = toks[i]
            if tok.kind != "id":
                raise self.error(f"expected a parameter name, found '{tok.text}'", tok.at)
            if tok.text in params:
                raise self.error(f"parameter '{tok.text}' given twice", tok.at)
            params.append(tok.text)
            i += 1
            if i < len(toks) and toks[i].text == ",":
                i += 1
            elif i < len(toks) and toks[i].text != ")":
                raise self.error(f"expected ',' or ')' after parameter '{tok.text}'", toks[i].at)
        if i >= len(toks):
            raise self.error(f"the parameters of macro '{name_tok.text}' are never closed with ')'", name_tok.at)
        i += 1
        body_start = i
        while i < len(toks) and not (toks[i].kind == "id" and toks[i].text == "endmacro"):
            if toks[i].kind == "id" and toks[i].text == "macro":
                raise self.error("a macro definition inside a macro's body", toks[i].at)
            i += 1
        if i >= len(toks):
            raise self.error(f"macro '{name_tok.text}' has no 'endmacro'", start)
        self.macros[name_tok.text] = _Macro(name_tok.text, params, toks[body_start:i], start)
        return i + 1

    def call(self, toks: list[_Tok], i: int, end: int, stack: list[tuple[str, int]]) -> tuple[int, list]:
        name_tok = toks[i]
        macro = self.macros[name_tok.text]
        if any(name == macro.name for name, _ in stack):
            chain = " -> ".join([n for n, _ in stack] + [macro.name])
            raise self.error(f"macro '{macro.name}' calls itself ({chain})", name_tok.at)
        if len(stack) >= MAX_DEPTH:
            raise self.error(f"macro calls nest more than {MAX_DEPTH} deep", name_tok.at)
        i += 1
        if i >= end or toks[i].text != "(":
            raise self.error(f"expected '(' after the macro name '{macro.name}'",
                             toks[i].at if i < end else name_tok.at)
        args: list[list[_Tok]] = [[]]
        depth = 1
        i += 1
        while True:
            if i >= end:
                raise self.error(f"the call of macro '{macro.name}' is never closed with ')'", name_tok.at)
            tok = toks[i]
            i += 1
            if tok.kind == "id" and tok.text in ("macro", "endmacro"):
                raise self.error(f"'{tok.text}' inside the arguments of a call of '{macro.name}'", tok.at)
            if tok.text == "(":
                depth += 1
            elif tok.text == ")":
                depth -= 1
                if depth == 0:
                    break
            elif tok.text == "," and depth == 1:
                if not args[-1]:
                    raise self.error(f"an empty argument in the call of '{macro.name}'", tok.at)
                args.append([])
                continue
            args[-1].append(tok)
        if args == [[]]:
            args = []
        elif not args[-1]:
            raise self.error(f"an empty argument in the call of '{macro.name}'", toks[i - 1].at)
        if len(args) != len(macro.params):
            raise self.error(f"macro '{macro.name}' takes {len(macro.params)} argument(s), "
                             f"{len(args)} given", name_tok.at)
        bound = dict(zip(macro.params, args))
        body: list[_Tok] = []
        for k, tok in enumerate(macro.body):
            arg = bound.get(tok.text) if tok.kind == "id" else None
            if arg is None:
                # the body's first token takes the call's gap, so the call's line breaks stay
                body.append(_Tok(tok.text, tok.kind, tok.at, (name_tok.gap or " ") if k == 0 else tok.gap))
            else:
                for j, a in enumerate(arg):
                    body.append(_Tok(a.text, a.kind, a.at, (tok.gap or " ") if j == 0 else a.gap))
        return i, self.expand(body, 0, len(body), stack + [(macro.name, name_tok.at)])
