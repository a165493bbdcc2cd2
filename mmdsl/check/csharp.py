"""A C# program (``.cs``, or monodis's ``.il`` listing of one) as the checker reads it: the
compiled program, its Debug.Asserts by number, and Main's checks after the joins."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import LitmusError
from ..litmus.cil import read_cs
from ..litmus.cil.build import build
from ..litmus.cil.calls import ASSERT
from ..litmus.cprog import CProgram

SUFFIXES = (".cs", ".il")


def is_csharp(path: str) -> bool:
    return Path(path).suffix.lower() in SUFFIXES


def load_cs_program(path: str) -> CProgram:
    """Compile and read the C# file at ``path`` (an ``.il`` listing: read as it is, its
    assertions numbered in the order met, their text the CIL call)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LitmusError(f"cannot read {path}: {err}", None) from None
    if Path(path).suffix.lower() == ".il":
        found = build(text, path, True, None, [])
    else:
        found = read_cs(text, path)
    program = found.program
    functions = [t.name for t in program.threads]
    return CProgram(program, asserts=found.assertions, functions=functions, assert_reg=ASSERT, final=found.final)

