"""Generated cycles and names agree with diy7's: the x86 corpus's BASIC_* folders (one diy7 run
each, its command in the folder's @all) and the classic shapes' verdicts under both engines."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.explorer.explore import explore
from mmdsl.generate.api import generated_tests
from mmdsl.generate.cycles import Bounds, canonical, enumerate_cycles, is_valid
from mmdsl.generate.edges import parse_cycle, parse_edge_list
from mmdsl.generate.names import name_and_shape
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "litmus" / "x86" / "tests" / "non-mixed-size"
CLASSIC = ROOT / "tests" / "reference" / "classic"
FENCES = {"mfence": "mfence"}
# diy7 -mode critical -safe Pod**,Fre,Rfe,Wse,MFenced** -nprocs N -eprocs -size S (see each @all)
RUNS = [("BASIC_2_THREAD", 2, 4), ("BASIC_3_THREAD", 3, 6), ("BASIC_4_THREAD", 4, 8)]


def corpus_cycles(folder: str) -> dict[tuple, tuple[str, str]]:
    """canonical cycle -> (test name, Cycle= line) for every test of a corpus folder."""
    out = {}
    for f in sorted((CORPUS / folder).glob("*.litmus")):
        text = f.read_text()
        found = re.search(r"^Cycle=(.*)$", text, re.M)
        if found:  # a few tests of CO/ were written by hand
            out[canonical(parse_cycle(found.group(1), FENCES))] = (text.split()[1], found.group(1))
    return out


def test_the_diy_runs_are_as_recorded():
    for folder, n, size in RUNS:
        head = (CORPUS / folder / "@all").read_text().splitlines()[0]
        assert "-mode critical" in head and "-safe Pod**,Fre,Rfe,Wse,MFenced**" in head
        assert f"-nprocs {n} -eprocs -size {size}" in head


@pytest.mark.parametrize("folder,threads,size", RUNS)
def test_cycle_sets_equal_diys(folder, threads, size):
    safe = parse_edge_list("Pod**,Fre,Rfe,Wse,MFenced**", FENCES)
    ours = set(enumerate_cycles([], safe, Bounds(size=size, threads=threads, exact_threads=True,
                                                 max_count=10_000)))
    theirs = corpus_cycles(folder)
    assert len(theirs) > 20
    assert ours == set(theirs)


@pytest.mark.parametrize("folder,threads,size", RUNS)
def test_names_equal_diys(folder, threads, size):
    for cycle, (name, _) in corpus_cycles(folder).items():
        assert name_and_shape(cycle)[0] == name


def test_relax_set_cycles_include_the_corpus_ones():
    """-relax PodWR -safe Rfe,Fre,Wse,Pod(other): every corpus cycle of those edges with a
    PodWR, at most 6 edges and 3 threads, is among ours."""
    relax = parse_edge_list("PodWR")
    safe = parse_edge_list("Rfe,Fre,Wse,PodWW,PodRR,PodRW")
    ours = set(enumerate_cycles(relax, safe, Bounds(size=6, threads=3, max_count=10_000)))
    allowed = {e.name for e in relax + safe}
    picked = 0
    for folder in ("BASIC_2_THREAD", "BASIC_3_THREAD"):
        for cycle in corpus_cycles(folder):
            if {e.name for e in cycle} <= allowed and any(e.name == "PodWR" for e in cycle):
                assert cycle in ours
                picked += 1
    assert picked == 9  # R, SB, RWC, WRW+WR, Z6.0, Z6.4, Z6.5, 3.SB, W+RWC
    assert len(ours) == picked  # and nothing else: diy's runs cover these sizes whole


def classic_verdicts() -> dict[str, dict[str, str]]:
    with open(CLASSIC / "verdicts.csv") as f:
        return {row["test"]: row for row in csv.DictReader(f)}


SHAPES = ["SB", "MP", "LB", "2+2W", "R", "S", "IRIW", "WRC", "ISA2", "RWC", "W+RWC", "WWC"]
COLUMNS = {"sc": "SC", "tso": "TSO", "pso": "PSO*", "rmo": "RMO*"}


def classic_cycle(shape: str) -> str:
    text = (CLASSIC / "X86" / f"{shape}.litmus").read_text()
    return re.search(r'^"(.*)"$', text, re.M).group(1)


@pytest.mark.parametrize("shape", SHAPES)
def test_classic_shapes_generate_with_reference_verdicts(shape):
    cycle = parse_cycle(classic_cycle(shape).replace("Wse", "Coe"))
    expected = classic_verdicts()[shape]
    for arch in ("X86", "LISA", "C"):
        (test,) = generated_tests([cycle], arch)
        assert test.name == shape
        program = parse_litmus(test.source, f"{shape}.litmus")
        for model_name, column in COLUMNS.items():
            model = load_model(model_name)
            a = check(program, model, collect="none").verdict
            e = explore(program, model).verdict
            assert a == e, (shape, arch, model_name)
            assert a[0] == expected[column], (shape, arch, model_name)


def test_classic_fenced_shapes_are_forbidden_everywhere():
    for shape in ("SB", "MP", "IRIW"):
        cycle = classic_cycle(shape).replace("Wse", "Coe").replace("Pod", "MFenced")
        (test,) = generated_tests([parse_cycle(cycle, FENCES)], "X86")
        assert test.name == f"{shape}+mfences"
        program = parse_litmus(test.source, "t.litmus")
        for m in COLUMNS:
            assert check(program, load_model(m), collect="none").verdict == "Forbidden"


def corpus_expectations() -> dict[str, dict[str, str]]:
    """test path -> {model: herd's Observation} from litmus/x86/manifest.yaml."""
    out = {}
    for line in (ROOT / "litmus" / "x86" / "manifest.yaml").read_text().splitlines():
        m = re.match(r"  (tests/\S+): \{sc: (\w+), tso: (\w+)\}", line)
        if m:
            out[m.group(1)] = {"sc": m.group(2), "tso": m.group(3)}
    return out


def _verdicts_agree(folder: str, engines: tuple[str, ...] = ("axiomatic",)) -> int:
    expected = corpus_expectations()
    models = {m: load_model(m) for m in ("sc", "tso")}
    count = 0
    for cycle, (name, _) in corpus_cycles(folder).items():
        (test,) = generated_tests([cycle], "X86")
        program = parse_litmus(test.source, f"{name}.litmus")
        for m, model in models.items():
            herd = expected[f"tests/non-mixed-size/{folder}/{name}"][m]
            want = "Forbidden" if herd == "Never" else "Allowed"
            assert check(program, model, collect="none").verdict == want, (name, m)
            if "explorer" in engines:
                assert explore(program, model).verdict == want, (name, m)
        count += 1
    return count


def test_generated_tests_get_herds_verdicts_on_the_corpus_sample():
    """Our X86 test of each BASIC_2/3 cycle has herd's verdict for diy's test of that cycle."""
    assert _verdicts_agree("BASIC_2_THREAD", ("axiomatic", "explorer")) == 21
    assert _verdicts_agree("BASIC_3_THREAD") == 100


@pytest.mark.slow
def test_generated_tests_get_herds_verdicts_on_basic_4():
    assert _verdicts_agree("BASIC_4_THREAD", ("axiomatic", "explorer")) == 490


def test_every_corpus_cycle_is_named_as_diy_names_it():
    """Every test of the corpus's diy7 runs (BASIC_* in critical mode, with Pos and MFences
    in the EXTRA ones; RELAX_* in ppo and sc mode) gets diy's name, up to its collision number
    (pinned whole in test_diy_modes.py); the critical runs' cycles are critical ones here."""
    named = 0
    for folder in sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "CO"):
        for cycle, (name, _) in corpus_cycles(folder).items():
            if folder.startswith("BASIC"):
                assert is_valid(list(cycle)), (folder, name)
            ours = name_and_shape(cycle)[0]
            assert name == ours or re.fullmatch(re.escape(ours) + r"\d{3}", name), (folder, name, ours)
            named += 1
    assert named == 21 + 96 + 100 + 490 + 872 + 726 + 257


@pytest.mark.parametrize("folder,threads,size", [("BASIC_3_THREAD_EXTRA", 3, 12), ("BASIC_4_THREAD_EXTRA", 4, 16)])
def test_extra_runs_are_among_ours(folder, threads, size):
    """diy7 -safe Pod**,Pos**,Fre,Rfe,Wse,MFenced**,MFences** with a list of cycles left out
    (`-no`, not recorded): every cycle it wrote is one mmdsl generates for those edges."""
    safe = parse_edge_list("Pod**,Pos**,Fre,Rfe,Wse,MFenced**,MFences**", FENCES)
    ours = set(enumerate_cycles([], safe, Bounds(size=size, threads=threads, exact_threads=True,
                                                 max_count=100_000, timeout=120)))
    theirs = corpus_cycles(folder)
    assert len(theirs) > 90
    assert set(theirs) <= ours


def test_one_location_cycles_only_with_one_location():
    """diy refuses a test on a single location unless -oneloc; so does generate."""
    edges = parse_edge_list("PosRR,PosWW,PosRW,PosWR,Rfe,Fre,Coe")
    assert enumerate_cycles([], edges, Bounds(size=4, threads=2)) == []
    found = enumerate_cycles([], edges, Bounds(size=3, threads=2, one_location=True))
    assert canonical(parse_cycle("Rfe PosRR Fre")) in found
    assert canonical(parse_cycle("Rfe PosRW Coe")) in found


def test_coherence_shapes_are_forbidden_by_every_model():
    """Cycles on one location violate coherence: every model forbids their tests, both engines."""
    edges = parse_edge_list("Pos**,Rfe,Fre,Coe")
    cycles = enumerate_cycles([], edges, Bounds(size=4, threads=2, one_location=True))
    assert len(cycles) >= 5
    for test in generated_tests(cycles, "X86"):
        program = parse_litmus(test.source, f"{test.name}.litmus")
        for m in ("sc", "tso", "pso", "rmo"):
            model = load_model(m)
            assert check(program, model, collect="none").verdict == "Forbidden", (test.name, m)
            assert explore(program, model).verdict == "Forbidden", (test.name, m)
