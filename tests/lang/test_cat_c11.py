"""herd's C sets and generated orders in cat models: C11 annotation sets, FW, generate_orders,
one-event RMWs (read over merged halves, lang/cat_rmw.py), and the `with x from ...` forms
refused by name.

The cat files and C tests here are written for these tests; herd's own rc11.cat is
checked against herd's results in tests/axiomatic/test_herd_c11_cat.py.
"""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import parse_litmus

ORDERS = ("relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst")
# herd's CAction sets: each event is in the set of its own order only; A holds every access with one
MEMBERS = {
    "RLX": {"relaxed"}, "CON": {"consume"}, "ACQ": {"acquire"}, "REL": {"release"},
    "ACQ_REL": {"acq_rel"}, "SC": {"seq_cst"}, "A": set(ORDERS), "NA": set(),
}


def c_test(body: str, cond: str, params: str = "atomic_int *x") -> object:
    return parse_litmus(f"C t\n{{}}\nP0({params})\n{{\n{body}\n}}\n\nexists ({cond})\n", "t.litmus")


def model(tmp_path, text: str):
    p = tmp_path / "m.cat"
    p.write_text(text)
    return lower_cat_file(p)


def observation(tmp_path, text: str, test) -> str:
    return check(test, model(tmp_path, text), collect="none").observation


@pytest.mark.parametrize("name", sorted(MEMBERS))
@pytest.mark.parametrize("order", ORDERS)
def test_each_c_set_holds_the_accesses_of_its_memory_order(tmp_path, name, order):
    # an RMW carries any order; 'empty S & M \ IW' forbids every execution iff its events are in S
    test = c_test(f"int r0 = atomic_fetch_add_explicit(x, 1, memory_order_{order});", "0:r0=0")
    got = observation(tmp_path, f'"sets"\nacyclic (po & loc) | rf | co | fr as uni\n'
                                f'empty {name} & M \\ IW as in-set\n', test)
    assert got == ("Never" if order in MEMBERS[name] else "Always")


def test_seq_cst_fences_are_sc_but_not_atomic_accesses(tmp_path):
    test = c_test("atomic_thread_fence(memory_order_seq_cst);\nint r0 = atomic_load_explicit(x, "
                  "memory_order_relaxed);", "0:r0=0")
    assert observation(tmp_path, '"f"\nempty SC & F as sc-fence\n', test) == "Never"
    assert observation(tmp_path, '"f"\nempty A & F as atomic-fence\n', test) == "Always"
    assert observation(tmp_path, '"f"\nempty NA & F as na-fence\n', test) == "Never"


def test_plain_accesses_are_na(tmp_path):
    test = c_test("*x = 1;", "x=1", params="int *x")
    assert observation(tmp_path, '"p"\nempty NA & W & ~IW as na\n', test) == "Never"
    assert observation(tmp_path, '"p"\nempty A as a\n', test) == "Always"


def test_fw_is_the_final_write_of_each_location(tmp_path):
    test = parse_litmus("C t\n{}\nP0(atomic_int *x)\n{\natomic_store_explicit(x, 1, memory_order_relaxed);\n}\n"
                        "P1(atomic_int *x)\n{\natomic_store_explicit(x, 2, memory_order_relaxed);\n}\n"
                        "exists (x=1)\n", "t.litmus")
    assert observation(tmp_path, '"fw"\nempty (FW * W) & co as last\n', test) == "Sometimes"
    assert observation(tmp_path, '"fw"\nempty FW \\ IW as init-last\n', test) == "Never"  # x is written


def test_generate_orders_over_writes_is_the_candidates_co(tmp_path):
    test = c_test("atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                  "atomic_store_explicit(x, 2, memory_order_relaxed);", "x=1")
    sc = '"mo"\nwith mo from generate_orders(W, co0)\nacyclic po | rf | mo | rf^-1;mo as sc\n'
    (tmp_path / "stdlib.cat").write_text("stdlib\nlet co0 = loc & (IW * (W\\IW))\n")
    assert observation(tmp_path, sc, test) == "Never"  # mo follows po: x ends at 2
    m = model(tmp_path, '"mo"\nlet base = po & (W * W)\nwith mo from generate_orders(W & ~IW, base)\n'
                        'acyclic po as p\n')
    assert [a.name for a in m.axioms] == ["mo-generation", "p"]  # a base other than co0 is an axiom


def test_generate_orders_over_an_empty_set_is_the_empty_order(tmp_path):
    m = model(tmp_path, '"lo"\nwith lo from generate_orders(LS, po)\nacyclic po | lo as p\n')
    assert [a.name for a in m.axioms if not a.default] == ["p"]  # (and cat_rmw's own)


@pytest.mark.parametrize("text, words, line, col", [
    ('"r"\nwith mo from generate_orders(R, po)\n', "with S not only writes", 2, 1),
    ('"r"\nwith S from cross(x)\n', "unknown name 'cross'", 2, 13),  # herd: unbound var (no cross.cat)
    ('"r"\nwith S from {{po}, {rf}}\n', "choosing among sets of relations", 2, 1),
    ('"r"\nacyclic po | (B * W)\n', "built-in 'B'", 2, 15),  # (LF: a spinlock set, see cat_linux)
    ('"r"\nlet s = let co = po in co\nacyclic s\n', "'let co = ...' inside an expression", 2, 13),
])
def test_choices_mmdsl_cannot_enumerate_are_refused_by_name_at_their_place(tmp_path, text, words, line, col):
    p = tmp_path / "m.cat"
    p.write_text(text)
    with pytest.raises(MmdslError) as err:
        lower_cat_file(p)
    assert words in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (line, col)


# herd7 7.58 (herd7 -model M.cat t.litmus, each model with `include "cos.cat"` after its
# title, which herd needs for co and mmdsl does not) on RMW_RACE: an exchange racing a store
RMW_RACE = parse_litmus("C t\n{}\nP0(atomic_int *x)\n{\nint r0 = atomic_exchange_explicit(x, 2, "
                        "memory_order_relaxed);\n}\nP1(atomic_int *x)\n{\natomic_store_explicit(x, 1, "
                        "memory_order_relaxed);\n}\nexists (0:r0=0 /\\ x=2)\n", "t.litmus")


def _states(tmp_path, text: str, test) -> tuple:
    res = check(test, model(tmp_path, text))
    return res.observation, res.positive, res.negative, sorted(" ".join(s.text().split()) for s in res.states)


def test_a_c_models_own_r_and_w_is_herds_one_event_rmws(tmp_path):
    text = '"c"\nempty (R & W) & RLX as one\n'  # herd: Never 0 0 (every execution has the RMW)
    assert _states(tmp_path, text, RMW_RACE)[:3] == ("Never", 0, 0)
    without = c_test("int r0 = atomic_load_explicit(x, memory_order_relaxed);", "0:r0=0")
    assert observation(tmp_path, text, without) == "Always"


def test_c11_base_atomicity_reads_an_rmw_as_one_event(tmp_path):
    # c11_base.cat's Rmw check: split in two, the RMW's read and write are different events
    # and (init co store co rmw, rmw reads init) was no cycle (Sometimes 1 5, with r0=2
    # states: the RMW reading its own write). herd: Never 0 2, these two states
    text = '"c"\nirreflexive (rf | co;co;rf^-1 | co;rf) ; [A | NA] as rmw\n'
    assert _states(tmp_path, text, RMW_RACE) == ("Never", 0, 2, ["0:r0=0; x=1;", "0:r0=1; x=2;"])


def test_the_halves_of_an_rmw_are_not_ordered_by_po(tmp_path):
    # one event in herd: po does not relate it to itself. herd: Sometimes 1 3 (no execution
    # reads the RMW's own write)
    text = '"c"\nempty po & ((R & W) * (R & W)) & (RLX * RLX) as split\n'
    got = _states(tmp_path, text, RMW_RACE)
    assert got == ("Sometimes", 1, 3, ["0:r0=0; x=1;", "0:r0=0; x=2;", "0:r0=1; x=1;", "0:r0=1; x=2;"])


def test_herds_rmw_in_a_c_model_is_both_halves_of_each_rmw(tmp_path):
    # rc11.cat's `[RMW] | rmw`; outside a C model too, a C11 RMW is one event of R & W in
    # herd's C (herd7 7.58 says Never for the second model as well)
    test = c_test("int r0 = atomic_exchange_explicit(x, 1, memory_order_relaxed);", "0:r0=0")
    uni = "acyclic (po & loc) | rf | co | fr as uni\n"
    assert observation(tmp_path, f'"c"\n{uni}empty RMW & (RLX | ~RLX) as r\n', test) == "Never"
    assert observation(tmp_path, f'"n"\n{uni}empty RMW as r\n', test) == "Never"


@pytest.mark.parametrize("call, words, col", [
    ("generate_orders(W)", "takes a set and a relation", 30),
    ("generate_orders(po, po)", "its first argument is a set of events", 1),
    ("generate_orders((W, po), po)", "its first argument is a set of events", 1),
    ("generate_orders(W, W)", "its second argument is a relation", 1),
    ("generate_orders(W, nope)", "unknown name 'nope'", 33),
])
def test_bad_generate_orders_calls_are_located_errors(tmp_path, call, words, col):
    p = tmp_path / "m.cat"
    p.write_text(f'"m"\nwith mo from {call}\nacyclic po\n')
    with pytest.raises(MmdslError) as err:
        lower_cat_file(p)
    assert words in err.value.message
    assert (err.value.pos.file, err.value.pos.line, err.value.pos.col) == (str(p), 2, col)


BELL = """"mini bell"
enum memorder = 'rlx || 'acq || 'rel || 'sc
instructions R[{'rlx, 'acq, 'sc}]
instructions W[memorder]
let ACQUIRE = tag2set('acq)
let RELEASE = tag2set('rel)
"""


def test_a_bell_file_declares_tags_and_tag2set_gives_their_events(tmp_path):
    (tmp_path / "mini.bell").write_text(BELL)
    (tmp_path / "stdlib.cat").write_text("stdlib\nlet co0 = loc & (IW * (W\\IW))\n")
    mp = parse_litmus("C mp\n{}\nP0(atomic_int *x, atomic_int *y)\n{\n"
                      "atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                      "atomic_store_explicit(y, 1, memory_order_release);\n}\n"
                      "P1(atomic_int *x, atomic_int *y)\n{\nint r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                      "int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}\n"
                      "exists (1:r0=1 /\\ 1:r1=0)\n", "mp.litmus")
    text = ('"ra"\ninclude "mini.bell"\nlet hb = (po | [RELEASE] ; rf ; [ACQUIRE])+\n'
            'irreflexive hb ; (rf^-1)? ; (co | co ; rf)? as coh\nacyclic (po & loc) | rf | co | fr as uni\n')
    assert observation(tmp_path, text, mp) == "Never"
    weaker = text.replace("[RELEASE] ; rf ; [ACQUIRE]", "[RELEASE] ; rf ; [ACQUIRE & RELEASE]")
    assert observation(tmp_path, weaker, mp) == "Sometimes"


@pytest.mark.parametrize("text, words, line, col", [
    ("\"b\"\nlet S = tag2set('mb)\nacyclic [S]\n", "tag 'mb has no counterpart", 2, 17),
    ("\"b\"\nlet S = tag2set(po)\nacyclic [S]\n", "tag2set expects one tag", 2, 17),
    ("\"b\"\ninstructions R[po]\n", "instructions R[...] expects tags", 2, 16),
    ("\"b\"\nenum e = 'a || b\n", "expected a tag", 2, 16),
    ("\"b\"\nenum e = 'a\nacyclic po | e\n", "tags ('a) where a set or relation is expected", 3, 14),
])
def test_bad_bell_text_is_a_located_error(tmp_path, text, words, line, col):
    p = tmp_path / "m.cat"
    p.write_text(text)
    with pytest.raises(MmdslError) as err:
        check(c_test("int r0 = atomic_load_explicit(x, memory_order_relaxed);", "0:r0=0"), lower_cat_file(p))
    assert words in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (line, col)
