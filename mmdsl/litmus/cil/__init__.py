"""C# programs as a front end: compiled by mono's mcs, read from monodis's CIL listing."""

from .build import missing_tools, parse_cs, parse_il

__all__ = ["missing_tools", "parse_cs", "parse_il"]
