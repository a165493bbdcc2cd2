"""The hb predecessors a read of a per-thread model inherits its view from (explorer/machines/propagation/read_views.py)."""

from __future__ import annotations

from explorer_paths import ROOT

from mmdsl.explorer.machines.propagation.read_views import read_order, read_orders
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


def test_a_read_of_the_location_again_inherits_by_the_rdw_line():
    """A read after an earlier read of its location inherits that read's view only when it
    takes a newer write of another thread (power.mm's ``rdw``: herd's po-loc & (fre ; rfe)
    in ii0), not always: the table's R -> R cell keeps a same-location pair only with a
    dependency."""
    program = load_litmus(PPC / "herding-cats" / "MP+lwsync+addr-po-detr.litmus")
    thread = program.threads[1]
    order = read_orders(thread, load_model("power"))
    text = {k: thread.instrs[k].text for k in order.reads}
    later = next(k for k in order.reads if text[k] == "lwz r8,0(r7)")
    assert order.before[later] == set()
    assert {text[j] for j in order.rdw[later]} == {"lwz r6,0(r7)"}
