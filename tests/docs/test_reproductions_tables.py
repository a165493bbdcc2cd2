"""The side-by-side tables of docs/reproductions.md against their sources: the .NET paper's
verdicts and barrier counts (tests/reference/seed-programs.md), the bundled programs'
expected verdicts (the two manifests, which the suite tests pin), the atomicity Table 1
(litmus/atomicity/table1.csv and docs/atomicity.md's rows, pinned by
tests/check/atomicity/test_atomicity_table.py) and, marked slow, the C# fence counts."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "reproductions.md").read_text()
SEED = (ROOT / "tests" / "reference" / "seed-programs.md").read_text()
COLUMNS = ("I", "L", "C", "W")


def _rows(first: str) -> list[list[str]]:
    """The rows of the table whose header starts with ``first``."""
    lines = DOC.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(first))
    out = []
    for ln in lines[start + 2:]:
        if not ln.startswith("|"):
            break
        out.append([c.strip() for c in ln.strip("|").split("|")])
    return out


def _dotnet_rows() -> dict:
    return {r[0]: r for r in _rows("| program | paper: violation (.NET)")}


def _expect(manifest: Path) -> dict:
    return yaml.safe_load(manifest.read_text())["expect"]


def test_dotnet_verdicts_and_barriers_side_by_side():
    rows = _dotnet_rows()
    assert len(rows) == 10
    programs = _expect(ROOT / "litmus" / "programs" / "manifest.yaml")
    csharp = _expect(ROOT / "litmus" / "csharp" / "manifest.yaml")
    barriers = dict(re.findall(r"(\w[\w-]*) [\d.]+/(\d+)", SEED.split("Barriers inserted")[1].split("\n\n")[0]))
    for name, (_, paper, c_dotnet, cs_dotnet, cs_sc, paper_barriers, _c_fences, _cs_fences) in rows.items():
        paper_name, cs_name = name.split(" / ")
        first = re.search(rf"^\| {re.escape(paper_name)} \|(?:[^|]*\|){{4}}\s*([^|]+?)\s*\|", SEED, re.M).group(1)
        assert paper == ("no" if first == "none" else "yes"), name
        assert c_dotnet == programs["dcl" if paper_name == "dc" else paper_name]["dotnet"], name
        assert (cs_dotnet, cs_sc) == (csharp[cs_name]["dotnet"], csharp[cs_name]["sc"]), name
        assert cs_dotnet == ("Allowed" if paper == "yes" else "Forbidden"), name  # "all ten agree"
        assert paper_barriers == barriers.get(paper_name, "-"), name


def test_atomicity_table_side_by_side():
    with open(ROOT / "litmus" / "atomicity" / "table1.csv") as f:
        paper: dict = {}
        for r in csv.DictReader(ln for ln in f if not ln.startswith("#")):
            paper.setdefault(r["example"], {})[r["row"]] = r
    rows = _rows("| example | paper I")
    atomicity = (ROOT / "docs" / "atomicity.md").read_text().splitlines()
    names = {"Original StringBuffer": "Original String-buffer", "Deadlock StringBuffer": "Deadlock String-buffer",
             "Readers/writers": "Readers Writers", "Replicated workers": "Replicated Workers"}
    assert len(rows) == 4
    for r in rows:
        assert "| " + " | ".join(r) + " |" in atomicity, r[0]  # the rows tests/check/atomicity pin
        source = paper[names.get(r[0], r[0])]
        assert r[1:5] == ["/".join(source[k][c] for k in ("check", "noise", "error")) for c in COLUMNS], r[0]
        if "StringBuffer" in r[0]:
            assert r[5:] == r[1:5]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["TBarrier", "Dcl", "RwVol", "Rowo", "Po"])  # Peterson: test_cil_suite
def test_csharp_fence_counts(name):
    from typer.testing import CliRunner

    from mmdsl.cli.app import app
    from mmdsl.litmus.cil import missing_tools

    if missing_tools():
        pytest.skip("mono's mcs/monodis not installed")
    row = next(r for k, r in _dotnet_rows().items() if k.endswith(f"/ {name}"))
    r = CliRunner().invoke(app, ["fences", str(ROOT / "litmus" / "csharp" / f"{name}.cs"), "-m", "dotnet"])
    per_thread = [len(re.findall(rf"^P{t} before", r.output, re.M)) for t in (0, 1)]
    assert " + ".join(map(str, per_thread)) == row[7], r.output
    assert "Status OPTIMAL" in r.output and "Re-check Forbidden" in r.output
