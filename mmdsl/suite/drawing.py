"""Executions for suite cells and model differences: diagrams through the render layer when it
has them, herd-shaped text with the witness or the violated axiom and its cycle always."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import UnsupportedError


def drawing_available() -> bool:
    """Whether the render layer can draw executions (graphviz DOT)."""
    try:
        from ..render import dot_execution  # noqa: F401
    except ImportError:
        return False
    return True


def check_drawing() -> None:
    if not drawing_available():
        raise UnsupportedError("diagrams are not available in this build (the render layer has no "
                               "execution diagrams yet)", hint="run without --draw")


def draw_cell(result, model, folder: str, test: str, column: str) -> dict:
    check_drawing()
    return {}


def write_difference(program, allowing, forbidding, stem: Path) -> list[str]:
    """``STEM.ALLOWING.witness.txt`` and ``STEM.FORBIDDING.forbidden.txt``; the file names."""
    from ..axiomatic import check
    from ..render.herd_text import herd_block, why_text

    stem.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for model, kind in ((allowing, "witness"), (forbidding, "forbidden")):
        result = check(program, model, why=True)
        path = stem.parent / f"{stem.name}.{model.name}.{kind}.txt"
        path.write_text(f"Model {model.name}\n" + herd_block(result, show_time=False) + why_text(result))
        written.append(str(path))
    return written
