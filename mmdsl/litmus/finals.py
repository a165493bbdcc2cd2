"""pyparsing grammars shared by every dialect: the init block and the final section."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import pyparsing as pp

from ..core.condition import And, Atom, Condition, Implies, Not, Or, Prop, Truth
from ..core.errors import LitmusError
from .layout import Layout, Region



RegNorm = Callable[[str], str]

_TYPES = (
    "atomic_int atomic_uint atomic_long atomic_bool atomic_intptr_t "
    "uint64_t uint32_t uint16_t uint8_t int64_t int32_t int16_t int8_t intptr_t "
    "unsigned long int char short bool long64 int128_t spinlock_t atomic_t"
).split()


MAX_DIGITS = {10: 20, 16: 16}  # of a 64-bit value (herd's values are 64-bit)
TOO_LARGE = "integer literal"


class _Refused(pp.ParseFatalException):
    """A parse action's refusal: its message is the whole error (not a syntax error)."""


def bounded_int(s: str, loc: int, toks) -> None:
    """Parse action of every integer literal: refuse one wider than 64 bits (herd's values).

    Raised as a fatal parse error at the literal, so the dialect reports its position.
    """
    text = toks[0].rstrip("uUlL")
    negative = text.startswith("-")
    text = text.lstrip("+-")
    base = 16 if text[:2] in ("0x", "0X") else 10
    digits = (text[2:] if base == 16 else text).lstrip("0") or "0"
    wide = len(digits) > MAX_DIGITS[base]
    if wide or not (-(2 ** 63) <= (-1 if negative else 1) * int(digits, base) < 2 ** 64):
        shown = toks[0] if len(toks[0]) <= 24 else toks[0][:20] + "..."
        raise _Refused(s, loc, f"{TOO_LARGE} '{shown}' is too large (values are 64-bit integers, as in herd)")


def fatal_message(err: pp.ParseBaseException) -> str | None:
    """The message of an error a parse action raised on purpose (None for a plain syntax error).

    pyparsing re-raises it as a ParseSyntaxException past a ``-`` (no backtracking), so
    the message is recognised too.
    """
    refused = isinstance(err, _Refused) or str(err.msg).startswith(TOO_LARGE)
    return err.msg if refused else None


def _number(t):
    s = t[0]
    return int(s, 16) if "x" in s.lower() else int(s, 10)


@lru_cache(maxsize=1)
def _grammars():
    ident = pp.Regex(r"[A-Za-z_][A-Za-z0-9_.]*")
    number = pp.Regex(r"-?(0x[0-9a-fA-F]+|[0-9]+)").set_parse_action(bounded_int, _number).set_name("a number")
    reg = pp.Regex(r"%?[A-Za-z_][A-Za-z0-9_]*")
    proc_reg = pp.Group(pp.Regex(r"[0-9]+")("proc") + pp.Suppress(":") + reg("reg"))("procreg")
    ctype = pp.Regex(r"(?:" + "|".join(_TYPES) + r")(?![A-Za-z0-9_])(?:\s+volatile\b)?(?:\s*\*)*")
    mem = pp.Group(pp.Optional(pp.Suppress("*")) + (pp.Suppress("[") + ident + pp.Suppress("]") | ident))("mem")
    addr_value = pp.Group(pp.Optional(pp.Suppress("&")) + ident)("addr")
    value = number("num") | addr_value
    # ---- init: items separated by ';' -----------------------------------------
    target = proc_reg | mem
    init_item = pp.Group(
        pp.ZeroOrMore(pp.Regex(r"(const|volatile)\b")) + pp.Optional(ctype)("type") + target("target")
        + pp.Optional(pp.Regex(r"\[[0-9]*\]"))
        + pp.Optional(pp.Suppress("=") + value("value"))
    )
    init = pp.Optional(pp.DelimitedList(init_item, ";", allow_trailing_delim=True)) + pp.StringEnd()
    # ---- propositions ------------------------------------------------------------
    key = proc_reg | pp.Group(pp.Suppress("[") + ident + pp.Suppress("]"))("mem") | pp.Group(ident)("mem")
    atom = pp.Group(key("key") + (pp.Literal("!=") | pp.Literal("==") | pp.Literal("="))("op") + value("value"))(
        "atom"
    )
    prop = pp.Forward()
    neg = pp.Literal("~") | pp.Keyword("not")
    primary = (
        pp.Group(pp.Suppress("(") + prop + pp.Suppress(")"))("paren")
        | pp.Group(pp.Keyword("true"))("true")
        | pp.Group(pp.Keyword("false"))("false")
        | atom
    )
    unary = pp.Forward()
    unary <<= pp.Group(pp.Suppress(neg) + unary)("not") | primary
    conj = pp.Group(unary + pp.ZeroOrMore(pp.Suppress(pp.Literal("/\\")) + unary))("and")
    disj = pp.Group(conj + pp.ZeroOrMore(pp.Suppress(pp.Literal("\\/")) + conj))("or")
    prop <<= pp.Group(disj + pp.Optional(pp.Suppress("=>") + prop))("implies")
    quant = (
        pp.Regex(r"~\s*exists").set_parse_action(lambda: "~exists") | pp.Keyword("exists") | pp.Keyword("forall")
    )
    loc_item = proc_reg | pp.Group(ident)("mem")
    locations = pp.Group(
        pp.Suppress(pp.Keyword("locations")) + pp.Suppress("[")
        + pp.Optional(pp.DelimitedList(loc_item, ";", allow_trailing_delim=True)) + pp.Suppress("]")
    )("locations")
    filt = pp.Group(pp.Suppress(pp.Keyword("filter")) + prop)("filter")
    final = (
        pp.ZeroOrMore(locations | filt)
        + pp.Group(quant("quant") + prop)("cond")
        + pp.ZeroOrMore(locations)
        + pp.StringEnd()
    )
    return init, final


def _key(node, norm: RegNorm):
    while len(node) == 1 and isinstance(node[0], pp.ParseResults):
        node = node[0]
    if "proc" in node:
        return ("reg", int(node["proc"]), norm(node["reg"]))
    return ("mem", node[0])


def _value(node):
    """An integer, or the name of a location (its address)."""
    while isinstance(node, pp.ParseResults):
        node = node[0]
    return node


def _prop(node, norm: RegNorm) -> Prop:
    name = node.get_name()
    if name == "implies":
        left = _prop(node[0], norm)
        return Implies(left, _prop(node[1], norm)) if len(node) > 1 else left
    if name in ("or", "and"):
        items = tuple(_prop(c, norm) for c in node)
        if len(items) == 1:
            return items[0]
        return Or(items) if name == "or" else And(items)
    if name == "not":
        return Not(_prop(node[0], norm))
    if name == "paren":
        return _prop(node[0], norm)
    if name == "true":
        return Truth(True)
    if name == "false":
        return Truth(False)
    if name == "atom":
        key = _key(node["key"], norm)
        v = node["value"]
        value = v if isinstance(v, int) else _value(v)
        return Atom(key, value, negated=node["op"] == "!=")
    raise ValueError(name)


def _fail(layout: Layout, region: Region, err: pp.ParseBaseException, what: str, expected: str) -> LitmusError:
    offset = region.offset + err.loc
    if fatal_message(err):
        return LitmusError(fatal_message(err), layout.pos(offset))
    found = region.text[err.loc:err.loc + 20].split("\n")[0].strip() or "end of input"
    return LitmusError(f"malformed {what} at '{found}'", layout.pos(offset), expected=expected)


_INIT_CACHE: dict = {}
_FINAL_CACHE: dict = {}


def parse_init(layout: Layout, norm: RegNorm):
    """(memory init {loc: value}, register init {(tid, reg): value})."""
    key = (layout.init.text, norm)
    hit = _INIT_CACHE.get(key)
    if hit is None:
        hit = _INIT_CACHE[key] = _parse_init(layout, norm)
    return dict(hit[0]), dict(hit[1])


def _parse_init(layout: Layout, norm: RegNorm):
    init_g, _ = _grammars()
    region = layout.init
    try:
        items = init_g.parse_string(region.text, parse_all=True)
    except pp.ParseBaseException as err:
        raise _fail(layout, region, err, "init block", "items like 'x=1;', '0:r1=x;' or 'uint64_t x;'") from None
    mem: dict = {}
    regs: dict = {}
    for it in items:
        target = it["target"]
        value = 0
        if "value" in it:
            v = it["value"]
            value = v if isinstance(v, int) else _value(v)
        key = _key(target, norm)
        if key[0] == "reg":
            regs[(key[1], key[2])] = value
        else:
            mem[key[1]] = value
    return mem, regs


def parse_final(layout: Layout, norm: RegNorm):
    """(condition, extra observed keys, filter proposition or None)."""
    key = (layout.final.text, norm)
    hit = _FINAL_CACHE.get(key)
    if hit is None:
        hit = _FINAL_CACHE[key] = _parse_final(layout, norm)
    cond, observed, filt = hit
    return cond, list(observed), filt


def _parse_final(layout: Layout, norm: RegNorm):
    _, final_g = _grammars()
    region = layout.final
    try:
        parsed = final_g.parse_string(region.text, parse_all=True)
    except pp.ParseBaseException as err:
        raise _fail(
            layout, region, err, "final condition",
            "'exists', '~exists' or 'forall' then a proposition such as (0:r0=1 /\\ x=2)",
        ) from None
    cond = None
    observed = []
    filt = None
    for part in parsed:
        name = part.get_name()
        if name == "cond":
            cond = Condition(part["quant"], _prop(part[1], norm))
        elif name == "locations":
            observed.extend(_key(k, norm) for k in part)
        elif name == "filter":
            filt = _prop(part[0], norm)
    return cond, observed, filt
