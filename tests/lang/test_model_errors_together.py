"""Every error of a model is reported in one run (sorted, located); includes reached twice are read once."""

from __future__ import annotations

import os
import time

import pytest

from mmdsl.core.errors import MmdslError, ModelError, ModelErrors
from mmdsl.lang.library import load_model
from mmdsl.lang.lower import lower_model_file

TABLE = "reorder {\n        R  W\n    R   -  -\n    W   Y  -\n}\n"

MANY = """model many
class d = R
reorder {
      R  W
  R   -  x
  W   Y  -
}
fence f orders M * M cost 0
let a = rff | co
axiom x : acyclic po | zz
axiom y : acyclic R ; po
axiom x : acyclic po
show nothing
"""

# (line, column, fragment) of each error in MANY, in the order they are reported
MANY_ERRORS = [
    (2, 1, "'d' cannot name a class"),
    (5, 10, "'x' is not a table cell"),
    (8, 1, "fence 'f' has cost 0"),
    (9, 9, "unknown name 'rff'"),
    (10, 24, "unknown name 'zz'"),
    (11, 19, "';' needs a relation"),
    (12, 1, "axiom 'x' is already defined at line 10"),
    (13, 1, "unknown name 'nothing'"),
]


def test_every_semantic_error_is_reported_sorted_with_its_place(tmp_path):
    path = tmp_path / "many.mm"
    path.write_text(MANY)
    with pytest.raises(ModelErrors) as info:
        lower_model_file(path)
    err = info.value
    assert isinstance(err, ModelError) and isinstance(err, MmdslError)
    found = [(e.pos.line, e.pos.col) for e in err.errors]
    assert found == [(line, col) for line, col, _ in MANY_ERRORS]
    for e, (line, col, fragment) in zip(err.errors, MANY_ERRORS):
        assert fragment in e.message
    text = str(err)
    lines = [ln for ln in text.splitlines() if ln.startswith(str(path))]
    assert [ln.split(": model error: ")[0] for ln in lines] == [f"{path}:{line}:{col}" for line, col, _ in MANY_ERRORS]
    assert text.endswith(f"{len(MANY_ERRORS)} errors")
    assert (err.pos.line, err.pos.col) == (2, 1)  # the first, for callers that show one place


def test_errors_of_a_broken_definition_do_not_cascade(tmp_path):
    # `a` is broken; b, c and the axiom use it and are not reported again
    path = tmp_path / "m.mm"
    path.write_text("model m\nlet a = po | rff\nlet b = a ; rf\nlet c = b \\ R\n"
                    "axiom x : acyclic c\naxiom y : acyclic qq\n")
    with pytest.raises(ModelErrors) as info:
        lower_model_file(path)
    assert [(e.pos.line, e.message.split(";")[0]) for e in info.value.errors] == [
        (2, "unknown name 'rff'"), (6, "unknown name 'qq'")]


def test_rows_and_columns_are_both_checked(tmp_path):
    path = tmp_path / "m.mm"
    path.write_text("model m\nclass A = R | W\nreorder {\n      R  M\n  A   -  -\n  W   Y  -\n}\n"
                    "axiom z : acyclic qq\n")
    with pytest.raises(ModelErrors) as info:
        lower_model_file(path)
    messages = [e.message for e in info.value.errors]
    assert any("rows overlap" in m for m in messages)
    assert any("columns overlap" in m for m in messages)
    assert any("unknown name 'qq'" in m for m in messages)


def test_one_error_is_raised_as_itself(tmp_path):
    path = tmp_path / "m.mm"
    path.write_text("model m\naxiom x : acyclic po | rff\n")
    with pytest.raises(ModelError) as info:
        lower_model_file(path)
    assert not isinstance(info.value, ModelErrors)
    assert str(info.value).startswith(f"{path}:2:24: model error: unknown name 'rff'")


def test_errors_in_an_included_file_are_reported_with_the_others(tmp_path):
    (tmp_path / "base.mm").write_text("model base\nlet com = rf | co | frr\n")
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\naxiom sc : acyclic po | comm\n')
    with pytest.raises(ModelErrors) as info:
        lower_model_file(tmp_path / "top.mm")
    files = [os.path.basename(e.pos.file) for e in info.value.errors]
    assert sorted(files) == ["base.mm", "top.mm"]


# ----- includes -------------------------------------------------------------------------

def _diamond(tmp_path):
    (tmp_path / "d.mm").write_text("model d\nannotation mb\nclass Racq = R & acq\n"
                                   "fence sync orders M * M cost 2\nlet com = rf | co | fr\n"
                                   "acyclic po-loc | com as coherence\n")
    (tmp_path / "b.mm").write_text('model b\ninclude "d.mm"\nlet hb = po | com\n')
    (tmp_path / "c.mm").write_text('model c\ninclude "d.mm"\nlet ob = po | fence | com\n')
    (tmp_path / "a.mm").write_text('model a\ninclude "b.mm"\ninclude "c.mm"\ninclude "d.mm"\n'
                                   "axiom sc : acyclic hb | ob\n")


def test_a_diamond_include_is_read_once(tmp_path):
    _diamond(tmp_path)
    m = lower_model_file(tmp_path / "a.mm")
    assert [os.path.basename(p) for p in m.includes] == ["b.mm", "d.mm", "c.mm"]
    assert list(m.fences) == ["sync"]
    assert [a.name for a in m.axioms] == ["coherence", "sc"]
    assert [b.name for g in m.lets for b in g.bindings] == ["com", "hb", "ob"]


def test_a_cycle_through_a_diamond_is_still_a_cycle(tmp_path):
    _diamond(tmp_path)
    (tmp_path / "d.mm").write_text('model d\ninclude "c.mm"\nlet com = rf | co | fr\n')
    with pytest.raises(ModelError, match=r"include cycle: d.mm -> c.mm -> d.mm") as info:
        lower_model_file(tmp_path / "a.mm")
    assert info.value.pos.file.endswith("c.mm") and info.value.pos.line == 2


def test_a_file_that_includes_itself(tmp_path):
    (tmp_path / "a.mm").write_text('model a\ninclude "a.mm"\naxiom sc : acyclic po | rf | co | fr\n')
    with pytest.raises(ModelError, match="include cycle"):
        lower_model_file(tmp_path / "a.mm")


def test_load_model_sees_a_change_in_an_included_file(tmp_path):
    (tmp_path / "base.mm").write_text("model base\nlet com = rf | co | fr\n")
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\naxiom sc : acyclic po | com\n')
    first = load_model(tmp_path / "top.mm")
    assert load_model(tmp_path / "top.mm") is first
    (tmp_path / "base.mm").write_text("model base\nlet com = rf | co\n")
    later = time.time() + 5  # a new mtime even on file systems with coarse timestamps
    os.utime(tmp_path / "base.mm", (later, later))
    second = load_model(tmp_path / "top.mm")
    assert second is not first
    assert str(second.lets[0].bindings[0].expr) == "rf | co"


@pytest.mark.parametrize("base", [None, "model base\nlet com = rf | co |\n"])
def test_names_an_unreadable_include_would_define_are_not_reported(tmp_path, base):
    # a missing include, or one with a syntax error, is one error: not one per name it defines
    if base is not None:
        (tmp_path / "base.mm").write_text(base)
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\nlet hb = po | com\naxiom sc : acyclic hb\n'
                                     "axiom x : acyclic R\n")
    with pytest.raises(ModelErrors) as info:
        lower_model_file(tmp_path / "top.mm")
    first, second = info.value.errors
    assert ("not found" in first.message) if base is None else ("syntax error" in first.message)
    assert "'acyclic' needs a relation" in second.message


def test_errors_reported_together_cross_to_a_worker_process_whole(tmp_path):
    import pickle

    path = tmp_path / "many.mm"
    path.write_text(MANY)
    with pytest.raises(ModelErrors) as info:
        lower_model_file(path)
    back = pickle.loads(pickle.dumps(info.value))
    assert str(back) == str(info.value) and back.pos == info.value.pos
