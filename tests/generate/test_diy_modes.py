"""diy7's generation modes (default, critical, sc, ppo) and its numbering, against diy7 itself.

Two references: diy7 7.58's own runs on small configurations (tests/generate/data/diy7/,
made by its make.sh: each file holds the command, then every test's numbered name and
cycle in diy's order), and the x86 corpus's RELAX_2_THREAD (ppo mode) and RELAX_3_THREAD
(sc mode) folders, two whole diy7 runs whose command is in each folder's @all.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mmdsl.core.errors import MmdslError
from mmdsl.generate.api import arch_fences, generated_tests
from mmdsl.generate.cycles import Bounds, canonical, enumerate_cycles
from mmdsl.generate.edges import parse_cycle, parse_edge_list
from mmdsl.generate.modes import buildable, may_follow, po_safe_of

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "diy7"
CORPUS = ROOT / "litmus" / "x86" / "tests" / "non-mixed-size"
X86 = {"mfence": "mfence"}


def options(argv: list[str]) -> dict[str, str]:
    """diy7's options as a dict (flags without a value map to "")."""
    out, i = {}, 0
    while i < len(argv):
        if argv[i] in ("-eprocs",):
            out[argv[i]], i = "", i + 1
        else:
            out[argv[i]], i = argv[i + 1], i + 2
    return out


def ours_for(argv: list[str], numeric: bool, style: str = "7.55") -> dict[str, tuple]:
    """What mmdsl generates for a diy7 command line: test name -> canonical cycle."""
    o = options(argv)
    arch = "RISCV" if o["-arch"] == "RISCV" else "X86"
    fences = arch_fences(arch)
    bounds = Bounds(size=int(o.get("-size", 6)), threads=int(o.get("-nprocs", 4)),
                    exact_threads="-eprocs" in o, mode=o.get("-mode", "default"),
                    mix=o.get("-mix") == "true", max_count=100_000)
    cycles = enumerate_cycles(parse_edge_list(o.get("-relax", ""), fences),
                              parse_edge_list(o.get("-safe", ""), fences), bounds)
    return {t.name: canonical(t.cycle) for t in generated_tests(cycles, arch, numeric=numeric, style=style)}


def diy7_run(path: Path) -> tuple[list[str], dict[str, tuple]]:
    """A recorded diy7 run: its options, and test name -> canonical cycle."""
    lines = path.read_text().splitlines()
    argv = shlex.split(lines[0].split(": diy7 ", 1)[1])[2:]  # after -cycleonly true
    if argv[:2] == ["-num", "false"]:
        argv = argv[2:]
    fences = arch_fences("RISCV" if options(argv)["-arch"] == "RISCV" else "X86")
    tests = {}
    for line in lines[1:]:
        name, cycle = line.split(": ", 1)
        tests[name] = canonical(parse_cycle(cycle, fences))
    return argv, tests


RUNS = sorted(DATA.glob("*.txt"))
NAMED = sorted(DATA.glob("*.names"))


def test_the_recorded_runs_are_diy7_7_58_runs():
    assert len(RUNS) == len(NAMED) == 13
    for path in RUNS + NAMED:
        head = path.read_text().splitlines()[0]
        flags = "-num false " if path.suffix == ".names" else ""
        assert head.startswith(f"# 7.58: diy7 -cycleonly true {flags}-arch "), path.name
        assert f"run {path.stem} " in (DATA / "make.sh").read_text()


@pytest.mark.parametrize("path", RUNS, ids=[p.stem for p in RUNS])
def test_same_tests_names_and_numbers_as_diy7(path):
    """The same cycles, and each under diy7's name: its family numbered in diy's search order."""
    argv, theirs = diy7_run(path)
    assert len(theirs) >= 6
    assert ours_for(argv, numeric=True) == theirs


@pytest.mark.parametrize("path", NAMED, ids=[p.stem for p in NAMED])
def test_same_names_as_diy7_7_58(path):
    """diy7's -num false names in 7.58's style (``2+2W+mfence+poR-mfence``), numbered alike."""
    argv, theirs = diy7_run(path)
    assert ours_for(argv, numeric=False, style="7.58") == theirs


def corpus_run(folder: str) -> tuple[list[str], dict[str, tuple]]:
    lines = (CORPUS / folder / "@all").read_text().splitlines()
    argv = shlex.split(lines[0].removeprefix("# diy7"))
    tests = {}
    for name in lines[2:]:
        text = (CORPUS / folder / name).read_text()
        tests[text.split()[1]] = canonical(parse_cycle(re.search(r"^Cycle=(.*)$", text, re.M).group(1), X86))
    return argv, tests


def corpus_bounds(argv: list[str]) -> tuple[list, list, Bounds]:
    """diy7's command: its later -mode wins, as in diy's option parser."""
    modes = [argv[i + 1] for i, a in enumerate(argv) if a == "-mode"]
    o = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("-") and argv[i] != "-eprocs"}
    bounds = Bounds(size=int(o["-size"]), threads=int(o["-nprocs"]), exact_threads="-eprocs" in argv,
                    mode=modes[-1], max_count=100_000)
    return parse_edge_list(o["-relax"], X86), parse_edge_list(o["-safe"], X86), bounds


def test_the_relax_folders_are_ppo_and_sc_runs():
    for folder, mode in (("RELAX_2_THREAD", "ppo"), ("RELAX_3_THREAD", "sc")):
        argv, tests = corpus_run(folder)
        assert "-num false" in " ".join(argv)
        assert corpus_bounds(argv)[2].mode == mode
        assert len(tests) == {"ppo": 726, "sc": 257}[mode]


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["RELAX_2_THREAD", "RELAX_3_THREAD"])
def test_relax_folders_whole(folder):
    """Every test of the folder, by name (with diy's 001, 002 numbers) and cycle, and no other."""
    argv, theirs = corpus_run(folder)
    relax, safe, bounds = corpus_bounds(argv)
    ours = {t.name: canonical(t.cycle) for t in generated_tests(enumerate_cycles(relax, safe, bounds), "X86")}
    assert ours == theirs


def test_relax_3_cycle_set_and_a_sample_of_names():
    """Fast beside the whole-folder test: RELAX_3_THREAD's cycle set, and the names of the
    tests whose name needs a collision number."""
    argv, theirs = corpus_run("RELAX_3_THREAD")
    relax, safe, bounds = corpus_bounds(argv)
    cycles = enumerate_cycles(relax, safe, bounds)
    assert set(cycles) == set(theirs.values())
    numbered = {n: c for n, c in theirs.items() if re.search(r"\d{3}$", n)}
    assert len(numbered) >= 10
    keep = set(numbered.values()) | {theirs[re.sub(r"\d{3}$", "", n)] for n in numbered}
    # every test of those names, in diy's order: the numbers come out as diy's
    ours = {t.name: canonical(t.cycle) for t in generated_tests([c for c in cycles if c in keep], "X86")}
    for name, cycle in numbered.items():
        assert ours[name] == cycle, name


def test_relax_2_cycle_set():
    argv, theirs = corpus_run("RELAX_2_THREAD")
    relax, safe, bounds = corpus_bounds(argv)
    assert set(enumerate_cycles(relax, safe, bounds)) == set(theirs.values())


def test_sc_mode_keeps_po_sequences_only_when_relaxed():
    """sc mode: two po edges follow each other when their composition is not safe
    (PodWW;PodWR is a W->R, relaxed), never when it is (PodRR;PodRW is a safe R->W)."""
    po_safe = po_safe_of(parse_edge_list("PodRR,PodRW,PodWW"))
    e = {w: parse_edge_list(w)[0] for w in ("PodWW", "PodWR", "PodRR", "PodRW", "Rfi", "Fre")}
    assert may_follow("sc", e["PodWW"], e["PodWR"], po_safe)
    assert not may_follow("sc", e["PodRR"], e["PodRW"], po_safe)
    assert may_follow("sc", e["Rfi"], e["PodRR"], po_safe)  # a W->R made of Rfi and a safe R->R
    assert not may_follow("sc", e["Rfi"], e["PodRW"], po_safe)  # W->W is safe
    assert may_follow("ppo", e["PodRR"], e["PodRW"])  # ppo: anything but the same edge twice
    assert not may_follow("ppo", e["PodRR"], e["PodRR"])
    assert not may_follow("critical", e["PodWW"], e["PodWR"])  # critical: po never twice in a row


def test_tests_diy_cannot_build_are_left_out():
    """Three writes to one location need an observer thread (diy7 -obs avoid refuses);
    outside ppo a thread may not end at an earlier point of its first location's coherence."""
    assert not buildable("ppo", parse_cycle("Coe Rfi Fre PodWW MFencedWR PodRW", X86))
    assert buildable("ppo", parse_cycle("Rfi PodRR Fre Rfi PodRR Fre"))


def test_mix_and_modes_are_checked():
    with pytest.raises(MmdslError, match="unknown mode"):
        Bounds(mode="thin").check()
    relax, safe = parse_edge_list("PodWW,PodRR"), parse_edge_list("Rfe,Fre")
    assert enumerate_cycles(relax, safe, Bounds(size=4, threads=2)) == []  # diy: one relax edge per cycle
    assert len(enumerate_cycles(relax, safe, Bounds(size=4, threads=2, mix=True))) == 1  # MP


def test_relax_3_tests_get_herds_verdicts():
    """Our X86 test of each RELAX_3_THREAD cycle (sc mode: po-po threads, Rfi inside threads)
    has herd7's verdict for diy's test of that cycle, under sc and x86-TSO."""
    from generate.test_diy_agreement import _verdicts_agree

    assert _verdicts_agree("RELAX_3_THREAD") == 257


@pytest.mark.slow
def test_relax_tests_get_herds_verdicts_in_both_engines():
    from generate.test_diy_agreement import _verdicts_agree

    assert _verdicts_agree("RELAX_3_THREAD", ("axiomatic", "explorer")) == 257
    assert _verdicts_agree("RELAX_2_THREAD", ("axiomatic", "explorer")) == 726
