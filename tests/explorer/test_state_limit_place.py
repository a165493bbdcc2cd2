"""A search stopped by --max-states says where: the unroll=N header of an unrolled C harness (the bound that
multiplies its states), else the next instruction of a thread, and where every thread was when it stopped."""

from __future__ import annotations

import pytest
from explorer_paths import ROOT

from mmdsl.core.errors import MmdslError
from mmdsl.explorer import StateLimit, explore
from mmdsl.explorer.spec import check_spec
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

LAZY_LIST = ROOT / "litmus" / "datatypes" / "lazy-list.litmus"


def _add_remove():
    """The lazy list with P0 add(1) | P1 remove(1): over 2,000,000 states under relaxed (docs/datatypes.md)."""
    text = LAZY_LIST.read_text().replace("P1() { int r1 = contains(1); }", "P1() { int r1 = remove(1); }")
    assert "remove(1)" in text
    return parse_litmus(text, "lazy-list-add-remove.litmus")


def test_the_state_limit_of_an_unrolled_harness_points_at_its_unroll_header():
    with pytest.raises(StateLimit) as err:
        check_spec(_add_remove(), load_model("relaxed"), max_states=3000)
    e = err.value
    assert isinstance(e, MmdslError) and e.kind == "limit"
    assert (e.pos.file, e.pos.line, e.pos.col) == ("lazy-list-add-remove.litmus", 3, 1)  # unroll=2
    assert e.message.startswith("exploring lazy-list under relaxed: the search reached 3000 states without "
                                "finishing (")
    assert "; it stopped with P0 at line " in e.message and ", P1 at line " in e.message
    assert "lower unroll=2 here" in e.hint and "--max-states" in e.hint


def test_a_state_limit_elsewhere_points_at_a_threads_next_instruction():
    program = load_litmus(ROOT / "litmus" / "programs" / "peterson.litmus")
    with pytest.raises(StateLimit) as err:
        explore(program, load_model("dotnet"), max_states=50)
    assert err.value.pos is not None and err.value.pos.file.endswith("peterson.litmus")
    assert "it stopped with P0 at line " in err.value.message
    assert err.value.hint == "raise --max-states"
