"""Writing diagrams: the .dot file always, SVG/PNG/PDF through Graphviz's `dot` when it is installed."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import MmdslError

FORMATS = ("dot", "svg", "png", "pdf")
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
    out.mkdir(parents=True, exist_ok=True)
    written = Written()
    for stem, source in diagrams:
        dot_file = out / f"{stem}.dot"
        dot_file.parent.mkdir(parents=True, exist_ok=True)
        dot_file.write_text(source, encoding="utf-8")
        if fmt == "dot":
            written.files.append(dot_file)
            continue
        if written.missing_dot:
            written.files.append(dot_file)
            continue
        target = out / f"{stem}.{fmt}"
        if render_file(dot_file, target, fmt):
            written.files.append(target)
        else:
            written.missing_dot = True
            written.files.append(dot_file)
    return written


def render_file(dot_file: Path, target: Path, fmt: str) -> bool:
    """Run ``dot -T<fmt>`` on one file; False when `dot` is not installed."""
    import graphviz

    try:
        graphviz.render("dot", fmt, filepath=str(dot_file), outfile=str(target), quiet=True)
    except graphviz.ExecutableNotFound:
        return False
    except graphviz.CalledProcessError as err:
        detail = (err.stderr or b"").decode(errors="replace").strip().splitlines()
        raise MmdslError(f"graphviz failed on {dot_file}: " + (detail[-1] if detail else f"exit {err.returncode}"))
    return True


def render_text(source: str, fmt: str) -> bytes | None:
    """The rendered bytes of one DOT text (None when `dot` is not installed)."""
    import graphviz

    try:
        return graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        return None
