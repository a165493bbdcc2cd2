"""CheckFence's Relaxed (models/checkfence.mm) against the paper (Burckhardt, Alur and Martin,
PLDI 2007): its item 5 lets dependent loads reorder, so reading through a pointer needs a
load-load fence after reading the pointer; mmdsl's `relaxed` (dependencies honoured) does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.explorer import explore
from mmdsl.explorer.spec import check_spec
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.solver import OPTIMAL
from mmdsl.lang import load_model
from mmdsl.lang.table import compiled_table
from mmdsl.litmus import load_litmus, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
PUBLISH = ROOT / "litmus" / "checkfence" / "publish.litmus"


def _fences(model: str) -> set[tuple[str, int, str]]:
    sel = select_fences(load_litmus(PUBLISH), load_model(model), FenceOptions(target="serial"))
    assert sel.status == OPTIMAL
    return {(c.place.thread, c.place.line, c.kind.name) for c in sel.fences}


def test_publish_fails_under_both_relaxed_models_and_passes_under_sc():
    program = load_litmus(PUBLISH)
    assert check_spec(program, load_model("sc")).verdict == "Pass"
    for name in ("relaxed", "checkfence"):
        assert check_spec(program, load_model(name)).verdict == "Fail"


def test_the_papers_fences_store_store_to_publish_load_load_to_read_through_the_pointer():
    """The paper's two commonest fixes (section 4.2: 'incomplete initialization' needs a
    store-store fence between the field stores and the link store; 'reordering of
    value-dependent instructions' a load-load fence between reading p and reading p->f).
    Under `relaxed`, which honours the address dependency, only the first is needed."""
    assert _fences("relaxed") == {("P0", 18, "ss")}
    assert _fences("checkfence") == {("P0", 18, "ss"), ("P1", 24, "ll")}


@pytest.mark.parametrize("name,allowed", [("relaxed", False), ("checkfence", True)])
def test_mp_with_an_address_dependency(name, allowed):
    """MP+mb+addr: the reader's second load goes through an address computed from its first.
    Its item 5: allowed under CheckFence's Relaxed; `relaxed` keeps the dependency. Both
    engines agree (the explorer performs the dependent load at a guessed address)."""
    program = load_litmus(ROOT / "litmus" / "hardware" / "MP+mb+addr.litmus")
    model = load_model(name)
    checked = check(program, model, collect="none")
    assert (checked.positive > 0) is allowed
    for por in (True, False, "dotnet"):
        assert explore(program, model, por=por).state_set() == checked.state_set()


def test_checkfence_keeps_only_same_location_pairs_to_a_store():
    """Its axiom 1 (x <p y, a(x) = a(y), y a store => x <M y) is the only order kept:
    the reorder table keeps exactly the R->W and W->W pairs at one location, and the
    model honours no dependency."""
    model = load_model("checkfence")
    assert not model.dependencies
    assert [[c.value for c in row] for row in compiled_table(model).cells] == [["Y", "d"], ["Y", "d"]]


@pytest.mark.slow
def test_two_lock_queue_runs_under_checkfence_and_fails():
    """The explorer runs the data-type harnesses under a model that drops address and data
    dependencies (it refused them before); the two-lock queue fails as under `relaxed`."""
    result = check_spec(load_litmus(ROOT / "litmus" / "datatypes" / "two-lock-queue.litmus"),
                        load_model("checkfence"), max_pending=64, por="dotnet")
    assert result.verdict == "Fail"


TREIBER_T0 = ROOT / "litmus" / "checkfence" / "treiber-t0.litmus"
LL, SS = "        load_load_fence();\n", "        store_store_fence();\n"


@pytest.mark.parametrize("model,removed,verdict,bound", [
    ("checkfence", "", "Pass", 5681),  # the paper's two fences suffice
    ("checkfence", LL, "Fail", 36192),  # its load-load fence is needed: pop reads t->value through a guessed t
    ("checkfence", SS, "Fail", 5975),  # its store-store fence is needed: the node published before its value
    ("relaxed", LL, "Pass", 118),  # dependencies honoured: the load-load fence is not needed
], ids=["checkfence-both", "checkfence-no-ll", "checkfence-no-ss", "relaxed-no-ll"])
def test_treiber_t0_needs_the_papers_fences_under_its_relaxed(model, removed, verdict, bound):
    """The paper's test T0 = ( e | d ) on Treiber's stack, retries cut (unroll=1, its primed
    operations): under its Relaxed the stack needs a store-store fence before the publishing
    CAS and a load-load fence between reading top and reading through it (section 4.2);
    without either, pop returns 0, a value never pushed. Run with the .NET reduction (which
    keeps every final state, test_reduction_dotnet.py): the states are work bounds."""
    text = TREIBER_T0.read_text()
    program = parse_litmus(text.replace(removed, "") if removed else text, str(TREIBER_T0))
    result = check_spec(program, load_model(model), por="dotnet")
    assert result.verdict == verdict
    if verdict == "Fail":
        assert [dict(s)[("reg", 1, "r0")] for s in result.extra if dict(s)[("reg", 1, "%err")] == 0] == [0]
    assert result.result.stats["states"] <= bound


@pytest.mark.parametrize("removed,verdict,bound", [
    ((), "Pass", 46), ((LL,), "Fail", 51), ((SS,), "Fail", 50), ((LL, SS), "Fail", 51),
], ids=["both", "no-ll", "no-ss", "none"])
def test_treiber_t0_on_the_axiomatic_checker_as_checkfence_runs_it(removed, verdict, bound):
    """CheckFence's own method: the bounded (unroll=1) harness as one formula over candidate
    executions, not a state space. mmdsl's axiomatic checker gives the explorer's verdicts
    above on the same test under `checkfence`: each of the paper's fences removed -> Fail with
    pop returning 0; both -> Pass. Partial candidates checked are the work bound."""
    text = TREIBER_T0.read_text()
    for fence in removed:
        assert fence in text
        text = text.replace(fence, "")
    result = check_spec(parse_litmus(text, str(TREIBER_T0)), load_model("checkfence"), engine="axiomatic")
    assert result.verdict == verdict
    if verdict == "Fail":
        assert {dict(s)[("reg", 1, "r0")] for s in result.extra if dict(s)[("reg", 1, "%err")] == 0} == {0}
    assert result.result.stats["partial"] <= 2 * bound


MSN_T0 = ROOT / "litmus" / "checkfence" / "msn-queue-t0.litmus"
SS_TAIL = "                    store_store_fence();\n                    cas(&Q.tail, t, n);"
LL_DEQ = "        load_load_fence();\n        struct node *next = h->next;"


@pytest.mark.parametrize("removed,verdict", [
    ((), "Bound"), ((SS_TAIL,), "Fail"), ((LL_DEQ,), "Fail"),
], ids=["paper-fences", "no-ss-before-tail-cas", "no-ll-before-h-next"])
def test_msn_queue_t0_on_the_axiomatic_checker_needs_the_papers_fences(removed, verdict):
    """Michael and Scott's queue on T0 with retries cut, on the axiomatic checker under
    `checkfence` (the explorer runs past 600,000 states here): with the paper's fences no
    serial violation (`Bound`: the only non-serial observation is a dequeue cut by unroll=1,
    %err=2); without the store-store fence before the tail CAS, or the load-load fence between
    reading the head and reading through it (`h->next`), the dequeuer follows a null next
    (%err=1) -- the paper's 'reordering of value-dependent instructions'."""
    text = MSN_T0.read_text()
    for fence in removed:
        assert fence in text
        text = text.replace(fence, fence.split("\n", 1)[1])  # the fence's line dropped
    result = check_spec(parse_litmus(text, str(MSN_T0)), load_model("checkfence"), engine="axiomatic")
    assert result.verdict == verdict
    bad = {(dict(s)[("reg", 1, "%err")], dict(s)[("reg", 1, "r0")]) for s in result.extra}
    assert bad == ({(2, 0)} if verdict == "Bound" else {(1, 0), (2, 0)})
