"""The HTML report's filters, run by node against the page's own cells (a minimal DOM stand-in)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from mmdsl.suite.manifest import load_suite, select_tests
from mmdsl.suite.report import render_report
from mmdsl.suite.run import model_columns, run_suite

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

# Builds the elements the script touches from the page's data, runs the script, then applies each
# step (a filter change) and prints the tests left visible and whether the tso column is hidden.
HARNESS = r"""
const page = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function el(props) {
  const e = Object.assign({dataset: {}, hidden: false, listeners: []}, props);
  e.classList = {toggle(name, on) { if (name === 'hidden') e.hidden = on; }};
  e.addEventListener = (type, f) => { if (type === 'change') e.listeners.push(f); };
  return e;
}
const boxes = page.models.map(m => el({value: m, checked: true}));
const controls = {verdict: el({value: 'all'}), search: el({value: ''}), count: el({textContent: ''})};
const heads = page.heads.map(m => el({dataset: {model: m}}));
const rows = page.rows.map(r => {
  const cells = r.cells.map(c => el({dataset: c}));
  return el({dataset: {test: r.test}, cells, querySelectorAll: () => cells});
});
const modelled = heads.concat(...rows.map(r => r.cells));
controls.matrix = {querySelectorAll: s => (s === 'tbody tr' ? rows : modelled), tBodies: [{rows}]};
global.document = {
  getElementById: id => controls[id],
  querySelectorAll: s => (s === 'input.model' ? boxes : [...boxes, controls.verdict, controls.search]),
};
eval(page.script);
const out = [];
for (const step of page.steps) {
  const target = step.model !== undefined ? boxes[page.models.indexOf(step.model)] : controls[step.control];
  if (step.model !== undefined) target.checked = step.checked; else target.value = step.value;
  target.listeners.forEach(f => f());
  out.push({shown: rows.filter(r => !r.hidden).map(r => r.dataset.test), count: controls.count.textContent,
            tso_hidden: modelled.filter(c => c.dataset.model === 'tso').every(c => c.hidden)});
}
console.log(JSON.stringify(out));
"""


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.heads, self.models, self.script, self._tag = [], [], [], "", None

    def handle_starttag(self, tag, attrs):
        a, self._tag = dict(attrs), tag
        if tag == "tr" and "data-test" in a:
            self.rows.append({"test": a["data-test"], "cells": []})
        elif tag == "td" and "data-model" in a:
            self.rows[-1]["cells"].append({k: a[f"data-{k}"] for k in ("model", "outcome", "verdict")})
        elif tag == "th" and "data-model" in a:
            self.heads.append(a["data-model"])
        elif tag == "input" and a.get("class") == "model":
            self.models.append(a["value"])

    def handle_data(self, data):
        if self._tag == "script":
            self.script += data


def test_filters_show_the_rows_and_columns_asked_for():
    # lisa/S: sc Forbidden, tso(=pso) Allowed -- a mismatch; lisa/SB: F/A as expected; lisa/MP: F/A mismatch
    suite = select_tests(load_suite("litmus/classic"), ["lisa/S", "lisa/SB", "lisa/MP"])
    run = run_suite(suite, model_columns(suite, ["sc", "tso=pso"]), executor="inline")
    page = _Cells()
    page.feed(render_report(run, "html"))
    steps = [{"control": "verdict", "value": "mismatch"},
             {"control": "verdict", "value": "Allowed"},
             {"model": "tso", "checked": False},  # Allowed cells are all in the hidden column now
             {"model": "tso", "checked": True},
             {"control": "verdict", "value": "all"},
             {"control": "search", "value": "sb"}]
    data = dict(rows=page.rows, heads=page.heads, models=page.models, script=page.script, steps=steps)
    proc = subprocess.run(["node", "-e", HARNESS], input=json.dumps(data), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    got = [(s["shown"], s["tso_hidden"]) for s in json.loads(proc.stdout)]
    assert got == [(["lisa/MP", "lisa/S"], False),
                   (["lisa/MP", "lisa/S", "lisa/SB"], False),
                   ([], True),
                   (["lisa/MP", "lisa/S", "lisa/SB"], False),
                   (["lisa/MP", "lisa/S", "lisa/SB"], False),
                   (["lisa/SB"], False)]
    assert json.loads(proc.stdout)[0]["count"] == "2 of 3 tests"
