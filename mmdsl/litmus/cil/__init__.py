"""C# programs as a front end: compiled by mono's mcs, read from monodis's CIL listing."""

from .build import CsProgram, missing_tools, parse_cs, parse_il, read_cs

__all__ = ["CsProgram", "missing_tools", "parse_cs", "parse_il", "read_cs"]
