"""--why: the violated axiom and a cycle of events; witnesses; counts as herd reports them."""

from __future__ import annotations

from refdata import REFERENCE

from mmdsl.axiomatic import check
from mmdsl.axiomatic.explain import violation_text
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus, parse_litmus


def classic(test):
    return load_litmus(REFERENCE / "classic" / "X86" / f"{test}.litmus")


def test_sb_under_sc_is_forbidden_by_the_sc_cycle():
    r = check(classic("SB"), load_model("sc"), why=True)
    assert r.verdict == "Forbidden" and len(r.why) == 1
    ex = r.why[0]
    (v,) = ex.violations
    assert v.axiom == "sc" and v.test == "acyclic"
    text = violation_text(v, ex.execution.events)
    assert text == "sc (acyclic): cycle a:Wx=1 -ppo-> b:Ry=0 -fr-> c:Wy=1 -ppo-> d:Rx=0 -fr-> a"


def test_mp_under_tso_names_rfe_and_fr():
    r = check(classic("MP"), load_model("tso"), why=True)
    v = r.why[0].violations[0]
    assert v.axiom == "tso" and sorted(v.edges) == ["fr", "ppo", "ppo", "rfe"]


def test_corr_is_forbidden_by_uniproc_not_by_the_order_axiom():
    r = check(classic("CoRR"), load_model("rmo"), why=True)
    names = {v.axiom for ex in r.why for v in ex.violations}
    assert "uniproc" in names


def test_allowed_outcome_has_a_witness_and_herd_counts():
    r = check(classic("SB"), load_model("tso"))
    assert (r.positive, r.negative) == (1, 3)  # herd7: Positive: 1 Negative: 3
    w = r.witness
    assert w is not None and w.final[("reg", 0, "EAX")] == 0 and w.final[("reg", 1, "EAX")] == 0


def test_filter_and_locations():
    p = parse_litmus("""LISA f
{ }
 P0 | P1 ;
 w[] x 1 | r[] r0 y ;
 w[] y 1 | r[] r1 x ;
locations [y;]
filter (1:r0=1)
exists (1:r1=0)
""", "f.litmus")
    r = check(p, load_model("sc"))
    # the filter keeps only the executions where P1 saw y=1 (message passing): then x=1
    assert [s.text() for s in r.states] == ["1:r1=1; y=1;"]
    assert r.positive == 0 and r.negative == 1
    unfiltered = parse_litmus(p.source.replace("filter (1:r0=1)\n", ""), "u.litmus")
    u = check(unfiltered, load_model("sc"))
    assert (u.positive, u.negative) == (1, 2)


def test_dependencies_are_kept_by_rmo_but_not_by_a_dependency_blind_table(tmp_path):
    lb_data = parse_litmus("""LISA LB+datas
{ }
 P0 | P1 ;
 r[] r0 x | r[] r0 y ;
 w[] y r0 | w[] x r0 ;
exists (0:r0=1 /\\ 1:r0=1)
""", "lb.litmus")
    # thin air: no write of 1 exists unless one is read first, so nothing can produce it
    assert check(lb_data, load_model("rmo")).verdict == "Forbidden"
    lb_fake = parse_litmus("""LISA LB+fakedatas
{ }
 P0 | P1 ;
 r[] r0 x | r[] r0 y ;
 mov r1 (xor r0 r0) | mov r1 (xor r0 r0) ;
 mov r2 (add r1 1) | mov r2 (add r1 1) ;
 w[] y r2 | w[] x r2 ;
exists (0:r0=1 /\\ 1:r0=1)
""", "lbf.litmus")
    # the written value does not depend on the read's value, but the dependency remains
    assert check(lb_fake, load_model("rmo")).verdict == "Forbidden"
    yes = tmp_path / "blind.mm"
    yes.write_text("model blind\nreorder {\n  R W\n R Y Y\n W Y Y\n}\nforwarding own-writes\n")
    assert check(lb_fake, load_model(str(yes))).verdict == "Allowed"


def test_locks_exclude_each_other():
    from mmdsl.core.program import BinOp, Const, Reg, Rmw, Store
    from mmdsl.core.program import OLD

    p = parse_litmus("""LISA locks
{ }
 P0 | P1 ;
 r[] r0 c | r[] r0 c ;
 w[] c 1 | w[] c 1 ;
exists (c=1 /\\ 0:r0=0 /\\ 1:r0=0)
""", "l.litmus")
    lock = Rmw(None, Const("l"), Const(1), cond=BinOp("eq", Reg(OLD), Const(0)), blocking=True,
               annots=frozenset({"lock"}))
    unlock = Store(Const("l"), Const(0), annots=frozenset({"unlock"}))
    for t in p.threads:
        t.instrs = [lock, *t.instrs, unlock]
    # without the lock both increments may read 0; with it, one reads the other's write
    for m in ("sc", "tso", "dotnet"):
        assert check(p, load_model(m)).verdict == "Forbidden", m
