"""Crafted names: test and model names that try to leave the output folder, break or inject into
DOT, HTML, Markdown or rich markup. Each must come out as inert text (issue 9, items 11-13).

The DOT tests run the real Graphviz `dot` (skipped when it is not installed).
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from refdata import ROOT
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.drawing import DrawOptions, draw_test
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.report import render_report
from mmdsl.suite.run import model_columns, run_suite

CLASSIC = ROOT / "litmus" / "classic"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")

# test names a litmus header accepts (one token) that are DOT, HTML or escString syntax
HOSTILE_NAMES = [  # (a header name has no white space and no double quote)
    "<script>alert(1)</script>",  # an HTML-like DOT string if left bare: `dot` failed
    "<x>{evil[image=passwd]}<y>",  # a graph body with an image injected through the graph's name
    "ends-in-backslash\\",  # `\"` would swallow the closing quote of the graph's name
    "\\N\\G\\L\\l\\E\\\\",  # escString escapes: must print as written
    "a:b",  # a node id with a colon is a node and a port
    "&amp;&lt;'x'",
]


def _sb_named(folder: Path, name: str, file: str = "T.litmus", source: str = "SB") -> Path:
    """The classic test ``source`` with ``name`` in its header."""
    body = (CLASSIC / f"{source}.litmus").read_text().split("\n", 1)[1]
    path = folder / file
    path.write_text(f"X86 {name}\n{body}")
    return path


def _svg_texts(svg: Path) -> tuple[ET.Element, str]:
    root = ET.parse(svg).getroot()
    return root, " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))


# ----- 11. output paths -------------------------------------------------------------
@pytest.mark.parametrize("name, stem", [
    ("..", "__"), (".", "_"), ("", "_"), ("../../x", "___.._x"),
    ("SB+mfences", "SB+mfences"), ("lisa/SB", "lisa_SB"), (".hidden", "_hidden"), ("a\\b", "a_b"),
    ("é", "_"), ("nul\0byte", "nul_byte"),
])
def test_safe_stem_is_one_harmless_component(name, stem):
    from mmdsl.core.outfiles import safe_stem

    got = safe_stem(name)
    assert got == stem
    assert "/" not in got and "\\" not in got and not got.startswith(".") and got


def test_safe_stem_keeps_long_names_apart():
    from mmdsl.core.outfiles import safe_stem

    a, b = safe_stem("A" * 300 + "1"), safe_stem("A" * 300 + "2")
    assert a != b and len(a) <= 120 and len(b) <= 120


def test_safe_subpath_never_climbs():
    from mmdsl.core.outfiles import safe_subpath

    assert safe_subpath("lisa/SB") == "lisa/SB"
    assert safe_subpath("../../etc/passwd") == "__/__/etc/passwd"
    assert safe_subpath("/abs//x") == "abs/x"
    assert safe_subpath("") == "_"


def test_inside_refuses_a_link_that_leaves_the_folder(tmp_path):
    from mmdsl.core.outfiles import inside

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "tso").symlink_to(elsewhere)
    assert inside(out, "sc/SB.dot") == out / "sc" / "SB.dot"
    with pytest.raises(MmdslError, match="outside"):
        inside(out, "tso/SB.dot")


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def test_suite_draw_with_a_dotdot_model_column_writes_only_into_the_folder(tmp_path):
    """`models: ["../../x=tso"]` once wrote OUT/../../x/SB.dot."""
    from mmdsl.suite.drawing import write_cell_diagrams

    suite_dir = tmp_path / "a" / "b" / "suite"
    suite_dir.mkdir(parents=True)
    shutil.copy(CLASSIC / "SB.litmus", suite_dir / "SB.litmus")
    (suite_dir / "manifest.yaml").write_text('name: s\nmodels: ["../../x=tso", "..=sc"]\ntests: ["*.litmus"]\n')
    before = _files(tmp_path)
    suite = load_suite(suite_dir)
    run = run_suite(suite, model_columns(suite, []), executor="inline", draw=True)
    out = suite_dir / "d"
    drawn = write_cell_diagrams(run, out, "dot")
    assert len(drawn.files) == 2
    new = _files(tmp_path) - before
    assert new and all(out in p.parents for p in new), sorted(map(str, new))
    assert sorted(p.relative_to(out).as_posix() for p in new) == ["__/SB.dot", "___.._x/SB.dot"]
    assert all(Path(c.files["diagram"]).is_file() for c in run.cells.values())


def test_draw_names_files_from_the_header_safely(tmp_path):
    test = _sb_named(tmp_path, "../../evil")
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["draw", str(test), "-m", "tso", "-o", str(out), "-f", "dot", "--show", "all",
                                 "--max", "2"])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["___.._evil-2.dot", "___.._evil.dot"]  # no hidden file, nothing outside
    assert _files(tmp_path) == {test, *(out / n for n in names)}


def test_run_draw_and_state_graph_names_are_safe(tmp_path):
    test = _sb_named(tmp_path, ".hidden")
    out = tmp_path / "d"
    r = CliRunner().invoke(app, ["run", str(test), "-m", "tso", "--draw", str(out), "--draw-format", "dot"])
    assert r.exit_code == 0, r.output
    assert [p.relative_to(out).as_posix() for p in _files(out)] == ["tso/T.dot"]
    report = draw_test(load_litmus(test), load_model("tso"), tmp_path / "s",
                       DrawOptions(state_graph=True, fmt="dot"))
    assert [p.name for p in report.written.files] == ["_hidden-states.dot"]


# ----- 12. DOT ----------------------------------------------------------------------
def _node_count(svg_root) -> int:
    return sum(1 for g in svg_root.iter("{http://www.w3.org/2000/svg}g") if "node" in g.get("class", "").split())


@needs_dot
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_test_name_is_only_text_in_the_execution_diagram(tmp_path, name):
    base = draw_test(load_litmus(CLASSIC / "SB.litmus"), load_model("tso"), tmp_path / "base", DrawOptions())
    test = _sb_named(tmp_path, name)
    program = load_litmus(test)
    assert program.name == name
    report = draw_test(program, load_model("tso"), tmp_path / "out", DrawOptions())
    assert not report.written.failed, report.messages
    svg = [p for p in report.written.files if p.suffix == ".svg"]
    assert len(svg) == 1
    root, text = _svg_texts(svg[0])
    base_root, _ = _svg_texts(base.written.files[0])
    assert _node_count(root) == _node_count(base_root)  # no node injected
    assert not list(root.iter("{http://www.w3.org/2000/svg}image"))
    assert name in text.replace("\xa0", " ")  # the title shows the name exactly as written


@needs_dot
@pytest.mark.parametrize("name", HOSTILE_NAMES[:4])
def test_a_hostile_test_name_is_only_text_in_the_state_graph(tmp_path, name):
    program = load_litmus(_sb_named(tmp_path, name))
    for detail in (False, True):
        report = draw_test(program, load_model("tso"), tmp_path / f"out{detail}",
                           DrawOptions(state_graph=True, detail=detail))
        assert not report.written.failed, report.messages
        svg = [p for p in report.written.files if p.suffix == ".svg"][0]
        root, text = _svg_texts(svg)
        assert not list(root.iter("{http://www.w3.org/2000/svg}image"))
        assert name in text


def test_dot_text_escapes_every_kind_of_place():
    import graphviz

    from mmdsl.render.dot_text import dot_id, dot_string, html_text

    g = graphviz.Digraph(name=dot_string("<a>"))
    g.node(dot_id("x:y"), label=dot_string('q\\"]; z [image="p"'), tooltip=dot_string("<t>\n\0"))
    src = g.source
    assert src.startswith('digraph "<a>" {')
    assert 'label="q\\\\\\"]; z [image=\\"p\\""' in src
    assert "x_3a_y" in src and "\0" not in src and 'tooltip="<t>\\n\ufffd"' in src
    assert html_text("<b>&'\"") == "&lt;b&gt;&amp;&#x27;&quot;"


@needs_dot
def test_entities_in_a_plain_label_are_shown_as_typed():
    """Graphviz reads ``&amp;`` in a plain label as ``&``: a name made of entities was shown
    as another name (a test named ``a&amp;b`` as ``a&b``)."""
    import subprocess
    from xml.etree import ElementTree

    from mmdsl.render.dot_text import dot_string

    for name in ("a&amp;b", "&lt;x&#38;", "plain & simple"):
        src = f'digraph {{ n [label="{dot_string(name)}"] }}'
        svg = subprocess.run(["dot", "-Tsvg"], input=src, capture_output=True, text=True, check=True).stdout
        texts = [t.text for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
        assert [t.replace("\xa0", " ") for t in texts] == [name]


# ----- one diagram's failure never stops a report -------------------------------------
@needs_dot
def test_suite_report_is_written_when_a_diagram_fails(tmp_path, monkeypatch):
    """A crafted name once made `dot` fail, and then no HTML report was written at all;
    now every name is escaped, and a diagram that still fails is noted in its cell."""
    from mmdsl.render import graphviz_out
    from mmdsl.suite.drawing import write_cell_diagrams

    folder = tmp_path / "s"
    folder.mkdir()
    _sb_named(folder, "<script>alert(1)</script>", "X.litmus")
    shutil.copy(CLASSIC / "MP.litmus", folder / "MP.litmus")
    suite = load_suite(folder)
    run = run_suite(suite, model_columns(suite, ["tso"]), executor="inline", draw=True)
    real = graphviz_out._run_dot

    def fails_on_mp(files, fmt):
        return "Error: simulated" if any(f.name == "MP.dot" for f in files) else real(files, fmt)

    monkeypatch.setattr(graphviz_out, "_run_dot", fails_on_mp)
    drawn = write_cell_diagrams(run, tmp_path / "d", "svg")
    assert [p.name for p in drawn.files] == ["X.svg"]
    assert drawn.failed == ["MP under tso: graphviz `dot` failed: Error: simulated"]
    page = render_report(run, "html", tmp_path / "r.html")
    assert 'href="d/tso/X.svg"' in page and "simulated" in page
    assert "<script>alert" not in page


@needs_dot
def test_cli_suite_with_a_hostile_name_writes_every_diagram_and_the_report(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    _sb_named(folder, "<script>alert(1)</script>", "X.litmus")
    _sb_named(folder, "<x>{evil[image=passwd]}<y>", "Y.litmus", "MP")
    r = CliRunner().invoke(app, ["suite", str(folder), "-m", "tso", "-m", "<i>m=sc", "--executor", "inline",
                                 "--draw", str(tmp_path / "d"), "--report", "html", "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    assert "wrote 4 diagram(s)" in r.output
    page = (tmp_path / "r.html").read_text()
    assert "&lt;i&gt;m" in page and "<i>m" not in page
    assert sorted(p.relative_to(tmp_path / "d").as_posix() for p in (tmp_path / "d").rglob("*.svg")) == [
        "_i_m/X.svg", "_i_m/Y.svg", "tso/X.svg", "tso/Y.svg"]


# ----- 13. Markdown, rich markup ----------------------------------------------------------
def test_markdown_report_is_inert_text(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    evil = "<img src=x onerror=alert(1)>|[a](javascript:x)*b*`c`"
    shutil.copy(CLASSIC / "SB.litmus", folder / f"{evil}.litmus")
    (folder / "manifest.yaml").write_text(
        "name: '<b>suite</b>'\ndescription: |\n  <script>alert(1)</script>\n  # not a heading\n"
        f"models: ['<i>x=tso']\ntests: ['*.litmus']\n")
    suite = load_suite(folder)
    run = run_suite(suite, model_columns(suite, []), executor="inline")
    md = render_report(run, "md")
    fence = md.index("\n```")
    outside = md[:fence]
    assert "<" not in outside and ">" not in outside  # no raw HTML outside the code block
    assert "\n\\# not a heading" in outside
    row = next(line for line in outside.splitlines() if "img" in line)
    assert len(re.findall(r"(?<!\\)\|", row)) == 3  # | test | x | : the name's | does not add a column
    assert "\\[a\\](javascript:x)\\*b\\*\\`c\\`" in row


def test_markdown_summary_block_is_not_closed_by_backticks(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    shutil.copy(CLASSIC / "SB.litmus", folder / "SB.litmus")
    (folder / "manifest.yaml").write_text("name: s\nmodels: ['x```y=tso']\ntests: ['*.litmus']\n"
                                          "expect: {SB: {x```y: F}}\n")
    suite = load_suite(folder)
    md = render_report(run_suite(suite, model_columns(suite, []), executor="inline"), "md")
    assert "\n````\n" in md  # a longer fence than the name's run of backticks


def test_fences_on_a_folder_named_bracket_prints_the_labels(tmp_path):
    folder = tmp_path / "t" / "["
    folder.mkdir(parents=True)
    (tmp_path / "t" / "x").mkdir()
    shutil.copy(CLASSIC / "SB.litmus", folder / "].litmus")
    shutil.copy(CLASSIC / "MP.litmus", folder / "[bold]x.litmus")
    shutil.copy(CLASSIC / "LB.litmus", tmp_path / "t" / "x" / "LB.litmus")
    r = CliRunner().invoke(app, ["fences", str(tmp_path / "t"), "-m", "tso"])
    assert r.exit_code == 0, r.output
    assert "[/]" in r.output and "[/[bold]x" in r.output


def test_run_matrix_with_bracket_names(tmp_path):
    folder = tmp_path / "["
    folder.mkdir()
    (tmp_path / "x").mkdir()
    shutil.copy(CLASSIC / "SB.litmus", folder / "].litmus")
    shutil.copy(CLASSIC / "MP.litmus", tmp_path / "x" / "[bold]MP.litmus")
    r = CliRunner().invoke(app, ["run", str(tmp_path), "-m", "tso", "-q"])
    assert r.exit_code == 0, r.output
    assert "[/]" in r.output and "x/[bold]MP" in r.output
