"""herd's predefined names in cat models, as the core IR names them (and those mmdsl lacks)."""

from __future__ import annotations

from .cat_aarch64 import FENCE_SETS as _A64_FENCE_SETS
from .ir import REL, SET, Expr

# herd's event sets -> the IR set each one is
SETS = {
    "R": "R",
    "W": "W",
    "M": "M",
    "F": "F",
    "IW": "IW",
    "EXEC": "M",  # herd's accesses not executed speculatively: every access (mmdsl never speculates)
}

# herd's speculatively executed accesses (its speculation variants): none in mmdsl's executions
EMPTY_SETS = {"SPEC"}

# herd's X: x86's locked instructions and RISC-V's exclusives (lr, sc); in mmdsl the
# events of a read-modify-write (RMW) plus the accesses the RISCV dialect annotates X
# (an lr or sc without its pair is one too)
X_PARTS = ("RMW", "X")

# herd's RISC-V annotation sets: the annotations the RISCV dialect puts on events
# (.aq -> Acq, .rl -> Rel, .aqrl -> AcqRel, both halves of an AMO -> AMO). herd's `Sc`
# is carried by no event (the dialect spells .aqrl AcqRel;
# riscv-defs.cat reads `let AcqRel = AcqRel|Sc (* Compat *)`).
ANNOTATION_SETS = {
    "Acq": "Acq",
    "Rel": "Rel",
    "AcqRel": "AcqRel",
    "Sc": "Sc",
    "AMO": "AMO",
}

# herd's C annotation sets (herd's CAction arch sets), over the C dialect's annotations:
# memory_order_relaxed -> rlx, _consume -> acq+con, _acquire -> acq, _release -> rel,
# _acq_rel -> acq+rel, _seq_cst -> sc. herd tags each event with one order, so ACQ is an
# acquire that is neither a consume nor an acq_rel. A is herd's "atomic": an access with
# a memory order (fences with one are not in A); NA is every other event.
def _annot(name: str) -> Expr:
    return Expr("name", name=name, type=SET)


def _union(*xs: Expr) -> Expr:
    return Expr("union", xs, type=SET)


def _diff(a: Expr, *bs: Expr) -> Expr:
    return Expr("diff", (a, *bs), type=SET)


_ORDERED = _union(*(_annot(a) for a in ("rlx", "acq", "rel", "sc", "con")))
_ATOMIC = Expr("inter", (_annot("M"), _ORDERED), type=SET)
C_ANNOTATION_SETS = {
    "RLX": _annot("rlx"),
    "ACQ": _diff(_annot("acq"), _annot("rel"), _annot("con")),
    "REL": _diff(_annot("rel"), _annot("acq")),
    "ACQ_REL": Expr("inter", (_annot("acq"), _annot("rel")), type=SET),
    "CON": _annot("con"),
    "SC": _annot("sc"),
    "A": _ATOMIC,
    "NA": Expr("compl", (_ATOMIC,), type=SET),
    # herd's C lock sets: spin_lock is a Linux lock (both events of its RMW are LK; the
    # read is LKR, the write LKW), spin_unlock an unlock (UL). LS, successful C11 locks
    # (lock(l) in herd's C), are events mmdsl's C dialect never makes: the empty set.
    "LK": _annot("lock"),
    "LKR": Expr("inter", (_annot("lock"), _annot("R")), type=SET),
    "LKW": Expr("inter", (_annot("lock"), _annot("W")), type=SET),
    "UL": _annot("unlock"),
    "LS": Expr("empty", type=None),
    # herd's FW: the final write of each location, which a candidate's co puts last
    "FW": _diff(_annot("W"), Expr("domain", (Expr("name", name="co", type=REL),), type=SET)),
}


# the C sets that make a model a C11 model, read over one-event RMWs (cat_rmw): C11's memory
# orders and NA. Not FW (riscv-total.cat, stdlib.cat), nor the lock sets (lock.cat: the
# Linux kernel's RMWs are two events in herd too)
C11_ORDER_SETS = {"RLX", "ACQ", "REL", "ACQ_REL", "CON", "SC", "NA"}


# herd's C makes a C11 read-modify-write one event, both a read and a write; mmdsl splits
# it into a read and a write joined by rmw. A C11 model (one naming a set of C11_ORDER_SETS,
# or tag2set) is read over merged halves (cat_rmw.merge_rmw_halves), where herd's RMW set is
# both halves of each RMW and `R & W` is the same events. Elsewhere herd's RMW is R & W, empty.
HERD_RMW = "herd's RMW"


def resolve_rmw(e: Expr) -> Expr:
    """``e`` with herd's RMW placeholder read as ``R & W`` (a model that is not a C model)."""
    if e.op == "name":
        if e.name != HERD_RMW:
            return e
        return Expr("inter", (_annot("R"), _annot("W")), type=SET, pos=e.pos)
    if not e.args:
        return e
    args = tuple(resolve_rmw(a) for a in e.args)
    if all(a is b for a, b in zip(args, e.args)):
        return e
    return Expr(e.op, args, type=e.type, name=e.name, pos=e.pos)


# bell files' tags (enum memorder = 'rlx || 'acq ...) -> the set tag2set('t) is, where mmdsl's
# dialects carry that tag (C11's memory orders, as c11.bell names them); other tags
# (the Linux kernel's 'once, 'mb ...) are refused by name where tag2set meets them
TAG_SETS = {"rlx": "RLX", "acq": "ACQ", "rel": "REL", "acq_rel": "ACQ_REL", "sc": "SC", "con": "CON"}


# herd's AMO is one event, both a read and a write; mmdsl gives it two, joined by rmw.
# A model that uses one of these names is a RISC-V model: its acyclic checks are read
# with each AMO's halves merged (merge_amo_halves)
ONE_EVENT_AMO_NAMES = {"AMO", "Acq", "Rel", "AcqRel", "Sc"}


def merge_amo_halves(r: Expr) -> Expr:
    """``r`` read with each AMO's two events as one, herd's way (for an acyclic check).

    herd makes a RISC-V AMO one event, both a read and a write; mmdsl gives it a read and
    a write joined by rmw. A cycle through the merged event may enter at one half and
    leave from the other, so each edge is extended by a hop between the halves, and the
    AMO's own read-to-write edge (no edge at all in herd) is left out. An edge from its
    write back to its read (reading its own write) stays: a cycle, as herd has no such
    execution. On a test without AMOs this is ``r``. (models/riscv.mm does the same.)
    """
    amo = Expr("id", (Expr("name", name="AMO", type=SET),), type=REL)
    rmw = Expr("name", name="rmw", type=REL)
    pair = Expr("seq", (amo, Expr("union", (rmw, Expr("inv", (rmw,), type=REL)), type=REL), amo), type=REL)
    own = Expr("seq", (amo, rmw, amo), type=REL)
    hop = Expr("opt", (pair,), type=REL)
    return Expr("seq", (hop, Expr("diff", (r, own), type=REL, pos=r.pos), hop), type=REL, pos=r.pos)


# herd's fence sets: the set name -> the fence tags a test's fence event of it carries
FENCE_SETS = {
    "MFENCE": ("mfence",),
    "LFENCE": ("lfence",),
    "SFENCE": ("sfence",),
}


def _riscv_fence_tags(pred: str, succ: str) -> tuple[str, ...]:
    """The RISCV dialect's kinds of ``fence PRED,SUCC`` whose memory part is pred,succ:
    device bits (i, o) order no memory access, so ``fence iorw,iorw`` (a bare ``fence``)
    is a Fence.rw.rw."""
    io = ("", "i", "o", "io")
    return tuple(f"fence-{a}{pred}-{b}{succ}" for a in io for b in io)


# RISC-V: fence PRED,SUCC is herd's Fence.PRED.SUCC, the RISCV dialect's fence-PRED-SUCC
FENCE_SETS.update({f"Fence.{p}.{q}": _riscv_fence_tags(p, q) for p in ("r", "w", "rw") for q in ("r", "w", "rw")})
FENCE_SETS["Fence.tso"] = ("fence-tso",)


def _add_fence_sets(sets: dict) -> None:
    """Add an architecture's fence sets, keeping the tags another one gives the same set name."""
    for name, tags in sets.items():
        FENCE_SETS[name] = tuple(dict.fromkeys((*FENCE_SETS.get(name, ()), *tags)))


# AArch64: DMB.SY ... DSB.NSHLD and ISB are the AArch64 dialect's dmb-sy ... isb (cat_aarch64.py)
_add_fence_sets(_A64_FENCE_SETS)
# Power (herd's PPC barrier sets): the PPC dialect's fence kinds
_add_fence_sets({"SYNC": ("sync",), "LWSYNC": ("lwsync",), "ISYNC": ("isync",), "EIEIO": ("eieio",)})
# ARMv7 (herd's ARM barrier sets: DMB is DMB SY; the other options have no set of their
# own, as in herd): the ARM dialect's fence kinds
_add_fence_sets({"DMB": ("dmb",), "DMB.ISH": ("dmb-ish",), "DSB": ("dsb",), "DMB.ST": ("dmb-st",),
                   "DSB.ST": ("dsb-st",), "ISB": ("isb",)})

# herd's relations -> (IR name, type); the IR evaluator knows each one
RELATIONS = {
    "po": "po",
    "loc": "loc",
    "id": "id",
    "int": "int",
    "ext": "ext",
    "addr": "addr",
    "data": "data",
    "ctrl": "ctrl",
    "rmw": "rmw",
    "po-loc": "po-loc",
    "rf": "rf",
    "co": "co",
    "fr": "fr",
    "rfe": "rfe",
    "rfi": "rfi",
    "coe": "coe",
    "coi": "coi",
    "fre": "fre",
    "fri": "fri",
}

# the one-argument functions herd predefines that mmdsl evaluates: name -> (IR op, result type)
FUNCTIONS = {
    "domain": ("domain", SET),
    "range": ("range", SET),
}

# herd's functions over the values events read or write: mmdsl's relations carry no values,
# so one is lowered only where its argument is empty on every execution (then so is it)
VALUE_FUNCTIONS = {
    "different-values": "the pairs of a relation whose events' values differ",
}

# names herd predefines (for some architecture or in general) that mmdsl does not provide;
# a model that uses one is refused naming it (a `try ... with` still falls back)
UNSUPPORTED = {
    "classes-loc": "the partition of events by location",
    "classes": "the equivalence classes of a relation",
    "inv-domain": "herd's obsolete inverse domain",
    "tag2events": "events by tag",
    "tag2scope": "scope relations by tag",
    "linearisations": "the linear extensions of a relation",
    "generate_orders": "candidate orders built by the model",
    "generate_cos": "coherence orders built from another base than co0",
    "partition": "the partition of events by location",
    "same-instr": "events of one instruction instance",
    "iico_data": "intra-instruction data dependencies",
    "iico_ctrl": "intra-instruction control dependencies",
    "rf-reg": "register reads-from",
    "Exp": "explicit accesses",
    "pco": "herd's precomputed coherence observations (variant cos-opt)",
    "LF": "failed locks (C11 lock() and spin_trylock)",
    "RL": "read-locked events (herd's C read locks)",
    "RU": "read-unlocked events (herd's C read locks)",
    "narrower": "mixed-size containment",
    "wider": "mixed-size containment",
    "NDATA": "herd's obsolete data set",
    "ADDR": "herd's obsolete address set",
    "B": "branch events",
}

