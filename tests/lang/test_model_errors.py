"""Every class of model error is reported with file:line:col and what was expected."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import ModelError
from mmdsl.lang.lower import lower_model_file

TABLE = """
reorder {
        R  W
    R   -  -
    W   Y  -
}
"""

# (model text, expected line, expected column, fragment of the message)
CASES = {
    "syntax": ("model m\nlet a = po |\n", 3, 1, "expected '~', '(', '[', '0', '_', a name"),
    "unknown-name": ("model m\naxiom x : acyclic po | rff\n", 2, 24, "unknown name 'rff'"),
    "did-you-mean": ("model m\naxiom x : acyclic po | rff\n", 2, 24, "did you mean 'rf'"),
    "set-rel-mix": ("model m\naxiom x : acyclic po | R\n", 2, 19, "mixes a relation and a set"),
    "seq-on-set": ("model m\naxiom x : acyclic R ; po\n", 2, 19, "';' needs a relation"),
    "row-count": ("model m\nreorder {\n  R W\n R - -\n W Y\n}\n", 5, 2, "row 'W' has 1 cells"),
    "duplicate-axiom": ("model m\naxiom a : acyclic po\naxiom a : acyclic rf\n", 3, 1, "axiom 'a' is already defined"),
    "nonmonotone": ("model m\nlet rec x = po \\ x\naxiom a : acyclic x\n", 2, 18, "not monotone"),
    "nonmonotone-compl": ("model m\nlet rec x = ~x & po\naxiom a : acyclic x\n", 2, 14, "not monotone"),
    "overlap": ("model m\nclass A = R | W\nclass B = W\nreorder {\n  A B\n A - -\n B - -\n}\n", 4, 1,
                "rows overlap: a write with no annotation is in 'A' and 'B'"),
    "no-cover": ("model m\nclass Rv = R & volatile\nreorder {\n  Rv W\n Rv - -\n W - -\n}\n", 3, 1,
                 "do not cover every memory access: a read with no annotation is in no row"),
    "ppo-no-table": ("model m\naxiom a : acyclic ppo | rf\n", 2, 19, "'ppo' comes from the reorder table"),
    "no-table-no-axiom": ("model m\nlet a = po\n", 1, 1, "neither a reorder table nor axioms"),
    "class-is-rel": ("model m\nclass C = po\n", 2, 1, "must be a set of events"),
    "reserved-class": ("model m\nclass d = R\n", 2, 1, "'d' cannot name a class"),
    "fence-cost": ("model m" + TABLE + "fence f orders M * M cost 0\n", 7, 1, "costs are positive"),
    "fence-cost-huge": ("model m" + TABLE + "fence f orders M * M cost " + "9" * 5000 + "\n", 7, 1,
                        "costs are positive integers below 1,000,000,000"),
    "fence-set": ("model m" + TABLE + "fence f orders po * M cost 1\n", 7, 16, "orders pairs of event sets"),
    "include-missing": ('model m\ninclude "nowhere.mm"\n', 2, 1, "included model 'nowhere.mm' not found"),
    "two-tables": ("model m" + TABLE + TABLE, 8, 1, "at most one reorder table"),
    "bad-cell": ("model m\nreorder {\n  R W\n R - x\n W - -\n}\n", 4, 6, "'x' is not a table cell"),
    "irreflexive-set": ("model m\naxiom a : irreflexive R\n", 2, 23, "needs a relation"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_model_error(tmp_path, case):
    text, line, col, fragment = CASES[case]
    path = tmp_path / "m.mm"
    path.write_text(text)
    with pytest.raises(ModelError) as info:
        lower_model_file(path)
    err = info.value
    assert fragment in str(err), str(err)
    assert err.pos is not None, str(err)
    assert (err.pos.line, err.pos.col) == (line, col), str(err)
    assert str(err).startswith(f"{path}:{line}:{col}: model error:")


def test_include_cycle(tmp_path):
    (tmp_path / "a.mm").write_text('model a\ninclude "b.mm"\n' + TABLE)
    (tmp_path / "b.mm").write_text('model b\ninclude "a.mm"\n')
    with pytest.raises(ModelError, match="include cycle"):
        lower_model_file(tmp_path / "a.mm")


def test_include_brings_definitions(tmp_path):
    (tmp_path / "base.mm").write_text('model base\nlet com = rf | co | fr\nfence f orders M * M cost 2\n')
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\naxiom sc : acyclic po | com\n')
    m = lower_model_file(tmp_path / "top.mm")
    assert [a.name for a in m.axioms] == ["sc"] and "f" in m.fences
    assert m.includes and m.includes[0].endswith("base.mm")


def test_binary_model_and_binary_include(tmp_path):
    (tmp_path / "bin.mm").write_bytes(b"model b\n\xd0\xff\x00 axiom")
    with pytest.raises(ModelError, match="not UTF-8 text") as info:
        lower_model_file(tmp_path / "bin.mm")
    assert (info.value.pos.line, info.value.pos.col) == (1, 1)
    (tmp_path / "top.mm").write_text('model top\ninclude "bin.mm"\naxiom sc : acyclic po\n')
    with pytest.raises(ModelError, match="not UTF-8 text") as info:
        lower_model_file(tmp_path / "top.mm")
    assert info.value.pos.file.endswith("bin.mm")


@pytest.mark.parametrize("body, line, col, fragment", [
    ("axiom x : acyclic " + "(" * 3000 + "po" + ")" * 3000, 2, 3018, "3000 levels of brackets"),
    ("axiom x : acyclic " + "~" * 3000 + "po", 2, 19, "a chain of 3000 '~'"),
])
def test_nesting_beyond_the_parser_is_an_error_not_a_crash(tmp_path, body, line, col, fragment):
    path = tmp_path / "deep.mm"
    path.write_text("model deep\n" + body + "\n")
    with pytest.raises(ModelError, match="nested too deeply") as info:
        lower_model_file(path)
    assert fragment in str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == (line, col)


def test_unnamed_tests_of_two_files_on_the_same_line_do_not_clash(tmp_path):
    (tmp_path / "base.mm").write_text("model base\n\nacyclic po | rf | co | fr\n")
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\nacyclic po-loc | rf\n')
    m = lower_model_file(tmp_path / "top.mm")
    assert [a.name for a in m.axioms] == ["acyclic@base.mm:3", "acyclic@3"]


def test_a_byte_order_mark_is_not_part_of_the_model(tmp_path):
    (tmp_path / "bom.mm").write_bytes(b"\xef\xbb\xbfmodel b\naxiom sc : acyclic po | rf | co | fr\n")
    assert lower_model_file(tmp_path / "bom.mm").name == "b"


def test_a_table_from_an_include_and_another_is_an_error(tmp_path):
    (tmp_path / "base.mm").write_text("model base" + TABLE)
    (tmp_path / "top.mm").write_text('model top\ninclude "base.mm"\n' + TABLE)
    with pytest.raises(ModelError) as info:
        lower_model_file(tmp_path / "top.mm")
    assert "a second reorder table (the first is at" in str(info.value)
    assert info.value.pos.line == 4
