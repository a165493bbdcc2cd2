"""Reports: one self-contained HTML page, JSON and CSV with every cell, Markdown."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from refdata import ROOT, classic_verdicts
from suitefiles import make_suite, mmdsl

from mmdsl.suite.manifest import load_suite
from mmdsl.suite.report import render_report
from mmdsl.suite.run import model_columns, run_suite

VOID = {"meta", "input", "br", "hr", "img", "link"}


@pytest.fixture(scope="module")
def classic_run():
    suite = load_suite("litmus/classic")
    # tso's column runs pso's model: the tests on which they differ become mismatches
    return run_suite(suite, model_columns(suite, ["sc", "tso=models/pso.mm"]), jobs=1)


def _pso_only_allowed() -> set[str]:
    """Classic shapes that PSO allows and TSO forbids, from the reference verdicts."""
    ref = classic_verdicts()
    return {t for t, v in ref.items() if v["pso"] == "Allowed" and v["tso"] == "Forbidden"}


class _Page(HTMLParser):
    """Checks that tags nest, collects cells, scripts, styles and any external reference."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.cells, self.external, self.scripts, self.styles = [], [], [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if key in a and ("//" in a[key] or a[key].startswith(("http", "data:"))):
                self.external.append(a[key])
        if tag == "link":
            self.external.append(a.get("href"))
        if tag == "td" and "data-model" in a:
            self.cells.append(a)
        if tag not in VOID:
            self.stack.append(tag)
        self._in = tag

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        if self._in == "script" and data.strip():
            self.scripts.append(data)
        if self._in == "style" and data.strip():
            self.styles.append(data)


def test_html_is_one_valid_self_contained_page(classic_run, tmp_path):
    text = render_report(classic_run, "html", tmp_path / "r.html")
    page = _Page()
    page.feed(text)
    page.close()
    assert page.stack == [], "unclosed tags"
    assert page.external == [] and "<script src" not in text
    assert len(page.scripts) == 1 and len(page.styles) == 1
    assert len(page.cells) == 2 * len(classic_run.tests)
    mismatched = {c["data-model"] + ":" + c.get("title", "") for c in page.cells if c["data-outcome"] == "mismatch"}
    assert len(mismatched) == len([t for t in classic_run.tests if t.split("/")[-1] in _pso_only_allowed()])
    assert all("mismatch" in c["class"] for c in page.cells if c["data-outcome"] == "mismatch")
    # the filters: one checkbox per model, a verdict selector with mismatches
    assert text.count('class="model"') == 2 and '<option value="mismatch">' in text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_html_script_is_valid_javascript(classic_run, tmp_path):
    page = _Page()
    page.feed(render_report(classic_run, "html"))
    js = tmp_path / "page.js"
    js.write_text(page.scripts[0])
    proc = subprocess.run(["node", "--check", str(js)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_json_report_has_every_cell_with_its_expectation(classic_run):
    data = json.loads(render_report(classic_run, "json"))
    assert data["suite"] == "classic" and data["exit_code"] == 1
    assert [m["column"] for m in data["models"]] == ["sc", "tso"]
    cells = {(r["test"], r["model"]): r for r in data["results"]}
    assert len(cells) == 2 * len(classic_run.tests)
    mp = cells[("MP", "tso")]
    assert (mp["verdict"], mp["observation"], mp["expected"], mp["outcome"]) == (
        "Allowed", "Sometimes", "Forbidden", "mismatch")
    assert mp["reason"] == "diy cycle PodWW Rfe PodRR Fre"
    assert data["outcomes"]["mismatch"] == sum(1 for r in data["results"] if r["outcome"] == "mismatch")


def test_csv_report_rows_match_the_reference(classic_run):
    rows = list(csv.DictReader(io.StringIO(render_report(classic_run, "csv"))))
    ref = classic_verdicts()
    assert len(rows) == 2 * len(classic_run.tests)
    for r in rows:
        shape = r["test"].split("/")[-1]
        column = {"sc": "sc", "tso": "pso"}[r["model"]]  # the tso column ran pso's model
        assert r["verdict"] == ref[shape][column], r


def test_markdown_report_is_a_table_with_marks(classic_run):
    text = render_report(classic_run, "md")
    assert text.startswith("# Suite classic\n")
    assert "| test | sc | tso |" in text
    assert "| MP | Forbidden | Allowed ✗ |" in text


def test_cli_writes_the_report_file_and_the_matrix(tmp_path):
    make_suite(tmp_path / "s", "name: mini\nmodels: [sc, tso]\ntests: '*.litmus'\n"
                               "expect:\n  SB: {sc: F, tso: A}\n", tests=("SB", "MP"))
    out = tmp_path / "out" / "report.html"
    proc = mmdsl("suite", str(tmp_path / "s"), "--report", "html", "-o", str(out), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert f"report: {out}" in proc.stdout and "│ SB   │ Forbidden │ Allowed   │" in proc.stdout
    proc = mmdsl("suite", str(tmp_path / "s"), "--report", "csv", "--jobs", "1")
    assert proc.stdout.splitlines()[0].startswith("test,model,status,verdict,observation,expected")
    assert len(proc.stdout.splitlines()) == 5


def test_draw_writes_a_diagram_per_cell_and_the_html_links_them(tmp_path):
    make_suite(tmp_path / "s", "name: mini\nmodels: [sc, tso]\ntests: '*.litmus'\n", tests=("SB", "MP"))
    out = tmp_path / "out"
    proc = mmdsl("suite", str(tmp_path / "s"), "--draw", str(out / "diagrams"), "--report", "html",
                 "-o", str(out / "report.html"), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert f"wrote 4 diagram(s) into {out / 'diagrams'}" in proc.stdout
    links = [a for a in re.findall(r'<a href="([^"]+)">(Allowed|Forbidden)</a>', (out / "report.html").read_text())]
    assert sorted(href for href, _ in links) == ["diagrams/sc/MP.svg", "diagrams/sc/SB.svg",
                                                 "diagrams/tso/MP.svg", "diagrams/tso/SB.svg"]
    assert all((out / href).is_file() for href, _ in links)
    # the tso/SB diagram is the witness (allowed), the sc/SB one the forbidden execution with its cycle
    assert "under <i>tso</i><br/><font point-size=\"11\">allowed; satisfies" in (
        out / "diagrams" / "tso" / "SB.dot").read_text()
    assert "forbidden: violates sc" in (out / "diagrams" / "sc" / "SB.dot").read_text()


def test_unwritable_report_and_diagram_paths_are_clear_errors(tmp_path):
    """A report or a diagram folder where a file stands: one line on stderr, exit 2, no traceback."""
    make_suite(tmp_path / "s", "name: mini\nmodels: [sc]\ntests: '*.litmus'\n", tests=("SB",))
    (tmp_path / "taken").write_text("a file, not a folder")
    report = tmp_path / "taken" / "report.html"
    proc = mmdsl("suite", str(tmp_path / "s"), "--report", "html", "-o", str(report), "--jobs", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"error: cannot write the report {report}")
    proc = mmdsl("suite", str(tmp_path / "s"), "--draw", str(tmp_path / "taken"), "--jobs", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"error: cannot write the diagrams into {tmp_path / 'taken'}" in proc.stderr
    proc = mmdsl("diff-models", "sc", "tso", "--suite", str(tmp_path / "s"), "-o", str(tmp_path / "taken"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"error: cannot write the explanations into {tmp_path / 'taken'}" in proc.stderr


def test_draw_under_the_explorer_engine(tmp_path):
    """Explorer cells get the checker's execution; a program with a loop is 'no diagram', with why,
    not 'no execution satisfies the condition'."""
    from mmdsl.suite.drawing import write_cell_diagrams

    folder = make_suite(tmp_path / "s", None, tests=("SB", "MP"))
    shutil.copy(ROOT / "litmus" / "programs" / "rowo.litmus", folder / "rowo.litmus")
    suite = load_suite(folder)
    run = run_suite(suite, model_columns(suite, ["tso"]), engine="explorer", executor="inline", draw=True)
    drawn = write_cell_diagrams(run, tmp_path / "d", "dot")
    assert sorted(p.name for p in drawn.files) == ["MP.dot", "SB.dot"]
    assert drawn.nothing == []
    assert drawn.failed == ["rowo under tso: rowo has a loop, and execution diagrams come from the axiomatic "
                            "checker, which runs loop-free tests"]
    assert "forbidden: violates tso" in (tmp_path / "d" / "tso" / "MP.dot").read_text()


def test_json_flag_conflicts_are_bad_input(tmp_path):
    """--json is the JSON report on stdout, nothing else: with another --report or an -o file it
    used to write that format to stdout, or JSON into report.html and the matrix to stdout."""
    make_suite(tmp_path / "s", "name: mini\nmodels: [sc]\ntests: '*.litmus'\n", tests=("SB",))
    for extra in (["--report", "csv"], ["-o", str(tmp_path / "report.html")]):
        proc = mmdsl("suite", str(tmp_path / "s"), "--json", *extra)
        assert proc.returncode == 2, extra
        [error] = json.loads(proc.stdout)["errors"]  # errors of a --json command are JSON too
        assert error["message"] == "--json prints the JSON report on stdout and nothing else"
    assert not (tmp_path / "report.html").exists()
    proc = mmdsl("suite", str(tmp_path / "s"), "--json", "--report", "json", "--jobs", "1")
    assert proc.returncode == 0 and json.loads(proc.stdout)["results"][0]["verdict"] == "Forbidden"
