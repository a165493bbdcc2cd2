"""Where the bundled models and litmus suites live, installed or in a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def bundled_dir(name: str) -> Path:
    """The bundled ``models`` or ``litmus`` folder.

    A wheel carries them inside the package (``mmdsl/_bundled/NAME``); a source checkout
    (editable install, tests) has them at the top level next to the package.
    """
    inside = _PACKAGE / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def resolve_bundled(path: str | Path, folder: str) -> Path:
    """``path`` if it exists; otherwise the same relative path inside the bundled folder.

    This lets ``mmdsl run litmus/classic/SB.litmus`` work from any directory after a
    plain ``pip install``.
    """
    p = Path(path)
    if p.exists():
        return p
    parts = p.parts
    if parts and parts[0] == folder:
        alt = bundled_dir(folder).joinpath(*parts[1:])
        if alt.exists():
            return alt
    return p
