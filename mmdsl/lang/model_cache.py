"""A cache on disk of the bundled models, lowered: a run need not import textX and parse them.

Loading a bundled model means importing textX (~25 ms) and parsing the ``.mm`` file
(~25 ms for ``power.mm``); the lowered ``Model`` unpickles in well under a millisecond.
Each entry is a pickle of the lowered model, in the user's cache folder
(``$XDG_CACHE_HOME/mmdsl/models``, else ``~/.cache/mmdsl/models``), named after a key of:

* mmdsl's version and the Python version;
* the sizes and modification times of the lowering code (``mmdsl/lang/*.py``): a changed
  lowering, in a checkout, makes every entry stale;
* the path the model is loaded by (it is in the model's source positions) and the SHA-256
  of the file's bytes; the entry also records the SHA-256 of every file the model includes,
  checked again when it is read.

Only bundled models are cached (a user's own ``.mm`` file is parsed each time). A cache
that is missing, stale, corrupt, not ours (another owner, writable by others) or cannot be
written is ignored: the model is parsed as without a cache, never an error. Nothing is
written outside the cache folder; entries are written to a temporary file beside them and
renamed, so two processes never see half an entry. ``MMDSL_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Callable

from .. import __version__
from .ir import Model

FORMAT = 1  # bump when the entry's layout changes
NO_CACHE_ENV = "MMDSL_NO_CACHE"
_LANG_DIR = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """Where the entries live: ``$XDG_CACHE_HOME/mmdsl/models`` (an absolute XDG path only,
    as the XDG spec says), else ``~/.cache/mmdsl/models``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "mmdsl" / "models"


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _code_stamp() -> str:
    """The lowering code's sizes and modification times (a checkout may change it)."""
    parts = []
    for entry in sorted(os.scandir(_LANG_DIR), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            st = entry.stat()
            parts.append(f"{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    return ";".join(parts)


def _ours(path: Path) -> bool:
    """An entry (or folder) we may trust: owned by this user and not writable by others."""
    try:
        st = path.stat()
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return owner_ok and not (st.st_mode & 0o022)


def load_cached(path: Path, lower: Callable[[Path], Model]) -> Model:
    """The model of the bundled file ``path`` from the cache, or ``lower(path)`` (then cached)."""
    if os.environ.get(NO_CACHE_ENV):
        return lower(path)
    try:
        digest = _digest(str(path))
        if digest is None:  # unreadable: lowering says why
            return lower(path)
        key = hashlib.sha256("\0".join([str(FORMAT), __version__, sys.version, _code_stamp(), str(path),
                                        digest]).encode()).hexdigest()[:40]
        folder = cache_dir()
        entry = folder / f"{path.stem}-{key}.pickle"
        model = _read(entry, folder)
    except (OSError, RuntimeError, ValueError):  # no home folder, an unreadable package folder
        return lower(path)
    if model is not None:
        return model
    model = lower(path)
    _write(entry, folder, model)
    return model


def _read(entry: Path, folder: Path) -> Model | None:
    if not entry.is_file() or not _ours(folder) or not _ours(entry):
        return None
    try:
        with open(entry, "rb") as f:
            fmt, includes, model = pickle.load(f)
    except Exception:  # corrupt, truncated, from another mmdsl: parse again  # noqa: BLE001
        return None
    if fmt != FORMAT or not isinstance(model, Model):
        return None
    if any(_digest(p) != d for p, d in includes):  # an included file changed
        return None
    return model


def _write(entry: Path, folder: Path, model: Model) -> None:
    try:
        includes = [(p, _digest(p)) for p in model.includes]
        data = pickle.dumps((FORMAT, includes, model), protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _ours(folder):
            return
        import tempfile  # only to write: a run that reads its models from the cache never needs it

        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".pickle", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, entry)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except Exception:  # a read-only home, a full disk, a file where the folder should be  # noqa: BLE001
        return
