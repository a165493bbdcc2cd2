"""Programs with loops under .NET: fence sets the explorer confirms, both methods, the paper's barriers."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.explorer import explore
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.insert import insert_fences
from mmdsl.fences.writer import write_fenced
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PROGRAMS = Path(__file__).resolve().parents[2] / "litmus" / "programs"
DOTNET = load_model("dotnet")


def _verdict(program) -> str:
    return explore(program, DOTNET).verdict


def _select(name: str, method: str, **kw):
    return select_fences(load_litmus(PROGRAMS / f"{name}.litmus"), DOTNET, FenceOptions(method=method, **kw))


@pytest.mark.parametrize("name,per_thread", [("peterson", 3), ("dcl", 1)])
def test_both_methods_agree_and_the_explorer_confirms(name, per_thread):
    program = load_litmus(PROGRAMS / f"{name}.litmus")
    assert _verdict(program) == "Allowed"
    answers = {}
    for method in ("cegar", "cut"):
        sel = _select(name, method)
        assert sel.status == "OPTIMAL"
        # loops need the explorer; loop-free dcl is selected on the axiomatic checker, and the
        # cut always works on the explored state graph: two engines, one answer
        assert sel.engine == ("explorer" if program.has_loops() or method == "cut" else "axiomatic")
        # the paper's counts: three barriers in each Peterson thread, barrier (2) in GetHelper
        assert [sum(1 for c in sel.fences if c.place.tid == t) for t in range(2)] == [per_thread] * 2
        fenced = insert_fences(program, sel.insertions())
        assert _verdict(fenced) == "Forbidden"
        for i in range(len(sel.fences)):  # and every fence is needed
            fewer = sel.insertions()[:i] + sel.insertions()[i + 1:]
            assert _verdict(insert_fences(program, fewer)) == "Allowed"
        answers[method] = (sel.cost, sel.insertions())
    assert answers["cegar"] == answers["cut"]


def test_dcl_gets_the_papers_barrier_2(tmp_path):
    sel = _select("dcl", "cegar")
    reread = write_fenced(load_litmus(PROGRAMS / "dcl.litmus"), sel.fences, tmp_path / "dcl.litmus")
    assert _verdict(reread) == "Forbidden"

    def code(text: str) -> list[str]:
        body = text[text.index("P0("):]
        return [line.split("/*")[0].rstrip() for line in body.splitlines()]

    assert code((tmp_path / "dcl.litmus").read_text()) == code((PROGRAMS / "dcl-fixed.litmus").read_text())


def test_the_papers_peterson_fix_is_one_of_the_optimal_placements():
    sel = _select("peterson", "cut", all_optimal=True)
    placements = [sorted((c.place.tid, c.place.index) for c in alt) for alt in sel.alternatives]
    # peterson-fixed.litmus: MemoryBarrier before instructions 1, 3 and 10 of each thread
    assert sorted((t, i) for t in range(2) for i in (1, 3, 10)) in placements
    assert len(placements) == 4 and all(len(p) == 6 for p in placements)
    fixed = load_litmus(PROGRAMS / "peterson-fixed.litmus")
    assert _verdict(fixed) == "Forbidden"


def test_a_program_that_holds_needs_nothing():
    sel = _select("iw1", "cegar")
    assert not sel.needed and sel.fences == [] and sel.engine == "explorer"
