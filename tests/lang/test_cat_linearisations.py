"""`with x from linearisations(S, r)`: a total order of S extending r, chosen per candidate (lang/cat_choice.py).

herd7 7.58's results quoted below were computed with ``herd7 -model M.cat T.litmus`` (each
model with ``include "cos.cat"`` after its title, which herd needs for co and mmdsl does
not). herd counts an execution per passing order, and so does mmdsl (Prepared.weight):
the Observation, the witness counts and the final states are compared. herd's own models
that use it (c11_orig.cat, simple-c11.cat) are pinned in tests/axiomatic/test_herd_c11_cat.py
and test_herd_c11_witnesses.py;
riscv-total.cat here, read from ../shared/reference/herd-cats (herdtools7, CeCILL-B),
skipping when that folder is absent.
"""

from __future__ import annotations

import pytest
from refdata import ROOT, SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.lang.cat_choice import linear_extensions
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus, parse_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
CLASSIC = ROOT / "litmus" / "classic"
RISCV = ROOT / "litmus" / "riscv" / "tests"

# SC as the existence of a total order of the accesses, extending po, that rf, co and fr follow
SC_ORDER = ('"SC as a linearisation"\nwith S from linearisations(M \\ IW, po)\nlet fr = rf^-1 ; co\n'
            'let S2 = S | (IW * (M \\ IW))\nempty rf \\ (S2 & loc) as rf-in-order\n'
            'irreflexive S2 ; (co | fr) as co-in-order\n')


def _model(tmp_path, text: str):
    p = tmp_path / "m.cat"
    p.write_text(text)
    return lower_cat_file(p)


# herd: Observation Never, 3 states on each, witnesses 0 6 on SB, MP, 2+2W, LB (two orders
# per execution), 0 3 on CoRR
@pytest.mark.parametrize(("name", "negative"), [("SB", 6), ("MP", 6), ("2+2W", 6), ("LB", 6), ("CoRR", 3)])
def test_sc_as_a_linearisation_gives_herds_results(tmp_path, name, negative):
    res = check(load_litmus(CLASSIC / f"{name}.litmus"), _model(tmp_path, SC_ORDER))
    assert (res.observation, len(res.states), res.positive, res.negative) == ("Never", 3, 0, negative)


def test_the_checks_that_depend_on_the_order_become_one(tmp_path):
    m = _model(tmp_path, SC_ORDER + "acyclic po as plain\n")
    assert [a.name for a in m.axioms if not a.default] == ["S-linearisation", "plain"]
    assert "rf-in-order" in m.axioms[0].doc and "co-in-order" in m.axioms[0].doc


def test_no_linearisation_of_a_cyclic_base_means_no_execution(tmp_path):
    res = check(load_litmus(CLASSIC / "SB.litmus"), _model(tmp_path, '"c"\nwith S from linearisations(M, po | po^-1)\n'))
    assert not res.states and res.observation == "Never"


def test_linear_extensions_are_the_total_orders_extending_the_base():
    assert len(list(linear_extensions(3, 0b111, [0, 0, 0]))) == 6
    assert list(linear_extensions(3, 0b111, [0b010, 0b100, 0])) == [[0b110, 0b100, 0]]
    assert list(linear_extensions(2, 0b11, [0b10, 0b01])) == []  # a cycle: none
    assert len(list(linear_extensions(3, 0b101, [0b010, 0b100, 0]))) == 2  # 1 is no member: 0, 2 free


needs_cats = pytest.mark.skipif(not (HERD_CATS / "riscv-total.cat").is_file(),
                                reason=f"herd's riscv-total.cat is not in {HERD_CATS}")

# herd7 7.58 -model riscv-total.cat: (Observation, number of final states, Positive, Negative)
RISCV_TOTAL = {
    "HAND/ISA17.litmus": ("Sometimes", 4, 1, 11),
    "RELAX/PodWR/SB+fence.rw.rw+pos-po-addr.litmus": ("Sometimes", 6, 1, 89),
    "RELAX/Rfi/LB+ctrl-rfi-datas.litmus": ("Never", 3, 0, 1750),
    "SAFE/ISA2+fence.w.w+ctrlfencei+ctrlfenceis.litmus": ("Never", 18, 0, 134),
    "SAFE/S+[rfpaq-poaqp-ws]+ctrl.litmus": ("Never", 27, 0, 180),
    "SF_THESIS/BASIC/Z6.2+po+ctrlfencei+data.litmus": ("Sometimes", 8, 1, 179),
}


@needs_cats
def test_riscv_total_gives_herds_results_on_tests_without_amos():
    model = lower_cat_file(HERD_CATS / "riscv-total.cat", [HERD_CATS])
    got = {}
    for name in RISCV_TOTAL:
        res = check(load_litmus(RISCV / name), model)
        got[name] = (res.observation, len(res.states), res.positive, res.negative)
    assert got == RISCV_TOTAL


@needs_cats
def test_riscv_total_is_refused_by_name_on_a_test_with_an_amo():
    # herd: Sometimes (one event per AMO); an order of mmdsl's two halves would say Never
    model = lower_cat_file(HERD_CATS / "riscv-total.cat", [HERD_CATS])
    with pytest.raises(UnsupportedError, match="linearisations") as err:
        check(load_litmus(RISCV / "AMO_X0_2_THREAD" / "2+2W+po+poarar+NEW.litmus"), model)
    assert err.value.pos.line == 22


# three writes to x from three threads, and a read of y: herd7 7.58 -model riscv-total.cat
# gives Always 24 0 (the 4! orders of the four accesses) with x unobserved (1 state) and
# observed (3 states: herd chooses x's final write, gmo puts it last); mmdsl enumerated
# each of the 6 coherence orders of x, each with the 8 orders that end with its last
# write: 48 0
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


@needs_cats
@pytest.mark.parametrize(("tail", "nstates"), [("exists (2:x7=0)\n", 1), ("locations [x;]\nexists (2:x7=0)\n", 3)])
def test_riscv_total_counts_one_execution_per_order_not_per_coherence_order(tail, nstates):
    model = lower_cat_file(HERD_CATS / "riscv-total.cat", [HERD_CATS])
    res = check(parse_litmus(W3 + tail, "W3.litmus"), model)
    assert (res.observation, len(res.states), res.positive, res.negative) == ("Always", nstates, 24, 0)
