"""User-facing errors: every bad input becomes one of these, with file, line and column."""

from __future__ import annotations

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


class LitmusError(MmdslError):
    """A malformed litmus test."""

    kind = "litmus error"


class UnsupportedError(MmdslError):
    """A construct that is well formed but that an engine does not support, named."""

    kind = "unsupported"


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
