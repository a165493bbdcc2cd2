"""RVWMO on the explorer: the preserved-program-order rules of RISC-V compiled into enabling predicates.

A model with its own axioms is run by the explorer only when those axioms are RVWMO's:
its ``let``s and axioms, read without their positions, are those of the bundled
``models/riscv.mm`` (the table, fences, dependencies, annotations and classes may differ:
they are compiled as for every table model). RVWMO is multi-copy atomic, so the machine
keeps one shared memory; each of the thirteen ppo rules becomes a per-pair code or a
mechanism of the machine (see docs/models/riscv.md, "The explorer"):

* rules 1, 5, 6 (same address to a store, .aq, .rl) and 9-11 (addr, data, ctrl) come from
  the table and the ``dependencies`` block, as for every table model; rule 4 from the fences;
* rule 2 (same-address loads, no store between, not reading the same write): a load may
  be performed before an earlier load of its address only by *binding* it -- the earlier
  load must then read the same write, so no write to the location is performed until it is
  (code ``BIND``);
* rule 3 (a load reading an AMO's or a store-conditional's write of its own thread): such
  writes are never forwarded, the load waits for them;
* rule 7 (RCsc: .aq/.rl on AMOs, lr and sc): never reordered with each other;
* rule 8 (an AMO; a paired lr and sc): an AMO is performed in one step (herd's one event:
  an edge to either half is an edge to the AMO); an sc is paired with its lr by the
  reservation the lr takes when performed (``state.RESV``);
* rules 12, 13 (pipeline dependencies): a write whose address waits on a guess holds back
  the loads that would forward from it, and every later write (``hold``); a write whose
  value waits is never forwarded before it is known.
"""

from __future__ import annotations

from functools import lru_cache

from ....lang.ir import Model, render_expr
from .enabling import ALWAYS, BIND, G_ADDR, G_CTRL, NEVER, ModelRules, ThreadRules

ACQ_REL = frozenset({"Acq", "Rel", "AcqRel"})
ATOMIC = frozenset({"AMO", "X"})


def _fingerprint(model: Model) -> tuple:
    """The model's lets and own axioms as text, without positions."""
    lets = tuple((g.recursive, tuple((b.name, render_expr(b.expr)) for b in g.bindings)) for g in model.lets)
    axioms = tuple((a.name, a.test, a.negated, render_expr(a.expr), a.scope)
                   for a in model.axioms if not a.default)
    return lets, axioms


@lru_cache(maxsize=1)
def _rvwmo_fingerprint() -> tuple:
    from ....lang import load_model

    return _fingerprint(load_model("riscv"))


def is_rvwmo(model: Model) -> bool:
    """Are the model's lets and axioms exactly RVWMO's (those of the bundled riscv model)?"""
    if model.table is None or not model.forwarding or all(a.default for a in model.axioms):
        return False
    return _fingerprint(model) == _rvwmo_fingerprint()


class RvwmoRules(ModelRules):
    """A table model whose axioms are RVWMO's: the table's codes plus the rules a table cannot say."""

    rvwmo = True

    def thread_rules(self, thread) -> ThreadRules:
        return RvwmoThreadRules(self, thread)


class RvwmoThreadRules(ThreadRules):
    """``ThreadRules`` with RVWMO's rules 2, 3, 7, 8, 11-13 laid over the table's codes."""

    def __init__(self, rules: ModelRules, thread):
        super().__init__(rules, thread)
        shapes = self.shapes
        n = len(shapes)
        access = [d for d in range(n) if not self.is_fence[d]]
        rcsc = [bool(s.annots & ACQ_REL) and bool(s.annots & ATOMIC) for s in shapes]
        for j in access:
            for k in access:
                if rcsc[j] and rcsc[k]:  # rule 7
                    self.overtake[j][k] = NEVER
                elif (self.is_read[j] and self.is_read[k] and not shapes[j].rmw and not shapes[k].rmw
                      and self.overtake[j][k] == ALWAYS):  # rule 2: only by reading the same write
                    self.overtake[j][k] = BIND
        # rule 3: a load never takes its value from a pending AMO or store-conditional of its thread
        self.no_forward_from = [self.is_write[d] and bool(shapes[d].annots & ATOMIC) for d in range(n)]
        # rules 11 (ctrl) and 13 (addr;po): a write after a guessed branch or address waits for
        # the reads (or the sc whose status) the guess depends on; rule 9's address-dependent
        # access itself waits (the guard just before it), and a load forwarding from it too (12)
        for g in (G_CTRL, G_ADDR):
            self.hold[g] = [[self.is_write[k] for k in range(n)] for _ in range(n)]
        # rule 8: an AMO is one event, performed in one step
        self.atomic = {k: True for k in self.atomic}
