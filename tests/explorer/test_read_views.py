"""The hb predecessors a read of a per-thread model inherits its view from (explorer/read_views.py)."""

from __future__ import annotations

from explorer_paths import ROOT

from mmdsl.explorer.read_views import read_order
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

PPC = ROOT / "litmus" / "ppc" / "tests"


def _reads(path, tid):
    program = load_litmus(path)
    thread = program.threads[tid]
    reads, before = read_order(thread, load_model("power"))
    text = {k: thread.instrs[k].text for k in reads}
    return {text[k]: sorted(text[j] for j in before[k]) for k in reads}


def test_two_address_pairs_are_two_chains():
    """bigdetour's reader: Ry -addr-> Rz, Rw -addr-> Rx, and nothing between the pairs."""
    order = _reads(PPC / "herding-cats" / "MP+lwsync+addr-bigdetour-addr.litmus", 1)
    assert order == {
        "lwz r1,0(%y1)": [],
        "lwzx r4,r3,%z1": ["lwz r1,0(%y1)"],
        "lwz r6,0(%w1)": [],
        "lwzx r9,r8,%x1": ["lwz r6,0(%w1)"],
    }


def test_same_location_and_fences_order_reads():
    """A read after an earlier read of its location, or after a fence ordering read pairs,
    inherits that read's view (SC per location; hb)."""
    order = _reads(PPC / "herding-cats" / "MP+lwsync+addr-po-detr.litmus", 1)
    assert order["lwz r8,0(r7)"] == ["lwz r6,0(r7)"]
    assert order["lwz r6,0(r7)"] == []
