"""The registry of litmus dialects, keyed by the architecture word of a test's header."""

from __future__ import annotations

from ..core.errors import UnsupportedError


def _dialects() -> dict:
    from . import lisa, x86, x86_64

    table = {}
    for mod in (lisa, x86, x86_64):
        for arch in mod.DIALECT.archs:
            table[arch.upper()] = mod.DIALECT
    return table


_TABLE: dict | None = None
C_ARCHS = ("C",)


def dialect_for(arch: str):
    """The dialect object for ``arch``, or an UnsupportedError naming the supported ones."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _dialects()
    d = _TABLE.get(arch.upper())
    if d is None and arch.upper() in C_ARCHS:
        try:
            from . import c as cmod
        except ImportError:  # pragma: no cover - while the C dialect is not there
            cmod = None
        if cmod is not None:
            return cmod.DIALECT
    if d is None:
        supported = sorted({*_TABLE, *C_ARCHS})
        raise UnsupportedError(f"litmus architecture '{arch}' is not supported",
                               hint=f"supported: {', '.join(supported)}")
    return d


def supported_archs() -> list[str]:
    global _TABLE
    if _TABLE is None:
        _TABLE = _dialects()
    return sorted(_TABLE)
