"""Minimum fences for programs with loops, from explorer traces (and the min-cut method)."""

from __future__ import annotations

from ..core.errors import UnsupportedError


def select_for_program(program, model, options):
    raise UnsupportedError(f"{program.name}: programs with loops and --method cut need the explorer, "
                           "which is not available in this build")
