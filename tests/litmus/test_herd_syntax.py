"""herd's syntax that real test files use: undeclared fence tags, no final condition, arrays,
scopes:/levels:/regions: sections. Files under data/herd/ are herdtools7's (see NOTE.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.axiomatic import check
from mmdsl.cli.app import app
from mmdsl.core.condition import Truth
from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus
from mmdsl.render.herd_text import herd_block

HERD = Path(__file__).parent / "data" / "herd"
runner = CliRunner()


def both(program, model):
    """The axiomatic result, after checking the explorer finds the same final states."""
    ax = check(program, model)
    ex = explore(program, model)
    assert ax.state_set() == ex.state_set(), (program.name, model.name)
    assert ax.warnings == ex.warnings
    return ax


def without_fences(path: Path) -> str:
    """The test's text with every LISA fence replaced by an empty cell."""
    return re.sub(r"f\[[^\]]*\]", " ", path.read_text())


# ----- item 3: a fence tag the model does not declare -------------------------------------
@pytest.mark.parametrize("name", ["lb+lws", "mp+lw+dep", "sb+fwr+fwr", "iriw+hws",
                                  "MP+poplainplain+fencedmballsyplainplain"])
@pytest.mark.parametrize("model", ["sc", "tso", "rmo"])
def test_an_undeclared_fence_tag_orders_nothing_with_a_warning(name, model):
    program = load_litmus(HERD / f"{name}.litmus")
    m = load_model(model)
    result = both(program, m)
    bare = both(parse_litmus(without_fences(HERD / f"{name}.litmus"), "bare.litmus"), m)
    assert result.state_set() == bare.state_set() and result.verdict == bare.verdict
    kinds = sorted({i.kind for t in program.threads for i in t.instrs if type(i).__name__ == "Fence"})
    assert len(result.warnings) == len(kinds)  # once per kind, however often it is used
    for kind in kinds:
        assert any(f"warning: model '{model}' has no fence '{kind}'" in w for w in result.warnings)
    assert bare.warnings == []


def test_the_warning_is_located_and_counts_uses():
    result = check(load_litmus(HERD / "lb+lws.litmus"), load_model("tso"))
    assert result.warnings == [f"{HERD / 'lb+lws.litmus'}:8:2: warning: model 'tso' has no fence 'lw' "
                               "(used by 'f[lw]', 2 uses); it orders nothing under this model"]


TAGGED = """model tagged "stores in order, loads not; the full fence is spelt sy (f[dmb,all,sy] is in sy)"
class Ld = R \\ RMW
class St = W \\ RMW
class At = RMW
reorder {
          Ld   St   At
    Ld    di   -    -
    St    Y    -    -
    At    -    -    -
}
forwarding own-writes
fence full aka sy orders M * M cost 3
"""

SPLIT = TAGGED.replace("fence full aka sy orders M * M cost 3",
                       "fence lds aka sy orders R * R cost 2\nfence sts aka dmb orders W * W cost 2")


def test_a_multi_tag_fence_is_in_the_set_of_each_tag(tmp_path):
    program = load_litmus(HERD / "MP+poplainplain+fencedmballsyplainplain.litmus")
    (tmp_path / "tagged.mm").write_text(TAGGED)
    tagged = both(program, load_model(str(tmp_path / "tagged.mm")))
    assert tagged.verdict == "Forbidden" and tagged.warnings == []  # f[dmb,all,sy] is in 'sy'
    rmo = both(program, load_model("rmo"))
    assert rmo.verdict == "Allowed"
    assert "has no fence 'dmb,all,sy' (used by 'f[dmb,all,sy]')" in rmo.warnings[0]
    # two declarations, one per tag: the fence orders what both order (R*R keeps MP's reads)
    (tmp_path / "split.mm").write_text(SPLIT)
    assert both(program, load_model(str(tmp_path / "split.mm"))).verdict == "Forbidden"
    (tmp_path / "stores.mm").write_text(SPLIT.replace("fence lds aka sy orders R * R cost 2\n", ""))
    assert both(program, load_model(str(tmp_path / "stores.mm"))).verdict == "Allowed"  # only W*W
    bare = parse_litmus(without_fences(HERD / "MP+poplainplain+fencedmballsyplainplain.litmus"), "t.litmus")
    assert both(bare, load_model(str(tmp_path / "tagged.mm"))).verdict == "Allowed"


def test_a_model_that_names_the_tag_as_a_set_gets_no_warning(tmp_path):
    named = TAGGED.replace("fence full aka sy orders M * M cost 3", "annotation lw") + (
        "let lw-order = (R * M) & (po ; [lw] ; po)\n"
        "axiom causality : acyclic ppo | lw-order | rfe | co | fr\n"
        "axiom uniproc : acyclic po-loc | rf | co | fr\n")
    (tmp_path / "named.mm").write_text(named)
    result = check(load_litmus(HERD / "lb+lws.litmus"), load_model(str(tmp_path / "named.mm")))
    assert result.warnings == [] and result.verdict == "Forbidden"


def test_commands_with_an_undeclared_fence(tmp_path):
    test = HERD / "lb+lws.litmus"
    r = runner.invoke(app, ["run", str(test), "-m", "rmo", "--engine", "both"])
    assert r.exit_code == 0 and "has no fence 'lw'" in r.output
    r = runner.invoke(app, ["run", str(test), "-m", "rmo", "--json"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert "has no fence 'lw'" in doc["results"][0]["warnings"][0]
    r = runner.invoke(app, ["explore", str(test), "-m", "rmo", "--json"])
    assert r.exit_code == 0 and "has no fence 'lw'" in json.loads(r.stdout)["warnings"][0]
    r = runner.invoke(app, ["fences", str(test), "-m", "rmo", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["status"] == "OPTIMAL" and "has no fence 'lw'" in doc["warnings"][0]
    r = runner.invoke(app, ["draw", str(test), "-m", "rmo", "-o", str(tmp_path), "-f", "dot"])
    assert r.exit_code == 0 and "has no fence 'lw'" in r.output


# ----- item 4: no final condition ------------------------------------------------------------
NO_CONDITION = "LISA nocond\n{ x=0; }\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\n"


def test_a_test_without_a_condition_means_forall_true():
    program = parse_litmus(NO_CONDITION, "t.litmus")
    assert program.condition.quantifier == "forall" and program.condition.prop == Truth(True)
    result = both(program, load_model("sc"))
    lines = herd_block(result, show_time=False).splitlines()
    assert lines[0] == "Test nocond Required"
    assert lines[1:3] == ["States 1", ""]  # herd: one final state, empty (nothing observed)
    assert "Ok" in lines and "Condition forall (true)" in lines
    assert lines[-1] == "Observation nocond Always 2 0"


def test_locations_without_a_condition():
    program = parse_litmus(NO_CONDITION + "locations [1:r0;]\n", "t.litmus")
    result = both(program, load_model("sc"))
    assert {s.text() for s in result.states} == {"1:r0=0;", "1:r0=1;"}
    assert result.condition.text() == "forall (true)" and result.ok


@pytest.mark.parametrize("name", ["c11popl15-a2", "c11popl15-a5", "c11popl15-a9"])
def test_herd_c_tests_without_a_condition(name):
    result = both(load_litmus(HERD / f"{name}.litmus"), load_model("sc"))
    assert result.condition.text() == "forall (true)" and result.observation == "Always"


def test_a_misspelt_quantifier_is_still_an_error():
    with pytest.raises(LitmusError, match="does not end with ';'"):
        parse_litmus(NO_CONDITION + "exist (1:r0=1)\n", "t.litmus")


# ----- item 5: arrays ---------------------------------------------------------------------
ARRAY = """LISA arr
{ int x[2] = {1,-1}; y={0,5}; uint64_t z[3]; }
 P0       | P1       ;
 w[] x 2  | r[] r0 x ;
 r[] r1 y | r[] r2 z ;
locations [x;]
exists (x[1]=-1 /\\ y={0,5} /\\ 1:r0=2 /\\ 0:r1=0 /\\ z[2]=0)
"""


def test_array_cells_are_locations():
    program = parse_litmus(ARRAY, "t.litmus")
    assert program.init == {"x": 1, "x[1]": -1, "y": 0, "y[1]": 5, "z": 0, "z[1]": 0, "z[2]": 0}
    result = both(program, load_model("sc"))
    assert result.verdict == "Allowed"
    assert {s.text() for s in result.states} == {
        "0:r1=0; 1:r0=1; x=2; x[1]=-1; y=0; y[1]=5; z[2]=0;",
        "0:r1=0; 1:r0=2; x=2; x[1]=-1; y=0; y[1]=5; z[2]=0;",
    }


def test_c_arrays_in_init_and_condition():
    text = "C a\n{ int x[2] = {1,2}; }\nP0(int *x) {\n  int r0 = *x;\n  WRITE_ONCE(*x, 5);\n}\n" \
           "exists (0:r0=1 /\\ x={5,2} /\\ x[0]=5)\n"
    assert both(parse_litmus(text, "t.litmus"), load_model("sc")).verdict == "Allowed"


BAD_ARRAYS = {
    "size": ("{ int x[3]={1,2}; }", "exists (x[1]=2)", LitmusError, 2, 3, "declared with 3 cells and initialised with 2"),
    "scalar-init": ("{ int x[2]=1; }", "exists (x[1]=2)", LitmusError, 2, 3, "initialised with a single value"),
    "no-size": ("{ int x[]; }", "exists (x=0)", LitmusError, 2, 3, "neither a size nor an initialiser"),
    "empty": ("{ x={}; }", "exists (x=0)", LitmusError, 2, 3, "initialised with no value"),
    "register": ("{ 0:r0={1,2}; }", "exists (x=0)", UnsupportedError, 2, 3, "array registers are not supported"),
    "past-end": ("{ int x[2]; }", "exists (x[2]=0)", LitmusError, 5, 9, "past the end of array 'x'"),
    "not-array": ("{ x=1; }", "exists (x[1]=0)", LitmusError, 5, 9, "does not declare as an array"),
    "whole-scalar": ("{ int x[2]; }", "exists (x=0)", LitmusError, 5, 9, "array of 2 cells, compared here with one"),
    "whole-size": ("{ int x[2]; }", "exists (x={0,0,0})", LitmusError, 5, 9, "has 2 cells and is compared with 3"),
    "reg-array": ("{ int x[2]; }", "exists (0:r0={0,0})", LitmusError, 5, 9, "compared with an array value"),
    "locations": ("{ x=1; }", "locations [x[1];] exists (x=0)", LitmusError, 5, 12, "does not declare as an array"),
}


@pytest.mark.parametrize("case", sorted(BAD_ARRAYS))
def test_array_errors_are_located(case):
    init, final, cls, line, col, fragment = BAD_ARRAYS[case]
    text = f"LISA a\n{init}\n P0 ;\n r[] r0 x ;\n{final}\n"
    with pytest.raises(cls) as info:
        parse_litmus(text, "t.litmus")
    assert fragment in str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == (line, col), str(info.value)


@pytest.mark.parametrize("engine", [check, explore])
@pytest.mark.parametrize("addr", ["x+1", "x+r1"])
def test_an_indexed_access_is_refused_by_name(engine, addr):
    text = f"LISA a\n{{ int x[2] = {{1,2}}; 0:r1=1; }}\n P0 ;\n r[] r0 {addr} ;\nexists (0:r0=2)\n"
    with pytest.raises(UnsupportedError, match="arithmetic '\\+' on the address of location 'x'") as info:
        engine(parse_litmus(text, "t.litmus"), load_model("sc"))
    assert info.value.pos.line == 4


# ----- item 5: scopes:, levels:, regions: --------------------------------------------------
def test_scopes_and_regions_are_read_and_ignored():
    scoped = load_litmus(HERD / "mp-mit-scopes+fcta+fgpu.litmus")
    assert scoped.threads[1].instrs and both(scoped, load_model("sc")).verdict == "Forbidden"
    c12 = load_litmus(HERD / "C12.litmus")
    result = both(c12, load_model("sc"))
    assert result.condition.text() == "forall (x=1)" and result.ok


def test_every_section_in_any_order():
    text = ("LISA s\n{ }\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\n"
            "regions: x:global, y:shared local\nlevels: P0 (core P1 (sub 2))\nscopes: (system (cta P0) (cta P1))\n"
            "exists (1:r0=1)\n")
    assert both(parse_litmus(text, "t.litmus"), load_model("sc")).verdict == "Allowed"


BAD_SECTIONS = {
    "unclosed": ("scopes: (system (gpu P0)", 5, 1),
    "twice": ("scopes: (system P0)\nscopes: (system P0)", 6, 1),
    "region": ("regions: x:", 5, 10),
}


@pytest.mark.parametrize("case", sorted(BAD_SECTIONS))
def test_a_malformed_section_is_located(case):
    section, line, col = BAD_SECTIONS[case]
    text = f"LISA s\n{{ }}\n P0 ;\n r[] r0 x ;\n{section}\nexists (0:r0=0)\n"
    with pytest.raises(LitmusError) as info:
        parse_litmus(text, "t.litmus")
    assert "scopes" in str(info.value) or "section" in str(info.value)
    assert (info.value.pos.line, info.value.pos.col) == (line, col), str(info.value)
