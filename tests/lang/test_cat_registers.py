"""herd's register relations outside catdep (lang/cat_registers): exact as terms of an acyclic union, refused elsewhere."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import UnsupportedError
from mmdsl.lang.cat_lower import lower_cat_file

ALL_THREE = "acyclic iico_data | iico_ctrl | rf-reg | rf as single"


def lower(tmp_path, text):
    path = tmp_path / "m.cat"
    path.write_text('"m"\n' + text + "\n")
    return lower_cat_file(path, [tmp_path])


def test_all_three_in_an_acyclic_union_are_register_dataflow(tmp_path):
    (ax,) = lower(tmp_path, ALL_THREE).axioms
    assert ax.test == "acyclic" and {"data", "addr", "rf", "rmw", "sm"} <= ax.expr.names()
    assert not any(n.startswith("herd-register") for n in ax.expr.names())


@pytest.mark.parametrize("text, line", [
    ("acyclic iico_data | rf", 2),                       # one without the others: needs the events
    ("acyclic (iico_data | iico_ctrl | rf-reg) ; rf", 2),  # composed
    ("let d = iico_data | iico_ctrl | rf-reg\nacyclic d | rf", 3),  # through a let (at the check)
    ("irreflexive iico_data | iico_ctrl | rf-reg", 2),
    ("~acyclic iico_data | iico_ctrl | rf-reg | rf", 2),
])
def test_any_other_use_is_refused_by_name(tmp_path, text, line):
    with pytest.raises(UnsupportedError) as err:
        lower(tmp_path, text)
    assert "register events" in err.value.message and err.value.pos.line == line


def test_a_show_or_unread_let_of_them_is_dropped_and_a_flag_skipped(tmp_path):
    model = lower(tmp_path, "let rf-mem = rf \\ rf-reg\nshow rf-reg\nshow rf-mem as rf\n"
                            "flag ~empty iico_data as f\n" + ALL_THREE)
    assert model.shows == [] and model.flags == [] and model.flags_skipped == ["f"]
    assert all(b.name != "rf-mem" for g in model.lets for b in g.bindings)
