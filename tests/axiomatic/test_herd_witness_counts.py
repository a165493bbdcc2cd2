"""herd's stock sc.cat, x86tso.cat and riscv.cat give herd7's witness counts (Positive, Negative), not only its Observation.

These models generate co over every write (cos.cat), so each of mmdsl's candidates is one
of herd's executions. The models (herdtools7, CeCILL-B) are read from
../shared/reference/herd-cats, not copied: every test here skips, saying so, when that
folder is absent. Expectations: herd7 7.58's counts on samples of the suites,
tests/axiomatic/data/herd-counts/*.csv (NOTE.md there, bench/herd_counts.py).
"""

from __future__ import annotations

import csv

import pytest
from refdata import ROOT, SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
DATA = ROOT / "tests" / "axiomatic" / "data" / "herd-counts"
# (counts file, model, suite the paths are under)
SAMPLES = [
    ("riscv.csv", "riscv.cat", ROOT / "litmus" / "riscv"),
    ("x86-sc.csv", "sc.cat", ROOT / "litmus" / "x86"),
    ("classic-x86tso.csv", "x86tso.cat", ROOT / "tests" / "reference" / "classic" / "X86"),
    ("classic-lisa-sc.csv", "sc.cat", ROOT / "tests" / "reference" / "classic" / "LISA"),
]
pytestmark = pytest.mark.skipif(not all((HERD_CATS / m).is_file() for _, m, _ in SAMPLES),
                                reason=f"herd's sc.cat, x86tso.cat and riscv.cat are not in {HERD_CATS}")


def _wrong(counts: str, model_name: str, suite) -> list[tuple]:
    with open(DATA / counts, newline="") as f:
        rows = list(csv.DictReader(f))
    model = load_model(str(HERD_CATS / model_name))
    out = []
    for row in rows:
        res = check(load_litmus(suite / row["path"]), model)
        got = (res.observation, str(res.positive), str(res.negative))
        if got != (row["observation"], row["positive"], row["negative"]):
            out.append((model_name, row["path"], got, row))
    return out


@pytest.mark.parametrize(("counts", "model_name", "suite"), SAMPLES)
def test_every_sampled_test_gives_herds_witness_counts(counts, model_name, suite):
    """510 tests in all, about 3 s."""
    assert _wrong(counts, model_name, suite) == []


# three writes to x from three threads and a read of y (RISC-V); herd7 7.58 -model naked.cat
# (no checks, no co generated): Always 1 0 with x unobserved (one execution: herd orders no
# writes), Always 3 0 with x observed (one per final write of x); mmdsl said 6 0 for both,
# one per coherence order of x
W3 = """RISCV W3
{
0:x5=1; 0:x6=x;
1:x5=2; 1:x6=x;
2:x5=3; 2:x6=x; 2:x8=y;
}
 P0          | P1          | P2          ;
 sw x5,0(x6) | sw x5,0(x6) | sw x5,0(x6) ;
             |             | lw x7,0(x8) ;
"""


@pytest.mark.skipif(not (HERD_CATS / "naked.cat").is_file(), reason=f"herd's naked.cat is not in {HERD_CATS}")
@pytest.mark.parametrize(("tail", "positive"), [("exists (2:x7=0)\n", 1), ("locations [x;]\nexists (2:x7=0)\n", 3)])
def test_a_model_generating_no_co_counts_one_execution_per_rf_and_observed_final_writes(tail, positive):
    res = check(parse_litmus(W3 + tail, "W3.litmus"), load_model(str(HERD_CATS / "naked.cat")))
    assert (res.observation, len(res.states), res.positive, res.negative) == ("Always", positive, positive, 0)
