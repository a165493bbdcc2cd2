"""Counts how many of herd's stock .cat models mmdsl loads, and what stops each of the others.

    python bench/count_stock_cats.py [HERD_CATS_DIR]    (default ../shared/reference/herd-cats)

Prints one line per model that does not load (its first error, at its file:line:col), then
the count docs/cat.md quotes. Loading is lowering the model (with stdlib.cat and its
includes, the folder itself as the cat path, and M.bell when one is beside M.cat); it says
nothing of agreement with herd.

Measured (herd 7.58's library with the Linux-kernel model, 89 files): 48 when the loader
landed, 61 with the AArch64 and C built-ins, 62 with linux-kernel.cat, 67 with
linearisations, 73 with the models that compute co themselves, 74 with herd's si, 75 with pco (2026-11-26).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mmdsl.core.errors import MmdslError
from mmdsl.lang.cat_lower import lower_cat_file

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "herd-cats"


def count(folder: Path) -> tuple[list[str], dict[str, str]]:
    """(models that load, {model: first error}) over the folder's .cat files."""
    loaded, refused = [], {}
    for path in sorted(folder.glob("*.cat")):
        try:
            lower_cat_file(path, [folder])
            loaded.append(path.name)
        except MmdslError as err:
            where = f"{Path(err.pos.file).name}:{err.pos.line}:{err.pos.col}" if err.pos and err.pos.file else "?"
            refused[path.name] = f"{where}: {err.message}"
    return loaded, refused


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else DEFAULT
    if not folder.is_dir():
        print(f"no folder {folder}", file=sys.stderr)
        return 2
    loaded, refused = count(folder)
    for name, why in refused.items():
        print(f"{name:28} {why[:150]}")
    print(f"{len(loaded)} of {len(loaded) + len(refused)} .cat files in {folder} load")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
