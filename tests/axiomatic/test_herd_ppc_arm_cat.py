"""herd's stock ppc.cat and arm.cat, loaded unchanged, give herd's output on the PPC and ARM suites.

ppc.cat, arm.cat and their includes (ppcfences.cat, armfences.cat, ppo.cat, ppc-checks.cat,
cos.cat, stdlib.cat ...) are read from ../shared/reference/herd-cats (herdtools7, CeCILL-B;
not copied into the repository); every test here skips, saying so, when that folder is
absent. Expectations: herd7 7.58's whole output for each bundled test, committed next to it
as T.litmus.ppc.expected / T.litmus.arm.expected (litmus/ppc/ORIGIN.md): the final
states, the witness counts and the Observation must all be herd's.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from refdata import ROOT, SHARED_REFERENCE, outcome

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

HERD_CATS = SHARED_REFERENCE / "herd-cats"
SUITES = {"ppc": ROOT / "litmus" / "ppc" / "tests", "arm": ROOT / "litmus" / "arm" / "tests"}
pytestmark = pytest.mark.skipif(not (HERD_CATS / "ppc.cat").is_file() or not (HERD_CATS / "arm.cat").is_file(),
                                reason=f"herd's ppc.cat and arm.cat are not in {HERD_CATS}")


def suite_files(model: str) -> list[Path]:
    return sorted(SUITES[model].rglob("*.litmus"))


_MODELS: dict = {}


def _model(name: str):
    if name not in _MODELS:
        _MODELS[name] = load_model(str(HERD_CATS / f"{name}.cat"))
    return _MODELS[name]


def disagreements(model: str, files: list[Path]) -> list[tuple]:
    out = []
    for f in files:
        want = outcome(Path(f"{f}.{model}.expected").read_text())
        got = outcome(herd_block(check(load_litmus(f), _model(model)), show_time=False))
        if got != want:
            out.append((str(f.relative_to(ROOT)), got[1:], want[1:], sorted(map(sorted, got[0] ^ want[0]))[:4]))
    return out


# one per mechanism the two models read through a built-in set or relation, and a sample
PINNED_PPC = ["deps-and-fences/MP+lwsync+ctrlisync", "deps-and-fences/MP+fence+ctrl", "deps-and-fences/IRIW+addrs",
              "deps-and-fences/IRIW+lwsyncs", "deps-and-fences/WRC+fence+addr", "classic/IRIW+fences",
              "hand/LWARX-INC2-ok", "hand/LWARX-ATOMIC", "hand/LWARX-DIFF-LOC", "hand/MP+eieio+addr",
              "hand/SB+eieios", "hand/MP+lwsync+addr-ld-std", "hand/CoRR-branch", "hand/MP+sync+ctrl-cmpwi",
              "hand/LB+stwcx-ctrl+data",  # the status of a stwcx. depends on the registers it reads
              "herding-cats/2+2W+lwsyncs"]  # ~exists: herd's Witnesses count the validating executions
PINNED_ARM = ["deps-and-fences/MP+fence+ctrl", "deps-and-fences/WRC+addrs", "classic/IRIW+fences",
              "hand/MP+dmb+ctrlisb", "hand/MP+dmb+ctrl-cbz", "hand/MP+dmb.st+addr", "hand/MP+dmb.ishst+addr",
              "hand/MP+dsb.ish+addr", "hand/LDREX-INC2", "hand/STREX-DIFF-LOC", "hand/LB+ctrl-adds+data-orr",
              "hand/LB+strex-ctrl+data", "random/FARM2_1", "random/FARM3_11",
              "herding-cats/IRIW+addr+ctrlisb", "herding-cats/LB+data+data-wsi-rfi-ctrl"]


def test_a_sample_gives_herds_states_and_observation():
    """35 tests: the pinned ones and every 120th PPC test (about a second)."""
    ppc = [SUITES["ppc"] / f"{t}.litmus" for t in PINNED_PPC] + suite_files("ppc")[::120]
    arm = [SUITES["arm"] / f"{t}.litmus" for t in PINNED_ARM]
    assert len(ppc) + len(arm) >= 30
    assert disagreements("ppc", ppc) == []
    assert disagreements("arm", arm) == []


def test_the_bundled_expectations_are_the_reference_tables():
    """The committed herd outputs say what the reference verdict tables say (when they are there)."""
    table = SHARED_REFERENCE / "ppc-gen" / "verdicts.csv"
    if not table.is_file():
        pytest.skip(f"no reference table {table}")
    rows = list(csv.DictReader(open(table)))
    assert len(rows) == 540
    for r in rows:
        f = SUITES["ppc"] / "ppc-gen" / f"{Path(r['path']).name}.ppc.expected"
        assert outcome(f.read_text())[3] == r["ppc.cat"], f
    classic = {r["test"]: r for r in csv.DictReader(open(SHARED_REFERENCE / "classic" / "verdicts.csv"))}
    for model, column in (("ppc", "Power"), ("arm", "ARMv7")):
        for f in sorted((SUITES[model] / "classic").glob(f"*.{model}.expected")):
            word = outcome(f.read_text())[3]
            assert {"Never": "F"}.get(word, "A") == classic[f.name.split(".litmus")[0]][column], f


@pytest.mark.slow
def test_the_whole_ppc_and_arm_suites_give_herds_states_and_observation():
    """656 PPC and 151 ARM tests: about 10 s."""
    assert len(suite_files("ppc")) == 656 and len(suite_files("arm")) == 151
    assert disagreements("ppc", suite_files("ppc")) == []
    assert disagreements("arm", suite_files("arm")) == []
