"""The execution-graph machine (explorer/machines/graph): the checker's final states on every
model without a table machine, each execution once, loops unrolled or blocked as spins.

herd's cat models are read from ../shared/reference/herd-cats and skipped without it; the
bundled .mm models always run. Whole corpora are in the ``slow`` tests at the end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from explorer_paths import ROOT, classic_tests, data_tests, path_id
from refdata import SHARED_REFERENCE
from typer.testing import CliRunner

from mmdsl.axiomatic import check
from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.explorer import explore
from mmdsl.explorer.machines.graph.search import explore_graph
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

CATS = SHARED_REFERENCE / "herd-cats"
needs_cats = pytest.mark.skipif(not CATS.is_dir(), reason="herd's cat models (../shared/reference/herd-cats) absent")
BUNDLED = ("sc", "tso", "pso", "rmo", "dotnet", "relaxed", "power", "armv7", "armv8", "riscv")
C11 = ROOT / "litmus" / "c11" / "tests"


def _texts(states) -> list[str]:
    return sorted(s.text() for s in states)


def assert_graph_agrees(program, model) -> dict:
    """The graph machine's final states are the checker's; no execution twice. Its stats."""
    expected = check(program, model, collect="none").state_set()
    result = explore_graph(program, model, max_states=200_000)
    found = result.state_set()
    assert found == expected, (f"{program.name} under {model.name}: checker only {_texts(expected - found)}, "
                               f"graph only {_texts(found - expected)}")
    assert result.stats["duplicates"] == 0
    return result.stats


def test_classic_and_hand_written_tests_agree_under_tso_axioms():
    """tso-axioms has no table: ``explore`` itself routes it to the graph machine."""
    model = load_model("tso-axioms")
    for path in classic_tests() + data_tests():
        program = load_litmus(path)
        result = explore(program, model)
        assert result.stats["machine"] == "graph", path
        assert result.state_set() == check(program, model, collect="none").state_set(), path_id(path)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_table_model_agrees_on_the_graph_machine(name):
    """Tables are axioms too: the graph machine runs a table model's axioms (its own
    machine stays the default), and finds the checker's states on the classic shapes
    (every seventh here; all of them in the slow test below)."""
    model = load_model(name)
    for path in classic_tests()[::7]:
        assert_graph_agrees(load_litmus(path), model)


@pytest.mark.slow
def test_every_bundled_table_model_agrees_on_the_graph_machine_on_every_classic_test():
    for name in BUNDLED:
        model = load_model(name)
        for path in classic_tests() + data_tests():
            assert_graph_agrees(load_litmus(path), model)


def test_an_axiom_that_is_not_monotone_is_checked_on_complete_executions_only(tmp_path):
    """``[R] \\ (rf^-1 ; rf)`` shrinks as reads get their writes: a partial execution fails it
    until every read is added, so pruning with it would lose every execution."""
    text = (ROOT / "models" / "tso-axioms.mm").read_text().replace("model tso-axioms", "model tso-reads", 1)
    path = tmp_path / "tso-reads.mm"
    path.write_text(text + '\naxiom reads : empty [R] \\ (rf^-1 ; rf)   "every read reads a write"\n')
    model = load_model(str(path))
    stats = assert_graph_agrees(load_litmus(ROOT / "litmus" / "classic" / "lisa" / "SB.litmus"), model)
    assert stats["complete"] == 4


@pytest.mark.parametrize("test, complete", [("SB", 4), ("MP", 3), ("LB", 3), ("2+2W", 3)])
def test_complete_execution_counts_under_tso_axioms(test, complete):
    """TSO's executions of the classic shapes, counted by hand: SB all four rf choices
    (store buffering is TSO's relaxation); MP and LB the four rf choices but the one
    with the cycle (y=1 then x=0; both reads 1); 2+2W the four pairs of coherence orders
    of x and y but the one where both first writes come last (a ghb cycle)."""
    program = load_litmus(ROOT / "litmus" / "classic" / "lisa" / f"{test}.litmus")
    stats = assert_graph_agrees(program, load_model("tso-axioms"))
    assert stats["complete"] == complete


def test_stats_on_the_command_line():
    out = CliRunner().invoke(app, ["explore", str(ROOT / "litmus/classic/lisa/SB.litmus"), "-m", "tso-axioms",
                                   "--stats"])
    assert out.exit_code == 0, out.output
    assert ("Stats SB under tso-axioms: executions explored 9, complete 4, blocked 0, duplicates 0 "
            "(graph machine: 1 path combinations, 0 steps pruned by an axiom"
            in out.output)
    # its trace adds events; the table machines' "performed out of order" header is not its
    assert "Trace (depth-first, 4 steps, each adding one event to the execution" in out.output
    assert "out of order" not in out.output


# ----- loops -------------------------------------------------------------------------
def test_a_spin_loop_is_blocked_not_unrolled():
    """The reader spins on y: an iteration that read 0 changes nothing, so it blocks; the
    verdict holds with no bound (none cut)."""
    program = load_litmus(Path(__file__).parent / "data" / "loops" / "wait-loop.litmus")
    result = explore(program, load_model("tso-axioms"))
    assert _texts(result.states) == ["1:r1=1;"] and result.positive == 0
    assert result.stats["unroll_cut"] == 0 and result.stats["spins_blocked"] > 0
    assert not any("--unroll" in w for w in result.warnings)


BRANCHY = """LISA branchy-spin
{ }
 P0       | P1                 ;
 w[] z 1  | LC00:              ;
 w[] y 1  | r[] r0 y           ;
          | b[] r0 LC01        ;
          | r[] r5 z           ;
          | LC01:              ;
          | mov r2 (eq r0 0)   ;
          | b[] r2 LC00        ;
exists (1:r5=1)
"""


def test_a_read_only_iteration_of_a_loop_with_an_inner_branch_is_not_blocked():
    """Only a failed iteration reads z (the one that leaves skips it), so its r5 survives:
    blocking it as a spin would lose 1:r5=1. The body has a branch, so it is unrolled."""
    program = parse_litmus(BRANCHY, "branchy-spin.litmus")
    model = load_model("tso-axioms")
    result = explore(program, model)
    assert result.positive > 0 and "1:r5=1;" in _texts(result.states)
    assert result.state_set() == check(program, model, collect="none", unroll=2).state_set()


COUNTER = """LISA counter
{ }
 P0             | P1       ;
 LC00:          | r[] r9 x ;
 r[] r0 x       |          ;
 mov r1 (add r0 1) |       ;
 w[] x r1       |          ;
 mov r2 (neq r1 3) |       ;
 b[] r2 LC00    |          ;
exists (1:r9=2)
"""


@pytest.mark.parametrize("unroll, final", [(1, []), (2, ["1:r9=0;", "1:r9=1;", "1:r9=2;", "1:r9=3;"])])
def test_a_loop_with_effects_is_unrolled_to_the_bound_every_verdict_states(unroll, final):
    """P0 counts x up to 3: three runs of its body, two jumps back. herd7 7.58 -model sc.cat
    on this test: -unroll 1 States 0, -unroll 2 States 4 (r9=0..3). Unrolled once, no run
    ends, and the verdict says it is bounded; twice, every final state (some paths, with
    values a read cannot have, still meet the bound: the warning is per path, as herd's) --
    the checker with the same bound agrees."""
    program = parse_litmus(COUNTER, "counter.litmus")
    model = load_model("tso-axioms")
    result = explore(program, model, unroll=unroll)
    assert _texts(result.states) == final
    assert (result.stats["unroll_cut"] > 0) and any(f"--unroll {unroll}" in w for w in result.warnings)
    assert result.state_set() == check(program, model, collect="none", unroll=unroll).state_set()


def test_run_unroll_gives_both_engines_the_bound(tmp_path):
    test = tmp_path / "counter.litmus"
    test.write_text(COUNTER)
    out = CliRunner().invoke(app, ["run", str(test), "-m", "tso-axioms", "--engine", "both", "--unroll", "3"])
    assert out.exit_code == 0, out.output  # both engines ran the loop, and agree
    assert "Observation counter Sometimes" in out.output


def test_the_checker_refuses_a_loop_without_unroll():
    with pytest.raises(MmdslError, match="has a loop"):
        check(parse_litmus(COUNTER, "counter.litmus"), load_model("tso-axioms"))


# ----- herd's cat models -------------------------------------------------------------
@needs_cats
@pytest.mark.parametrize("cat", ["x86tso.cat", "sc.cat", "rc11.cat"])
def test_classic_tests_agree_under_herds_cats(cat):
    model = load_model(str(CATS / cat))
    for path in classic_tests()[::2]:  # every second: the others in the slow x86 and c11 sets
        assert_graph_agrees(load_litmus(path), model)


@needs_cats
@pytest.mark.parametrize("test, complete", [
    # GenMC's counts of complete RC11 executions (its expected.*.in): SB and MP with relaxed
    # accesses four (every rf choice), LB three (RC11 forbids the po|rf cycle), release/acquire
    # MP and SC SB three (the weak outcome's execution is inconsistent)
    ("SB+rlx", 4), ("MP+rlx", 4), ("LB+rlx", 3), ("MP+ra", 3), ("SB+sc", 3),
])
def test_complete_execution_counts_under_rc11(test, complete):
    program = load_litmus(C11 / "variants" / f"{test}.litmus")
    stats = assert_graph_agrees(program, load_model(str(CATS / "rc11.cat")))
    assert stats["complete"] == complete


@needs_cats
@pytest.mark.parametrize("test, complete", [("SB", 4), ("MP", 3), ("LB", 3), ("2+2W", 4), ("CoRR", 6)])
def test_genmc_execution_counts_under_rc11(test, complete):
    """GenMC's own counts (its expected.rc11.mo.in) for its release/acquire litmus tests,
    written as herd C tests in data/genmc (ORIGIN.md there): the same complete executions."""
    program = load_litmus(Path(__file__).parent / "data" / "genmc" / f"{test}.litmus")
    stats = assert_graph_agrees(program, load_model(str(CATS / "rc11.cat")))
    assert stats["complete"] == complete


@needs_cats
def test_c11_sample_agrees_under_rc11():
    model = load_model(str(CATS / "rc11.cat"))
    for path in sorted(C11.glob("**/*.litmus"))[::24]:
        assert_graph_agrees(load_litmus(path), model)


@needs_cats
def test_the_lr_sc_retry_loop_under_riscv_cat_gives_herds_verdict():
    """herd7 -model riscv.cat on this test: States 1, [x]=2, Never."""
    program = load_litmus(Path(__file__).parent / "data" / "loops" / "lr-sc-retry.litmus")
    result = explore(program, load_model(str(CATS / "riscv.cat")))
    assert _texts(result.states) == ["x=2;"] and result.positive == 0
    assert result.stats["duplicates"] == 0 and result.stats["unroll_cut"] == 0


@needs_cats
@pytest.mark.parametrize("test, states", [("MP+spin", ["1:r1=1;"]), ("MP+spin-rlx", ["1:r1=0;", "1:r1=1;"])])
def test_a_c_spin_loop_under_rc11_gives_herds_states(test, states):
    """A while loop (its test at the top, so unrolled to the bound, not blocked): herd7
    -model rc11.cat gives these states (release/acquire Never, relaxed Sometimes)."""
    program = load_litmus(Path(__file__).parent / "data" / "loops" / f"{test}.litmus")
    result = explore(program, load_model(str(CATS / "rc11.cat")))
    assert _texts(result.states) == states and result.stats["duplicates"] == 0


# ----- whole sets ----------------------------------------------------------------------
def _whole_set(model, files, expected_files) -> None:
    assert len(files) == expected_files
    for path in files:
        program = load_litmus(path)
        if program.has_loops():
            continue
        assert_graph_agrees(program, model)


@pytest.mark.slow
@needs_cats
def test_whole_c11_set_agrees_under_rc11():
    _whole_set(load_model(str(CATS / "rc11.cat")), sorted(C11.parent.glob("**/*.litmus")), 173)


@pytest.mark.slow
@needs_cats
def test_x86_corpus_sample_agrees_under_x86tso_cat_and_tso_axioms():
    files = sorted((ROOT / "litmus" / "x86").glob("**/*.litmus"))[::10]
    for model in (load_model(str(CATS / "x86tso.cat")), load_model("tso-axioms")):
        _whole_set(model, files, 260)


@pytest.mark.slow
@needs_cats
def test_riscv_corpus_sample_agrees_under_riscv_cat():
    files = sorted((ROOT / "litmus" / "riscv").glob("**/*.litmus"))[::25]
    _whole_set(load_model(str(CATS / "riscv.cat")), files, 203)


@needs_cats
@pytest.mark.parametrize("test, cat, unroll, states", [
    # herd7 7.58's states on each (the file's header): -unroll N follows a back edge N times
    ("C-bounded", "rc11.cat", 2, []), ("C-bounded", "rc11.cat", 3, ["1:r0=0;", "1:r0=1;", "1:r0=2;"]),
    ("PPC-bounded", "ppc.cat", 1, []), ("PPC-bounded", "ppc.cat", 2, ["1:r3=0;", "1:r3=1;", "1:r3=2;", "1:r3=3;"]),
    ("RV-bounded", "riscv.cat", 2, ["1:x3=0;", "1:x3=1;", "1:x3=2;", "1:x3=3;"]),
    ("PPC-retry", "ppc.cat", 2, ["x=2;"]), ("PPC-spin", "ppc.cat", 2, ["1:r3=1;"]),
    ("RV-spin", "riscv.cat", 2, ["1:x3=1;"]),
    ("LK-MP+spin-once", "linux-kernel.cat", 2, ["1:r1=0;", "1:r1=1;"]),
])
def test_loops_under_herds_cats_give_herds_states_at_the_same_unroll(test, cat, unroll, states):
    program = load_litmus(Path(__file__).parent / "data" / "loops" / f"{test}.litmus")
    model = load_model(str(CATS / cat))
    result = explore(program, model, unroll=unroll)
    assert _texts(result.states) == states and result.stats["duplicates"] == 0
    assert result.state_set() == check(program, model, collect="none", unroll=unroll).state_set()


@needs_cats
@pytest.mark.parametrize("test, cat", [("LK-cmpxchg-retry", "linux-kernel.cat"), ("C11-cas-retry", "rc11.cat")])
def test_a_compare_and_swap_retry_loop_blocks_its_failed_iterations(test, cat):
    """Two threads increment x with a retry loop (``do { r0 = load; r1 = cas(x, r0, r0+1) }
    while (failed)``). A failed iteration only reads (the cmpxchg's smp_mb()s exist only when
    it writes) and changes only r0 and r1, which every iteration writes before it reads them:
    it is blocked, so no path meets the bound and the work is bounded. herd7 7.58 on the same
    loop (linux-kernel.cat, -unroll 1 and 2): States 1 [x]=2, Never."""
    program = load_litmus(Path(__file__).parent / "data" / "loops" / f"{test}.litmus")
    result = explore(program, load_model(str(CATS / cat)), unroll=1)
    assert _texts(result.states) == ["x=2;"] and result.positive == 0
    assert result.stats["unroll_cut"] == 0 and result.stats["spins_blocked"] > 0
    assert not any("--unroll" in w for w in result.warnings)  # no bound: the verdict holds for every run
    # measured: 66 partial executions, 2 complete (each thread first), 49 path combinations
    assert result.stats["complete"] == 2 and result.stats["duplicates"] == 0
    assert result.stats["explored"] <= 200 and result.stats["structures"] <= 100


def test_a_register_a_failed_cas_leaves_for_the_next_try_keeps_the_iteration():
    """``do { r1 = cas(x, &r0, r0+1) } while (!r1)`` with the load before the loop: a failed
    CAS puts the value read in r0, which the next try compares with, so r0 is not dead and
    that iteration is not a spin (blocking it would lose the try that succeeds with it)."""
    from mmdsl.axiomatic.loops import dead_registers
    text = (Path(__file__).parent / "data" / "loops" / "C11-cas-retry.litmus").read_text()
    moved = text.replace("do {\n\t\tr0 = atomic_load_explicit(x, memory_order_relaxed);",
                         "r0 = atomic_load_explicit(x, memory_order_relaxed);\n\tdo {")
    head = lambda t: next(i.target for i in t.instrs if getattr(i, "target", None) is not None)
    inside = load_litmus(Path(__file__).parent / "data" / "loops" / "C11-cas-retry.litmus").threads[0]
    before = parse_litmus(moved, "C11-cas-retry-before.litmus").threads[0]
    assert "r0" in dead_registers(inside.instrs, head(inside)) and "r1" in dead_registers(inside.instrs, head(inside))
    assert "r0" not in dead_registers(before.instrs, head(before))
