"""A final condition read in one pass over its tokens, in time linear in its length.

The pyparsing grammar of ``finals`` takes about a millisecond per term (a minute for a
16,000-term condition); this reader takes the common shape -- a quantifier, then a
proposition of atoms, ``true``/``false``, ``~``/``not``, ``/\\``, ``\\/``, ``=>`` and
parentheses -- and builds the same propositions the grammar does. Anything else (``locations``,
``filter``, a malformed or very deeply bracketed condition) gives None, and the grammar reads
the text and locates its errors as before.
"""

from __future__ import annotations

import re
from typing import Callable

from ..core.condition import And, Condition, Implies, Not, Or, Prop, Truth

_QUANT = re.compile(r"\s*(~\s*exists|exists|forall)(?![A-Za-z0-9_.])")
_TOKEN = re.compile(r"\s*(?:(/\\|\\/|=>|\(|\)|~)|(not|true|false)(?![A-Za-z0-9_.])|([^()~/\\]+?)(?=\s*(?:/\\|\\/|=>|\)|$)))",
                    re.S)
_OTHER_SECTIONS = re.compile(r"(?<![A-Za-z0-9_.])(locations|filter)(?![A-Za-z0-9_.])")
MAX_BRACKETS = 100  # deeper: the grammar reads it (and says where it is too deep)

AtomReader = Callable[[str, int], "Prop | None"]


def flat_final(text: str, atom: AtomReader):
    """(condition, [], None) as ``finals._parse_final`` gives them, or None for the grammar.
    ``atom(text, offset)`` reads one atom found at ``offset`` of ``text`` (None: not an atom)."""
    if _OTHER_SECTIONS.search(text):
        return None
    m = _QUANT.match(text)
    if m is None:
        return None
    tokens = _tokens(text, m.end())
    if tokens is None:
        return None
    prop = _Reader(tokens, atom).proposition()
    if prop is None:
        return None
    return Condition("~exists" if m.group(1).startswith("~") else m.group(1), prop), [], None


def _tokens(text: str, pos: int) -> list[tuple[str, str, int]] | None:
    """(kind, text, offset): kind 'op' (the operators and brackets), 'word' (not, true, false)
    or 'atom'; None when something is neither."""
    out = []
    end = len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        if m.group(1):
            out.append(("op", m.group(1), m.start(1)))
        elif m.group(2):
            out.append(("word", m.group(2), m.start(2)))
        else:
            out.append(("atom", m.group(3), m.start(3)))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, tokens: list, atom: AtomReader):
        self.tokens, self.atom, self.i, self.depth = tokens, atom, 0, 0

    def proposition(self) -> Prop | None:
        p = self.implication()
        return p if p is not None and self.i == len(self.tokens) else None

    def _at(self, *texts: str) -> bool:
        return self.i < len(self.tokens) and self.tokens[self.i][0] != "atom" and self.tokens[self.i][1] in texts

    def implication(self) -> Prop | None:
        """``a => b => c`` is ``a => (b => c)``, as the grammar's ``disj [=> prop]`` reads it."""
        parts = [self.chain("\\/", Or, self.conjunction)]
        while self._at("=>"):
            self.i += 1
            parts.append(self.chain("\\/", Or, self.conjunction))
        if any(p is None for p in parts):
            return None
        out = parts[-1]
        for p in reversed(parts[:-1]):
            out = Implies(p, out)
        return out

    def conjunction(self) -> Prop | None:
        return self.chain("/\\", And, self.unary)

    def chain(self, op: str, make, item) -> Prop | None:
        items = [item()]
        while items[-1] is not None and self._at(op):
            self.i += 1
            items.append(item())
        if items[-1] is None:
            return None
        return items[0] if len(items) == 1 else make(tuple(items))

    def unary(self) -> Prop | None:
        negations = 0
        while self._at("~", "not"):
            self.i += 1
            negations += 1
        p = self.primary()
        for _ in range(negations):
            p = None if p is None else Not(p)
        return p

    def primary(self) -> Prop | None:
        if self.i >= len(self.tokens):
            return None
        kind, text, at = self.tokens[self.i]
        self.i += 1
        if kind == "atom":
            return self.atom(text, at)
        if kind == "word" and text in ("true", "false"):
            return Truth(text == "true")
        if text == "(" and self.depth < MAX_BRACKETS:
            self.depth += 1
            p = self.implication()
            self.depth -= 1
            if p is None or not self._at(")"):
                return None
            self.i += 1
            return p
        return None
