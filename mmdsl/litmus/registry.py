"""The registry of litmus dialects, keyed by the architecture word of a test's header."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import UnsupportedError

_TABLE: dict | None = None

# Program formats by file suffix: a litmus test names its dialect in its header; a file
# of another format (Memorax's `.rmm`) is known by its suffix alone.
LITMUS_SUFFIX = ".litmus"
PROGRAM_SUFFIXES = (LITMUS_SUFFIX, ".rmm", ".cs", ".il")
_FORMATS = {".rmm": "rmm", ".cs": "cs", ".il": "il"}  # C#, and monodis's listing of a compiled one


def format_of(path: str | None) -> str:
    """``"rmm"`` for a Memorax program, ``"cs"``/``"il"`` for C# and its CIL listing, ``"litmus"``
    for everything else."""
    if path is None:
        return "litmus"
    return _FORMATS.get(Path(str(path)).suffix.lower(), "litmus")


def _dialects() -> dict:
    """Every dialect by upper-case architecture word, built on first use."""
    global _TABLE
    if _TABLE is None:
        from . import aarch64, arm, c, lisa, ppc, riscv, x86, x86_64

        _TABLE = {arch.upper(): mod.DIALECT for mod in (lisa, x86, x86_64, riscv, aarch64, c, ppc, arm)
                  for arch in mod.DIALECT.archs}
    return _TABLE


# The module of the common architectures, so that reading an X86 test does not import the
# C grammar (and textX) too; an architecture not listed here is looked up in the full table.
_MODULE_OF = {"X86": "x86", "X86_64": "x86_64", "LISA": "lisa", "BELL": "lisa", "C": "c",
              "AARCH64": "aarch64", "ARM64": "aarch64", "PPC": "ppc", "ARM": "arm"}


_FOUND: dict = {}  # architecture word as written -> its dialect, found once per run


def dialect_for(arch: str):
    """The dialect object for ``arch``, or an UnsupportedError naming the supported ones."""
    d = _FOUND.get(arch)
    if d is None:
        d = _FOUND[arch] = _find_dialect(arch)
    return d


def _find_dialect(arch: str):
    if _TABLE is None and arch.upper() in _MODULE_OF:
        from importlib import import_module

        mod = import_module(f".{_MODULE_OF[arch.upper()]}", __package__)
        if arch.upper() in (a.upper() for a in mod.DIALECT.archs):
            return mod.DIALECT
    d = _dialects().get(arch.upper())
    if d is None:
        raise UnsupportedError(f"litmus architecture '{arch}' is not supported",
                               hint=f"supported: {', '.join(supported_archs())}")
    return d


def supported_archs() -> list[str]:
    return sorted(_dialects())
