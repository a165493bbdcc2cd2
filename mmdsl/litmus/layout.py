"""herd's .litmus file layout: header, doc, key=value lines, init block, body, final section."""

from __future__ import annotations

from bisect import bisect_right

import re
from dataclasses import dataclass, field

from ..core.errors import LitmusError, SourcePos, line_col, too_deep
from .extras import find_sections, read_sections

# ARCH NAME, then optionally herd's (TEXNAME) (a name for LaTeX output, ignored) and a doc string
_HEADER = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+([^\s\"]+)[ \t]*(?:\([A-Za-z][A-Za-z0-9_/.\-]*\)[ \t]*)?"
                     r"(\"[^\"\n]*\")?[ \t]*(?=\n|$)")
_INFO = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9_.\-]*)[ \t]*=[ \t]*(.*)")
_BRACES = re.compile(r"[{}]")
_FINAL_START = re.compile(r"^[ \t]*(~[ \t]*exists|exists|forall|locations|filter|observed)\b", re.M)


@dataclass
class Region:
    """A piece of the file and where it starts, so errors point into the file."""

    text: str
    offset: int


@dataclass
class Layout:
    path: str | None
    source: str  # the file text, comments blanked out
    original: str
    arch: str
    name: str
    doc: str = ""
    info: dict[str, str] = field(default_factory=dict)
    init: Region | None = None
    body: Region | None = None
    final: Region | None = None
    # herd's scopes:/levels:/regions: sections after the code: checked, then ignored (extras.py)
    sections: list[str] = field(default_factory=list)

    def pos(self, offset: int) -> SourcePos:
        """The place of ``offset``: a binary search over the line starts, found once (a condition
        of 20,000 atoms asks 20,000 times)."""
        starts = self.__dict__.get("_line_starts")
        if starts is None or self.__dict__.get("_line_source") is not self.source:
            starts = [0] + [m.end() for m in re.finditer("\n", self.source)]
            self.__dict__["_line_starts"], self.__dict__["_line_source"] = starts, self.source
        line = bisect_right(starts, offset)
        return SourcePos(self.path, line, offset - starts[line - 1] + 1)


def blank_comments(text: str, path: str | None, c_code: bool = False) -> str:
    """Replace OCaml-style ``(* ... *)`` comments (nested) by spaces, keeping line breaks.

    In C tests ``(*`` also starts expressions such as ``READ_ONCE(*x)``: there a comment
    opens only with ``(*`` followed by white space (``(* like this *)``); and from the
    init block on, C's own ``// ...`` and ``/* ... */`` comments are blanked too, so
    that a brace inside one does not upset the search for the file's regions.
    """
    if "(*" not in text and not (c_code and ("//" in text or "/*" in text)):
        return text  # nothing to blank (most tests): skip the character-by-character scan
    out = list(text)
    depth = 0
    i = 0
    start = 0
    n = len(text)
    in_string = False
    c_from = text.find("{") if c_code else -1  # the header's key=value lines may hold '//' (URLs)
    while i < n:
        c = text[i]
        if depth == 0 and c == '"':
            in_string = not in_string
        if 0 <= c_from <= i and depth == 0 and not in_string and text.startswith(("//", "/*"), i):
            end = text.find("\n", i) if text[i + 1] == "/" else text.find("*/", i + 2)
            if end < 0 and text[i + 1] == "*":
                line, col = line_col(text, i)
                raise LitmusError("comment '/*' is never closed", SourcePos(path, line, col), expected="'*/'")
            end = n if end < 0 else (end if text[i + 1] == "/" else end + 2)
            for k in range(i, end):
                if out[k] != "\n":
                    out[k] = " "
            i = end
            continue
        if not in_string and text.startswith("(*", i) and not (
                c_code and depth == 0 and not text[i + 2:i + 3].isspace()):
            if depth == 0:
                start = i
            depth += 1
            out[i] = out[i + 1] = " "
            i += 2
            continue
        if depth and text.startswith("*)", i):
            depth -= 1
            out[i] = out[i + 1] = " "
            i += 2
            continue
        if depth and c != "\n":
            out[i] = " "
        i += 1
    if depth:
        line, col = line_col(text, start)
        raise LitmusError("comment '(*' is never closed", SourcePos(path, line, col), expected="'*)'")
    return "".join(out)


def split_layout(text: str, path: str | None) -> Layout:
    """Cut a litmus file into its regions (the dialect parses the body)."""
    arch = re.match(r"\s*([A-Za-z][A-Za-z0-9_]*)", text)
    source = blank_comments(text, path, c_code=bool(arch) and arch.group(1).upper() == "C")
    pos = 0
    n = len(source)
    while pos < n and source[pos] in " \t\r\n":
        pos += 1
    m = _HEADER.match(source, pos)
    if not m:
        line, col = line_col(source, pos)
        raise LitmusError("malformed header", SourcePos(path, line, col),
                          expected="'ARCH NAME' on the first line, e.g. 'X86 SB'")
    layout = Layout(path, source, text, m.group(1), m.group(2))
    if m.group(3):
        layout.doc = m.group(3)[1:-1]
    pos = m.end()
    # optional doc string and key=value lines, up to the init block
    while True:
        while pos < n and source[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            raise LitmusError("the test ends before its init block", layout.pos(pos), expected="'{'")
        if source[pos] == "{":
            break
        if source[pos] == '"':
            end = source.find('"', pos + 1)
            if end < 0:
                raise LitmusError("doc string is never closed", layout.pos(pos), expected='a closing \'"\'')
            layout.doc = (layout.doc + " " + source[pos + 1:end]).strip()
            pos = end + 1
            continue
        eol = source.find("\n", pos)
        eol = n if eol < 0 else eol
        im = _INFO.fullmatch(source[pos:eol].rstrip())
        if not im:
            raise LitmusError(
                f"unexpected text before the init block: '{source[pos:eol].strip()[:40]}'",
                layout.pos(pos), expected="a doc string, KEY=VALUE lines, or '{'",
            )
        layout.info[im.group(1)] = im.group(2).strip()
        pos = eol
    # init block: braces may nest in C initialisers ({ int x[2] = {1,2}; })
    depth = 0
    start = pos
    for brace in _BRACES.finditer(source, pos):  # only the braces, not every character
        i = brace.start()
        if source[i] == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                layout.init = Region(source[start + 1:i], start + 1)
                pos = i + 1
                break
    else:
        raise LitmusError("init block is never closed", layout.pos(start), expected="'}'")
    fm = _find_final(source, pos)
    end = fm if fm is not None else n
    layout.body = Region(source[pos:end], pos)
    _cut_sections(layout)
    # no final section: herd reads an empty one, whose condition is 'forall (true)'
    layout.final = Region(source[fm:], fm) if fm is not None else Region("", n)
    return layout


def _find_final(source: str, pos: int) -> int | None:
    """Start of the final section: the first condition keyword outside braces."""
    depth = 0
    for m in _FINAL_START.finditer(source, pos):
        # count braces between pos and this match (C bodies contain braces)
        depth += source.count("{", pos, m.start()) - source.count("}", pos, m.start())
        pos = m.start()
        if depth <= 0:
            return m.start(1) if m.start(1) >= m.start() else m.start()
    return None


def _cut_sections(layout: Layout) -> None:
    """Take herd's scopes:/levels:/regions: sections off the end of the body, checking their syntax."""
    body = layout.body
    start = find_sections(body.text)
    if start is None:
        return
    try:
        names, at, message = read_sections(body.text[start:])
    except RecursionError:  # a scope tree nested beyond what the recursive grammar follows
        raise too_deep(LitmusError, layout.source, layout.path) from None
    if at is not None:
        raise LitmusError(message, layout.pos(body.offset + start + at),
                          expected="'scopes: (NAME (NAME P0) ...)', 'levels: ...' or 'regions: x:NAME, ...'")
    layout.sections = names
    layout.body = Region(body.text[:start], body.offset)
