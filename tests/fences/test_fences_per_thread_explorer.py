"""Fence selection on the explorer under per-thread models (power): loops, and the same optimum as the checker.

The explorer route (``fences/propagation_explorer.py``) grows failing fence sets with the
per-thread machine as its oracle. Pinned: on loop-free tests it reaches the optimal cost
of the axiomatic route restricted to fences (dependencies stay axiomatic-only); on the
bundled spin-loop programs (``data/hw-loops``) it gives the Power idioms, and herd7 7.58
agrees on the loop-free unrollings of the fenced programs and of every cheaper fence set
(``data/hw-loops/herd_verdicts.csv``).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.propagation_explorer import PropagationExplorerSelector
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "litmus" / "ppc" / "tests" / "classic"
LOOPS = Path(__file__).resolve().parent / "data" / "hw-loops"
FENCES = "sync,lwsync,eieio,isync"


def _both_routes(name: str):
    program = load_litmus(CLASSIC / f"{name}.litmus")
    model = load_model("power")
    options = FenceOptions(kinds=FENCES.split(","))
    return select_fences(program, model, options), PropagationExplorerSelector(program, model, options).run()


def _placement(sel):
    return [(c.place.tid, c.place.index, c.kind.name) for c in sel.fences]


@pytest.mark.parametrize("name", ["MP", "LB", "S"])
def test_loop_free_tests_get_the_checkers_optimum_on_the_explorer(name):
    axiomatic, explorer = _both_routes(name)
    assert (axiomatic.engine, explorer.engine) == ("axiomatic", "explorer")
    assert axiomatic.status == explorer.status == "OPTIMAL"
    assert axiomatic.cost == explorer.cost == 4
    assert _placement(axiomatic) == _placement(explorer)  # both canonical: lwsync on each thread
    assert explorer.after.verdict == "Forbidden"


@pytest.mark.parametrize("name,cost", [("MP", 5), ("LB", 6), ("S", 5)])
def test_armv7_loop_free_tests_get_the_checkers_optimum_on_the_explorer(name, cost):
    # LB was dmb-st; dmb-st (4) on the explorer: dmb st waited for the reads before it
    program = load_litmus(ROOT / "litmus" / "arm" / "tests" / "herding-cats" / f"{name}.litmus")
    model = load_model("armv7")
    options = FenceOptions(kinds=["dmb", "dmb-st", "isb"])
    axiomatic = select_fences(program, model, options)
    explorer = PropagationExplorerSelector(program, model, options).run()
    assert axiomatic.status == explorer.status == "OPTIMAL"
    assert axiomatic.cost == explorer.cost == cost
    assert _placement(axiomatic) == _placement(explorer)


@pytest.mark.slow
@pytest.mark.parametrize("name,cost", [("SB", 6), ("R", 6), ("WRC", 4), ("2+2W", 4)])
def test_loop_free_tests_get_the_checkers_optimum_on_the_explorer_slow(name, cost):
    # 3-30 s each: the maximal failing sets hold syncs at many places, which the per-thread machine
    # explores slowly (IRIW and ISA2 take minutes and are left out)
    axiomatic, explorer = _both_routes(name)
    assert axiomatic.status == explorer.status == "OPTIMAL"
    assert axiomatic.cost == explorer.cost == cost
    assert _placement(axiomatic) == _placement(explorer)


def test_a_spin_loop_reader_gets_lwsync_and_isync():
    # before: refused at power.mm's propagation line (and the explorer refused the loop)
    program = load_litmus(LOOPS / "MP+spin.litmus")
    sel = select_fences(program, load_model("power"))
    assert sel.engine == "explorer" and sel.status == "OPTIMAL" and sel.cost == 3
    assert [(c.place.thread, c.kind.name) for c in sel.fences] == [("P0", "lwsync"), ("P1", "isync")]
    assert sel.fences[1].place.before == "beq Loop"  # after the loop: ctrl+isync on the loop's exit
    assert sel.after.verdict == "Forbidden"
    assert any("dependencies" in n for n in sel.notes) and any("spin loops" in n for n in sel.notes)
    # the re-check, independently: the fenced program explored again from scratch
    assert explore(sel.fenced, load_model("power")).verdict == "Forbidden"


def test_a_c_spin_loop_lowered_under_power_gets_the_same_idiom():
    # C's while (*flag == 0) {} lowers to a forward exit branch and an unconditional back edge
    program = load_litmus(LOOPS / "MP+spin-c.litmus")
    sel = select_fences(program, load_model("power"))
    assert sel.status == "OPTIMAL" and sel.cost == 3
    assert [(c.place.thread, c.place.line, c.kind.name) for c in sel.fences] == [("P0", 8, "lwsync"),
                                                                                  ("P1", 17, "isync")]


@pytest.mark.slow
def test_the_middle_thread_of_wrc_with_a_spin_loop_needs_a_cumulative_fence():
    # ~5 s. The loop's control dependency already keeps P1's write after its read, yet only a
    # cumulative fence there forbids the outcome (eieio orders writes only): lwsync on P1 and P2
    program = load_litmus(LOOPS / "WRC+spin.litmus")
    sel = select_fences(program, load_model("power"))
    assert sel.status == "OPTIMAL" and sel.cost == 4
    assert [(c.place.thread, c.kind.name) for c in sel.fences] == [("P1", "lwsync"), ("P2", "lwsync")]
    assert sel.fences[0].place.after == "stw r3,0(r4)"


@pytest.mark.parametrize("test,fences,cost", [
    ("MP+spin", "P0=lwsync P1=isync", 3),
    ("WRC+spin", "P1=lwsync P2=lwsync", 4),
])
def test_herd_agrees_on_the_unrollings(test, fences, cost):
    """herd7 7.58 on the loop-free unrolling (the loop run once, exiting): the answer is Never,
    every fence set of lower cost at the same places Sometimes."""
    costs = {"sync": 3, "lwsync": 2, "eieio": 2, "isync": 1, "-": 0}
    rows = [r for r in csv.DictReader((LOOPS / "herd_verdicts.csv").open()) if r["test"] == test]
    assert rows
    by_fences = {r["fences"]: r["herd"] for r in rows}
    assert by_fences[fences] == "Never"
    cheaper = [r for r in rows if sum(costs[f.split("=")[1]] for f in r["fences"].split()) < cost]
    assert cheaper and all(r["herd"] == "Sometimes" for r in cheaper)


def test_the_spin_loops_explore_and_method_cut_is_refused_by_name():
    program = load_litmus(LOOPS / "MP+spin.litmus")
    assert explore(program, load_model("power")).verdict == "Allowed"
    with pytest.raises(UnsupportedError) as err:
        select_fences(program, load_model("power"), FenceOptions(method="cut"))
    assert "--method cut" in err.value.message and err.value.pos.file.endswith("power.mm")
    with pytest.raises(UnsupportedError) as err:
        select_fences(program, load_model("power"), FenceOptions(kinds=["addr"]))
    assert "addr" in err.value.message and "dependenc" in err.value.message  # fences only on this route


# where each column of herd_verdicts.csv puts its fence in the loop program: (thread, before IR index)
_COLUMNS = {"MP+spin": {"P0": (0, 3), "P1": (1, 4)}, "WRC+spin": {"P1": (1, 5), "P2": (2, 1)}}


@pytest.mark.parametrize("test", ["MP+spin", "WRC+spin"])
def test_the_explorer_on_the_loops_agrees_with_herd_on_every_fence_set(test):
    """The oracle itself: the loop program with each of the 25 fence sets, explored under power,
    against herd7's verdict on its unrolling (Sometimes = Allowed, Never = Forbidden)."""
    from mmdsl.fences.insert import insert_fences

    program = load_litmus(LOOPS / f"{test}.litmus")
    model = load_model("power")
    rows = [r for r in csv.DictReader((LOOPS / "herd_verdicts.csv").open()) if r["test"] == test]
    assert len(rows) == 25
    for r in rows:
        inserts = []
        for item in r["fences"].split():
            thread, kind = item.split("=")
            if kind != "-":
                inserts.append((*_COLUMNS[test][thread], kind))
        verdict = explore(insert_fences(program, inserts), model).verdict
        assert verdict == {"Sometimes": "Allowed", "Never": "Forbidden"}[r["herd"]], r["fences"]


def test_the_explorer_on_the_unrollings_agrees_with_herd():
    # WRC+spin_P1-eieio_P2-sync was Never on the explorer: a light barrier's group A held every write
    # its thread had seen, which makes eieio (it orders no read) A-cumulative; herd says Sometimes
    model = load_model("power")
    for r in csv.DictReader((LOOPS / "herd_verdicts.csv").open()):
        verdict = explore(load_litmus(LOOPS / "unrolled" / r["file"]), model).verdict
        assert verdict == {"Sometimes": "Allowed", "Never": "Forbidden"}[r["herd"]], r["file"]


def test_every_minimal_fence_set_of_the_spin_loop_is_one_herd_forbids():
    """--all-minimal on MP+spin: exactly the fence sets herd7 says Never on the unrolling (9)."""
    program = load_litmus(LOOPS / "MP+spin.litmus")
    sel = select_fences(program, load_model("power"), FenceOptions(all_minimal=True))
    found = {" ".join(f"{c.place.thread}={c.kind.name}" for c in alt) for alt in sel.alternatives}
    rows = csv.DictReader((LOOPS / "herd_verdicts.csv").open())
    never = {r["fences"] for r in rows if r["test"] == "MP+spin" and r["herd"] == "Never"}
    assert found == never and len(found) == 9 and sel.alternatives_stopped is None
