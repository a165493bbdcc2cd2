"""Fence selection over many tests: one selection per file, errors kept per file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..core.errors import MmdslError
from ..fences import FenceOptions, Selection, select_fences
from ..render.matrix import test_labels
from .runner import located


@dataclass
class FenceItem:
    path: Path
    label: str
    selection: Selection | None = None
    error: MmdslError | None = None


def select_many(paths: list[Path], model_name: str, options: FenceOptions) -> Iterator[FenceItem]:
    """Select fences for every test under one model; a bad file yields an item with its error."""
    from ..lang import load_model
    from ..litmus import load_litmus

    model = load_model(model_name)
    labels = test_labels(paths)
    for path in paths:
        label = labels[str(path)]
        try:
            yield FenceItem(path, label, selection=select_fences(load_litmus(path), model, options))
        except MmdslError as err:
            yield FenceItem(path, label, error=located(err, path))
