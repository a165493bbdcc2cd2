"""The HTML report: one self-contained page (inline CSS and JS) with the matrix and its filters."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from urllib.parse import quote

from .console import MISMATCH_MARK, cell_text, summary_lines, time_line
from .run import SuiteRun

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
.meta { color: #555; margin: .2em 0 1em; }
#filters { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: center; margin: .8em 0;
           padding: .5em .8em; background: #f4f4f4; border-radius: 4px; }
#filters fieldset { border: 0; margin: 0; padding: 0; }
table.matrix { border-collapse: collapse; }
table.matrix th, table.matrix td { border: 1px solid #ccc; padding: 2px 8px; text-align: center; }
table.matrix th:first-child, table.matrix td:first-child { text-align: left; font-family: monospace; }
td.Allowed { color: #176b1c; } td.Forbidden { color: #a31515; }
td.mismatch { background: #ffd6e8; font-weight: bold; color: #7a0040; }
td.timeout, td.limit, td.crash, td.error, td.disagree, td.hw-forbidden { background: #fff0b3; font-weight: bold; }
td a { color: inherit; }
.hidden { display: none; }
pre.summary { background: #f8f8f8; padding: .6em; border-left: 3px solid #aaa; }
"""

_JS = """
(function () {
  var table = document.getElementById('matrix');
  function apply() {
    var shown = {};
    document.querySelectorAll('input.model').forEach(function (b) { shown[b.value] = b.checked; });
    var want = document.getElementById('verdict').value;
    var text = document.getElementById('search').value.toLowerCase();
    table.querySelectorAll('[data-model]').forEach(function (c) {
      c.classList.toggle('hidden', !shown[c.dataset.model]);
    });
    var visible = 0;
    table.querySelectorAll('tbody tr').forEach(function (row) {
      var match = want === 'all';
      row.querySelectorAll('td[data-model]').forEach(function (c) {
        if (!shown[c.dataset.model]) return;
        var o = c.dataset.outcome, v = c.dataset.verdict;
        if (want === v || want === o ||
            (want === 'problem' && ['mismatch', 'timeout', 'limit', 'crash', 'error', 'disagree', 'hw-forbidden'].indexOf(o) >= 0)) {
          match = true;
        }
      });
      if (text && row.dataset.test.toLowerCase().indexOf(text) < 0) match = false;
      row.classList.toggle('hidden', !match);
      if (match) visible += 1;
    });
    document.getElementById('count').textContent = visible + ' of ' + table.tBodies[0].rows.length + ' tests';
  }
  document.querySelectorAll('#filters input, #filters select').forEach(function (el) {
    el.addEventListener('input', apply);
    el.addEventListener('change', apply);
  });
  apply();
})();
"""


def html_report(run: SuiteRun, out_path: str | Path | None = None) -> str:
    """The page; diagram links are made relative to ``out_path``'s folder when given."""
    base = Path(out_path).resolve().parent if out_path else None
    suite = run.suite
    head = [f"{len(run.tests)} tests x {len(run.columns)} models, engine {escape(run.engine)}, "
            f"run {escape(run.started)}. {escape(MISMATCH_MARK)} marks a verdict that differs from its expectation."]
    if suite.description:
        head.insert(0, escape(suite.description))
    models = "".join(f'<label><input type="checkbox" class="model" value="{escape(c)}" checked> {escape(c)}</label> '
                     for c in run.columns)
    filters = (
        f'<div id="filters"><fieldset><strong>models</strong> {models}</fieldset>'
        '<label><strong>show</strong> <select id="verdict">'
        '<option value="all">every test</option><option value="Allowed">some Allowed</option>'
        '<option value="Forbidden">some Forbidden</option><option value="mismatch">mismatches</option>'
        '<option value="problem">any problem</option></select></label>'
        '<label><strong>test</strong> <input id="search" type="search" placeholder="name contains"></label>'
        '<span id="count"></span></div>')
    rows = []
    for test in run.tests:
        tds = [f"<td>{escape(test)}</td>"]
        for col in run.columns:
            tds.append(_cell_html(run, test, col, base))
        rows.append(f'<tr data-test="{escape(test)}">' + "".join(tds) + "</tr>")
    header = "<tr><th>test</th>" + "".join(f'<th data-model="{escape(c)}">{escape(c)}</th>' for c in run.columns)
    summary = "\n".join(escape(line) for line in [*summary_lines(run, limit=None), time_line(run)])
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>Suite {escape(suite.name)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>Suite {escape(suite.name)}</h1>\n"
        + "".join(f'<p class="meta">{h}</p>\n' for h in head)
        + filters + "\n"
        f'<table class="matrix" id="matrix">\n<thead>{header}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + f"\n</tbody>\n</table>\n<pre class=\"summary\">{summary}</pre>\n<script>{_JS}</script>\n</body>\n</html>\n"
    )


def _cell_html(run: SuiteRun, test: str, col: str, base: Path | None) -> str:
    cell = run.cells.get((test, col))
    if cell is None:
        return f'<td data-model="{escape(col)}" data-outcome="" data-verdict=""></td>'
    outcome = run.outcome(test, col)
    exp = run.expectation(test, col)
    tip = [f"{cell.verdict} ({cell.observation}), {cell.states} states, {cell.time:.3f} s"
           if cell.verdict else cell.message]
    if exp is not None:
        tip.append(f"expected {exp.describe()}")
    if cell.verdict and cell.message:  # e.g. why the cell has no diagram
        tip.append(cell.message)
    classes = [cell.verdict or "", outcome]
    text = escape(cell_text(run, test, col))
    diagram = cell.files.get("diagram")
    if diagram:  # the verdict links to the cell's diagram (--draw)
        href = quote(Path(os.path.relpath(diagram, base) if base else diagram).as_posix(), safe="/+=")
        text = f'<a href="{escape(href)}">{text}</a>'
    return (f'<td data-model="{escape(col)}" data-outcome="{escape(outcome)}" '
            f'data-verdict="{escape(cell.verdict or "")}" class="{" ".join(c for c in classes if c)}" '
            f'title="{escape(" / ".join(tip))}">{text}</td>')
