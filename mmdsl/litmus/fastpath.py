"""Regex fast paths for the common init blocks and final conditions, falling back to the grammar.

Most tests (the whole x86 corpus) have an init block of plain items (``uint64_t x;``,
``x=1;``, ``0:rax=x;``) and a condition ``exists (A /\\ B ...)`` of plain equalities.
Reading those with a precompiled regular expression gives exactly what the pyparsing
grammars of ``finals.py`` give and is many times faster; anything else (arrays, types
with ``volatile`` or pointers, ``!=``, disjunctions, ``locations``, ``filter``, a word
the grammar reads as a keyword, a number wider than 64 bits, any syntax error) returns
None and the caller uses the full grammar, so its results and its error messages are
unchanged.
"""

from __future__ import annotations

import re
from typing import Callable

from ..core.condition import And, Atom, Condition

_WS = r"[ \t\r\n]*"  # pyparsing's default white space
_NUM = r"-?(?:0x[0-9a-fA-F]+|[0-9]+)"
_IDENT = r"[A-Za-z_][A-Za-z0-9_.]*"
_REG = r"%?[A-Za-z_][A-Za-z0-9_]*"
_PROC = r"[0-9]{1,9}(?![0-9])"

# the C types finals.py's init grammar reads before a target (one word, then white space)
_TYPE_WORDS = (
    "atomic_int atomic_uint atomic_long atomic_bool atomic_intptr_t "
    "uint64_t uint32_t uint16_t uint8_t int64_t int32_t int16_t int8_t intptr_t "
    "unsigned long int char short bool long64 int128_t spinlock_t atomic_t"
).split()
_TYPE = "(?:" + "|".join(sorted(_TYPE_WORDS, key=len, reverse=True)) + ")"

_INIT_ITEM = re.compile(
    rf"{_WS}(?:{_TYPE}[ \t\r\n]+)?(?:({_PROC}){_WS}:{_WS}({_REG})|({_IDENT}))"
    rf"(?:{_WS}={_WS}(?:({_NUM})|&?{_WS}({_IDENT})))?{_WS}"
)
# a target the grammar would read (part of) as a qualifier or a type: leave it to the grammar
_INIT_WORD = re.compile(rf"(?:const|volatile|{_TYPE})(?![A-Za-z0-9_])")

_ATOM = (rf"(?:({_PROC}){_WS}:{_WS}({_REG})|\[{_WS}({_IDENT}){_WS}\]|({_IDENT}))"
         rf"{_WS}={_WS}(?:({_NUM})|&?{_WS}({_IDENT}))")
_ATOM_RE = re.compile(_WS + _ATOM + _WS)
_FINAL = re.compile(
    rf"(~{_WS}exists|exists|forall){_WS}\({_WS}({_ATOM}(?:{_WS}/\\{_WS}{_ATOM})*){_WS}\){_WS}"
)
# a key the grammar reads as a keyword (true, false, not) before it tries an atom
_KEYWORD = re.compile(r"(?:true|false|not)(?![A-Za-z0-9_$])")

_LOW, _HIGH = -(2 ** 63), 2 ** 64  # herd's 64-bit values (finals.bounded_int refuses the rest)


def _number(text: str) -> int | None:
    if len(text) > 21:  # wider than 64 bits whatever its base (and int() refuses 4,300 digits)
        return None
    v = int(text, 16) if "x" in text.lower() else int(text, 10)
    return v if _LOW <= v < _HIGH else None


def _value(num: str | None, name: str | None):
    """An integer (None when too wide: the grammar reports it) or a location's name."""
    return _number(num) if num is not None else name


def fast_init(text: str, norm: Callable[[str], str]):
    """(mem, regs, arrays) as finals._parse_init gives them, or None to use the grammar."""
    mem: dict = {}
    regs: dict = {}
    if not text.strip(" \t\r\n"):
        return mem, regs, {}
    parts = text.split(";")
    if not parts[-1].strip(" \t\r\n"):
        parts.pop()  # a trailing ';'
    for part in parts:
        m = _INIT_ITEM.fullmatch(part)
        if m is None:
            return None
        proc, reg, loc, num, name = m.groups()
        if loc is not None and _INIT_WORD.match(loc):
            return None
        value = 0
        if num is not None or name is not None:
            value = _value(num, name)
            if value is None:
                return None
        if proc is not None:
            regs[(int(proc), norm(reg))] = value
        else:
            mem[loc] = value
    return mem, regs, {}


def fast_final(text: str, norm: Callable[[str], str]):
    """(condition, observed, filter) as finals._parse_final gives them for a test without
    arrays, or None to use the grammar."""
    m = _FINAL.fullmatch(text)
    if m is None:
        return None
    quant = "~exists" if m.group(1).startswith("~") else m.group(1)
    atoms = []
    for piece in m.group(2).split("/\\"):
        a = _ATOM_RE.fullmatch(piece)
        if a is None:
            return None
        proc, reg, bracketed, loc, num, name = a.groups()
        if loc is not None and _KEYWORD.match(loc):
            return None
        value = _value(num, name)
        if value is None:
            return None
        if proc is not None:
            key = ("reg", int(proc), norm(reg))
        else:
            key = ("mem", bracketed if bracketed is not None else loc)
        atoms.append(Atom(key, value, negated=False))
    prop = atoms[0] if len(atoms) == 1 else And(tuple(atoms))
    return Condition(quant, prop), [], None
