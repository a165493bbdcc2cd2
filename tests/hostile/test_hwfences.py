"""Hostile inputs to fence selection under power/armv7: dependency costs, kinds, loops, crowded
registers and labels, non-monotone axioms. Each is a located error with exit code 2, or an
answer that the re-check confirms (never a traceback, never a wrong answer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app

REPO = Path(__file__).resolve().parents[2]
MP = str(REPO / "litmus" / "ppc" / "tests" / "classic" / "MP.litmus")
runner = CliRunner()

PER_THREAD = ("model h\nreorder {\n        R  W\n    R   i  i\n    W   Y  Y\n}\n"
              "propagation per-thread\nfence sync orders M * M cumulative strong cost 3\n")


def _fences(*args: str):
    return runner.invoke(app, ["fences", *args])


@pytest.mark.parametrize("cost, words", [
    ("0", "dependency cost 0"),
    ("-1", "dependency cost -1"),
    ("9" * 40, "dependency cost 999999999999"),
])
def test_bad_dependency_costs_are_located_model_errors(tmp_path, cost, words):
    path = tmp_path / "h.mm"
    path.write_text(PER_THREAD + f"dependencies {{\n  addr : R * M cost {cost}\n}}\n")
    r = _fences(MP, "-m", str(path))
    assert r.exit_code == 2, r.output
    assert words in r.output and "h.mm:" in r.output


@pytest.mark.parametrize("args, words", [
    (["--cost", "addr=0"], "--cost addr=0"),
    (["--kinds", "nosuch"], "has no fence 'nosuch'"),
    (["--kinds", "addr;po"], "has no fence"),
    (["--method", "cut"], "propagation per-thread"),
])
def test_bad_options_are_refused_by_name(args, words):
    r = _fences(MP, "-m", "power", *args)
    assert r.exit_code == 2, r.output
    assert words in r.output


def test_a_spin_loop_under_power_is_selected_on_the_explorer(tmp_path):
    # it was refused at the propagation line; now the explorer route answers (lwsync, isync)
    test = tmp_path / "loop.litmus"
    test.write_text("PPC loop\n{\n0:r2=x; 0:r4=y;\n1:r2=y; 1:r4=x;\n}\n"
                    " P0           | P1           ;\n li r1,1      | L0:          ;\n"
                    " stw r1,0(r2) | lwz r1,0(r2) ;\n li r3,1      | cmpwi r1,0   ;\n"
                    " stw r3,0(r4) | beq L0       ;\n              | lwz r3,0(r4) ;\n"
                    "exists (1:r1=1 /\\ 1:r3=0)\n")
    r = _fences(str(test), "-m", "power")
    assert r.exit_code == 0, r.output
    assert "lwsync" in r.output and "isync" in r.output and "Total 2 fence(s), cost 3" in r.output
    # a loop that is not a spin loop (a store in its body) is refused by name, located
    test.write_text(test.read_text().replace(" li r3,1      | cmpwi r1,0   ;", " li r3,1      | stw r1,0(r4) ;\n"
                                             "              | cmpwi r1,0   ;"))
    r = _fences(str(test), "-m", "power")
    assert r.exit_code == 2 and "loop.litmus:" in r.output and "loop-free code only" in r.output


def test_no_free_register_means_no_dependency_not_a_crash(tmp_path):
    """Every scratch register taken on the reader: the answer uses fences only, and is re-checked."""
    busy = "".join(f"              | li r{n},0 ;\n" for n in (*range(5, 10), *range(10, 32)))
    test = tmp_path / "busy.litmus"
    test.write_text("PPC busy\n{\n0:r2=x; 0:r4=y;\n1:r2=y; 1:r4=x;\n}\n"
                    " P0           | P1           ;\n li r1,1      | lwz r1,0(r2) ;\n"
                    " stw r1,0(r2) | lwz r3,0(r4) ;\n li r3,1      |              ;\n"
                    " stw r3,0(r4) |              ;\n" + busy + "exists (1:r1=1 /\\ 1:r3=0)\n")
    out = tmp_path / "fenced.litmus"
    r = _fences(str(test), "-m", "power", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "addr" not in r.output and "lwsync" in r.output and "re-run: Forbidden" in r.output


def test_labels_already_used_are_not_reused(tmp_path):
    """A test whose text holds LC90..LC99 gets the next free label for an inserted ctrl."""
    text = Path(MP).read_text().replace("Com=Rf Fr", "Com=Rf Fr LC90 LC91")
    test = tmp_path / "MP.litmus"
    test.write_text(text)
    out = tmp_path / "fenced.litmus"
    r = _fences(str(test), "-m", "power", "--kinds", "lwsync,ctrl+isync", "--cost", "lwsync=5", "-o", str(out))
    assert r.exit_code == 0, r.output
    written = out.read_text()
    assert "LC92:" in written and "re-run: Forbidden" in r.output


def test_a_negative_use_of_fences_is_refused_by_name(tmp_path):
    path = tmp_path / "neg.mm"
    path.write_text(PER_THREAD + "axiom odd: acyclic po \\ fence\n")
    r = _fences(MP, "-m", str(path))
    assert r.exit_code == 2, r.output
    assert "uses 'fence' negatively" in r.output and "neg.mm:" in r.output
