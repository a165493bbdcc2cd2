"""Writing diagrams: the .dot file always, SVG/PNG/PDF through Graphviz's `dot` when it is installed."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import MmdslError

FORMATS = ("dot", "svg", "png", "pdf")
BATCH = 200  # files per `dot` run (keeps the command line short)
INSTALL_HINT = ("Graphviz's `dot` was not found on PATH, so only the .dot files were written; "
                "install Graphviz for SVG/PNG/PDF (Debian/Ubuntu: apt-get install graphviz)")


@dataclass
class Written:
    """What a batch of diagrams produced: the files, and whether `dot` was missing."""

    files: list[Path] = field(default_factory=list)
    missing_dot: bool = False

    def add(self, other: "Written") -> None:
        self.files.extend(other.files)
        self.missing_dot = self.missing_dot or other.missing_dot


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise MmdslError(f"unknown diagram format '{fmt}'", expected=", ".join(FORMATS))
    return fmt


def write_diagrams(diagrams: list[tuple[str, str]], outdir: str | Path, fmt: str) -> Written:
    """Write each (stem, DOT text) as ``outdir/stem.dot`` and, unless ``fmt`` is dot, ``stem.fmt``.

    When `dot` is missing the DOT files are still written and ``missing_dot`` is set (the
    caller prints ``INSTALL_HINT`` once); any other Graphviz failure is an error.
    """
    check_format(fmt)
    out = Path(outdir)
    dot_files = []
    for stem, source in diagrams:
        dot_file = out / f"{stem}.dot"
        dot_file.parent.mkdir(parents=True, exist_ok=True)
        dot_file.write_text(source, encoding="utf-8")
        dot_files.append(dot_file)
    if fmt == "dot" or not dot_files:
        return Written(dot_files)
    if shutil.which("dot") is None:
        return Written(dot_files, missing_dot=True)
    return Written(render_files(dot_files, fmt))


def render_files(dot_files: list[Path], fmt: str) -> list[Path]:
    """``X.dot`` -> ``X.fmt`` for every file, with one `dot` process per batch.

    The graphviz package starts one process per file; `dot -O` renders many files in one
    run, which is some thirty times faster for a suite of small diagrams.
    """
    targets = []
    for k in range(0, len(dot_files), BATCH):
        batch = dot_files[k:k + BATCH]
        proc = subprocess.run(["dot", f"-T{fmt}", "-O", *map(str, batch)], capture_output=True)
        if proc.returncode != 0:
            detail = proc.stderr.decode(errors="replace").strip().splitlines()
            raise MmdslError("graphviz `dot` failed: " + (detail[-1] if detail else f"exit {proc.returncode}"))
        for dot_file in batch:
            target = dot_file.with_suffix(f".{fmt}")
            Path(f"{dot_file}.{fmt}").replace(target)
            targets.append(target)
    return targets


def render_text(source: str, fmt: str) -> bytes | None:
    """The rendered bytes of one DOT text (None when `dot` is not installed)."""
    import graphviz

    try:
        return graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        return None
