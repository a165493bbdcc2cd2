"""The `dependencies` block: syntax, located errors, lowering, and what the i/di cells then test."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import ModelError
from mmdsl.lang import load_model
from mmdsl.lang.lower import lower_model_file
from mmdsl.litmus import parse_litmus
from mmdsl.render.model_text import model_text

HEAD = """model m
reorder {
         R    W
    R    i    di
    W    Y    d
}
forwarding own-writes
fence mb orders M * M cost 3
"""

MP_CTRL = """LISA MP+mb+ctrl
{
}
 P0      | P1           ;
 w[] x 1 | r[] r0 y     ;
 f[mb]   | b[] r0 L     ;
 w[] y 1 | L:           ;
         | r[] r1 x     ;
exists (1:r0=1 /\\ 1:r1=0)
"""

LB_CTRLS = """LISA LB+ctrls
{
}
 P0           | P1           ;
 r[] r0 x     | r[] r0 y     ;
 b[] r0 LC00  | b[] r0 LC01  ;
 LC00:        | LC01:        ;
 w[] y 1      | w[] x 1      ;
exists (0:r0=1 /\\ 1:r0=1)
"""


def _model(tmp_path, text: str):
    path = tmp_path / "m.mm"
    path.write_text(text)
    return lower_model_file(path)


def _verdict(model, test: str) -> str:
    return check(parse_litmus(test), model).verdict


def test_no_block_keeps_every_dependency(tmp_path):
    model = _model(tmp_path, HEAD)
    assert model.dependencies_pos is None
    assert [r.name for r in model.dependencies] == ["addr", "data", "ctrl", "addr;po"]
    assert _verdict(model, MP_CTRL) == "Forbidden"


def test_ctrl_only_to_writes_lets_a_read_pass_a_branch_but_not_a_write(tmp_path):
    model = _model(tmp_path, HEAD + "dependencies {\n    addr : R * M\n    data : R * W\n    ctrl : R * W\n}\n")
    assert [r.name for r in model.dependencies] == ["addr", "data", "ctrl"]
    assert _verdict(model, MP_CTRL) == "Allowed"
    assert _verdict(model, LB_CTRLS) == "Forbidden"


def test_entries_may_share_a_line_separated_by_semicolons_and_addr_po_may_be_spaced(tmp_path):
    model = _model(tmp_path, HEAD + 'dependencies { addr: R * M; data: R * W "doc"; addr ; po: R * M | W * W }\n')
    assert [r.name for r in model.dependencies] == ["addr", "data", "addr;po"]
    assert model.dependencies[1].doc == "doc"
    assert len(model.dependencies[2].pairs) == 2


def test_an_empty_block_makes_i_a_plain_Y(tmp_path):
    model = _model(tmp_path, HEAD + "dependencies { }\n")
    assert _verdict(model, LB_CTRLS) == "Allowed"


def test_dep_in_an_axiom_is_the_models_dependency_relation(tmp_path):
    text = HEAD + "dependencies { ctrl : R * W }\naxiom none : empty dep\n"
    model = _model(tmp_path, text)
    # MP+mb+ctrl's only dependency is ctrl R -> R: not in dep, so every execution is allowed
    assert _verdict(model, MP_CTRL) == "Allowed"
    # LB+ctrls has ctrl R -> W: dep is never empty, so no execution is
    assert _verdict(model, LB_CTRLS.replace("exists (0:r0=1 /\\ 1:r0=1)", "exists (0:r0=0)")) == "Forbidden"


def test_check_model_prints_the_dependencies():
    text = model_text(load_model("rmo"))
    assert "dependencies (what keeps a pair of an i / di cell in order):" in text
    assert "  ctrl: R * W" in text and "addr;po" not in text
    assert "the default:\n  addr: M * M\n  data: M * M\n  ctrl: M * M\n  addr;po: M * M" in model_text(
        load_model("relaxed"))


ERRORS = {
    "unknown-relation": ("dependencies {\n    ctrl;po : R * W\n}\n", 10, 5,
                         "'ctrl;po' is not a dependency relation; a `dependencies` block names addr, data, ctrl, "
                         "addr;po"),
    "twice": ("dependencies {\n    addr : R * M\n    addr : W * W\n}\n", 11, 5,
              "dependency 'addr' is already listed at line 10; join its pairs with |"),
    "two-blocks": ("dependencies { addr : R * M }\ndependencies { data : R * W }\n", 10, 1,
                   "a model has at most one dependencies block"),
    "relation-side": ("dependencies {\n    addr : po * M\n}\n", 10, 12, "a dependency keeps pairs of event sets"),
    "unknown-class": ("dependencies {\n    addr : Ld * M\n}\n", 10, 12, "unknown name 'Ld'"),
    "syntax": ("dependencies {\n    addr R * M\n}\n", 10, 10, "expected ':'"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_dependency_errors_are_located(tmp_path, case):
    text, line, col, fragment = ERRORS[case]
    path = tmp_path / "m.mm"
    path.write_text(HEAD + text)
    with pytest.raises(ModelError) as err:
        lower_model_file(path)
    e = err.value
    assert fragment in str(e), str(e)
    assert (e.pos.line, e.pos.col) == (line, col), str(e)
    assert e.pos.file.endswith("m.mm")


def test_a_second_block_in_an_included_file_is_an_error(tmp_path):
    (tmp_path / "part.mm").write_text(HEAD + "dependencies { addr : R * M }\n")
    main = tmp_path / "main.mm"
    main.write_text('model main\ninclude "part.mm"\ndependencies { data : R * W }\n')
    with pytest.raises(ModelError, match="a second dependencies block"):
        lower_model_file(main)
