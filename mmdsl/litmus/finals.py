"""pyparsing grammars shared by every dialect: the init block and the final section."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

import pyparsing as pp

from ..core.condition import And, Atom, Condition, Implies, Not, Or, Prop, Truth, key_text
from ..core.errors import LitmusError, UnsupportedError
from .arrays import MAX_CELLS, array_cells, cell_key, check_scalar_use, observed_cells, whole_array_atom
from .fastpath import fast_final, fast_init
from .flat_condition import flat_final
from .layout import Layout, Region



RegNorm = Callable[[str], str]

NO_CONDITION = Condition("forall", Truth(True))

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
    # N:REG, or herd's PN:REG
    proc = pp.Regex(r"P?[0-9]{1,9}(?![0-9])").set_parse_action(lambda t: t[0].lstrip("P"))
    proc_reg = pp.Group(proc("proc") + pp.Suppress(":") + reg("reg"))("procreg")
    ctype = pp.Regex(r"(?:" + "|".join(_TYPES) + r")(?![A-Za-z0-9_])(?:\s+volatile\b)?(?:\s*\*)*")
    mem = pp.Group(pp.Optional(pp.Suppress("*")) + (pp.Suppress("[") + ident + pp.Suppress("]") | ident))("mem")
    addr_value = pp.Group(pp.Optional(pp.Suppress("&")) + ident)("addr")
    value = number("num") | addr_value
    # herd's array values: {1,-1}
    array = pp.Group(pp.Suppress("{") + pp.Optional(pp.DelimitedList(value, ",")) + pp.Suppress("}"))("array")
    at = pp.Empty().set_parse_action(lambda s, loc, t: [loc])("at")  # where an item starts
    # ---- init: items separated by ';' -----------------------------------------
    target = proc_reg | mem
    init_item = pp.Group(
        at + pp.ZeroOrMore(pp.Regex(r"(const|volatile)\b")) + pp.Optional(ctype)("type") + target("target")
        + pp.Optional(pp.Group(pp.Suppress("[") + pp.Optional(pp.Regex(r"[0-9]{1,9}(?![0-9])")("size")) + pp.Suppress("]"))("sized"))
        + pp.Optional(pp.Suppress("=") + (array | value)("value"))
    )
    init = pp.Optional(pp.DelimitedList(init_item, ";", allow_trailing_delim=True)) + pp.StringEnd()
    # ---- propositions ------------------------------------------------------------
    cell = pp.Group(ident + pp.Suppress("[") + pp.Regex(r"[0-9]{1,9}(?![0-9])") + pp.Suppress("]"))("cell")
    key = proc_reg | pp.Group(pp.Suppress("[") + ident + pp.Suppress("]"))("mem") | cell | pp.Group(ident)("mem")
    atom = pp.Group(at + key("key") + (pp.Literal("!=") | pp.Literal("==") | pp.Literal("="))("op")
                    + (array | value)("value"))("atom")
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
    loc_item = pp.Group(at + (proc_reg | cell | pp.Group(ident)("mem"))("key"))
    locations = pp.Group(
        pp.Suppress(pp.Keyword("locations")) + pp.Suppress("[")
        + pp.Optional(pp.DelimitedList(loc_item, ";", allow_trailing_delim=True)) + pp.Suppress("]")
    )("locations")
    filt = pp.Group(pp.Suppress(pp.Keyword("filter")) + prop)("filter")
    final = (
        pp.ZeroOrMore(locations | filt)
        + pp.Optional(pp.Group(quant("quant") - prop)("cond"))  # past the quantifier: no backtracking
        + pp.Optional(pp.Suppress(";"))  # herd takes a condition ended by ';' (catalogue/aarch64-cas)
        + pp.ZeroOrMore(locations)
        + pp.StringEnd()
    )
    init.parse_with_tabs()  # offsets into the text itself (pyparsing would expand tabs first)
    final.parse_with_tabs()
    atom_alone = (atom + pp.StringEnd()).parse_with_tabs()
    return init, final, atom_alone


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


def _array_value(node) -> list | None:
    """The values of an array literal ``{1,-1}`` (None when ``node`` is a single value)."""
    inner = node[0] if len(node) == 1 and isinstance(node[0], pp.ParseResults) else node
    if isinstance(inner, pp.ParseResults) and inner.get_name() == "array":
        return [_value(v) for v in inner]
    return None


class _Final:
    """Reads the final section's propositions and locations, knowing the init block's arrays."""

    def __init__(self, layout: Layout, region: Region, norm: RegNorm, arrays: dict[str, int]):
        self.layout, self.region, self.norm, self.arrays = layout, region, norm, arrays

    def pos(self, at: int):
        return self.layout.pos(self.region.offset + at)

    def key(self, node, at: int):
        inner = node[0]
        if inner.get_name() == "cell":
            return cell_key(inner[0], int(inner[1]), self.arrays, self.pos(at))
        return _key(inner, self.norm)

    def observed(self, item) -> list:
        key = self.key(item["key"], item["at"])
        return observed_cells(key[1], self.arrays) if key[0] == "mem" else [key]

    def prop(self, node) -> Prop:
        name = node.get_name()
        if name == "implies":
            left = self.prop(node[0])
            return Implies(left, self.prop(node[1])) if len(node) > 1 else left
        if name in ("or", "and"):
            items = tuple(self.prop(c) for c in node)
            if len(items) == 1:
                return items[0]
            return Or(items) if name == "or" else And(items)
        if name == "not":
            return Not(self.prop(node[0]))
        if name == "paren":
            return self.prop(node[0])
        if name == "true":
            return Truth(True)
        if name == "false":
            return Truth(False)
        if name == "atom":
            return self.atom(node)
        raise ValueError(name)

    def atom(self, node) -> Prop:
        at = node["at"]
        key = self.key(node["key"], at)
        negated = node["op"] == "!="
        values = _array_value(node["value"])
        if values is not None:
            if key[0] != "mem":
                raise LitmusError(f"register {key_text(key)} is compared with an array value", self.pos(at),
                                  expected="a number or a location")
            return whole_array_atom(key[1], values, negated, self.arrays, self.pos(at))
        if node["key"][0].get_name() != "cell":
            check_scalar_use(key, self.arrays, self.pos(at))
        v = node["value"]
        return Atom(key, v if isinstance(v, int) else _value(v), negated=negated)


_PLAIN_ATOM = re.compile(r"(?:P?([0-9]{1,9}):(%?[A-Za-z_][A-Za-z0-9_]*)|\[([A-Za-z_][A-Za-z0-9_.]*)\]"
                         r"|([A-Za-z_][A-Za-z0-9_.]*)\[([0-9]{1,9})\]|([A-Za-z_][A-Za-z0-9_.]*))"
                         r"\s*(!=|==|=)\s*(?:(-?[0-9]{1,18})|&?([A-Za-z_][A-Za-z0-9_.]*))")


def _flat_atom(reader: _Final, text: str, at: int) -> Prop | None:
    """One atom of a condition read by ``flat_final``, at offset ``at`` of the final section
    (None when the atom grammar does not read it: the whole grammar then says why). A plain
    atom (a register, location or cell against a decimal number or a location) is read by one
    regular expression; the rest (arrays, hexadecimal) by the atom grammar."""
    m = _PLAIN_ATOM.fullmatch(text)
    if m is not None:
        proc, reg, bracketed, array, index, loc, op, num, name = m.groups()
        pos = reader.pos(at)
        if proc is not None:
            key = ("reg", int(proc), reader.norm(reg))
        elif array is not None:
            key = cell_key(array, int(index), reader.arrays, pos)
        else:
            key = ("mem", bracketed if bracketed is not None else loc)
        if array is None:
            check_scalar_use(key, reader.arrays, pos)
        return Atom(key, int(num) if num is not None else name, negated=op == "!=")
    try:
        node = _grammars()[2].parse_string(text, parse_all=True)[0]
    except pp.ParseBaseException:
        return None
    shifted = _Final(reader.layout, Region(reader.region.text, reader.region.offset + at), reader.norm,
                     reader.arrays)
    return shifted.atom(node)


def _fail(layout: Layout, region: Region, err: pp.ParseBaseException, what: str, expected: str) -> LitmusError:
    offset = region.offset + err.loc
    if fatal_message(err):
        return LitmusError(fatal_message(err), layout.pos(offset))
    found = region.text[err.loc:err.loc + 20].split("\n")[0].strip() or "end of input"
    return LitmusError(f"malformed {what} at '{found}'", layout.pos(offset), expected=expected)


_INIT_CACHE: dict = {}
_FINAL_CACHE: dict = {}


def parse_init(layout: Layout, norm: RegNorm):
    """(memory init {loc: value}, register init {(tid, reg): value}); an array is one location per cell."""
    hit = _init(layout, norm)
    return dict(hit[0]), dict(hit[1])


def _init(layout: Layout, norm: RegNorm):
    key = (layout.init.text, norm)
    hit = _INIT_CACHE.get(key)
    if hit is None:
        hit = _INIT_CACHE[key] = _parse_init(layout, norm)
    return hit


def _parse_init(layout: Layout, norm: RegNorm):
    region = layout.init
    fast = fast_init(region.text, norm)  # plain items: the same result without the grammar
    if fast is not None:
        return fast
    init_g, _, _ = _grammars()
    try:
        items = init_g.parse_string(region.text, parse_all=True)
    except pp.ParseBaseException as err:
        raise _fail(layout, region, err, "init block", "items like 'x=1;', '0:r1=x;' or 'uint64_t x;'") from None
    mem: dict = {}
    regs: dict = {}
    arrays: dict[str, int] = {}
    for it in items:
        key = _key(it["target"], norm)
        values = _array_value(it["value"]) if "value" in it else None
        if "sized" in it or values is not None:
            pos = layout.pos(region.offset + it["at"])
            if key[0] == "reg":
                raise UnsupportedError(f"register {key_text(key)} is initialised with an array; "
                                       "array registers are not supported", pos)
            size = int(it["sized"]["size"]) if "sized" in it and "size" in it["sized"] else None
            if "value" in it and values is None:
                raise LitmusError(f"array '{key[1]}' is initialised with a single value", pos,
                                  expected=f"values between braces, '{key[1]}[2] = {{1,2}}'")
            cells = array_cells(key[1], size, values, pos)
            arrays[key[1]] = len(cells)
            if sum(arrays.values()) > MAX_CELLS:
                raise UnsupportedError(f"the arrays of this test have {sum(arrays.values())} cells; "
                                       f"at most {MAX_CELLS} are supported", pos)
            mem.update(cells)
            continue
        value = 0
        if "value" in it:
            v = it["value"]
            value = v if isinstance(v, int) else _value(v)
        if key[0] == "reg":
            regs[(key[1], key[2])] = value
        else:
            mem[key[1]] = value
    return mem, regs, arrays


def parse_final(layout: Layout, norm: RegNorm):
    """(condition, extra observed keys, filter proposition or None)."""
    key = (layout.final.text, layout.init.text, norm)  # the init block says which locations are arrays
    hit = _FINAL_CACHE.get(key)
    if hit is None:
        hit = _FINAL_CACHE[key] = _parse_final(layout, norm)
    cond, observed, filt = hit
    return cond, list(observed), filt


def _parse_final(layout: Layout, norm: RegNorm):
    region = layout.final
    if not _init(layout, norm)[2]:  # no arrays: a plain condition reads the same without the grammar
        fast = fast_final(region.text, norm)
        if fast is not None:
            return fast
    reader = _Final(layout, region, norm, _init(layout, norm)[2])
    flat = flat_final(region.text, lambda text, at: _flat_atom(reader, text, at))
    if flat is not None:
        return flat
    _, final_g, _ = _grammars()
    try:
        parsed = final_g.parse_string(region.text, parse_all=True)
    except pp.ParseBaseException as err:
        raise _fail(
            layout, region, err, "final condition",
            "'exists', '~exists' or 'forall' then a proposition such as (0:r0=1 /\\ x=2)",
        ) from None
    cond = NO_CONDITION  # herd: a test without a condition means 'forall (true)'
    observed = []
    filt = None
    for part in parsed:
        name = part.get_name()
        if name == "cond":
            cond = Condition(part["quant"], reader.prop(part[1]))
        elif name == "locations":
            for item in part:
                observed.extend(reader.observed(item))
        elif name == "filter":
            filt = reader.prop(part[0])
    return cond, observed, filt
