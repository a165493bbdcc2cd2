"""`propagation per-thread`, fence cumulativity and ctrl+FENCE dependencies: meaning and located errors."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import ModelError, ModelErrors
from mmdsl.lang import load_model
from mmdsl.lang.checks import OBJECT_PROCESSORS
from mmdsl.lang.lower import lower_model_file
from mmdsl.lang.metamodel import metamodel
from mmdsl.litmus import parse_litmus

HEAD = """model m
reorder {
        R   W
    R   i   di
    W   Y   Y
}
dependencies {
    addr : R * M
    data : R * W
}
"""

IRIW_ADDRS = """LISA IRIW+addrs
{
}
 P0      | P1                 | P2      | P3                 ;
 w[] x 1 | r[] r0 x           | w[] y 1 | r[] r0 y           ;
         | mov r1 (xor r0 r0) |         | mov r1 (xor r0 r0) ;
         | r[] r2 y+r1        |         | r[] r2 x+r1        ;
exists (1:r0=1 /\\ 1:r2=0 /\\ 3:r0=1 /\\ 3:r2=0)
"""

WRC_FENCE_ADDR = """LISA WRC+%s+addr
{
}
 P0      | P1       | P2                 ;
 w[] x 1 | r[] r0 x | r[] r0 y           ;
         | f[%s]    | mov r1 (xor r0 r0) ;
         | w[] y 1  | r[] r2 x+r1        ;
exists (1:r0=1 /\\ 2:r0=1 /\\ 2:r2=0)
"""


def _model(tmp_path, text: str):
    path = tmp_path / "m.mm"
    path.write_text(text)
    return lower_model_file(path)


def _verdict(model, text: str) -> str:
    return check(parse_litmus(text, "t.litmus"), model, collect="none").verdict


def test_per_thread_models_get_herds_four_axioms(tmp_path):
    model = _model(tmp_path, HEAD + "propagation per-thread\n")
    assert model.per_thread
    assert [a.name for a in model.axioms] == ["sc-per-location", "atomic", "no-thin-air", "observation",
                                             "propagation"]
    assert [b.name for g in model.lets for b in g.bindings] == ["hb", "propbase", "prop"]
    # IRIW with dependencies: allowed once writes reach each thread at its own time ...
    assert _verdict(model, IRIW_ADDRS) == "Allowed"
    # ... and forbidden by the same table when the model is multi-copy atomic
    assert _verdict(_model(tmp_path, HEAD), IRIW_ADDRS) == "Forbidden"


def test_cumulativity_is_what_forbids_wrc(tmp_path):
    fences = ("fence strong orders M * M cumulative strong cost 3\n"
              "fence light orders R * M | W * W cumulative light cost 2\n"
              "fence local orders R * M | W * W cost 1\n")
    model = _model(tmp_path, HEAD + "propagation per-thread\n" + fences)
    assert model.fences["light"].cumulativity == "light" and model.fences["local"].cumulativity is None
    assert _verdict(model, WRC_FENCE_ADDR % ("strong", "strong")) == "Forbidden"
    assert _verdict(model, WRC_FENCE_ADDR % ("light", "light")) == "Forbidden"
    # the same ordering without cumulativity: the write read before the fence need not go first
    assert _verdict(model, WRC_FENCE_ADDR % ("local", "local")) == "Allowed"


def test_ctrl_fence_dependency_keeps_a_read_after_branch_and_fence(tmp_path):
    text = HEAD.replace("    data : R * W\n", "    data : R * W\n    ctrl+isync : R * R\n")
    model = _model(tmp_path, text + "fence isync orders F * F cost 1\nfence mb orders M * M cost 3\n")
    mp = """LISA MP
{
}
 P0      | P1          ;
 w[] x 1 | r[] r0 y    ;
 f[mb]   | b[] r0 LC00 ;
 w[] y 1 | LC00:       ;
         | %s          ;
         | r[] r1 x    ;
exists (1:r0=1 /\\ 1:r1=0)
"""
    assert _verdict(model, mp % "f[isync]") == "Forbidden"
    assert _verdict(model, mp % "f[mb]   ") == "Forbidden"
    assert _verdict(model, mp % "mov r9 1") == "Allowed"


def test_checks_are_named_textx_object_processors():
    assert set(OBJECT_PROCESSORS) == {"Propagation", "FenceDecl"}
    registered = metamodel()._obj_processors  # noqa: SLF001 - the registration is what is tested
    assert {"Propagation", "FenceDecl"} <= set(registered)


@pytest.mark.parametrize("line, fragment, where", [
    ("propagation per-thraed\n", "'per-thraed' is not a propagation mode", (11, 1)),
    ("fence f orders M * M cumulative heavy cost 3\n", "'heavy' is not a cumulativity", (11, 1)),
    ("fence f orders M * M cumulative strong cost 3\n", "is multi-copy atomic", (11, 1)),
    ("propagation per-thread\npropagation per-thread\n", "at most one propagation statement", (12, 1)),
])
def test_errors_are_located(tmp_path, line, fragment, where):
    with pytest.raises(ModelError) as info:
        _model(tmp_path, HEAD + line)
    err = info.value
    assert fragment in err.message
    assert (err.pos.line, err.pos.col) == where


def test_a_ctrl_fence_dependency_must_name_a_declared_fence(tmp_path):
    text = HEAD.replace("    data : R * W\n", "    data : R * W\n    ctrl+isnyc : R * R\n")
    with pytest.raises(ModelError) as info:
        _model(tmp_path, text + "fence isync orders F * F cost 1\n")
    assert "names fence 'isnyc', which the model does not declare" in info.value.message
    assert info.value.pos.line == 10
    assert "ctrl+isync" in (info.value.hint or "")


def test_every_error_is_reported_in_one_run(tmp_path):
    text = HEAD + ("propagation sideways\n"
                   "fence f orders M * M cumulative heavy cost 3\n"
                   "fence g orders M * M cost 0\n")
    with pytest.raises(ModelErrors) as info:
        _model(tmp_path, text)
    lines = [(e.pos.line, e.message.split(":")[0][:30]) for e in info.value.errors]
    assert [ln for ln, _ in lines] == [11, 12, 13]


def test_bundled_hardware_models_load():
    power, armv7, armv8 = (load_model(n) for n in ("power", "armv7", "armv8"))
    assert power.per_thread and armv7.per_thread and not armv8.per_thread
    # eieio costs what lwsync does (issue 11 part 4: Linux's smp_wmb is lwsync on 64-bit Power)
    assert power.fences["sync"].cost > power.fences["lwsync"].cost == power.fences["eieio"].cost
    assert armv8.fences["dmb-sy"].cost > armv8.fences["dmb-ld"].cost == armv8.fences["dmb-st"].cost
    assert {r.name for r in power.dependencies} >= {"addr", "data", "ctrl", "ctrl+isync"}
    # a fence tag with a dot is the declaration spelled with a hyphen (LISA f[dmb.ld])
    assert [f.name for f in armv8.fences_for("dmb.ld")] == ["dmb-ld"]
