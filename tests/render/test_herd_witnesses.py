"""herd's Witnesses line counts the executions that validate the condition: for `~exists P`
those where P fails (the Observation line still counts P), as herd7's outputs show."""

from __future__ import annotations

from pathlib import Path

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

TEST = Path(__file__).resolve().parents[2] / "litmus" / "ppc" / "tests" / "herding-cats" / "2+2W+lwsyncs.litmus"


def test_not_exists_counts_the_validating_executions():
    out = herd_block(check(load_litmus(TEST), load_model("sc")), show_time=False)
    assert "Witnesses\nPositive: 3 Negative: 0\nCondition ~exists (x=1 /\\ y=1)\n" in out
    assert "Observation 2+2W+lwsyncs Never 0 3" in out
    herd = Path(f"{TEST}.ppc.expected").read_text()  # herd7 under ppc.cat: the same counts
    assert "Positive: 3 Negative: 0" in herd and "Observation 2+2W+lwsyncs Never 0 3" in herd
