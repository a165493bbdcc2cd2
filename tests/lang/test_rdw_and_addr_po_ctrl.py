"""The `rdw` and `addr;po;ctrl+FENCE` dependencies (and the errors of `rfi`/`detour`, whose
meaning tests/axiomatic/test_herd_ppo_rules.py pins): herd's ppc.cat / arm.cat ppo rules a
per-thread model can name, their meaning in both engines and their located errors."""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import ModelError, UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.lang.lower import lower_model_file
from mmdsl.litmus import parse_litmus

MODEL = """model m
reorder {
        R   W
    R   i   i
    W   Y   Y
}
dependencies {
    addr : R * M
    data : R * W
    ctrl : R * W
    addr;po : R * W
    ctrl+isync : R * R
%s}
propagation per-thread
fence sync orders M * M cumulative strong cost 3
fence isync orders F * F cost 1
"""

# MP+sync+pos-ctrlisync+BIS (after herd's ARM MP+dmb+pos-ctrlisb+BIS): the second read of y takes
# P2's y=2, newer than the y=1 the first read saw, so with rdw the first read is before the last
RDW_TEST = """LISA MP+sync+pos-ctrlisync+BIS
{
}
 P0      | P1          | P2      ;
 w[] x 1 | r[] r0 y    | w[] y 2 ;
 f[sync] | r[] r1 y    |         ;
 w[] y 1 | b[] r1 LC00 |         ;
         | LC00:       |         ;
         | f[isync]    |         ;
         | r[] r2 x    |         ;
exists (1:r0=1 /\\ 1:r1=2 /\\ 1:r2=0 /\\ y=2)
"""

# after diy7's PPCp1s6_716 (SyncdWW Rfe DpAddrdW PodWR DpCtrlIsyncdR Fre): a read of y, a write
# whose address depends on it, a read of a after that write, a branch on it and an isync
ADDR_PO_CTRL_TEST = """LISA SyncdWW+DpAddrdW-PodWR-DpCtrlIsyncdR
{
}
 P0      | P1                 ;
 w[] x 1 | r[] r0 y           ;
 f[sync] | mov r1 (xor r0 r0) ;
 w[] y 1 | w[] z+r1 1         ;
         | r[] r3 a           ;
         | b[] r3 LC00        ;
         | LC00:              ;
         | f[isync]           ;
         | r[] r4 x           ;
exists (1:r0=1 /\\ 1:r4=0)
"""


def _model(tmp_path, extra: str, text: str = MODEL):
    path = tmp_path / "m.mm"
    path.write_text(text % extra)
    return lower_model_file(path)


def _both(model, text: str) -> str:
    """The verdict, after checking that the explorer gives the checker's final states."""
    program = parse_litmus(text, "t.litmus")
    found = check(program, model)
    assert {str(s) for s in explore(program, model).states} == {str(s) for s in found.states}
    return found.verdict


def test_rdw_keeps_a_read_after_an_earlier_read_of_an_older_write(tmp_path):
    with_rdw = _model(tmp_path, "    rdw : R * R\n")
    assert [b.name for g in with_rdw.lets for b in g.bindings][:2] == ["rdw", "hb"]
    assert str(with_rdw.lets[0].bindings[0].expr) == "po-rdw & (fre ; rfe)"
    assert _both(with_rdw, RDW_TEST) == "Forbidden"
    # without it the checker allowed the outcome (herd's arm.cat forbids it); the explorer, which
    # performs a thread's accesses to one location in program order, did not
    without = _model(tmp_path, "")
    assert check(parse_litmus(RDW_TEST, "t.litmus"), without).verdict == "Allowed"


def test_addr_po_ctrl_isync_keeps_the_read_after_the_isync(tmp_path):
    model = _model(tmp_path, "    addr;po;ctrl+isync : R * R\n")
    assert _both(model, ADDR_PO_CTRL_TEST) == "Forbidden"
    # without the rule both engines allow it (herd's ppc.cat forbids: cc ; ci is in ci)
    assert _both(_model(tmp_path, ""), ADDR_PO_CTRL_TEST) == "Allowed"


def test_the_bundled_per_thread_models_name_both():
    for name, fence in (("power", "isync"), ("armv7", "isb")):
        names = {r.name for r in load_model(name).dependencies}
        assert {"rdw", "rfi", "detour", f"addr;po;ctrl+{fence}"} <= names


def test_a_model_without_a_block_gets_neither(tmp_path):
    path = tmp_path / "d.mm"
    path.write_text("model d\nreorder {\n    R W\n R i i\n W Y Y\n}\npropagation per-thread\n")
    names = {r.name for r in lower_model_file(path).dependencies}
    assert names == {"addr", "data", "ctrl", "addr;po"}


@pytest.mark.parametrize("name", ["rdw", "rfi", "detour"])
def test_rdw_rfi_detour_in_a_multi_copy_atomic_model_are_located_errors(tmp_path, name):
    text = MODEL.replace("propagation per-thread\n", "").replace("cumulative strong ", "")
    with pytest.raises(ModelError) as info:
        _model(tmp_path, f"    {name} : R * R\n", text)
    assert f"dependency '{name}' is for a per-thread model" in info.value.message
    assert info.value.pos.line == 13
    assert "propagation per-thread" in (info.value.hint or "")


def test_addr_po_ctrl_must_name_a_declared_fence(tmp_path):
    with pytest.raises(ModelError) as info:
        _model(tmp_path, "    addr;po;ctrl+isnyc : R * R\n")
    assert "names fence 'isnyc', which the model does not declare" in info.value.message
    assert info.value.pos.line == 13
    assert "addr;po;ctrl+isync" in (info.value.hint or "")


def test_the_explorer_refuses_addr_po_ctrl_without_its_ctrl_fence(tmp_path):
    text = MODEL.replace("    ctrl+isync : R * R\n", "")
    model = _model(tmp_path, "    addr;po;ctrl+isync : R * R\n", text)
    with pytest.raises(UnsupportedError, match="addr;po;ctrl\\+FENCE without ctrl\\+FENCE"):
        explore(parse_litmus(ADDR_PO_CTRL_TEST, "t.litmus"), model)
