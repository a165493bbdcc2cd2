"""herd's cat language read by mmdsl: syntax, lowering to the core IR, refusals by name.

The cat files here are written for these tests (no herd file is copied); herd's own
stock models are tested in tests/axiomatic/test_herd_cat_models.py.
"""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import MmdslError
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.lang.cat_parse import parse_cat
from mmdsl.lang.ir import REL, SET
from mmdsl.litmus import load_litmus
from refdata import ROOT

CLASSIC = ROOT / "litmus" / "classic"

# a small standard library, as herd loads stdlib.cat before the model
STDLIB = """stdlib
let po-loc = po & loc
let rfe = rf & ext
let fre = fr & ext
let coe = co & ext
let fencerel(B) = (po & (_ * B)) ; po
"""


def write(tmp_path, name, text, stdlib=True):
    if stdlib:
        (tmp_path / "stdlib.cat").write_text(STDLIB)
    p = tmp_path / name
    p.write_text(text)
    return p


def verdict(model_path, test, dirs=()):
    return check(load_litmus(CLASSIC / f"{test}.litmus"), lower_cat_file(model_path, list(dirs)),
                 collect="none").verdict


def refused(path, dirs=()) -> MmdslError:
    with pytest.raises(MmdslError) as info:
        lower_cat_file(path, list(dirs))
    return info.value


# ----- syntax ----------------------------------------------------------------------
def expr_of(text):
    """The lowered IR expression of `let x = TEXT` used in one axiom."""
    _, stmts = parse_cat(f"T\nlet x = {text}\n", "t.cat")
    return stmts[0].data["binds"][0]["expr"]


def test_precedence_is_herds_union_seq_diff_inter_product():
    e = expr_of("a | b ; c \\ d & e")
    assert e.text == "union"
    seq = e.args[1]
    assert seq.text == "seq" and seq.args[1].text == "diff"
    assert seq.args[1].args[1].text == "inter"


def test_star_is_postfix_unless_an_operand_follows():
    assert expr_of("R * W").text == "product"
    post = expr_of("(po ; rf)* ; co")
    assert post.text == "seq" and post.args[0].text == "star"
    assert expr_of("r^-1").text == "inv" and expr_of("r ^ -1").text == "inv"
    assert expr_of("r+").text == "plus" and expr_of("r?").text == "opt"


def test_application_binds_tighter_than_operators_and_names_carry_dashes():
    e = expr_of("domain po-loc | range rf")
    assert e.text == "union" and e.args[0].kind == "app" and e.args[0].args[1].text == "po-loc"


def test_title_line_nested_comments_and_hash_lines(tmp_path):
    p = write(tmp_path, "m.cat", 'X86 TSO\n(* a (* nested *) comment *)\n#ppo\nacyclic po | rf | co | fr as sc\n')
    m = lower_cat_file(p)
    assert m.title == "X86 TSO" and [a.name for a in m.axioms] == ["sc"]


# ----- semantics -------------------------------------------------------------------
def test_an_sc_model_in_cat_forbids_sb_and_a_tso_one_allows_it(tmp_path):
    sc = write(tmp_path, "sc.cat", 'SC\nacyclic po | rf | co | fr as sc\n')
    assert verdict(sc, "SB") == "Forbidden"
    tso = write(tmp_path, "tso.cat", '"TSO"\nlet ppo = po \\ (W * R)\nacyclic po-loc | rf | co | fr\n'
                                    'acyclic ppo | rfe | co | fr | fencerel(MFENCE) as tso\n')
    assert verdict(tso, "SB") == "Allowed"
    assert verdict(tso, "SB+fences") == "Forbidden"
    assert verdict(tso, "MP") == "Forbidden"


def test_functions_with_and_fun_and_tuples(tmp_path):
    p = write(tmp_path, "f.cat", 'F\nlet WR(r) = r & (W * R)\nand RM(r) = r & (R * M)\n'
                                 'let pick = fun (a, b) -> a | b\n'
                                 'let ppo = pick(RM(po), (po & (W * W)))\n'
                                 'acyclic ppo | rfe | co | fr as tso\n')
    assert verdict(p, "SB") == "Allowed" and verdict(p, "MP") == "Forbidden"


def test_let_in_try_with_and_variants(tmp_path):
    p = write(tmp_path, "v.cat", 'V\nlet f = try fencerel(NOSUCHFENCE) with 0\n'
                                 'let hb = let p = po in p | rf | co | fr\n'
                                 'if "strong" acyclic hb | f as sc else acyclic po-loc | rf | co | fr | f as uni end\n')
    m = lower_cat_file(p)
    assert [a.name for a in m.axioms] == ["uni"]
    assert lower_cat_file(p, variants=frozenset({"strong"})).axioms[0].name == "sc"


def test_let_rec_is_a_least_fixpoint(tmp_path):
    p = write(tmp_path, "r.cat", 'R\nlet rec hb = po | rf | co | fr | (hb ; hb)\nirreflexive hb as sc\n')
    m = lower_cat_file(p)
    assert any(g.recursive for g in m.lets)
    assert verdict(p, "SB") == "Forbidden" and verdict(p, "SB") == verdict(tmp_path / "r.cat", "SB")


def test_procedure_and_call_make_axioms(tmp_path):
    p = write(tmp_path, "p.cat", 'P\nprocedure acyc(r) =\n  acyclic r\nend\ncall acyc(po | rf | co | fr) as sc\n')
    m = lower_cat_file(p)
    assert [a.name for a in m.axioms] == ["sc"] and verdict(p, "SB") == "Forbidden"


def test_domain_range_toid_and_types(tmp_path):
    p = write(tmp_path, "d.cat", 'D\nlet Wr = range(rf) & W\nlet S = domain(po)\n'
                                 'empty [Wr] ; [R] as nothing\nacyclic [S] ; po | rf | co | fr as sc\n')
    m = lower_cat_file(p)
    assert [b.expr.type for g in m.lets for b in g.bindings][:2] == [SET, SET]
    assert m.axioms[1].expr.type == REL
    assert verdict(p, "SB") == "Forbidden"


def test_flags_and_shows_do_not_forbid(tmp_path):
    p = write(tmp_path, "s.cat", 'S\nshow po as p\nflag ~empty rf as racy\nundefined_unless empty rf as r\n'
                                 'acyclic po-loc | rf | co | fr\n')
    assert verdict(p, "SB") == "Allowed"


def test_includes_search_the_folder_then_the_cat_path(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "defs.cat").write_text('"defs"\nlet com = rf | co | fr\n')
    p = write(tmp_path, "m.cat", 'M\ninclude "defs.cat"\nacyclic po | com as sc\n')
    err = refused(p)
    assert "included cat file 'defs.cat' not found" in err.message and err.pos.line == 2
    assert verdict(p, "SB", [lib]) == "Forbidden"


# ----- refusals by name, at file:line:col -----------------------------------------------
@pytest.mark.parametrize("text, words, line, col", [
    ('M\nlet s = match po with || {} -> po end\nacyclic s\n', "'match ... with'", 2, 9),
    ('M\nlet s = {a, b}\nacyclic s\n', "set literals", 2, 9),
    ('M\nlet s = po ++ rf\nacyclic s\n', "'++'", 2, 12),
    ('M\nevents R[{\'a}]\nacyclic po\n', "'events'", 2, 1),
    ('M\nwith mo from linearisations(po)\n', "linearisations takes a set and a relation", 2, 29),
    ('M\nacyclic po | B * W\n', "'B'", 2, 14),  # (LF, a spinlock set, reads the kernel's: cat_linux)
    ('M\nacyclic po | nosuchname\n', "unknown name 'nosuchname'", 2, 14),
    ('M\nlet s = \'tag\nacyclic s\n', "tags ('tag) where a set or relation is expected", 3, 9),
    ('M\nlet rec s = po | ~s\nwhen acyclic s\n', "not monotone", 3, 1),
    ('M\nacyclic fr | po\nlet co = po & (W * W)\n', "'fr' names herd's generated", 2, 9),  # none: co is the model's
    ('M\nlet rec s = po | s\nwhen ~acyclic s\n', "negated check", 3, 1),
    # herd 7.58 has no model options: a third word of the title is its syntax error
    ('X86 M withoutinit\nacyclic po\n', "unexpected 'withoutinit'", 1, 7),
    ('"X86 TSO"\nwithco\nacyclic po\n', "unexpected 'withco'", 2, 1),
])
def test_missing_constructs_are_refused_by_name_at_their_place(tmp_path, text, words, line, col):
    err = refused(write(tmp_path, "m.cat", text))
    assert words in err.message
    assert (err.pos.file, err.pos.line, err.pos.col) == (str(tmp_path / "m.cat"), line, col)


def test_a_library_definition_that_needs_a_missing_construct_is_refused_only_when_used(tmp_path):
    (tmp_path / "stdlib.cat").write_text(STDLIB + "let map f = let rec m S = match S with || {} -> {} end in m\n")
    p = tmp_path / "m.cat"
    p.write_text('M\nacyclic po | rf | co | fr\n')
    assert lower_cat_file(p).axioms
    p.write_text('M\nlet x = map domain po\nacyclic po | x\n')
    assert "'match ... with'" in refused(p).message


@pytest.mark.parametrize("text, words", [
    ('M\nacyclic R\n', "is a set"),
    ('M\nacyclic po | R\n', "between a set and a relation"),
    ('M\nacyclic R ; po\n', "needs relations"),
    ('M\nacyclic [po]\n', "needs a set"),
    ('M\nacyclic po * rf\n', "needs sets"),
    ('M\nlet f(a, b) = a | b\nacyclic f(po)\n', "takes 2 argument(s), given 1"),
    ('M\nlet f(a) = a\nacyclic f\n', "a function where a set or relation is expected"),
    ('M\nacyclic (po | rf\n', "expected ')'"),
    ('M\n(* never closed\n', "comment '(*' is never closed"),
])
def test_type_and_syntax_errors_say_what_is_wrong(tmp_path, text, words):
    assert words in refused(write(tmp_path, "m.cat", text)).message


def test_try_falls_back_on_an_unknown_name_but_never_on_a_missing_construct(tmp_path):
    p = write(tmp_path, "t.cat", 'T\nlet f = try (match po with || {} -> po end) with 0\nacyclic po | f\n')
    assert "'match ... with'" in refused(p).message
    p = write(tmp_path, "t.cat", 'T\nlet f = try B * W with 0\nacyclic po | f\n')
    assert "'B'" in refused(p).message
    p = write(tmp_path, "t.cat", 'T\nlet f = try NOPE with 0\nacyclic po | rf | co | fr | f as sc\n')
    assert verdict(p, "SB") == "Forbidden"


def test_herds_one_event_rmw_set_is_empty_since_mmdsl_splits_rmws(tmp_path):
    p = write(tmp_path, "r.cat", 'R\nlet myrmw = [RMW] | rmw\nempty myrmw & (fre ; coe) as atomic\n'
                                 'acyclic po | rf | co | fr as sc\n')
    m = lower_cat_file(p)
    assert "R & W" in str(m.lets[0].bindings[0].expr)
    assert verdict(p, "SB") == "Forbidden"


def test_amo_is_the_rmw_pairs_of_one_instruction(tmp_path):
    p = write(tmp_path, "a.cat", 'A\nlet lxsx = rmw \\ amo\nempty lxsx as only-amo\n'
                                 'acyclic po-loc | rf | co | fr as uni\n')
    m = lower_cat_file(p)
    assert str(m.lets[0].bindings[0].expr) == "rmw \\ rmw & sm"
    test = tmp_path / "SB+xchgs.litmus"
    test.write_text("X86 SB+xchgs\n{ }\n P0 | P1 ;\n MOV EAX,$1 | MOV EAX,$1 ;\n"
                    " XCHG [x],EAX | XCHG [y],EAX ;\n MOV EBX,[y] | MOV EBX,[x] ;\n"
                    "exists (0:EBX=0 /\\ 1:EBX=0)\n")
    result = check(load_litmus(test), m, collect="none")
    assert result.verdict == "Allowed"  # every xchg pair is an amo: only-amo never fails


def test_let_rec_when_is_the_fixpoint_plus_its_check(tmp_path):
    p = write(tmp_path, "w.cat", 'W\nlet rec hb = po | rf | co | fr | hb ; hb\nwhen acyclic hb as sc\n')
    m = lower_cat_file(p)
    assert [a.name for a in m.axioms] == ["sc"] and any(g.recursive for g in m.lets)
    assert verdict(p, "SB") == "Forbidden"
