"""Output file names: user-given names made into safe file stems, and paths kept inside their folder.

Every file mmdsl writes under a folder it was given (``draw -o``, ``run --draw``,
``suite --draw``, ``diff-models -o``) is named from test and model names, which come from
files a user may not have written (a manifest's ``models: ["../../x=tso"]``, a litmus
header ``X86 ../../etc/x``). Those names pass through ``safe_stem`` (one path component)
or ``safe_subpath`` (components separated by ``/``, each a ``safe_stem``), and the path
is checked with ``inside`` before anything is written: nothing ever lands outside the
folder asked for.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .errors import MmdslError

_KEPT = frozenset("+-_.=")  # herd names keep `+` (SB+mfences); `=` for COLUMN=MODEL
MAX_STEM = 120  # characters; file systems allow 255 bytes, and a suffix follows


def safe_stem(name: str) -> str:
    """``name`` as one file-name component: ASCII letters, digits and ``+-_.=``, every other
    character ``_``; leading dots become ``_`` (so no ``.``, ``..`` nor hidden file); never
    empty; at most ``MAX_STEM`` characters (a long name keeps a hash of the whole, so that
    two long names stay apart)."""
    stem = "".join(c if (c.isascii() and c.isalnum()) or c in _KEPT else "_" for c in str(name))
    dots = len(stem) - len(stem.lstrip("."))
    stem = "_" * dots + stem[dots:]
    if len(stem) > MAX_STEM:
        digest = hashlib.sha1(str(name).encode("utf-8", "surrogatepass")).hexdigest()[:10]
        stem = f"{stem[:MAX_STEM - 11]}-{digest}"
    return stem or "_"


def safe_subpath(label: str) -> str:
    """``lisa/SB`` -> ``lisa/SB``: a relative path whose every part is a ``safe_stem``
    (``..`` becomes ``__``; empty parts, as in ``a//b`` or ``/x``, are dropped)."""
    parts = [p for p in str(label).replace("\\", "/").split("/") if p]
    return "/".join(safe_stem(p) for p in parts) or "_"


def inside(folder: str | Path, relative: str) -> Path:
    """``folder / relative``, refused (an MmdslError) if it resolves outside ``folder``, through
    ``..`` or through a symbolic link already in the folder."""
    base = Path(folder)
    target = base / relative
    try:
        root = base.resolve()
        real = target.resolve()
    except (OSError, RuntimeError) as err:  # a loop of symbolic links
        raise MmdslError(f"refusing to write {target}: {err}") from None
    if real != root and root not in real.parents:
        raise MmdslError(f"refusing to write {target}: it resolves to {real}, outside {base}",
                         hint="output names are made from test and model names; a symbolic link in the "
                              "output folder may point elsewhere")
    return target
