"""Fence selection under armv8 (issue 11 part 4): dmb by strength, and dependencies as devices.

The costs are those of models/armv8.mm: dmb-sy 3, dmb-ld 2, dmb-st 2, isb 1; addr, data,
ctrl 1, ctrl+isb 2. armv8 is multi-copy atomic, so a dependency orders as much as a fence
does there (herd's aarch64.cat: dob is in ob); the expected answers, derived by hand:

* MP, S, ISA2: dmb-st for the writer's W->W pair, a dependency for each read's R->x pair
  (addr, the first of the equal-cost ones).
* LB, WRC, WWC, IRIW: dependencies alone (WRC+addrs and IRIW+addrs are forbidden on Armv8).
* SB, R, RWC, W+RWC: a W->R pair needs the full dmb-sy (dmb-ld orders a read before
  anything, dmb-st a write before a write).
* 2+2W: dmb-st on both.
* MP+fence+ctrl (a branch on the read is there): one isb completes ctrl+isb (cost 1). The
  cycle encoding, which armv8 used before, cannot see that and answered dmb-ld (2).

herd7 7.58 says Never on every fenced test written by ``-o`` (data/hw/aarch64,
data/hw/variants/aarch64, data/hw/idioms/aarch64, each with herd's output beside it) and
Sometimes on every cheaper maximal device set: data/hw/herd_verdicts_armv8*.csv, made by
bench/hw_fences_herd.py (see data/hw/README.md).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.writer import fenced_source, write_fenced
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "hw"
CLASSIC = ROOT / "litmus" / "aarch64" / "tests" / "classic"

ARMV8 = {  # shape -> ({thread: device}, cost)
    "MP": ({0: "dmb-st", 1: "addr"}, 3),
    "SB": ({0: "dmb-sy", 1: "dmb-sy"}, 6),
    "LB": ({0: "addr", 1: "addr"}, 2),
    "WRC": ({1: "addr", 2: "addr"}, 2),
    "IRIW": ({1: "addr", 3: "addr"}, 2),
    "R": ({0: "dmb-st", 1: "dmb-sy"}, 5),
    "S": ({0: "dmb-st", 1: "addr"}, 3),
    "2+2W": ({0: "dmb-st", 1: "dmb-st"}, 4),
    "ISA2": ({0: "dmb-st", 1: "addr", 2: "addr"}, 4),
    "RWC": ({1: "addr", 2: "dmb-sy"}, 4),
    "WWC": ({1: "addr", 2: "addr"}, 2),
    "W+RWC": ({0: "dmb-st", 1: "addr", 2: "dmb-sy"}, 6),
}
FAST = ["MP", "SB", "IRIW"]
SLOW = [s for s in ARMV8 if s not in FAST]


def herd_observation(path: Path) -> str:
    return re.search(r"^Observation \S+ (\S+)", path.read_text(), re.M).group(1)


def _select(shape: str, tmp_path: Path) -> None:
    model = load_model("armv8")
    program = load_litmus(CLASSIC / f"{shape}.litmus")
    assert check(program, model).verdict == "Allowed"
    sel = select_fences(program, model, FenceOptions())
    devices, cost = ARMV8[shape]
    assert sel.status == "OPTIMAL"
    assert {c.place.tid: c.kind.name for c in sel.fences} == devices
    assert len(sel.fences) == len(devices) and sel.cost == cost
    assert sel.after.verdict == "Forbidden"
    reread = write_fenced(program, sel.fences, tmp_path / f"{shape}.litmus")
    assert check(reread, model).verdict == "Forbidden"  # what -o wrote, read back
    golden = DATA / "aarch64" / f"{shape}.litmus"
    assert (tmp_path / f"{shape}.litmus").read_text() == golden.read_text()
    assert herd_observation(Path(f"{golden}.aarch64.expected")) == "Never"


@pytest.mark.parametrize("shape", FAST)
def test_cheapest_devices(shape, tmp_path):
    _select(shape, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("shape", SLOW)
def test_cheapest_devices_every_shape(shape, tmp_path):
    _select(shape, tmp_path)


def test_armv8_prices_its_insertable_dependencies_and_so_uses_them_as_devices():
    from mmdsl.fences.devices import acts_as_device

    deps = {r.name: r.cost for r in load_model("armv8").dependencies}
    assert deps == {"addr": 1, "data": 1, "ctrl": 1, "addr;po": None, "ctrl+isb": 2}
    assert acts_as_device(load_model("armv8"))
    assert not acts_as_device(load_model("riscv")) and not acts_as_device(load_model("tso"))


def test_an_isb_completes_the_branch_a_test_has():
    """MP+fence+ctrl: ctrl+isb needs only the isb (1); the cycle encoding answered dmb-ld (2)."""
    program = load_litmus(ROOT / "litmus" / "aarch64" / "tests" / "deps-and-fences" / "MP+fence+ctrl.litmus")
    sel = select_fences(program, load_model("armv8"))
    assert [(c.place.tid, c.kind.name) for c in sel.fences] == [(1, "isb")] and sel.cost == 1
    assert sel.status == "OPTIMAL" and sel.after.verdict == "Forbidden"


def test_a_reader_with_an_address_dependency_needs_nothing():
    program = load_litmus(ROOT / "litmus" / "aarch64" / "tests" / "deps-and-fences" / "MP+fence+addr.litmus")
    assert not select_fences(program, load_model("armv8")).needed


def test_dependency_costs_can_be_overridden():
    """--cost addr=3 --cost ctrl+isb=3: dmb-ld (2) is then the reader's cheapest device."""
    program = load_litmus(CLASSIC / "MP.litmus")
    sel = select_fences(program, load_model("armv8"), FenceOptions(costs={"addr": 3, "ctrl+isb": 3}))
    assert {c.place.tid: c.kind.name for c in sel.fences} == {0: "dmb-st", 1: "dmb-ld"} and sel.cost == 4


def test_fences_only_is_the_old_answer():
    program = load_litmus(CLASSIC / "MP.litmus")
    sel = select_fences(program, load_model("armv8"), FenceOptions(kinds=["dmb-sy", "dmb-ld", "dmb-st", "isb"]))
    assert {c.place.tid: c.kind.name for c in sel.fences} == {0: "dmb-st", 1: "dmb-ld"} and sel.cost == 4


@pytest.mark.parametrize("test, kinds, golden, written", [
    ("S", ["dmb-st", "data"], "S+dmb-st+data", ["EOR W9,W1,W1", "ADD W9,W9,W2", "STR W9,[X3]"]),
    ("S", ["dmb-st", "ctrl"], "S+dmb-st+ctrl", ["CBNZ W1,LC90", "LC90:"]),
    ("MP", ["dmb-st", "ctrl+isb"], "MP+dmb-st+ctrlisb", ["CBNZ W1,LC90", "LC90:", "ISB"]),
])
def test_each_dependency_is_written_in_diys_idiom(test, kinds, golden, written, tmp_path):
    """As diy7 writes them (litmus/aarch64/tests/deps-and-fences): EOR then an SXTW index or ADD
    into the stored value; CBNZ to the next line; then ISB. herd7 says Never on each file."""
    program = load_litmus(CLASSIC / f"{test}.litmus")
    sel = select_fences(program, load_model("armv8"), FenceOptions(kinds=kinds))
    assert sel.status == "OPTIMAL" and [c.kind.name for c in sel.fences] == kinds
    text = fenced_source(program, sel.fences)
    for line in written:
        assert line in text
    path = DATA / "idioms" / "aarch64" / f"{golden}.litmus"
    assert text == path.read_text()
    assert herd_observation(Path(f"{path}.aarch64.expected")) == "Never"
    assert check(parse_litmus(text, str(tmp_path / "t.litmus")), load_model("armv8")).verdict == "Forbidden"


def test_a_64_bit_store_gets_an_x_register_and_a_free_scratch():
    """LDR X1 / STR X2: the data goes through X9 (X-wide, as the store); where X9 is taken, X10."""
    idioms = DATA / "idioms" / "aarch64"
    program = load_litmus(idioms / "LB+X.litmus")
    sel = select_fences(program, load_model("armv8"), FenceOptions(kinds=["data"]))
    text = fenced_source(program, sel.fences)
    assert text == (idioms / "LB+X+datas.litmus").read_text()
    assert "ADD X9,X9,X2" in text and "STR X10,[X3]" in text
    assert herd_observation(idioms / "LB+X.litmus.aarch64.expected") == "Sometimes"
    assert herd_observation(idioms / "LB+X+datas.litmus.aarch64.expected") == "Never"


def test_acquire_loads_take_no_address_dependency():
    """LDAR has no register-offset form: no addr into it (the dialect says it cannot write one)."""
    from mmdsl.litmus import dialect_for
    from mmdsl.litmus.asm_dependencies import DependencyInsertion

    program = parse_litmus("""AArch64 MP+ldar
{ 0:X1=x; 0:X3=y; 1:X0=y; 1:X2=x; }
 P0          | P1           ;
 MOV W0,#1   | LDR W1,[X0]  ;
 STR W0,[X1] | LDAR W3,[X2] ;
 MOV W2,#1   |              ;
 STR W2,[X3] |              ;
exists (1:X1=1 /\\ 1:X3=0)
""", "MP+ldar.litmus")
    dialect = dialect_for("AArch64")
    assert not dialect.can_write_dependency(program, DependencyInsertion(1, 0, 1, "addr"))
    assert dialect.can_write_dependency(program, DependencyInsertion(1, 0, 1, "ctrl"))


def _rows(name: str) -> list[dict]:
    return list(csv.DictReader((DATA / name).open()))


def test_herd_agrees_with_every_answer_and_every_cheaper_set():
    """The committed herd7 verdicts: Never on each answer, no cheaper maximal set forbidden."""
    rows = _rows("herd_verdicts_armv8.csv")
    assert {Path(r["test"]).stem for r in rows} == set(ARMV8)
    for r in rows:
        devices, cost = ARMV8[Path(r["test"]).stem]
        assert r["model"] == "armv8"
        assert r["answer"] == " ".join(f"P{t}:{k}" for t, k in sorted(devices.items()))
        assert int(r["cost"]) == cost and r["herd_answer"] == "Never"
        assert r["cheaper_maximal_sets"] == r["given_to_herd"] and r["cheaper_forbidden_by_herd"] == "0"


def test_herd_agrees_on_the_variants():
    """AArch64 tests of deps-and-fences and hand/ that still need devices."""
    rows = _rows("herd_verdicts_armv8_variants.csv")
    assert len(rows) == 4
    assert all(r["herd_answer"] == "Never" and r["cheaper_forbidden_by_herd"] == "0" for r in rows)
    for r in rows:
        golden = DATA / "variants" / "aarch64" / Path(r["test"]).name
        assert herd_observation(Path(f"{golden}.aarch64.expected")) == "Never"


@pytest.mark.slow
@pytest.mark.parametrize("row", _rows("herd_verdicts_armv8_variants.csv"), ids=lambda r: Path(r["test"]).stem)
def test_the_variant_answers_are_what_herd_checked(row):
    program = load_litmus(ROOT / row["test"])
    sel = select_fences(program, load_model("armv8"), FenceOptions())
    assert " ".join(f"P{c.place.tid}:{c.kind.name}" for c in sel.fences) == row["answer"]
    assert sel.cost == int(row["cost"]) and sel.status == "OPTIMAL"
    golden = DATA / "variants" / "aarch64" / Path(row["test"]).name
    assert fenced_source(program, sel.fences) == golden.read_text()
