"""The system C preprocessor run on a whole C program, with mmdsl's own small system headers.

``gcc -E`` (or ``cpp``) expands ``#define`` and ``#include`` of the program's own headers;
the system headers come from ``include/`` beside this file (only what the front end
supports is declared there). The line markers are taken out of the text pycparser reads,
and kept as a map from each line of that text to its file and line in the sources.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

from ...core.errors import LitmusError, SourcePos, UnsupportedError

INCLUDE_DIR = os.path.join(os.path.dirname(__file__), "include")
_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')
_CPP_ERROR = re.compile(r"^(.*?):(\d+):(?:(\d+):)?\s*(?:fatal )?error:\s*(.*)$", re.M)
MAX_SOURCE = 1_000_000  # characters of preprocessed text


@dataclass
class Preprocessed:
    """The preprocessed text and, for each of its lines, the (file, line) it came from."""

    text: str
    lines: list[tuple[str, int]]
    starts: list[int] = field(default_factory=list)  # offset of each line in text

    def __post_init__(self) -> None:
        off, self.starts = 0, []
        for line in self.text.split("\n"):
            self.starts.append(off)
            off += len(line) + 1

    def offset(self, line: int, col: int) -> int:
        """The offset in ``text`` of 1-based ``line`` and ``col`` of the preprocessed text."""
        line = min(max(line, 1), len(self.starts))
        return self.starts[line - 1] + max(col, 1) - 1

    def pos(self, at: int) -> SourcePos:
        """The source file, line and column of offset ``at`` of the preprocessed text."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= at:
                lo = mid
            else:
                hi = mid - 1
        file, line = self.lines[lo] if lo < len(self.lines) else (None, lo + 1)
        return SourcePos(file, line, at - self.starts[lo] + 1)


def _preprocessor() -> list[str]:
    for name in ("gcc", "cpp", "clang"):
        path = shutil.which(name)
        if path:
            return [path, "-E"] if name != "cpp" else [path]
    raise UnsupportedError("no C preprocessor found (gcc, cpp or clang)",
                           hint="install gcc (Debian: apt-get install gcc)")


def preprocess(path: str, defines: dict[str, str] | None = None) -> Preprocessed:
    """Run the preprocessor on the C file ``path``; errors name the file, line and column."""
    if not os.path.isfile(path):
        raise LitmusError(f"no such file: {path}", None)
    cmd = _preprocessor() + ["-nostdinc", "-undef", "-D__mmdsl__=1", "-I", INCLUDE_DIR,
                             "-I", os.path.dirname(os.path.abspath(path))]
    for k, v in (defines or {}).items():
        cmd += [f"-D{k}={v}"]
    try:
        done = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise LitmusError("the C preprocessor did not finish in 30 s", SourcePos(path, 1, 1)) from None
    if done.returncode != 0:
        m = _CPP_ERROR.search(done.stderr)
        if m:
            message = m.group(4)
            hint = None
            if "No such file" in message:
                hint = ("mmdsl's system headers: " + ", ".join(sorted(os.listdir(INCLUDE_DIR)))
                        + "; the program's own headers are looked up beside it")
            raise LitmusError(f"preprocessor: {message}", SourcePos(m.group(1), int(m.group(2)),
                                                                   int(m.group(3) or 1)), hint=hint)
        raise LitmusError(f"the C preprocessor failed: {done.stderr.strip()[:300]}", SourcePos(path, 1, 1))
    if len(done.stdout) > MAX_SOURCE:
        raise UnsupportedError(f"the preprocessed program has {len(done.stdout)} characters; at most "
                               f"{MAX_SOURCE} are supported", SourcePos(path, 1, 1))
    return _strip_markers(done.stdout, path)


def _strip_markers(out: str, path: str) -> Preprocessed:
    kept: list[str] = []
    lines: list[tuple[str, int]] = []
    file, line = path, 1
    for raw in out.split("\n"):
        m = _MARKER.match(raw) if raw.startswith("#") else None
        if m:
            line, file = int(m.group(1)), m.group(2)
            if file.startswith("<"):  # <built-in>, <command-line>
                file = path
            continue
        kept.append(raw)
        lines.append((file, line))
        line += 1
    return Preprocessed("\n".join(kept), lines)
