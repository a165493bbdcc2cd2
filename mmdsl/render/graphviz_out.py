"""Writing diagrams: the .dot file always, SVG/PNG/PDF through Graphviz's `dot` when it is installed."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import MmdslError, writing
from ..core.outfiles import inside, safe_subpath

FORMATS = ("dot", "svg", "png", "pdf")
BATCH = 50  # files per `dot` run
INSTALL_HINT = ("Graphviz's `dot` was not found on PATH, so only the .dot files were written; "
                "install Graphviz for SVG/PNG/PDF (Debian/Ubuntu: apt-get install graphviz)")


@dataclass
class Written:
    """What a batch of diagrams produced: the files, whether `dot` was missing, and the
    diagrams `dot` could not render (their ``.dot`` file and `dot`'s complaint)."""

    files: list[Path] = field(default_factory=list)
    missing_dot: bool = False
    failed: list[tuple[Path, str]] = field(default_factory=list)
    dot_files: list[Path] = field(default_factory=list)  # one per diagram, in the order given

    def outputs(self) -> list[tuple[Path | None, str | None]]:
        """Per diagram, in the order given: the file it ended in, or None and why `dot` failed on it."""
        failed = dict(self.failed)
        rendered = {f.with_suffix(""): f for f in self.files}
        return [(None, failed[d]) if d in failed else (rendered.get(d.with_suffix(""), d), None)
                for d in self.dot_files]

    def add(self, other: "Written") -> None:
        self.files.extend(other.files)
        self.missing_dot = self.missing_dot or other.missing_dot
        self.failed.extend(other.failed)
        self.dot_files.extend(other.dot_files)

    def failure_lines(self) -> list[str]:
        """One line per diagram that was not rendered (its .dot file is kept)."""
        return [f"no diagram rendered from {dot_file}: graphviz `dot` failed: {why}" for dot_file, why in self.failed]


@dataclass
class DrawReport:
    written: Written = field(default_factory=Written)
    messages: list[str] = field(default_factory=list)  # one line each, for the terminal


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise MmdslError(f"unknown diagram format '{fmt}'", expected=", ".join(FORMATS))
    return fmt


def write_diagrams(diagrams: list[tuple[str, str]], outdir: str | Path, fmt: str) -> Written:
    """Write each (stem, DOT text) as ``outdir/stem.dot`` and, unless ``fmt`` is dot, ``stem.fmt``.

    A stem is a ``/``-separated path of names; each part is made a safe file stem
    (``core.outfiles``) and the file must stay inside ``outdir``. When `dot` is missing
    the DOT files are still written and ``missing_dot`` is set (the caller prints
    ``INSTALL_HINT`` once); a diagram `dot` fails on is listed in ``failed`` and the others
    are still rendered; a folder that cannot be written is an error.
    """
    check_format(fmt)
    out = Path(outdir)
    dot_files = []
    taken: set[str] = set()
    with writing(f"the diagrams into {out}"):
        for stem, source in diagrams:
            dot_file = inside(out, f"{_unique(safe_subpath(stem), taken)}.dot")
            dot_file.parent.mkdir(parents=True, exist_ok=True)
            dot_file.write_text(source, encoding="utf-8", errors="replace")
            dot_files.append(dot_file)
    if fmt == "dot" or not dot_files:
        return Written(dot_files, dot_files=list(dot_files))
    if shutil.which("dot") is None:
        return Written(dot_files, missing_dot=True, dot_files=list(dot_files))
    for dot_file in dot_files:  # `dot -O` writes X.dot.FMT, which a link must not lead elsewhere
        inside(out, f"{dot_file.relative_to(out).as_posix()}.{fmt}")
    files, failed = render_files(dot_files, fmt)
    return Written(files, failed=failed, dot_files=dot_files)


def _unique(path: str, taken: set[str]) -> str:
    """``path``, or ``path-2``, ``path-3`` ... when two names made the same safe path (``a b``
    and ``a_b``; ``SB`` and ``sb`` on a case-insensitive file system)."""
    candidate, k = path, 1
    while candidate.lower() in taken:
        k += 1
        candidate = f"{path}-{k}"
    taken.add(candidate.lower())
    return candidate


def render_files(dot_files: list[Path], fmt: str) -> tuple[list[Path], list[tuple[Path, str]]]:
    """``X.dot`` -> ``X.fmt`` for every file, with one `dot` process per batch of files.

    The graphviz package starts one process per file; `dot -O` renders many files in one
    run, some thirty times faster for a suite of small diagrams. Graphviz 2.43 sometimes
    corrupts its heap over a long batch, so a failed batch is redone file by file; a file
    that fails on its own is returned with `dot`'s complaint, and the others are rendered.
    """
    targets: list[Path] = []
    failed: list[tuple[Path, str]] = []
    for k in range(0, len(dot_files), BATCH):
        batch = dot_files[k:k + BATCH]
        bad: set[Path] = set()
        if _run_dot(batch, fmt) is not None:
            for dot_file in batch:
                error = _run_dot([dot_file], fmt)
                if error is not None:
                    bad.add(dot_file)
                    failed.append((dot_file, error))
        for dot_file in batch:
            rendered = Path(f"{dot_file}.{fmt}")
            if dot_file in bad:
                rendered.unlink(missing_ok=True)
                continue
            target = dot_file.with_suffix(f".{fmt}")
            rendered.replace(target)
            targets.append(target)
    return targets, failed


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
