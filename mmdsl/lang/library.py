"""Finding and loading models by name or path, once each."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import ModelError
from ..core.resources import bundled_dir
from .ir import Model
from .lower import lower_model_file

# a loaded model, by the resolved path of its file, with the modification times of that
# file and of every file it includes: a change to any of them loads the model again
_CACHE: dict[str, tuple[tuple, Model]] = {}



def models_dir() -> Path:
    return bundled_dir("models")


def bundled_model_paths() -> list[Path]:
    return sorted(models_dir().glob("*.mm"))


def model_path(name: str) -> Path:
    """The file a model name or path refers to."""
    p = Path(name)
    bundled = models_dir() / f"{name}.mm"
    if p.suffix not in (".mm", ".cat") and not p.is_file() and bundled.is_file():
        return bundled  # a bundled name, even where a folder of that name is in the way
    if p.suffix in (".mm", ".cat") or p.exists():
        if p.is_file():
            return p
        alt = models_dir() / p.name
        if alt.is_file():
            return alt
        if p.exists() and not p.is_dir():  # a FIFO, a device: reading it says what it is
            return p
        raise ModelError(f"model file '{name}' not found")
    known = ", ".join(q.stem for q in bundled_model_paths())
    raise ModelError(f"unknown model '{name}'", hint=f"bundled models: {known}; or give a path to a .mm or .cat file")


def load_model(name: str | Path) -> Model:
    """Load a model by bundled name (``tso``) or by path, parsing each file only once
    (until it, or a file it includes, changes)."""
    from .herd_options import current, without_skipped

    options = current()  # herd's -variant, -skipcheck, -through, when `mmdsl run` was given them
    path = _display(model_path(str(name)))
    key = str(path.resolve()) + "\0" + options.key()
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == _stamps([str(path.resolve()), *hit[1].includes]):
        return hit[1]
    stamps_before = _stamps([str(path.resolve())])
    if path.suffix == ".cat":
        from .cat_lower import cat_path, lower_cat_file

        dirs = cat_path()
        key = key + "\0" + os.pathsep.join(str(d) for d in dirs)
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == _stamps([str(path.resolve()), *hit[1].includes]):
            return hit[1]
        model = lower_cat_file(path, dirs, options=options)
    elif _bundled(path):  # from the disk cache when it has it (model_cache)
        from .model_cache import load_cached

        model = without_skipped(load_cached(path, lambda p: lower_model_file(p, [models_dir()])), options)
    else:
        model = without_skipped(lower_model_file(path, [models_dir()]), options)
    _CACHE[key] = (stamps_before + _stamps(model.includes), model)
    return model


def load_model_text(text: str, filename: str = "model.mm") -> Model:
    """Load a model given as text (not cached); its includes name bundled models only."""
    from .lower import lower_model_text

    return lower_model_text(text, filename, [models_dir()])


def _stamps(paths: list[str]) -> tuple:
    """The modification time (and size) of each file; None for one that is gone."""
    out = []
    for p in paths:
        try:
            st = Path(p).stat()
            out.append((p, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((p, None, None))
    return tuple(out)


def _bundled(path: Path) -> bool:
    """Is ``path`` one of the bundled models (a file right in the models folder)?"""
    try:
        return path.suffix == ".mm" and path.resolve().parent == models_dir().resolve() and path.is_file()
    except OSError:
        return False


def _display(path: Path) -> Path:
    """The path as short as it can be: relative to the working directory when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path
