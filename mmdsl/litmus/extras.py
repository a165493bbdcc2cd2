"""herd's `scopes:`, `levels:` and `regions:` sections (GPU scope trees, memory regions): read, checked, ignored.

They follow the code of a LISA or C test (herd's ``BellExtra``), in any order, each at
most once::

    scopes: (system (gpu (cta P0) (cta P1)))
    levels: (sys (core P0 P1))
    regions: x:PROP, y:GLOBAL SHARED

A scope tree is ``(NAME subtrees...)`` or ``(NAME P0 P1 ...)``; a level tree may mix
threads and subtrees; a region map is ``location:REGION...`` items separated by commas.
herd gives them meaning only through a Bell file's scope and region sets; the model
language has no such sets and no bundled model uses them, so mmdsl checks their syntax
(a malformed one is an error at its place) and then ignores them (see docs/litmus.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

import pyparsing as pp

SECTION_START = re.compile(r"^[ \t]*(scopes|levels|regions)[ \t]*:", re.M)
SECTION_NAMES = ("scopes", "levels", "regions")


@lru_cache(maxsize=1)
def _grammar() -> pp.ParserElement:
    name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_.\-]*").set_name("a name")
    proc = pp.Regex(r"P?[0-9]+(?![A-Za-z0-9_])").set_name("a thread (P0)")
    scope = pp.Forward().set_name("a scope tree '(NAME ...)'")
    scope <<= pp.Group(pp.Suppress("(") + name + (pp.OneOrMore(scope) | pp.ZeroOrMore(proc)) + pp.Suppress(")"))
    level = pp.Forward().set_name("a level tree '(NAME ...)'")
    level <<= pp.Group(pp.Suppress("(") + name + pp.OneOrMore(proc | level) + pp.Suppress(")"))
    region = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_]|\s*:)").set_name("a region name")
    atom = pp.Group(name + pp.Suppress(":") + pp.OneOrMore(region))
    sections = {
        "scopes": pp.OneOrMore(scope),
        "levels": pp.OneOrMore(proc | level),
        "regions": pp.Optional(pp.DelimitedList(atom, ",")),
    }
    at = pp.Empty().set_parse_action(lambda s, loc, t: [loc])("at")
    section = pp.MatchFirst([
        pp.Group(at + pp.Keyword(key)("key") + pp.Suppress(":") + pp.Group(body)("body"))
        for key, body in sections.items()
    ])
    return pp.ZeroOrMore(section) + pp.StringEnd()


def find_sections(body: str) -> int | None:
    """Where the sections start in a test's body (outside braces), or None."""
    for m in SECTION_START.finditer(body):
        if body.count("{", 0, m.start()) == body.count("}", 0, m.start()):
            return m.start()
    return None


def read_sections(text: str) -> tuple[list[str], int | None, str]:
    """The names of the sections in ``text``, or (names so far, offset, message) of the first error."""
    try:
        parsed = _grammar().parse_string(text, parse_all=True)
    except pp.ParseBaseException as err:
        found = text[err.loc:err.loc + 20].split("\n")[0].strip() or "end of input"
        return [], err.loc, f"malformed scopes/levels/regions section at '{found}'"
    names: list[str] = []
    for section in parsed:
        key = section["key"]
        if key in names:
            return names, section["at"], f"a second '{key}:' section"
        names.append(key)
    return names, None, ""
