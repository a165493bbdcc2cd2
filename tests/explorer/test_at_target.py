"""A state property (Memorax's `forbidden` labels) is decided once per tuple of the threads' pcs, not per state."""

from __future__ import annotations

import dataclasses

from explorer_paths import ROOT

from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus

BENCH = ROOT / "litmus" / "fence-benchmarks"


@dataclasses.dataclass(frozen=True)
class CountingProp:
    """The program's property, counting how often it is evaluated."""

    inner: object
    calls: list

    def holds(self, values) -> bool:
        self.calls.append(tuple(sorted(values.items())))
        return self.inner.holds(values)

    def keys(self):
        return self.inner.keys()


def test_the_forbidden_labels_are_evaluated_once_per_pc_tuple_with_the_same_verdict():
    program = load_litmus(BENCH / "peterson.rmm")
    model = load_model("pso")
    plain = explore(program, model)
    calls: list = []
    counted = dataclasses.replace(program, condition=dataclasses.replace(
        program.condition, prop=CountingProp(program.condition.prop, calls)))
    result = explore(counted, model)
    assert (result.positive, result.negative, result.stats["states"]) == (
        plain.positive, plain.negative, plain.stats["states"])
    assert result.positive > 0  # the violation is reachable under pso, and still found
    # one evaluation per place the threads can be at together, not one per state (16,382)
    assert len(calls) == len(set(calls)) < plain.stats["states"] // 10


def test_a_thread_waiting_at_an_issued_cas_is_not_past_it(tmp_path):
    """Memorax's cas waits until the location holds the expected value: a thread that has only
    issued it (its pending list holds the blocking read-modify-write) is at the cas, not at the
    label after it. Two processes taking a cas spin lock never meet in CS (they did: a wrong
    'reachable' under sc)."""
    from mmdsl.litmus.rmm import parse_rmm

    text = ("forbidden\n  CS CS\ndata\n  l = 0 : [0:1]\nprocess(2)\ntext\n"
            "  L: cas(l, 0, 1);\n  CS: nop;\n  write: l := 0;\n  goto L\n")
    program = parse_rmm(text, str(tmp_path / "spin.rmm"))
    for name in ("sc", "tso", "pso"):
        assert explore(program, load_model(name)).positive == 0, name
    waiting = parse_rmm(text.replace("forbidden\n  CS CS", "forbidden\n  L CS"), str(tmp_path / "w.rmm"))
    assert explore(waiting, load_model("sc")).positive > 0  # one in CS, the other waiting at its cas
