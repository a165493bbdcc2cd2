"""Expected verdicts: the words, herd `.expected` files, `Result:` comments, and whether one held."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import MmdslError, SourcePos, line_col
from ..core.files import read_input


class ManifestError(MmdslError):
    """A malformed suite manifest, or one naming things that do not exist."""

    kind = "manifest error"


VERDICTS = ("Allowed", "Forbidden")
OBSERVATIONS = ("Never", "Sometimes", "Always")
_SHORT = {"A": "Allowed", "F": "Forbidden"}

_OBSERVATION_LINE = re.compile(r"^Observation\s+\S+\s+(\S+)", re.MULTILINE)
_RESULT = re.compile(r"\bResult\s*:\s*(Never|Sometimes|Always)\b")


@dataclass(frozen=True)
class Expectation:
    """What one test should give under one model, and where that expectation comes from."""

    word: str  # Allowed | Forbidden | Never | Sometimes | Always
    reason: str | None = None
    origin: str = "manifest"  # manifest | expected file | Result comment
    pos: SourcePos | None = None

    @property
    def kind(self) -> str:
        return "verdict" if self.word in VERDICTS else "observation"

    def holds(self, verdict: str | None, observation: str | None) -> bool:
        return (verdict if self.kind == "verdict" else observation) == self.word

    def describe(self) -> str:
        """``Allowed (manifest.yaml:12: store buffering)`` -- for mismatch listings."""
        parts = []
        if self.pos is not None:
            parts.append(f"{Path(self.pos.file).name if self.pos.file else self.origin}:{self.pos.line}")
        if self.reason:
            parts.append(self.reason)
        return self.word + (f" ({': '.join(parts)})" if parts else "")


def parse_word(word: str) -> str:
    """The full verdict or observation word for ``word`` (``A`` -> ``Allowed``), or ValueError."""
    w = str(word).strip()
    if w in _SHORT:
        return _SHORT[w]
    for full in (*VERDICTS, *OBSERVATIONS):
        if w.lower() == full.lower():
            return full
    raise ValueError(f"bad verdict word '{word}'")


def read_expected_file(path: Path) -> Expectation:
    """The Observation word of a herd output file (``Observation NAME Never|Sometimes|Always p n``)."""
    text = read_input(path, "herd output", ManifestError)
    m = _OBSERVATION_LINE.search(text)
    if m is None:
        raise ManifestError("no 'Observation NAME Never|Sometimes|Always' line in this herd output",
                            SourcePos(str(path), 1, 1))
    line, col = line_col(text, m.start(1))
    if m.group(1) not in OBSERVATIONS:
        raise ManifestError(f"bad Observation word '{m.group(1)}'", SourcePos(str(path), line, col),
                            expected="Never, Sometimes or Always")
    return Expectation(m.group(1), None, "expected file", SourcePos(str(path), line, col))


def result_comment(program) -> Expectation | None:
    """A Linux-kernel style ``(* Result: Never *)`` comment in the test's source, if any.

    The layout splitter blanks comments before parsing, so this reads ``Program.source``
    (the text as written) and keeps only matches that lie inside a comment.
    """
    from ..litmus.layout import blank_comments

    source = program.source or ""
    if "Result" not in source:
        return None
    try:
        blanked = blank_comments(source, program.path)
    except MmdslError:
        return None
    for m in _RESULT.finditer(source):
        if blanked[m.start()] == " ":  # blanked out: inside a comment
            line, col = line_col(source, m.start(1))
            return Expectation(m.group(1), None, "Result comment", SourcePos(program.path, line, col))
    return None
