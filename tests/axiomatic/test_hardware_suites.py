"""power, armv7 and armv8 against herd7 on the bundled PPC, ARM and AArch64 suites.

Expectations are herd7 7.58's own: the final states and the Observation line of
T.litmus.ppc.expected / T.litmus.arm.expected / T.litmus.aarch64.expected next to each test
of litmus/ppc, litmus/arm and litmus/aarch64 (ppc.cat, arm.cat, aarch64.cat; the AArch64
Observation also in litmus/aarch64/verdicts.csv); see each suite's ORIGIN.md.
"""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

LITMUS = Path(__file__).resolve().parents[2] / "litmus"
MODEL = {"ppc": "power", "arm": "armv7", "aarch64": "armv8"}
def expected(suite: str) -> dict[str, str]:
    """{path under tests/: herd's Observation}."""
    root = LITMUS / suite / "tests"
    if suite == "aarch64":
        with open(LITMUS / suite / "verdicts.csv") as f:
            return {r["path"].removeprefix("tests/"): r["aarch64.cat"] for r in csv.DictReader(f)}
    out = {}
    for exp in sorted(root.rglob(f"*.litmus.{suite}.expected")):
        word = re.search(r"^Observation \S+ (\S+)", exp.read_text(), re.M).group(1)
        out[str(exp.relative_to(root)).removesuffix(f".{suite}.expected")] = word
    return out


def herd_outcome(text: str) -> tuple[frozenset, str]:
    """(final states, Observation word) of a herd-shaped output."""
    lines = text.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("States "))
    states = frozenset(frozenset(a.strip().replace(" ", "").replace("[", "").replace("]", "")
                                 for a in line.split(";") if a.strip())
                       for line in lines[at + 1:at + 1 + int(lines[at].split()[1])])
    return states, re.search(r"^Observation \S+ (\S+)", text, re.M).group(1)


def disagreements(suite: str, folders: tuple[str, ...] | None = None) -> dict[str, tuple]:
    """{path: (herd's, the model's)} where the Observation or the final states differ."""
    model = load_model(MODEL[suite])
    out = {}
    for path, word in expected(suite).items():
        if folders and path.split("/")[0] not in folders:
            continue
        file = LITMUS / suite / "tests" / path
        want = herd_outcome(Path(f"{file}.{suite}.expected").read_text())
        assert want[1] == word, path
        got = herd_outcome(herd_block(check(load_litmus(file), model), show_time=False))
        if got != want:
            out[path] = (want, got)
    return out


@pytest.mark.parametrize("suite", sorted(MODEL))
def test_classic_and_deps_and_fences_give_herds_observation_and_states(suite):
    assert disagreements(suite, ("classic", "deps-and-fences")) == {}


@pytest.mark.slow
@pytest.mark.parametrize("suite", sorted(MODEL))
def test_whole_suite_gives_herds_observation_and_final_states(suite):
    """656 PPC, 151 ARM and 598 AArch64 tests: herd's Observation and herd's set of final
    states on every one (about 5 s in all on one core)."""
    start = time.perf_counter()
    assert disagreements(suite) == {}
    assert len(expected(suite)) == {"ppc": 656, "arm": 151, "aarch64": 598}[suite]
    print(f"{suite} under {MODEL[suite]}: {len(expected(suite))} tests in {time.perf_counter() - start:.0f} s")


@pytest.mark.parametrize("suite, path", [
    # herd's ppo composes addr;po (into a read after the write) with a later ctrl+isync (cc ; ci
    # in ci): power.mm's `addr;po;ctrl+isync`; before it, power said Sometimes (4 states, herd 3)
    ("ppc", "ppc-gen/PPCp1s6_716.litmus"),
    # arm.cat's rdw = po-loc & (fre ; rfe) in ppo: armv7.mm's `rdw`; before it, 19 states (herd 18)
    ("arm", "herding-cats/MP+dmb+pos-ctrlisb+BIS.litmus"),
])
def test_the_former_misses_give_herds_states(suite, path):
    assert disagreements_of(suite, path) == {}


def disagreements_of(suite: str, path: str) -> dict:
    file = LITMUS / suite / "tests" / path
    want = herd_outcome(Path(f"{file}.{suite}.expected").read_text())
    got = herd_outcome(herd_block(check(load_litmus(file), load_model(MODEL[suite])), show_time=False))
    return {} if got == want else {path: (want, got)}
