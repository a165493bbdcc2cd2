"""Memorax's `.rmm` programs: parsing, lowering (addressing, labels, '*'), located errors, exploration."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.core.program import Branch, Load, Rmw, Store
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus
from mmdsl.suite.manifest import load_suite, select_tests
from mmdsl.suite.run import run_suite
from mmdsl.suite.runner import run_test

BENCH = "litmus/fence-benchmarks"


def rmm(text: str, name: str = "t.rmm"):
    return parse_litmus(text, name)


def reachable(program, model: str, **kw) -> bool:
    return explore(program, load_model(model), **kw).positive > 0


# ----- lowering -----------------------------------------------------------------
def test_peterson_lowers_to_two_threads_and_a_state_property():
    p = load_litmus(f"{BENCH}/peterson.rmm")
    assert [t.name for t in p.threads] == ["P0", "P1"]
    assert p.arch == "RMM" and p.state_property
    assert p.condition.text() == "~exists (0:at=CS /\\ 1:at=CS)"
    # flag[my] of process 0 is its own copy; flag[0] read by process 0 is process 1's
    stores = [i for i in p.threads[0].instrs if isinstance(i, Store)]
    loads = [i for i in p.threads[0].instrs if isinstance(i, Load)]
    assert str(stores[0].addr) == "flag[0]" and str(loads[0].addr) == "flag[1]"
    loads1 = [i for i in p.threads[1].instrs if isinstance(i, Load)]
    assert str(loads1[0].addr) == "flag[0]"


def test_local_addressing_follows_the_manual_table():
    """Process p names the copy of owner o as x[o] when o < p, x[my] when o = p, x[o-1] when o > p."""
    p = rmm("forbidden * * *\nprocess(3)\ndata x = 0\nregisters $a = 0 $b = 0 $c = 0\ntext\n"
            "  read: $a := x[0]; read: $b := x[1]; read: $c := x[my]\n")
    addrs = [[str(i.addr) for i in t.instrs if isinstance(i, Load)] for t in p.threads]
    assert addrs == [["x[1]", "x[2]", "x[0]"], ["x[0]", "x[2]", "x[1]"], ["x[0]", "x[1]", "x[2]"]]


def test_cas_and_locked_write_are_atomic_and_pointers_test_each_global():
    p = rmm("forbidden *\ndata a = 0 b = 0\nprocess\nregisters $p = 1\ntext\n"
            "cas(a, 0, 1); locked write: b := 2; write: [$p] := 3\n")
    ins = p.threads[0].instrs
    rmws = [i for i in ins if isinstance(i, Rmw)]
    assert rmws[0].blocking and rmws[0].cond is not None and rmws[1].cond is None
    assert [str(i.addr) for i in ins if isinstance(i, Store)] == ["a", "b"]  # one store per global
    assert any(isinstance(i, Branch) for i in ins)


def test_star_initial_values_are_explored_as_several_initial_states():
    text = "forbidden CS\ndata x = {init}\nprocess\ntext\n  read: x = 1;\n  CS: write: x := 0\n"
    assert reachable(rmm(text.format(init="* : [0:1]")), "sc")
    assert not reachable(rmm(text.format(init="0")), "sc")


def test_a_register_star_read_before_written_takes_each_value():
    text = "forbidden CS\ndata x = 0\nprocess\nregisters $r = * : [0:2]\ntext\n  assume: $r = 2;\n  CS: write: x := 1\n"
    assert reachable(rmm(text), "sc")


@pytest.mark.parametrize("value", [1, 2, 3])
def test_either_takes_each_alternative(value):
    text = ("forbidden CS\ndata x = 0\nprocess\ntext\n"
            "  either { write: x := 1 or write: x := 2 or { nop; write: x := 3 } };\n"
            f"  read: x = {value};\n  CS: write: x := 0\n")
    assert reachable(rmm(text), "sc")
    assert not reachable(rmm(text.replace(f"read: x = {value}", "read: x = 4")), "sc")


def test_forbidden_star_matches_any_label_and_tuples_are_alternatives():
    p = load_litmus(f"{BENCH}/sense_barrier.rmm")
    assert p.condition.text() == "~exists (0:at=E0 /\\ 1:at=E1 \\/ 0:at=E1 /\\ 1:at=E0)"


# ----- errors, located ------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("forbidden CS\nprocess\ntext\n  goto NOWHERE\n", (4, 3), "undefined label 'NOWHERE'"),
    ("forbidden XX\nprocess\ntext\n  CS: nop\n", (1, 11), "no label 'XX'"),
    ("forbidden CS CS\nprocess\ntext\n  CS: nop\n", (1, 11), "2 labels for 1 processes"),
    ("forbidden CS\nprocess\ntext\n  CS: read: $r := x\n", (4, 19), "undeclared location 'x'"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  CS: read: $r := x\n", (5, 7), "register '$r' is not declared"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  CS: write: x := \n", (6, 1), "Expected an expression"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  CS: write: x[my] := 1\n", (5, 14), "global location"),
    ("forbidden CS\nprocess\ndata f = 0\ntext\n  CS: write: f := 1\n", (5, 14), "per-process location"),
    ("forbidden CS\nprocess\ntext\n  CS: nop;\n  CS: nop\n", (5, 3), "label 'CS' defined twice"),
])
def test_errors_are_located(text, where, words):
    with pytest.raises(LitmusError) as info:
        rmm(text, "bad.rmm")
    err = info.value
    assert (err.pos.file, err.pos.line, err.pos.col) == ("bad.rmm", *where), str(err)
    assert words in str(err)


@pytest.mark.parametrize("text, words", [
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  syncwr: x := 1;\n  CS: nop\n", "'syncwr:'"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  locked { fence };\n  CS: nop\n", "fence 'fence' inside an atomic block"),
    ("forbidden CS\ndata x = *\nprocess\ntext\n  CS: write: x := 1\n", "needs a finite domain"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  llfence;\n  CS: nop\n", "'llfence' (a fence or synchronised read of Memorax's VIPS-M"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  ssfence;\n  CS: nop\n", "VIPS-M"),
    ("forbidden CS\ndata x = 0\nprocess\ntext\n  syncrd: x = 0;\n  CS: nop\n", "'syncrd:'"),
])
def test_unsupported_constructs_are_refused_by_name(text, words):
    with pytest.raises((UnsupportedError, LitmusError)) as info:
        rmm(text, "bad.rmm")
    assert words in str(info.value) and info.value.pos is not None


def test_the_axiomatic_engine_refuses_a_state_property():
    with pytest.raises(UnsupportedError, match="explorer"):
        run_test(f"{BENCH}/peterson.rmm", "tso", engine="axiomatic")


# ----- exploration -----------------------------------------------------------------
def test_peterson_mutual_exclusion_holds_under_sc_and_fails_under_tso():
    p = load_litmus(f"{BENCH}/peterson.rmm")
    sc, tso = explore(p, load_model("sc")), explore(p, load_model("tso"))
    assert sc.positive == 0 and tso.positive > 0
    assert tso.stats["buffer_bound"] == 3 and tso.stats["por"] is False
    assert tso.trace_final == "0:at=CS; 1:at=CS;"
    assert explore(p, load_model("tso"), max_pending=1).stats["buffer_bound"] == 1


def test_explore_cli_says_the_bound_it_used():
    r = CliRunner().invoke(app, ["explore", f"{BENCH}/dekker.rmm", "-m", "tso", "--no-trace"])
    assert r.exit_code == 0, r.output
    assert "is reachable" in r.output and "pending lists bounded at 3 operations per thread" in r.output
    r = CliRunner().invoke(app, ["run", f"{BENCH}/dekker.rmm", "-m", "tso"])
    assert r.exit_code == 2 and "explorer" in r.output and "Traceback" not in r.output


def test_fence_benchmarks_sample_holds_its_expectations():
    suite = select_tests(load_suite(BENCH), ["peterson", "ticket", "sense_barrier"])
    run = run_suite(suite, [m for m in suite.models if m.column in ("sc", "tso")], timeout=300)
    assert run.problems() == [] and run.exit_code() == 0


@pytest.mark.slow
def test_fence_benchmarks_suite_holds_every_expectation():
    """The whole suite under sc, tso and pso (about 30 s on one core)."""
    suite = load_suite(BENCH)
    assert len(suite.tests) == 10
    run = run_suite(suite, suite.models, timeout=600)
    assert run.problems() == [] and run.exit_code() == 0


def test_fences_for_a_state_property_recheck_where_the_labels_moved():
    """Inserted fences shift the pcs: the labels must follow their instructions, or the re-check
    of the fenced program never sees the processes at CS (it reported one fence for Peterson)."""
    from mmdsl.fences.loop import FenceOptions
    from mmdsl.fences.explorer_selector import select_on_explorer

    p = load_litmus(f"{BENCH}/peterson.rmm")
    sel = select_on_explorer(p, load_model("tso"), FenceOptions())
    assert sorted(c.place.tid for c in sel.fences) == [0, 1]
    assert sel.after.positive == 0 and sel.optimal
    assert explore(sel.fenced, load_model("tso")).positive == 0


MINIMAL_SETS = {  # docs/fence-benchmarks.md: minimal sets of full fences, tso then pso
    "bakery": (4, 1), "burns": (1, 1), "clh": (0, 0), "dekker": (1, 1), "dijkstra": (1, 1),
    "lamport_fast": (1, 1), "peterson": (1, 1), "sense_barrier": (0, 0), "szymanski": (5, 5), "ticket": (0, 0),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MINIMAL_SETS))
def test_fence_benchmarks_minimal_fence_sets(name):
    """Every inclusion-minimal set of full fences per benchmark (about 60 s for all, one core)."""
    from mmdsl.fences import FenceOptions, select_fences

    program = load_litmus(f"{BENCH}/{name}.rmm")
    counts = []
    for model in ("tso", "pso"):
        sel = select_fences(program, load_model(model), FenceOptions(kinds=["full"], all_minimal=True))
        assert sel.alternatives_stopped is None
        counts.append(len(sel.alternatives) if sel.fences else 0)
        for fences in sel.alternatives:  # each set forbids the state, and no fence of it can go
            assert explore(_fenced(program, fences), load_model(model)).positive == 0
            for drop in range(len(fences)):
                fewer = fences[:drop] + fences[drop + 1:]
                assert explore(_fenced(program, fewer), load_model(model)).positive > 0
    assert tuple(counts) == MINIMAL_SETS[name]


def _fenced(program, fences):
    from mmdsl.fences.insert import insert_fences
    from mmdsl.fences.loop import insertions_of

    return insert_fences(program, insertions_of(fences))


def test_a_loop_free_rmm_program_still_gets_its_fences_from_the_explorer():
    """A .rmm property is on states: even without a loop the axiomatic selector cannot judge it."""
    from mmdsl.fences import FenceOptions, select_fences

    sb = rmm("forbidden A B\ndata x = 0 y = 0\n"
             "process\nregisters $r = 0\ntext\n  write: x := 1; read: $r := y; if $r = 0 then A: $r := 2\n"
             "process\nregisters $r = 0\ntext\n  write: y := 1; read: $r := x; if $r = 0 then B: $r := 2\n")
    assert not sb.has_loops()
    sel = select_fences(sb, load_model("tso"), FenceOptions())
    assert sel.engine == "explorer" and len(sel.fences) == 2 and sel.after.positive == 0


def test_an_either_step_in_a_trace_is_a_choice_not_a_guess():
    p = rmm("forbidden CS\ndata x = 0\nprocess\ntext\n  either { write: x := 1 or write: x := 2 };\n"
            "  read: x = 2;\n  CS: write: x := 0\n")
    result = explore(p, load_model("sc"))
    texts = [s.label for s in result.trace]
    assert any("either goto" in t and "(goes to the target)" in t for t in texts), texts
    assert not any("guessing" in t for t in texts)


def test_fences_target_sc_is_refused_for_a_state_property():
    r = CliRunner().invoke(app, ["fences", f"{BENCH}/peterson.rmm", "-m", "tso", "--target", "sc"])
    assert r.exit_code == 2 and "--target sc" in r.output and "Traceback" not in r.output


# ----- domains (Memorax's manual: a step storing a value outside its domain is not enabled) ---------
@pytest.mark.parametrize("body, data, regs, reachable_cs", [
    ("write: x := 2", "x = 0 : [0:1]", "", False),
    ("write: x := 1", "x = 0 : [0:1]", "", True),
    ("write: x := 2", "x = 0 : Z", "", True),
    ("read: $r := x", "x = 1 : [0:1]", "$r = 0 : [0:0]", False),
    ("read: $r := x", "x = 0 : [0:1]", "$r = 0 : [0:0]", True),
    ("$r := $r + 1", "x = 0", "$r = 0 : [0:0]", False),
    ("$r := $r + 1", "x = 0", "$r = 0 : [0:1]", True),
    ("cas(x, 0, 5)", "x = 0 : [0:3]", "", False),
    ("locked write: x := 5", "x = 0 : [0:3]", "", False),
    ("write: [0] := 5", "x = 0 : [0:3]", "", False),
    ("write: [$r] := 5", "x = 0 : [0:3]", "$r = 0 : [0:0]", False),
])
def test_a_value_outside_its_domain_blocks_the_step(body, data, regs, reachable_cs):
    text = (f"forbidden CS\ndata {data}\nprocess\n" + (f"registers {regs}\n" if regs else "")
            + f"text\n  {body};\n  CS: nop\n")
    for model in ("sc", "tso"):
        assert reachable(rmm(text), model) == reachable_cs, (model, text)


def test_memoraxs_bounded_bakery_is_finite_and_broken_under_tso_only():
    # doc/examples/bakery.bound2.rmm of Memorax's shape: tickets bounded by their domain [0:2]
    text = """forbidden CS CS
data
  c0 = 0 : [0:1]
  c1 = 0 : [0:1]
  n0 = 0 : [0:2]
  n1 = 0 : [0:2]
process
registers $r0 = 0 : [0:2], $r1 = 0 : [0:2]
text
  L0: write: c0 := 1; read: $r0 := n1; $r1 := $r0 + 1; write: n0 := $r1; write: c0 := 0;
  read: c1 = 0;
  L1: read: $r0 := n1; if $r0 != 0 && $r0 < $r1 then goto L1;
  CS: write: n0 := 0; goto L0
process
registers $r0 = 0 : [0:2], $r1 = 0 : [0:2]
text
  L0: write: c1 := 1; read: $r0 := n0; $r1 := $r0 + 1; write: n1 := $r1; write: c1 := 0;
  read: c0 = 0;
  L1: read: $r0 := n0; if $r0 != 0 && [$r0 < $r1 || $r0 = $r1] then goto L1;
  CS: write: n1 := 0; goto L0
"""
    assert not reachable(rmm(text), "sc", max_states=200_000)
    assert reachable(rmm(text), "tso", max_states=200_000)


def test_first_stops_at_the_first_violation_of_an_endless_program():
    # Memorax's bakery shape with unbounded tickets: the full space never ends, the violation is near
    text = """forbidden CS CS
process
data c = 0, n = 0
registers $r0 = 0, $r1 = 0
text
  L0: write: c[my] := 1; read: $r0 := n[0]; $r1 := $r0 + 1; write: n[my] := $r1; write: c[my] := 0;
  read: c[0] = 0;
  L1: read: $r0 := n[0]; if $r0 != 0 && $r0 < $r1 then goto L1;
  CS: write: n[my] := 0; goto L0
process
data c = 0, n = 0
registers $r0 = 0, $r1 = 0
text
  L0: write: c[my] := 1; read: $r0 := n[0]; $r1 := $r0 + 1; write: n[my] := $r1; write: c[my] := 0;
  read: c[0] = 0;
  L1: read: $r0 := n[0]; if $r0 != 0 && [$r0 < $r1 || $r0 = $r1] then goto L1;
  CS: write: n[my] := 0; goto L0
"""
    p = rmm(text, "bakery.rmm")
    found = explore(p, load_model("tso"), first=True, order="bfs", max_states=50_000)
    assert found.positive == 1 and found.stats["stopped_at_first"] and found.trace
    with pytest.raises(Exception, match="without finishing"):
        explore(p, load_model("tso"), order="bfs", max_states=50_000)
    result = run_test(None, "tso", engine="explorer", program=p, collect="verdict")
    assert result.positive == 1 and result.stats["stopped_at_first"]


def test_first_cli_says_the_counts_are_partial():
    out = CliRunner().invoke(app, ["explore", f"{BENCH}/peterson.rmm", "-m", "tso", "--first"])
    assert out.exit_code in (0, 1), out.output
    assert "the search stopped at the first" in out.output and "partial" in out.output
