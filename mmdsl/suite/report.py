"""Reports of a suite run as data: JSON, CSV and Markdown (the HTML page is in ``html.py``)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..core.errors import writing
from .console import MISMATCH_MARK, cell_text, summary_lines, time_line
from .run import SuiteRun

FORMATS = ("md", "html", "json", "csv")
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


def json_report(run: SuiteRun) -> str:
    return json.dumps(run_dict(run), indent=2) + "\n"


def csv_report(run: SuiteRun) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in cell_rows(run):
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()


def md_report(run: SuiteRun) -> str:
    suite = run.suite
    lines = [f"# Suite {suite.name}", ""]
    if suite.description:
        lines += [suite.description, ""]
    lines += [f"{len(run.tests)} tests x {len(run.columns)} models, engine {run.engine}; "
              f"{MISMATCH_MARK} marks a verdict that differs from its expectation.", ""]
    lines.append("| test | " + " | ".join(run.columns) + " |")
    lines.append("|---|" + "---|" * len(run.columns))
    for test in run.tests:
        cells = [_md_escape(cell_text(run, test, col)) for col in run.columns]
        lines.append(f"| {_md_escape(test)} | " + " | ".join(cells) + " |")
    lines += ["", "```", *summary_lines(run, limit=None), f"{time_line(run)}, started {run.started}", "```", ""]
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


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


def render_report(run: SuiteRun, fmt: str, out_path=None) -> str:
    """The report in ``fmt``; ``out_path`` (where it will be written) anchors the HTML's links."""
    if fmt == "json":
        return json_report(run)
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
