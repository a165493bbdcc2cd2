"""The verdict matrix: tests down, models across, Allowed / Forbidden in each cell."""

from __future__ import annotations

from collections import OrderedDict


def test_labels(paths) -> dict[str, str]:
    """Short unique labels: the path relative to the files' common folder, without suffix."""
    import os

    paths = [str(p) for p in paths]
    if len(paths) == 1:
        return {paths[0]: os.path.splitext(os.path.basename(paths[0]))[0]}
    root = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths])
    return {p: os.path.splitext(os.path.relpath(os.path.abspath(p), root))[0] for p in paths}


def verdict_matrix(items) -> tuple[list[str], "OrderedDict[str, dict]"]:
    """(models, {path: {"label": ..., model: "A" | "F" | "error"}}) from run items, in run order."""
    models: list[str] = []
    rows: OrderedDict[str, dict] = OrderedDict()
    items = list(items)
    labels = test_labels(sorted({str(it.path) for it in items}))
    for it in items:
        if it.model not in models:
            models.append(it.model)
        key = str(it.path)
        label = labels[key]
        row = rows.setdefault(key, {"label": label})
        row[it.model] = ("A" if it.result.verdict == "Allowed" else "F") if it.result is not None else "error"
    return models, rows


def matrix_table(items, title: str | None = None):
    """A rich Table of the verdict matrix."""
    from rich.markup import escape
    from rich.table import Table

    models, rows = verdict_matrix(items)
    table = Table(title=title, show_lines=False)
    table.add_column("test")
    for m in models:
        table.add_column(escape(m), justify="center")
    style = {"A": "[green]A[/]", "F": "[red]F[/]", "error": "[bold yellow]error[/]"}
    for row in rows.values():
        table.add_row(escape(row["label"]), *(style.get(row.get(m, ""), "") for m in models))  # SB[x] is no markup
    return table


def matrix_counts(items) -> dict[str, dict[str, int]]:
    """Per model: how many tests were Allowed, Forbidden, or failed."""
    counts: dict[str, dict[str, int]] = {}
    for it in items:
        c = counts.setdefault(it.model, {"Allowed": 0, "Forbidden": 0, "errors": 0})
        if it.result is None:
            c["errors"] += 1
        else:
            c[it.result.verdict] += 1
    return counts
