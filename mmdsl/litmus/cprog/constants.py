"""Locals that never change: a thread's constant argument and a local initialised once with a
constant and never assigned again are lowered as that constant, so an address such as
``&fork_[i]`` names one location and the explorer's partial-order reduction sees which
threads touch which locations (a register address could be any location)."""

from __future__ import annotations

import dataclasses

from .. import c_grammar as g


def assigned_names(functions) -> set[str]:
    """Every name some function assigns, increments, or takes the address of (conservative:
    a name changed anywhere is never a constant)."""
    found: set[str] = set()

    def target(e) -> None:
        if isinstance(e, g.Name):
            found.add(e.name)

    def walk(x) -> None:
        if isinstance(x, list):
            for item in x:
                walk(item)
            return
        if not dataclasses.is_dataclass(x) or isinstance(x, type):
            return
        if isinstance(x, g.AssignExpr):
            target(x.target)
        elif isinstance(x, g.Unary) and x.op in ("&", "++", "--"):
            target(x.arg)
        elif isinstance(x, g.Postfix) and x.kind in ("++", "--"):
            target(x.arg)
        for f in dataclasses.fields(x):
            walk(getattr(x, f.name))

    for fn in functions:
        walk(fn.body)
    return found
