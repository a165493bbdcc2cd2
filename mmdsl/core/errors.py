"""User-facing errors: every bad input becomes one of these, with file, line and column."""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class SourcePos:
    """A place in a source file (1-based line and column)."""

    file: str | None
    line: int
    col: int

    def __str__(self) -> str:
        where = self.file or "<input>"
        return f"{where}:{self.line}:{self.col}"


class MmdslError(Exception):
    """An error a user can act on: what is wrong, where, and what was expected.

    The CLI prints ``str(error)`` and exits with code 2; nothing else is shown.
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        pos: SourcePos | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.expected = expected
        self.hint = hint

    def locate(self, pos: SourcePos | None, text: str = "") -> "MmdslError":
        """Give the error the place of the instruction it arose in, unless it has one."""
        if self.pos is None and pos is not None:
            self.pos = pos
            if text:
                self.message = f"{self.message} (in '{text}')"
        return self

    def __str__(self) -> str:
        head = f"{self.pos}: " if self.pos else ""
        text = f"{head}{self.kind}: {self.message}"
        if self.expected:
            text += f"; expected {self.expected}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class ModelError(MmdslError):
    """A malformed or inconsistent model file."""

    kind = "model error"


class ModelErrors(ModelError):
    """Every error found in one model, reported together, sorted by file, line and column.

    ``str`` shows each on its own line(s); ``message`` and ``pos`` are those of the first.
    """

    def __init__(self, errors: list[MmdslError]):
        self.errors = sorted(errors, key=_place)
        first = self.errors[0]
        more = len(self.errors) - 1
        super().__init__(f"{first.message} (and {more} more error{'s' if more > 1 else ''})",
                         first.pos, first.expected, first.hint)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors) + f"\n{len(self.errors)} errors"

    def __reduce__(self):  # to cross to a worker process and back whole
        return (type(self), (self.errors,))


def _place(err: MmdslError) -> tuple:
    p = err.pos
    return (p.file or "", p.line, p.col) if p else ("", 0, 0)


def raise_all(errors: list[MmdslError]) -> None:
    """Raise the errors found (one as itself, several as one ModelErrors); nothing when none.

    The same message at the same place is reported once."""
    unique = list({(e.pos, str(e)): e for e in errors}.values())
    if len(unique) == 1:
        raise unique[0]
    if unique:
        raise ModelErrors(unique)


class LitmusError(MmdslError):
    """A malformed litmus test."""

    kind = "litmus error"


class UnsupportedError(MmdslError):
    """A construct that is well formed but that an engine does not support, named."""

    kind = "unsupported"


def too_deep(cls: type[MmdslError], text: str, path: str | None) -> MmdslError:
    """The error for a file nested beyond what the recursive parsers can follow.

    It points at the first bracket of the deepest nesting of the file's ``text`` or, when
    brackets nest little, at the longest chain of one prefix operator (``~~~~x``).
    """
    depth = best = at = 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
            if depth > best:
                best, at = depth, i
        elif c in ")]}":
            depth -= 1
    what = f"{best} levels of brackets here"
    if best < 10:  # then a chain of one prefix operator, white space allowed between
        run = start = longest = 0
        op = ""
        for i, c in enumerate(text):
            if c in "~!*&+-" and (run and c == op):
                run += 1
            elif c in "~!*&+-":
                run, start, op = 1, i, c
            elif not c.isspace():
                run = 0
            if run > longest:
                longest, at, what = run, start, f"a chain of {run} '{op}'"
        if longest < 10:  # then a chain of one operator or keyword within one statement
            count, first, word = _longest_chain(text)
            if count >= 10:
                at, what = first, f"a chain of {count} '{word}' in one statement"
    return cls(f"nested too deeply to be read ({what})", SourcePos(path, *line_col(text, at)),
               expected="less nesting")


_CHAINED = re.compile(r"\bif\b|\bwhile\b|=>|&&|\|\||==|!=|[-+*/|&^<>]")


def _longest_chain(text: str) -> tuple[int, int, str]:
    """(how many, where the first is, which) for the operator or keyword repeated most within
    one statement (text between two ``;``): ``a + a + ...``, ``if (c) if (c) ...``,
    ``p => q => ...`` each nest one level per repetition in a recursive parser."""
    best = (0, 0, "")
    start = 0
    for seg_end in [i for i, c in enumerate(text) if c == ";"] + [len(text)]:
        counts: dict[str, list[int]] = {}
        for m in _CHAINED.finditer(text, start, seg_end):
            c = counts.setdefault(m.group(), [0, m.start()])
            c[0] += 1
        for word, (n, first) in counts.items():
            if n > best[0]:
                best = (n, first, word)
        start = seg_end + 1
    return best


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of character ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    last_nl = text.rfind("\n", 0, offset)
    return line, offset - last_nl


@contextmanager
def writing(what: str):
    """Turn an ``OSError`` raised while writing ``what`` (an unwritable folder, a file where a
    folder should be, a full disk) into an MmdslError: one line, exit code 2, no traceback."""
    try:
        yield
    except OSError as err:
        where = f" ({err.filename})" if err.filename and str(err.filename) not in what else ""
        raise MmdslError(f"cannot write {what}{where}: {err.strerror or err}") from None
