"""Writing diagrams: the .dot file always, SVG/PNG/PDF through Graphviz's `dot` when it is installed."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import MmdslError, writing

FORMATS = ("dot", "svg", "png", "pdf")
BATCH = 50  # files per `dot` run
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
    caller prints ``INSTALL_HINT`` once); any other Graphviz failure, and a folder that
    cannot be written, is an error.
    """
    check_format(fmt)
    out = Path(outdir)
    dot_files = []
    with writing(f"the diagrams into {out}"):
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
    """``X.dot`` -> ``X.fmt`` for every file, with one `dot` process per batch of files.

    The graphviz package starts one process per file; `dot -O` renders many files in one
    run, some thirty times faster for a suite of small diagrams. Graphviz 2.43 sometimes
    corrupts its heap over a long batch, so a failed batch is redone file by file, and
    only a file that fails on its own is an error.
    """
    targets = []
    for k in range(0, len(dot_files), BATCH):
        batch = dot_files[k:k + BATCH]
        if _run_dot(batch, fmt) is not None:
            for dot_file in batch:
                error = _run_dot([dot_file], fmt)
                if error is not None:
                    for other in batch:
                        Path(f"{other}.{fmt}").unlink(missing_ok=True)
                    raise MmdslError(f"graphviz `dot` failed on {dot_file}: {error}")
        for dot_file in batch:
            target = dot_file.with_suffix(f".{fmt}")
            Path(f"{dot_file}.{fmt}").replace(target)
            targets.append(target)
    return targets


def _run_dot(files: list[Path], fmt: str) -> str | None:
    """Run ``dot -T<fmt> -O`` on the files; the last line of its complaint if it fails."""
    proc = subprocess.run(["dot", f"-T{fmt}", "-O", *map(str, files)], capture_output=True)
    if proc.returncode == 0:
        return None
    detail = proc.stderr.decode(errors="replace").strip().splitlines()
    return detail[-1] if detail else f"exit status {proc.returncode}"


def render_text(source: str, fmt: str) -> bytes | None:
    """The rendered bytes of one DOT text (None when `dot` is not installed)."""
    import graphviz

    try:
        return graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        return None
