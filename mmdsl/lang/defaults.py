"""The standard axioms a table-only model gets (DESIGN.md: coherence, atomicity, ordering)."""

from __future__ import annotations

import re

from .ir import REL, Axiom, Expr, Model


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
