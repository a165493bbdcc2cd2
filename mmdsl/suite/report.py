"""Reports of a suite run as data: JSON, CSV and Markdown (the HTML page is in ``html.py``)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from ..core.errors import writing
from .console import MISMATCH_MARK, cell_text, summary_lines, time_line
from .run import SuiteRun

FORMATS = ("md", "html", "json", "csv")
_MD_SPECIAL = re.compile(r"[\\`*_\[\]|~]")  # inline syntax (emphasis, code, links, tables)
_MD_BLOCK = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))")  # what makes a line a heading, quote or list
CSV_FIELDS = ["test", "model", "status", "verdict", "observation", "expected", "outcome", "reason",
              "positive", "negative", "states", "time", "message"]


def cell_rows(run: SuiteRun) -> list[dict]:
    """One flat record per cell, in matrix order (tests down, models across)."""
    rows = []
    for test in run.tests:
        for col in run.columns:
            cell = run.cells.get((test, col))
            if cell is None:
                continue
            exp = run.expectation(test, col)
            rows.append({
                "test": test, "model": col, "status": cell.status,
                "verdict": cell.verdict, "observation": cell.observation,
                "expected": exp.word if exp else None, "outcome": run.outcome(test, col),
                "reason": exp.reason if exp else None,
                "positive": cell.positive, "negative": cell.negative, "states": cell.states,
                "time": round(cell.time, 4), "message": cell.message or None,
                "diagrams": dict(cell.files),
            })
    return rows


def run_dict(run: SuiteRun) -> dict:
    suite = run.suite
    return {
        "suite": suite.name,
        "description": suite.description,
        "manifest": str(suite.manifest) if suite.manifest else None,
        "engine": run.engine,
        "models": [{"column": m.column, "source": m.source} for m in run.models],
        "started": run.started,
        "wall": round(run.wall, 3),
        "executor": run.executor,
        "jobs": run.jobs,
        "tests": len(run.tests),
        "outcomes": run.outcomes(),
        "exit_code": run.exit_code(),
        "results": cell_rows(run),
    }


def json_report(run: SuiteRun, extra: dict | None = None) -> str:
    """The JSON report; ``extra`` adds keys (``bless``: what ``--bless`` did or why it could not)."""
    return json.dumps({**run_dict(run), **(extra or {})}, indent=2) + "\n"


def csv_report(run: SuiteRun) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in cell_rows(run):
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()


def md_report(run: SuiteRun) -> str:
    """The Markdown report; every name in it is text: no HTML, link or emphasis gets through."""
    suite = run.suite
    lines = [f"# Suite {md_text(suite.name)}", ""]
    if suite.description:
        lines += [md_text(line, line_start=True) for line in suite.description.splitlines()] + [""]
    lines += [f"{len(run.tests)} tests x {len(run.columns)} models, engine {md_text(run.engine)}; "
              f"{MISMATCH_MARK} marks a verdict that differs from its expectation.", ""]
    lines.append("| test | " + " | ".join(md_text(c) for c in run.columns) + " |")
    lines.append("|---|" + "---|" * len(run.columns))
    for test in run.tests:
        cells = [md_text(cell_text(run, test, col)) for col in run.columns]
        lines.append(f"| {md_text(test)} | " + " | ".join(cells) + " |")
    summary = [*summary_lines(run, limit=None), f"{time_line(run)}, started {run.started}"]
    fence = "`" * max(3, 1 + max((len(m) for line in summary for m in re.findall(r"`+", line)), default=0))
    lines += ["", fence, *summary, fence, ""]  # a code block: nothing in it is read as Markdown or HTML
    return "\n".join(lines)


def md_text(text: str, line_start: bool = False) -> str:
    """``text`` as literal Markdown text on one line: ``& < >`` as entities (no raw HTML), a
    backslash before each character of inline syntax (``| * _ [ ] ~``, backquote, backslash) and, at the start
    of a line, before what would make it a heading, a quote or a list."""
    text = " ".join(str(text).replace("\r", " ").split("\n"))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\g<0>", text)
    if line_start:
        text = _MD_BLOCK.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if not m.group(2)[0].isdigit()
                             else f"{m.group(1)}{m.group(2)}\\", text)
    return text


def report_format(fmt: str | None, output=None, as_json: bool = False) -> str | None:
    """The report format asked for: ``fmt``, else guessed from ``output``'s suffix (JSON by default);
    ``as_json`` (``--json``) is the JSON report on stdout and nothing else."""
    from ..core.errors import MmdslError

    if as_json:
        if fmt not in (None, "json") or output is not None:
            raise MmdslError("--json prints the JSON report on stdout and nothing else",
                             hint="for a report file, or another format, use --report FORMAT -o FILE")
        return "json"
    if fmt is None and output is not None:
        fmt = {".html": "html", ".htm": "html", ".md": "md", ".csv": "csv"}.get(output.suffix, "json")
    if fmt is not None and fmt not in FORMATS:
        raise MmdslError(f"unknown report format '{fmt}'", expected=", ".join(FORMATS))
    return fmt


def render_report(run: SuiteRun, fmt: str, out_path=None, extra: dict | None = None) -> str:
    """The report in ``fmt``; ``out_path`` (where it will be written) anchors the HTML's links;
    ``extra`` adds keys to the JSON report."""
    if fmt == "json":
        return json_report(run, extra)
    if fmt == "csv":
        return csv_report(run)
    if fmt == "md":
        return md_report(run)
    if fmt == "html":
        from .html import html_report

        return html_report(run, out_path)
    raise ValueError(fmt)


def write_report(text: str, output: Path) -> None:
    """Write a rendered report to ``output``, creating its folder if needed."""
    with writing(f"the report {output}"):
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text)
