"""The check of a broken program stops at its first error, found early (breadth-first probe, then depth-first)."""

from __future__ import annotations

import pytest
from refdata import ROOT

from mmdsl.check import check_program
from mmdsl.lang import load_model
from mmdsl.litmus.cprog import load_c_program

PROGRAMS = ROOT / "litmus" / "programs-c"


# (program, model, -D defines, verdict, states visited (bound: the measured count with a wide margin),
# whether the trace is a shortest one (found by the breadth-first probe))
CASES = [
    # deep violations: breadth-first reached them after 129,294 and 5,802 states; depth-first 1,568 and 193
    ("peterson-broken", "tso", {}, "violation", 5_000, False),
    ("queue-broken", "pso", {}, "violation", 1_000, False),
    # the philosophers' deadlock at N=6: the whole breadth-first search visited 2,979 states; the probe stops at it
    ("philosophers", "sc", {"N": "6"}, "deadlock", 1_500, True),
    # a shallow violation: the breadth-first probe finds it, with a shortest trace
    ("seqlock-broken", "sc", {}, "violation", 1_000, True),
]


@pytest.mark.parametrize("name,model,defines,verdict,bound,shortest", CASES, ids=[c[0] for c in CASES])
def test_error_found_early(name, model, defines, verdict, bound, shortest):
    cp = load_c_program(str(PROGRAMS / f"{name}.c"), defines=defines)
    result = check_program(cp, load_model(model))
    assert result.verdict == verdict
    assert result.stats["states"] <= bound
    # the breadth-first probe's trace is a shortest one; the depth-first pass's is not (said in the output)
    assert result.shortest == shortest
