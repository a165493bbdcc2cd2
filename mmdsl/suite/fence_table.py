"""``mmdsl suite DIR --fences``: the table of the field -- per program and model, whether the violation is
reachable, every inclusion-minimal fence set (how many, the cheapest) and the time -- as text, Markdown,
CSV, JSON or HTML.

Each cell runs ``select_fences`` with ``all_minimal`` (every set re-checked by the engine) in this
process, within the suite's per-cell time limit; a timeout or a bad program is a cell of its own.
"""

from __future__ import annotations

import csv
import html
import io
import json
import time
from dataclasses import dataclass, field

from ..core.errors import MmdslError
from ..core.limits import TimeLimitError, within
from ..fences import FenceOptions, select_fences
from .manifest import ModelRef, Suite

FORMATS = ("text", "md", "csv", "json", "html")


@dataclass
class FenceCell:
    """One program under one model."""

    test: str
    model: str
    reachable: bool | None = None  # the violation (or unwanted outcome) without fences
    sets: list[str] = field(default_factory=list)  # every minimal set, cheapest first, as text
    costs: list[int] = field(default_factory=list)
    complete: bool = True  # False: the enumeration stopped at its limit or a time limit
    status: str = ""
    time: float = 0.0
    error: str | None = None  # "timeout: ..." or the error's text

    @property
    def cheapest(self) -> str:
        return self.sets[0] if self.sets else ("none needed" if self.reachable is False else "-")

    @property
    def count_text(self) -> str:
        if self.error:
            return "error" if not self.error.startswith("timeout") else "timeout"
        if self.reachable is False:
            return "0"
        return f"{len(self.sets)}{'' if self.complete else '+'}"


@dataclass
class FenceTable:
    suite: str
    models: list[str]
    cells: list[FenceCell]

    def cell(self, test: str, model: str) -> FenceCell:
        return next(c for c in self.cells if c.test == test and c.model == model)


def _set_text(choices) -> str:
    parts: dict[str, list[str]] = {}
    for c in sorted(choices, key=lambda c: (c.place.tid, c.place.index, c.kind.name)):
        where = c.place.line if c.place.line else c.place.index
        parts.setdefault(c.place.thread, []).append(f"{c.kind.name}@{where}")
    return "; ".join(f"{t} {' '.join(v)}" for t, v in parts.items())


def fence_table(suite: Suite, columns: list[ModelRef], timeout: float | None, options: FenceOptions | None = None,
                on_cell=None) -> FenceTable:
    """Every minimal fence set of every test of ``suite`` under each model column."""
    from ..lang import load_model
    from ..litmus import load_litmus

    base = options or FenceOptions()
    cells = []
    for ref in columns:
        model = load_model(ref.source)
        for entry in suite.tests:
            cell = FenceCell(entry.key, ref.column)
            start = time.perf_counter()
            try:
                with within(timeout, f"fences for {entry.key} under {ref.column}"):
                    opts = FenceOptions(**{**base.__dict__, "all_minimal": True})
                    sel = select_fences(load_litmus(entry.path), model, opts)
                cell.reachable = sel.needed
                cell.status = sel.status
                if sel.needed:
                    alts = sel.alternatives or ([sel.fences] if sel.fences else [])
                    cell.sets = [_set_text(a) for a in alts]
                    cell.costs = [sum(c.cost for c in a) for a in alts]
                    cell.complete = not sel.more_alternatives
            except TimeLimitError as err:
                cell.error = f"timeout: {err.message}"
            except MmdslError as err:
                cell.error = str(err)
            cell.time = time.perf_counter() - start
            cells.append(cell)
            if on_cell is not None:
                on_cell(cell)
    return FenceTable(suite.name, [r.column for r in columns], cells)


def _rows(table: FenceTable) -> list[list[str]]:
    rows = []
    for c in table.cells:
        reach = "error" if c.error else ("yes" if c.reachable else "no")
        cheapest = c.cheapest if not c.error else c.error.splitlines()[0]
        cost = str(c.costs[0]) if c.costs else ("0" if c.reachable is False else "-")
        rows.append([c.test, c.model, reach, c.count_text, cost, cheapest, f"{c.time:.2f}"])
    return rows


HEADER = ["program", "model", "reachable", "minimal sets", "cheapest cost", "cheapest set", "time (s)"]


def render_fence_table(table: FenceTable, fmt: str, with_time: bool = True) -> str:
    """The table in ``fmt`` (text, md, csv, json, html); ``with_time`` False leaves the times out (goldens)."""
    header, rows = list(HEADER), _rows(table)
    if not with_time:
        header, rows = header[:-1], [r[:-1] for r in rows]
    if fmt == "json":
        return json.dumps({"suite": table.suite, "models": table.models, "cells": [
            {"program": c.test, "model": c.model, "reachable": c.reachable, "minimal_sets": c.sets,
             "costs": c.costs, "complete": c.complete, "status": c.status, "error": c.error,
             **({"time": round(c.time, 3)} if with_time else {})} for c in table.cells]}, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        return out.getvalue()
    if fmt == "md":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(r.replace("|", "\\|") for r in row) + " |" for row in rows]
        return "\n".join(lines) + "\n"
    if fmt == "html":
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>\n" for row in rows)
        title = html.escape(f"Fence sets: {table.suite}")
        return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n"
                f"<body><h1>{title}</h1>\n<table>\n<tr>{head}</tr>\n{body}</table>\n</body></html>\n")
    if fmt == "text":
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
        fmt_row = "  ".join(f"{{:<{w}}}" for w in widths)
        lines = [fmt_row.format(*header).rstrip(), fmt_row.format(*("-" * w for w in widths))]
        lines += [fmt_row.format(*r).rstrip() for r in rows]
        return "\n".join(lines) + "\n"
    raise MmdslError(f"unknown report format '{fmt}' for --fences", expected=", ".join(FORMATS))
