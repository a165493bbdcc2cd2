"""The standard axioms a table-only model gets (DESIGN.md: coherence, atomicity, ordering)."""

from __future__ import annotations

import re
from dataclasses import replace

from .ir import REL, SET, Axiom, Binding, Expr, LetGroup, Model


def _name(n: str) -> Expr:
    return Expr("name", (), REL, name=n)


def _union(*names: str) -> Expr:
    return Expr("union", tuple(_name(n) for n in names), REL)


def order_axiom_name(model: Model) -> str:
    return model.name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*", model.name) else "order"


def default_axioms(model: Model) -> list[Axiom]:
    """uniproc, atomic and the model's ordering axiom, derived from its table.

    * ``uniproc``: acyclic kept-loc | rf | co | fr -- per-location coherence, where
      kept-loc is po-loc for every model whose table keeps same-location pairs;
    * ``atomic``: empty rmw & (fre ; coe);
    * NAME: acyclic ppo | fence | rfe | co | fr, with rf in place of rfe when the model
      does not forward a thread's own writes to its reads. With forwarding it also holds
      ``(dep | rmw) ; rfi``: a write enters its thread's pending list with its value and
      address known, so a read it forwards to comes after the reads they depend on (and
      after the read half of a read-modify-write); without this a read could take a value
      computed from a read not yet performed (out of thin air), which no machine does.
    """
    if model.per_thread:
        return propagation_axioms()
    rf = "rfe" if model.forwarding else "rf"
    order = _union("ppo", "fence", rf, "co", "fr")
    if model.forwarding:
        issued = Expr("seq", (_union("dep", "rmw"), _name("rfi")), REL)
        order = Expr("union", (*order.args, issued), REL)
    return [
        Axiom("uniproc", "acyclic", _union("kept-loc", "rf", "co", "fr"),
              doc="per-location coherence (SC per location)", default=True),
        Axiom("atomic", "empty",
              Expr("inter", (_name("rmw"), Expr("seq", (_name("fre"), _name("coe")), REL)), REL),
              doc="no write slips between the read and the write of a read-modify-write", default=True),
        Axiom(order_axiom_name(model), "acyclic", order,
              doc="the global order: preserved program order, fences and communication", default=True),
    ]


# ---- per-thread (non multi-copy atomic) models: herd's view, "Herding cats" section 4 ----

def _op(op: str, *args: Expr) -> Expr:
    return Expr(op, tuple(args), REL)


def _set(n: str) -> Expr:
    return Expr("name", (), SET, name=n)


def default_propagation_lets(model: Model) -> list[LetGroup]:
    """``hb`` and ``prop`` of a per-thread model, from its table and its fences' cumulativity.

    * ``hb = ppo | fence | rfe`` -- happens-before: preserved program order, fences, and a
      read after the write it reads from on another thread; with an ``rdw`` dependency,
      ``let rdw = po-rdw & (fre ; rfe)`` and ``hb = ppo | rdw | fence | rfe`` (herd's ``rdw``
      is in ``ppo``; hb* composes it with the table's pairs);
    * ``prop = (propbase & W * W) | (chapo? ; propbase* ; strong-fence ; hb*)`` where
      ``propbase = (cumulative ; hb*) | (rfe ; cumulative ; hb*)`` with ``cumulative =
      strong-fence | light-fence`` (A-cumulativity: writes read before the fence; B: what
      follows it in hb) and ``chapo = rfe | fre | coe | fre ; rfe | coe ; rfe``: the order
      in which writes propagate -- every fence orders write-to-write pairs it covers, and a
      strong fence makes everything observed before it visible before what follows.
    """
    cumulative = _union("strong-fence", "light-fence")
    hb = _union("ppo", "fence", "rfe")
    lets = []
    extra = []
    for rule in model.dependencies:
        if rule.name == "rdw":  # herd's rdw, in ppo (ii0)
            lets.append(LetGroup([Binding("rdw", _op("inter", _name("po-rdw"),
                                                     _op("seq", _name("fre"), _name("rfe"))))]))
            extra.append("rdw")
        elif rule.name in ("rfi", "detour"):  # herd's rfi (ii0) and detour (ci0), composed as in ppo.cat
            if rule.name == "rfi":
                base = _op("seq", _union("addr", "data"), _name("rfi"))
            else:
                rw = Expr("product", (_set("R"), _set("W")), REL)
                base = _op("seq", _op("inter", _name("ppo"), rw),
                           _op("inter", _name("po-loc"), _op("seq", _name("coe"), _name("rfe"))))
            pairs = _op("union", *(Expr("product", (a, b), REL) for a, b in rule.pairs))
            name = f"ppo-{rule.name}"
            lets.append(LetGroup([Binding(name, _op("inter", base, pairs))]))
            extra.append(name)
    if extra:
        hb = _union("ppo", *extra, "fence", "rfe")
    hb_star = _op("star", _name("hb"))
    propbase = _op("seq", _op("union", cumulative, _op("seq", _name("rfe"), cumulative)), hb_star)
    chapo = _op("union", _name("rfe"), _name("fre"), _name("coe"),
                _op("seq", _name("fre"), _name("rfe")), _op("seq", _name("coe"), _name("rfe")))
    ww = Expr("product", (_set("W"), _set("W")), REL)
    prop = _op("union", _op("inter", _name("propbase"), ww),
               _op("seq", _op("opt", chapo), _op("star", _name("propbase")), _name("strong-fence"), hb_star))
    return [*lets, LetGroup([Binding("hb", hb)]), LetGroup([Binding("propbase", propbase)]),
            LetGroup([Binding("prop", prop)])]


def propagation_axioms() -> list[Axiom]:
    """The four axioms of "Herding cats" (herd's ppc.cat), with RMW atomicity."""
    hb_star = _op("star", _name("hb"))
    return [
        Axiom("sc-per-location", "acyclic", _union("po-loc", "rf", "co", "fr"),
              doc="SC per location: coherence, program order at each location", default=True),
        Axiom("atomic", "empty", _op("inter", _name("rmw"), _op("seq", _name("fre"), _name("coe"))),
              doc="no write slips between the read and the write of a read-modify-write", default=True),
        Axiom("no-thin-air", "acyclic", _name("hb"),
              doc="no thin air: happens-before (ppo | fence | rfe) is acyclic", default=True),
        Axiom("observation", "irreflexive", _op("seq", _name("fre"), _name("prop"), hb_star),
              doc="a read does not see a write older than one that propagated to it before", default=True),
        Axiom("propagation", "acyclic", _union("co", "prop"),
              doc="writes propagate in an order compatible with coherence", default=True),
    ]


def atomic_block_reading(model: Model) -> Model:
    """``model`` read over atomic blocks (``core.program.AtomicBegin``): its global-order axiom
    holds with each block taken as one event, ``ab? ; (R \\ ab) ; ab?`` for its relation R
    (ab = ``atomic-block``), so no other event of the order falls between two events of a
    block. Kept with the model; what the axiomatic checker runs on a program with blocks.

    Only the standard axioms are read this way: a model with axioms of its own says what a
    block means itself (with ``atomic-block``), or is refused.
    """
    return model.compiled("atomic-blocks", _lift_order)


def _lift_order(model: Model) -> Model:
    from copy import deepcopy

    from ..core.errors import UnsupportedError

    own = [a for a in model.axioms if not a.default]
    if any("atomic-block" in a.text() for a in own):  # the model says what a block means itself
        return model
    if own or model.per_thread:
        raise UnsupportedError(
            f"atomic blocks are not supported by the axiomatic checker under '{model.name}': "
            + ("it defines its own axioms" if own else "its writes reach each thread at its own time")
            + "; the checker reads blocks into the standard axioms of a table model",
            own[0].pos if own else None,
            hint="run a table model with the standard axioms (sc, tso, pso, pso-cas), or write an axiom "
                 "with the relation atomic-block")
    copy = deepcopy(model)
    copy.derived = {}
    name = order_axiom_name(model)
    ab = _name("atomic-block")
    opt = Expr("opt", (ab,), REL)
    for i, axiom in enumerate(copy.axioms):
        if axiom.name == name and axiom.default:
            lifted = Expr("seq", (opt, Expr("diff", (axiom.expr, ab), REL), opt), REL)
            copy.axioms[i] = replace(axiom, expr=lifted, doc=axiom.doc + ", each atomic block one event")
    return copy
