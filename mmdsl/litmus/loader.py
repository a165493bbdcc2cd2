"""Read a litmus file in any registered dialect and lower it to the core program."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import LitmusError, MmdslError, SourcePos, too_deep
from ..core.files import read_input
from ..core.program import Program
from .layout import split_layout
from .registry import dialect_for, format_of


def parse_litmus(text: str, path: str | None = None) -> Program:
    """Parse litmus source text (or a Memorax `.rmm` program, by its suffix); every error carries
    file:line:col."""
    fmt = format_of(path)
    if fmt == "rmm":
        from .rmm import parse_rmm

        return parse_rmm(text, path)
    if fmt in ("cs", "il"):
        from . import cil

        try:
            return cil.parse_cs(text, path) if fmt == "cs" else cil.parse_il(text, path)
        except RecursionError:
            raise too_deep(LitmusError, text, path) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the header
    layout = split_layout(text, path)
    try:
        dialect = dialect_for(layout.arch)
    except MmdslError as err:
        err.pos = SourcePos(path, *_header_pos(text))
        raise
    try:
        return dialect.lower(layout)
    except RecursionError:  # the recursive-descent grammars follow nesting on the stack
        raise too_deep(LitmusError, layout.source, path) from None


def _header_pos(text: str) -> tuple[int, int]:
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            return i, len(line) - len(line.lstrip()) + 1
    return 1, 1


def load_litmus(path: str | Path) -> Program:
    """Read and parse one litmus file."""
    p = Path(path)
    return parse_litmus(read_input(p, "litmus file", LitmusError), str(p))
