"""Dependencies are the model's: SPARC RMO's dependence order in both engines (issue 9, item 2).

SPARC V9 (Appendix D, dependence order) keeps a later access after an earlier load when
its address or (for a store) its value comes from the load, and a store after a branch
on the load; a load after such a branch may be performed speculatively. The tests are
in ``data/`` (so the agreement test runs them under every model too).
"""

from __future__ import annotations

import pytest
from explorer_paths import DATA

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore, explore_space
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

# test -> is the condition's outcome allowed under SPARC RMO?
RMO = {
    "MP+mb+ctrl": True,  # ctrl R->R is not kept: the read of x is performed speculatively
    "MP+mb+ctrl-taken": True,  # the same with a branch that skips a read
    "LB+ctrls": False,  # ctrl R->W is kept: a store waits for the branch
    "LB+ctrl-rr": False,  # the store after the branch waits, whatever the read between does
    "MP+fence+addr": False,  # addr R->R is kept
    "MP+mb+data": True,  # data keeps only the store; the later read may go first
    "LB+datas": False,  # data R->W is kept (no value out of thin air)
    "MP+mb+addr-po": True,  # no addr;po in V9's dependence order
    "LB+addr-po": True,
}


def _engines():
    return [pytest.param(check, id="axiomatic"), pytest.param(explore, id="explorer")]


@pytest.mark.parametrize("engine", _engines())
@pytest.mark.parametrize("name", sorted(RMO))
def test_rmo_follows_sparc_v9_dependence_order(name, engine):
    program = load_litmus(DATA / f"{name}.litmus")
    verdict = engine(program, load_model("rmo")).verdict
    assert (verdict == "Allowed") is RMO[name], f"{name} under rmo: {verdict}"


@pytest.mark.parametrize("engine", _engines())
@pytest.mark.parametrize("name", ["MP+mb+ctrl", "MP+mb+addr-po", "LB+addr-po"])
def test_default_dependencies_keep_every_pair_as_before(name, engine, tmp_path):
    """rmo without its dependencies block keeps the default dep = addr | data | ctrl | addr;po."""
    model_file = tmp_path / "rmo-all-deps.mm"
    with open(load_model("rmo").path, encoding="utf-8") as f:
        text = f.read()
    start = text.index("dependencies {")
    end = text.index("}", start) + 1
    model_file.write_text(text[:start] + text[end:])
    program = load_litmus(DATA / f"{name}.litmus")
    assert engine(program, load_model(str(model_file))).verdict == "Forbidden"


def test_a_loop_the_table_machine_would_have_to_unroll_speculatively_goes_to_the_graph_machine():
    """Under rmo a load after a loop's exit test may go before the test's read: the table
    machine speculates forward branches only, so a back edge waiting on a pending read is
    refused there -- unless the loop is a spin loop (explorer/machines/table/state.py
    spin_loops), guessed only to leave -- and explore runs the program on the
    execution-graph machine, the loop unrolled to herd's bound (the checker's states with it)."""
    # a store in the body: not a spin loop (an iteration dropped would drop a write)
    program = parse_litmus("""LISA wait-loop-store
{
}
 P0      | P1               ;
 w[] x 1 | LC00:            ;
 w[] y 1 | r[] r0 y         ;
         | w[] z 1          ;
         | mov r2 (eq r0 0) ;
         | b[] r2 LC00      ;
         | r[] r1 x         ;
exists (1:r1=0)
""", "wait-loop-store.litmus")
    with pytest.raises(UnsupportedError, match="ctrl"):
        explore_space(program, load_model("rmo"))
    result = explore(program, load_model("rmo"))
    assert result.stats["machine"] == "graph" and "ctrl" in result.warnings[0]
    assert any("--unroll 2" in w for w in result.warnings)
    assert result.state_set() == check(program, load_model("rmo"), collect="none", unroll=2).state_set()


def test_a_spin_loop_explores_under_rmo_with_the_final_states_of_its_unrolling():
    # before: refused like any loop branching on a pending read; the unrolling (the loop run once,
    # leaving with r0=1) has 1:r1=0 and 1:r1=1 under the checker
    program = load_litmus(DATA / "loops" / "wait-loop.litmus")
    result = explore(program, load_model("rmo"))
    assert sorted(s.text() for s in result.states) == ["1:r1=0;", "1:r1=1;"]
