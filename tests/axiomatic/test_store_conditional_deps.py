"""A PPC stwcx. / ARM STREX status depends on the registers the instruction reads (herd's way),
not on its write as a RISC-V sc's does: a branch on it is a control dependency on the loads
those registers came from, whether the store-conditional succeeds or fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic.threads import thread_traces
from mmdsl.litmus import load_litmus

SUITES = Path(__file__).resolve().parents[2] / "litmus"


@pytest.mark.parametrize("path", ["ppc/tests/hand/LB+stwcx-ctrl+data.litmus",
                                  "arm/tests/hand/LB+strex-ctrl+data.litmus"])
def test_the_status_branch_depends_on_the_exclusive_load(path):
    traces = thread_traces(load_litmus(SUITES / path))[0]
    outcomes = set()
    for tr in traces:
        writes = [e for e in tr.events if e.kind == "W"]
        outcomes.add(len(writes))  # 2: the store-conditional succeeded, 1: it failed
        last = writes[-1]
        assert last.loc == "y" and last.ctrl_dep & 1, (path, tr.events)  # read 0 is the exclusive load
    assert outcomes == {1, 2}
