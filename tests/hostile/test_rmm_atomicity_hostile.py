"""`/* @atomic */` marks of a .rmm program used wrongly: refused at the mark's (or jump's) line and
column with what was expected, never a traceback."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import MmdslError

HEAD = "forbidden\n  * *\ndata\n  x = 0 : [0:1]\n  l = 0 : [0:1]\nprocess\ntext\n"
OTHER = "\nprocess\ntext\n  write: x := 1\n"


def load(tmp_path, body: str):
    from mmdsl.litmus.rmm_atomic import load_rmm_atomicity

    path = tmp_path / "h.rmm"
    path.write_text(HEAD + body + OTHER)
    return load_rmm_atomicity(str(path))


@pytest.mark.parametrize("body, message, line, col", [
    ("  /* @atomc */ { write: x := 1 }", "unknown mark '@atomc'", 8, 3),
    ("  /* @atomic now */ { write: x := 1 }", "text after '@atomic' in its comment", 8, 3),
    ("  /* @atomic */ write: x := 1", "/* @atomic */ is not followed by a block (at 'write: x := 1')", 8, 3),
    ("  write: x := 1\n  // @mover", "a mark in a line comment ('// @mover')", 9, 3),
    ("  write: x := 1;\n  /* @mover */", "/* @mover */ is not followed by a block (at 'process')", 9, 3),
    ("  either /* @atomic */ { nop or write: x := 1 }", "/* @atomic */ marks no block statement", 8, 10),
    ("  locked { /* @atomic */ { write: x := 1 } }", "an @atomic block inside 'locked { }'", 8, 12),
    ("  /* @atomic */ { write: x := 1; goto OUT };\n  OUT: nop", "'goto OUT' leaves the marked block at", 8, 34),
    ("  goto IN;\n  /* @atomic */ { write: x := 1; IN: write: x := 0 }",
     "'goto IN' jumps into the marked block at", 8, 3),
    # labels between the mark and the block, a goto that stays inside, nesting: all fine
    ("  /* @atomic */ A: { L: write: x := 1; either { goto L or nop }; /* @mover */ { nop } }", None, None, None),
])
def test_misplaced_marks_are_refused_where_they_are(tmp_path, body, message, line, col):
    if message is None:
        assert [b.kind for b in load(tmp_path, body).atomic_blocks] == ["atomic", "mover"]
        return
    with pytest.raises(MmdslError) as err:
        load(tmp_path, body)
    assert message in err.value.message
    assert err.value.pos is not None and (err.value.pos.line, err.value.pos.col) == (line, col)


def test_a_program_without_marks_is_refused_with_the_syntax(tmp_path):
    with pytest.raises(MmdslError) as err:
        load(tmp_path, "  write: x := 1")
    assert "marks no block" in err.value.message and "/* @atomic */" in err.value.hint


def test_syntax_errors_keep_their_place(tmp_path):
    with pytest.raises(MmdslError) as err:
        load(tmp_path, "  /* @atomic */ { write: x := }")
    assert err.value.pos.line == 8


def test_c_options_with_rmm_are_refused(tmp_path):
    from typer.testing import CliRunner

    from mmdsl.cli.app import app

    path = tmp_path / "ok.rmm"
    path.write_text(HEAD + "  /* @atomic */ { write: x := 1 }" + OTHER)
    out = CliRunner().invoke(app, ["check", str(path), "--atomicity", "--unroll", "2"])
    assert out.exit_code == 2 and "--unroll with a .rmm program" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
