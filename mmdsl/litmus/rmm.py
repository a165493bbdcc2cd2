"""Memorax's `.rmm` programs as a front end: parse (``rmm_grammar``) and lower (``rmm_lower``)."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import LitmusError, too_deep
from ..core.program import Program
from .rmm_grammar import parse_rmm_text
from .rmm_lower import lower_rmm
from .rmm_macros import expand_macros

SUFFIX = ".rmm"


def parse_rmm(text: str, path: str | None = None, marks=None) -> Program:
    """A `.rmm` program as a core program whose condition is its `forbidden` state property
    (``marks``: its ``/* @atomic */`` blocks, lowered for ``check --atomicity``: ``rmm_atomic``)."""
    text = text.removeprefix("\ufeff")
    name = Path(path).stem if path else "rmm"
    try:
        expansion = expand_macros(text, path)
        tree = parse_rmm_text(expansion.text, path, expansion.origin)
        return lower_rmm(tree, path, text, name, expansion.origin, marks)
    except RecursionError:
        raise too_deep(LitmusError, text, path) from None
