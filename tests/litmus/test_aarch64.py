"""The AArch64 dialect: diy's and herd's instructions lowered faithfully, errors located, the rest refused by name;
herd's aarch64.cat through mmdsl gives herd7's own output on the bundled suite litmus/aarch64.

The expected outputs are herd7 7.58's, beside each test (``T.litmus.aarch64.expected``, see
litmus/aarch64/ORIGIN.md). herd's aarch64.cat and its includes are read from
../shared/reference/herd-cats (herdtools7 and Arm; not copied into the repository): the
tests that run it skip, saying so, when that folder is absent.
"""

from __future__ import annotations

import re

import pytest
from refdata import ROOT, SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.core.errors import LitmusError, MmdslError, UnsupportedError
from mmdsl.core.program import OLD, Assign, BinOp, Branch, Const, Fence, Load, Reg, Rmw, Store, StoreCond, UnOp
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus
from mmdsl.litmus.registry import dialect_for

SUITE = ROOT / "litmus" / "aarch64"
AARCH64_CAT = SHARED_REFERENCE / "herd-cats" / "aarch64.cat"
needs_cat = pytest.mark.skipif(not AARCH64_CAT.is_file(), reason=f"herd's aarch64.cat is not in {AARCH64_CAT.parent}")
ALL_TESTS = sorted(SUITE.glob("tests/**/*.litmus"))


def one(lines: list[str], init: str = "0:X1=x; 0:X3=y;", cond: str = "0:X0=0") -> str:
    body = "\n".join(f" {line} ;" for line in lines)
    return f"AArch64 t\n{{ {init} }}\n P0 ;\n{body}\nexists ({cond})\n"


def instrs(*lines: str):
    return parse_litmus(one(list(lines)), "t.litmus").threads[0].instrs


# ----- the whole suite reads ---------------------------------------------------------------
def test_every_bundled_aarch64_test_reads_with_its_name():
    assert len(ALL_TESTS) == 598
    for path in ALL_TESTS:
        p = load_litmus(path)
        assert p.name == path.stem and p.arch == "AArch64" and p.threads


def test_the_dialect_is_registered_under_herds_names():
    assert dialect_for("AArch64") is dialect_for("aarch64") is dialect_for("ARM64")


# ----- lowering ------------------------------------------------------------------------------
def test_w_and_x_registers_are_one_register_and_the_condition_says_x():
    p = parse_litmus(one(["MOV W0,#1", "STR W0,[X1]", "LDR X2,[X3]", "EOR W4,W2,W2"], cond="0:X2=1 /\\ 0:W4=0"),
                     "t.litmus")
    got = p.threads[0].instrs
    assert got[0] == Assign("X0", Const(1))
    assert got[1] == Store(Reg("X1"), Reg("X0"))
    assert got[2] == Load("X2", Reg("X3"))
    assert got[3] == Assign("X4", UnOp("sext32", BinOp("xor", Reg("X2"), Reg("X2"))))  # a W result: 32 bits
    assert [k for k in p.condition.keys()] == [("reg", 0, "X2"), ("reg", 0, "X4")]


def test_addressing_modes():
    got = instrs("LDR W0,[X1]", "LDR W0,[X1,X2]", "STR W0,[X1,W2,SXTW]", "LDR W0,[X1,#0]",
                 "ADD X5,X1,W2,SXTW", "LDR W0,[X1,W2,UXTW]", "STR WZR,[X3]")
    assert got[0] == Load("X0", Reg("X1"))
    assert got[1] == Load("X0", BinOp("add", Reg("X1"), Reg("X2")))
    assert got[2] == Store(BinOp("add", Reg("X1"), Reg("X2")), Reg("X0"))
    assert got[3] == Load("X0", Reg("X1"))
    assert got[4] == Assign("X5", BinOp("add", Reg("X1"), Reg("X2")))
    assert got[5] == Load("X0", BinOp("add", Reg("X1"), Reg("X2")))
    assert got[6] == Store(Reg("X3"), Const(0))


def test_acquire_release_and_exclusives_carry_herds_annotations():
    got = instrs("LDAR W0,[X1]", "LDAPR W0,[X1]", "STLR W0,[X3]", "LDXR W0,[X1]", "LDAXR W0,[X1]",
                 "STXR W4,W0,[X1]", "STLXR W4,W0,[X1]")
    assert got[0] == Load("X0", Reg("X1"), frozenset({"A"}))
    assert got[1] == Load("X0", Reg("X1"), frozenset({"Q"}))
    assert got[2] == Store(Reg("X3"), Reg("X0"), frozenset({"L"}))
    assert got[3] == Load("X0", Reg("X1"), frozenset({"X", "lr"}))
    assert got[4] == Load("X0", Reg("X1"), frozenset({"X", "lr", "A"}))
    assert got[5] == StoreCond("X4", Reg("X1"), Reg("X0"), frozenset({"X", "stcond"}))
    assert got[6] == StoreCond("X4", Reg("X1"), Reg("X0"), frozenset({"X", "stcond", "L"}))


def test_atomics_swap_and_operate_with_no_return_to_the_zero_register():
    got = instrs("SWPAL W0,W2,[X1]", "LDADDA W0,W2,[X1]", "STADD W0,[X1]", "LDEORL X0,XZR,[X1]")
    assert got[0] == Rmw("X2", Reg("X1"), Reg("X0"), annots=frozenset({"A", "L"}))
    assert got[1] == Rmw("X2", Reg("X1"), BinOp("add", Reg(OLD), Reg("X0")), annots=frozenset({"A"}))
    assert got[2] == Rmw(None, Reg("X1"), BinOp("add", Reg(OLD), Reg("X0")), annots=frozenset({"NoRet"}))
    assert got[3] == Rmw(None, Reg("X1"), BinOp("xor", Reg(OLD), Reg("X0")), annots=frozenset({"L", "NoRet"}))


def test_a_zero_register_destination_drops_the_acquire_as_herd_does():
    """herd reads an atomic whose result goes to the zero register with NoRet instead of A
    (its catalogue's MP+rel+SWPacq-noret and MP+rel+CASacq-noret-ok are Allowed)."""
    got = instrs("SWPA W0,WZR,[X1]", "LDADDAL W0,WZR,[X1]", "CASA WZR,W2,[X1]")
    assert got[0].annots == frozenset({"NoRet"})
    assert got[1].annots == frozenset({"NoRet", "L"})
    assert got[2].annots == frozenset({"NoRet"})


def test_compare_and_swap_every_ordering():
    got = instrs("CAS W0,W2,[X1]", "CASA W0,W2,[X1]", "CASL X0,X2,[X1]", "CASAL W0,W2,[X1]")
    cond = BinOp("eq", Reg(OLD), Reg("X0"))
    assert got[0] == Rmw("X0", Reg("X1"), Reg("X2"), cond, annots=frozenset(), compared=Reg("X0"))
    assert [i.annots for i in got[1:]] == [frozenset({"A"}), frozenset({"L"}), frozenset({"A", "L"})]
    assert all(i.cond == cond and i.compared == Reg("X0") for i in got)


def test_unsigned_maximum_and_minimum_compare_as_unsigned():
    from mmdsl.core.program import evaluate

    umax, smax, umin = instrs("LDUMAX W0,W2,[X1]", "LDSMAX W0,W2,[X1]", "STUMINL W0,[X1]")
    assert umin.annots == frozenset({"L", "NoRet"})
    for old, src in ((-1, 5), (5, -1), (3, 7), (7, 3)):
        env = {OLD: old, "X0": src}
        assert evaluate(umax.new, env) == max(old, src, key=lambda v: v % 2 ** 64)
        assert evaluate(smax.new, env) == max(old, src)
        assert evaluate(umin.new, env) == min(old, src, key=lambda v: v % 2 ** 64)


def test_barriers_of_every_option_and_isb():
    got = instrs("DMB SY", "DMB ISHLD", "DSB ST", "DMB OSHST", "DSB NSH", "ISB")
    assert [i.kind for i in got] == ["dmb-sy", "dmb-ishld", "dsb-st", "dmb-oshst", "dsb-nsh", "isb"]
    assert all(isinstance(i, Fence) for i in got)
    d = dialect_for("AArch64")
    assert [d.fence_text(i.kind) for i in got] == ["DMB SY", "DMB ISHLD", "DSB ST", "DMB OSHST", "DSB NSH", "ISB"]


def test_branches_and_labels():
    got = instrs("LDR W0,[X1]", "CBNZ W0,LC00", "CMP W0,#1", "B.NE LC00", "CBZ X0,LC00", "B LC00",
                 "LC00:", "ISB")
    assert got[1] == Branch(BinOp("ne", Reg("X0"), Const(0)), 6)
    assert got[2] == Assign("%nzcv", BinOp("sub", Reg("X0"), Const(1)))
    assert got[3] == Branch(BinOp("ne", Reg("%nzcv"), Const(0)), 6)
    assert got[4] == Branch(BinOp("eq", Reg("X0"), Const(0)), 6)
    assert got[5] == Branch(None, 6)


# ----- errors: located, unsupported refused by name -----------------------------------------
def _err(line: str) -> MmdslError:
    with pytest.raises(MmdslError) as info:
        parse_litmus(one(["MOV W0,#1", line]), "t.litmus")
    return info.value


@pytest.mark.parametrize("line, words", [
    ("LDP W0,W2,[X1]", "pair access 'LDP' is not supported"),
    ("LDAXP X0,X1,[X2]", "pair access 'LDAXP' is not supported"),
    ("STLXP W5,X0,X1,[X2]", "pair access 'STLXP' is not supported"),
    ("CASPAL W0,W1,W2,W3,[X4]", "compare-and-swap pair 'CASPAL' is not supported"),
    ("CASALB W0,W2,[X1]", "byte and halfword access 'CASALB' is not supported"),
    ("CAS W0,[X1]", "'CAS' takes 3 operands, not 2"),
    ("LDRB W0,[X1]", "byte and halfword access 'LDRB' is not supported"),
    ("SWPALH W0,W2,[X1]", "byte and halfword access 'SWPALH' is not supported"),
    ("DMB FOO", "'DMB' needs a barrier option"),
    ("LDR W0,X1", "operand 2 of 'LDR' must be a memory operand"),
    ("STR W0,[W1]", "must be an X register"),
    ("MOV W0,#4294967296", "does not fit the 32-bit register"),
    ("LDR W0,[X1,X2,LSL #2]", "scaled index registers are not supported"),
    ("ADD W0,W1", "'ADD' takes 3 or 4 operands, not 2"),
    ("LDR W0,[X1", "cannot parse instruction"),
])
def test_bad_instructions_are_refused_at_their_place(line, words):
    err = _err(line)
    assert words in err.message
    assert err.pos is not None and err.pos.line == 5
    assert err.pos.col == (8 if line == "LDR W0,[X1" else 2)  # a syntax error: where parsing stopped


def test_unsupported_instructions_are_refused_as_such():
    assert isinstance(_err("CASP W0,W1,W2,W3,[X4]"), UnsupportedError)
    assert isinstance(_err("LDP W0,W2,[X1]"), UnsupportedError)  # a pair: a mixed-size access
    assert isinstance(_err("LDNOTHING W0,[X1]"), LitmusError)


def test_a_branch_to_an_unknown_label_is_located():
    err = _err("CBNZ W0,NOWHERE")
    assert "unknown label 'NOWHERE'" in err.message and err.pos.line == 5


# ----- herd's aarch64.cat: herd7's own output ---------------------------------------------
def herd_output(path):
    """(final states as sets of 'P:R=V' texts, positive, negative, observation) of a .expected file."""
    text = (path.parent / (path.name + ".aarch64.expected")).read_text()
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("States "))
    n = int(lines[i].split()[1])
    states = {frozenset(x.strip() for x in line.strip().rstrip(";").split(";")) for line in lines[i + 1:i + 1 + n]}
    pos = int(re.search(r"Positive: (\d+)", text).group(1))
    neg = int(re.search(r"Negative: (\d+)", text).group(1))
    return states, pos, neg, re.search(r"^Observation \S+ (\S+)", text, re.M).group(1)


def our_output(path, model):
    r = check(load_litmus(path), model, collect="none")
    states = {frozenset((f"{k[1]}:{k[2]}" if k[0] == "reg" else f"[{k[1]}]") + f"={v}" for k, v in s)
              for s in r.states}
    return states, r.positive, r.negative, r.observation


# every hand-written and dependency/fence test, a few classic ones and a spread of generated ones
SAMPLE = ([p for p in ALL_TESTS if p.parent.name in ("hand", "deps-and-fences")]
          + [p for p in ALL_TESTS if p.parent.name == "classic"][::10]
          + [p for p in ALL_TESTS if p.parent.name == "aarch64-gen"][::90])


@needs_cat
def test_herds_aarch64_cat_gives_herds_states_and_counts_on_a_sample():
    """herd7's final states, execution counts and Observation, test by test (38 tests)."""
    model = load_model(str(AARCH64_CAT))
    assert len(SAMPLE) == 38
    wrong = [(p.name, ours, theirs) for p in SAMPLE
             if (ours := our_output(p, model)) != (theirs := herd_output(p))]
    assert not wrong, wrong[:3]


@needs_cat
@pytest.mark.slow
def test_herds_aarch64_cat_gives_herds_output_on_the_whole_suite():
    """All 598 tests: final states, counts and Observation (about 10 s)."""
    model = load_model(str(AARCH64_CAT))
    wrong = [p.name for p in ALL_TESTS if our_output(p, model) != herd_output(p)]
    assert not wrong, wrong[:10]


def test_a_fence_written_back_reads_again_as_that_fence():
    """`mmdsl fences` writes a chosen fence into the test: DMB ISHLD / ISB rows that read back the same."""
    path = SUITE / "tests" / "classic" / "MP.litmus"
    p = load_litmus(path)
    d = dialect_for("AArch64")
    text = d.write_with_fences(p, [(0, 2, "dmb-ishst"), (1, 1, "isb")])
    q = parse_litmus(text, "MP+fenced.litmus")
    assert [i.kind for i in q.threads[0].instrs if isinstance(i, Fence)] == ["dmb-ishst"]
    assert [i.kind for i in q.threads[1].instrs if isinstance(i, Fence)] == ["isb"]
    assert "DMB ISHST" in text and "ISB" in text
    with pytest.raises(UnsupportedError):
        d.fence_text("fence-rw-rw")


@needs_cat
def test_a_forbidden_execution_under_aarch64_cat_is_drawn_with_the_shown_relations(tmp_path):
    """aarch64fences.cat shows lazily defined relations (dmb.sy) and undefined ones (sb.st):
    the diagram evaluates the first and leaves the second out, as herd does."""
    from mmdsl.cli.app import app
    from typer.testing import CliRunner

    test = SUITE / "tests" / "deps-and-fences" / "MP+dmb.sy+ctrlisb.litmus"
    r = CliRunner().invoke(app, ["draw", str(test), "-m", str(AARCH64_CAT), "--show", "forbidden",
                                 "-o", str(tmp_path), "--format", "dot"])
    assert r.exit_code == 0, r.output
    dot = (tmp_path / "MP+dmb.sy+ctrlisb-forbidden-1.dot").read_text()
    assert 'label="dmb.sy"' in dot and "sb.st" not in dot


# ----- the bundled copy and its verdicts ----------------------------------------------------
def test_the_expected_outputs_say_the_verdict_table_words():
    import csv

    with open(SUITE / "verdicts.csv") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["path"] for r in rows) == sorted(str(p.relative_to(SUITE)) for p in ALL_TESTS)
    for r in rows:
        assert herd_output(SUITE / r["path"])[3] == r["aarch64.cat"], r["path"]


def test_the_copies_equal_the_shared_tests_and_verdicts():
    import csv
    import filecmp

    src = SHARED_REFERENCE
    if not (src / "aarch64-gen").is_dir():
        pytest.skip(f"no ../shared/reference beside the repository ({src}): nothing to compare the copy with")
    with open(SUITE / "verdicts.csv") as f:
        ours = {r["path"]: r["aarch64.cat"] for r in csv.DictReader(f)}
    with open(src / "aarch64-gen" / "verdicts.csv") as f:
        gen = {"tests/aarch64-gen/" + r["path"].split("/")[-1]: r["aarch64.cat"] for r in csv.DictReader(f)}
    assert {p: w for p, w in ours.items() if p.startswith("tests/aarch64-gen/")} == gen
    with open(src / "classic" / "verdicts.csv") as f:
        armv8 = {r["test"]: r["ARMv8"] for r in csv.DictReader(f)}
    classic = {p: w for p, w in ours.items() if p.startswith("tests/classic/")}
    assert len(classic) == 29
    for p, w in classic.items():
        assert {"A": ("Sometimes", "Always"), "F": ("Never",)}[armv8[p.split("/")[-1][:-7]]].count(w) == 1, p
    pairs = [("aarch64-gen", src / "aarch64-gen" / "tests"), ("classic", src / "classic" / "AArch64"),
             ("deps-and-fences", src / "classic" / "deps-and-fences" / "AArch64")]
    for ours_dir, theirs in pairs:
        names = sorted(p.name for p in theirs.glob("*.litmus"))
        assert names == sorted(p.name for p in (SUITE / "tests" / ours_dir).glob("*.litmus"))
        assert all(filecmp.cmp(theirs / n, SUITE / "tests" / ours_dir / n, shallow=False) for n in names)
