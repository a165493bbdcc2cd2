"""The textX metamodel of the model language: parse .mm files into raw models, with clear errors."""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from ..core.errors import ModelError, SourcePos, too_deep

GRAMMAR = Path(__file__).with_name("grammar") / "mm.tx"

# How deeply brackets (and chains of the prefix ~) may nest in a model file. The parser
# follows nesting on the Python stack (about 35 frames a level): it runs with a stack
# limit raised to what the file needs, and a file nested deeper than this is refused
# before parsing, with the place of its deepest bracket.
MAX_NESTING = 200
_FRAMES_PER_LEVEL = 60


@lru_cache(maxsize=1)
def metamodel():
    """The metamodel, built once (semantic checks run after parsing, see checks.py)."""
    from textx import metamodel_from_file

    from .checks import object_processors

    mm = metamodel_from_file(str(GRAMMAR), autokwd=False, use_regexp_group=False)
    mm.register_obj_processors(object_processors())
    return mm


_NOT_CODE = re.compile(r'"""[\s\S]*?"""|"[^"\n]*"|#[^\n]*|\(\*[\s\S]*?\*\)')


def nesting(text: str) -> int:
    """How deeply the expressions of ``text`` nest: brackets plus the longest run of ``~``
    (comments and strings left out)."""
    code = _NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    depth = best = run = 0
    for c in code:
        if c in "([":
            depth += 1
            run = 0
        elif c in ")]":
            depth = max(0, depth - 1)
            run = 0
        elif c == "~":
            run += 1
        elif not c.isspace():
            run = 0
        best = max(best, depth + run)
    return best


@contextmanager
def stack_for(levels: int):
    """Let the recursive parser follow ``levels`` of nesting (the limit is put back after)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 1000 + _FRAMES_PER_LEVEL * levels))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


_REGEX_WORDS = [
    ("[A-Za-z_][A-Za-z0-9_]*(-", "a name"),
    ("[A-Za-z_][A-Za-z0-9_.+]", "a model name"),
    ("(Y|di|d|i|-)", "a table cell (-, Y, d, i, di)"),
    ('"""', 'a """doc string"""'),
    ("\\*(?!", "'*'"),
    ("(model|include", None),
    ("#", None),
    ("\\(\\*", None),
]


def _expected_words(err) -> str:
    words: list[str] = []
    for r in getattr(err, "expected_rules", None) or []:
        to_match = getattr(r, "to_match", "")
        text = None
        if type(r).__name__ == "StrMatch":
            text = f"'{to_match}'"
        elif type(r).__name__ == "RegExMatch":
            for prefix, word in _REGEX_WORDS:
                if to_match.startswith(prefix):
                    text = word
                    break
            else:
                if '"' in to_match or "'" in to_match:
                    text = "a quoted string"
                elif "0-9" in to_match or "\\d" in to_match:
                    text = "an integer"
        if text and text not in words:
            words.append(text)
    return ", ".join(words[:10])


def parse_model_text(text: str, filename: str | None):
    """Parse model source text into the raw textX model, or raise ModelError."""
    from textx.exceptions import TextXSemanticError, TextXSyntaxError

    depth = nesting(text)
    if depth > MAX_NESTING:
        raise too_deep(ModelError, text, filename)
    try:
        with stack_for(depth):
            return metamodel().model_from_str(text, file_name=filename)
    except RecursionError:  # not expected below MAX_NESTING; still an error, not a crash
        raise too_deep(ModelError, text, filename) from None
    except TextXSyntaxError as err:
        pos = SourcePos(filename, err.line or 1, err.col or 1)
        found = _found_at(text, err.line, err.col)
        expected = _expected_words(err) or "valid model syntax"
        raise ModelError(f"syntax error at {found}", pos, expected=expected) from None
    except TextXSemanticError as err:
        pos = SourcePos(filename, err.line or 1, err.col or 1)
        msg = re.sub(r"^.*?:\d+:\d+:\s*", "", str(err.message))
        raise ModelError(msg, pos) from None


def _found_at(text: str, line: int | None, col: int | None) -> str:
    if not line:
        return "end of file"
    lines = text.splitlines()
    if line - 1 >= len(lines):
        return "end of file"
    rest = lines[line - 1][(col or 1) - 1 :].strip()
    if not rest:
        return "end of line"
    token = re.match(r"\S+", rest).group(0)
    return f"'{token[:24]}'"
