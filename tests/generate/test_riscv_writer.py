"""`mmdsl generate --arch RISCV`: diy's RISC-V layout, riscv.mm's fences, dependencies, herd's verdicts."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.axiomatic import check
from mmdsl.cli.app import app
from mmdsl.generate.api import arch_fences, generated_tests
from mmdsl.generate.edges import parse_cycle
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "tests" / "reference" / "classic"  # diyone7 7.57 output, see its NOTE.md
SHAPES = ["SB", "MP", "LB", "2+2W", "R", "S", "IRIW", "WRC", "ISA2", "RWC", "W+RWC", "WWC"]
runner = CliRunner()


def herd_riscv_column() -> dict[str, str]:
    """The RISC-V column of verdicts.csv: herd's riscv.cat on tests/reference/classic/RISCV."""
    with open(CLASSIC / "verdicts.csv") as f:
        return {row["test"]: row["RISC-V"] for row in csv.DictReader(f)}


def diy_cycle(path: Path) -> str:
    return re.search(r'^"(.*)"$', path.read_text(), re.M).group(1).replace("Wse", "Coe")


def generate_riscv(cycle: str) -> str:
    (test,) = generated_tests([parse_cycle(cycle, arch_fences("RISCV"))], "RISCV")
    return test.source


def table_and_condition(source: str) -> list[str]:
    """The test from its init on (init, thread table, condition), one word list per line."""
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("{"))
    return [" ".join(line.replace("|", " | ").split()) for line in lines[start:] if line.strip()]


def test_cli_writes_riscv_mp_as_diy_does(tmp_path):
    r = runner.invoke(app, ["generate", "--mix", "--relax", "PodWW,PodRR", "--safe", "Rfe,Fre", "--size", "4",
                            "--threads", "2", "--arch", "RISCV", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    written = (tmp_path / "MP.litmus").read_text()
    assert written.startswith("RISCV MP\n")
    assert table_and_condition(written) == table_and_condition((CLASSIC / "RISCV" / "MP.litmus").read_text())


def test_cli_accepts_risc_v_spelling(tmp_path):
    r = runner.invoke(app, ["generate", "--relax", "PodWR", "--safe", "Fre", "--size", "4", "--arch", "RISC-V",
                            "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "SB.litmus").read_text().startswith("RISCV SB\n")


@pytest.mark.parametrize("shape", SHAPES)
def test_classic_shapes_get_herds_riscv_verdicts(shape):
    model = load_model("riscv")
    expected = herd_riscv_column()
    for name in (shape, f"{shape}+fences"):
        source = generate_riscv(diy_cycle(CLASSIC / "RISCV" / f"{name}.litmus"))
        program = parse_litmus(source, f"{name}.litmus")
        assert program.arch.upper() == "RISCV"
        assert check(program, model, collect="none").verdict[0] == expected[name], name


def test_fenced_names_and_instructions_follow_diy():
    source = generate_riscv("Fence.w.wdWW Rfe Fence.r.rdRR Fre")
    assert source.startswith("RISCV MP+fence.w.w+fence.r.r\n")
    assert "fence w,w" in source and "fence r,r" in source
    source = generate_riscv("Fence.tsodWR Fre Fence.tsodWR Fre")
    assert source.startswith("RISCV SB+fence.tsos\n") and source.count("fence.tso ") == 2


def test_a_fence_goes_before_the_value_of_the_store_it_orders():
    """diy's order: sw, fence, then the ori that sets the next store's value (both are right)."""
    rows = table_and_condition(generate_riscv("Fence.rw.rwdWW Rfe PodRR Fre"))
    p0 = [r.split(" | ")[0].strip() for r in rows if " | " in r][1:]
    assert [c for c in p0 if c] == ["ori x5,x0,1", "sw x5,0(x6)", "fence rw,rw", "ori x7,x0,1", "sw x7,0(x8)"]


@pytest.mark.parametrize("path", sorted((CLASSIC / "deps-and-fences" / "RISCV").glob("*.litmus")),
                         ids=lambda p: p.stem)
def test_dependencies_and_fences_behave_as_diys_tests(path):
    """Each of diy's RISC-V tests with dependencies and fences, regenerated from its cycle:
    the same instructions up to register names, the same verdict under riscv.mm."""
    source = generate_riscv(diy_cycle(path))
    model = load_model("riscv")
    ours, diys = parse_litmus(source, "ours.litmus"), parse_litmus(path.read_text(), path.name)
    assert check(ours, model, collect="none").verdict == check(diys, model, collect="none").verdict

    def mnemonics(text: str) -> list[str]:
        rows = table_and_condition(text)
        cells = [c.strip() for r in rows[rows.index(next(r for r in rows if r.startswith("P0"))) + 1:-1]
                 for c in r.rstrip().rstrip(";").split("|")]
        return sorted(c.split()[0] for c in cells if c and not c.endswith(":"))

    assert mnemonics(source) == mnemonics(path.read_text())


def test_from_model_riscv_keeps_the_pairs_its_fences_order():
    """riscv.mm's fences decide the fenced cycles: fence.tso leaves store-to-load open."""
    r = runner.invoke(app, ["generate", "--from-model", "riscv", "--against", "sc", "--safe",
                            "Fence.rw.rwdWW,Fence.r.rdRR,Fence.tsodWR", "--size", "4", "--threads", "2",
                            "--arch", "RISCV"])
    assert r.exit_code == 0, r.output
    names = {line.split()[0] for line in r.output.splitlines()[1:] if line.strip()}
    assert {"MP", "MP+fence.rw.rw+po", "SB+fence.tsos"} <= names
    assert "MP+fence.rw.rw+fence.r.r" not in names
