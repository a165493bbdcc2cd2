"""The core IR of a model: typed set/relation expressions, the table, fences and axioms."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import SourcePos

SET = "set"
REL = "rel"

# Base sets every model can name, with their meaning (for check-model and docs).
BASE_SETS = {
    "R": "reads (including the read of a read-modify-write)",
    "W": "writes (including the write of a read-modify-write and initial writes)",
    "F": "fences",
    "M": "memory accesses, R | W",
    "RMW": "the two events of an atomic read-modify-write",
    "IW": "initial writes",
    "_": "every event",
}

# Annotations tests may put on events; a model can declare more with `annotation`.
KNOWN_ANNOTATIONS = {
    "acq": "acquire (LISA r[acq], C smp_load_acquire, memory_order_acquire)",
    "rel": "release (LISA w[rel], C smp_store_release, memory_order_release)",
    "sc": "sequentially consistent atomic (memory_order_seq_cst); never a store-conditional",
    "lr": "load-reserved / load-exclusive (lr.w, LDXR, LDREX, lwarx)",
    "stcond": "the write of a successful store-conditional (sc.w, STXR, STREX, stwcx.): named apart "
              "from C's sc (seq_cst), which herd's C sets A, SC and NA read",
    "rlx": "relaxed atomic (memory_order_relaxed)",
    "con": "consume (memory_order_consume, which also carries acq)",
    "once": "READ_ONCE / WRITE_ONCE",
    "noreturn": "a kernel atomic that returns nothing (atomic_inc, atomic_add ...: herd's 'noreturn)",
    "cmpxchg-mb": "an smp_mb() around a fully ordered cmpxchg (herd has them only when the cmpxchg writes)",
    "volatile": "volatile access (C volatile, .NET volatile fields)",
    "lock": "lock acquisition (spin_lock, .NET Monitor.Enter)",
    "unlock": "lock release (spin_unlock, .NET Monitor.Exit)",
    "atomic": "locked instruction (x86 LOCK prefix, XCHG)",
}

STATIC_RELATIONS = {
    "po": "program order",
    "loc": "same location",
    "id": "identity",
    "int": "same thread",
    "ext": "different threads",
    "addr": "address dependency",
    "data": "data dependency",
    "ctrl": "control dependency",
    "dep": "the dependencies the model honours (its `dependencies` block; by default "
           "addr | data | ctrl | addr ; po): what the table's i condition tests",
    "rmw": "read and write of one atomic read-modify-write",
    "po-loc": "po & loc",
    "sm": "same instruction (reflexive): herd's sm, e.g. the read and the write of one xchg",
    "atomic-block": "distinct events of one atomic block (C atomic { }, cas2, Memorax locked { })",
}
# the rmw pairs of a C11 read-modify-write or a spin_lock (one event in herd's C): a relation the axiomatic
# checker computes for herd's cat models read over one-event RMWs (lang.cat_rmw), no model name
ONE_EVENT_RMW = "herd one-event rmw"
DERIVED_RELATIONS = {
    "ppo": "program-order pairs the reordering table keeps",
    "fence": "pairs ordered by a fence between them (per the fence declarations)",
    "kept-loc": "same-location po pairs the table keeps (write-read pairs too when the model forwards)",
    "strong-fence": "pairs ordered by a fence declared `cumulative strong` (herd's strong: sync, dmb)",
    "light-fence": "pairs ordered by a fence declared `cumulative light` (herd's light: lwsync, eieio)",
    "po-rdw": "same-location read pairs an `rdw` dependency keeps when the later read takes a newer write "
              "of another thread (po-rdw & (fre ; rfe) is herd's rdw, restricted to the model's pairs)",
}

# How writes reach the other threads (`propagation MODE`).
PROPAGATION_MODES = {
    "multi-copy-atomic": "a write reaches every other thread at once (one shared memory; the default)",
    "per-thread": "a write reaches each other thread at its own time (not multi-copy atomic: Power, Armv7)",
}
# How a fence of a per-thread model is cumulative (`fence ... cumulative KIND`), after
# herd's ppc.cat / "Herding cats" section 4: both kinds are A-cumulative (writes the fence's
# thread has read come before it) and B-cumulative (what follows it in hb comes after).
CUMULATIVITY = {
    "strong": "orders every pair it fences for every thread: propagates all writes observed before it "
              "before anything after it (sync, dmb)",
    "light": "cumulative for write-to-write pairs only: a write observed before it reaches every thread "
             "before a write after it (lwsync, eieio)",
}
DYNAMIC_RELATIONS = {
    "rf": "reads-from",
    "co": "coherence order",
    "fr": "from-read, rf^-1 ; co",
    "rfe": "rf & ext",
    "rfi": "rf & int",
    "coe": "co & ext",
    "coi": "co & int",
    "fre": "fr & ext",
    "fri": "fr & int",
    "com": "rf | co | fr",
}


@dataclass(eq=False)
class Expr:
    """A typed expression node. ``op`` is one of:

    name, empty, universe, union, seq, diff, inter, product, compl, inv, plus, star,
    opt, id, domain, range (a relation's domain or range, a set; from cat models).  ``name`` is set for op == "name"; ``args`` hold sub-expressions. ``diff``
    may have more than two: ``a \\ b \\ c`` (left associative) is one node, a less b and c.
    """

    op: str
    args: tuple["Expr", ...] = ()
    type: str = REL
    name: str | None = None
    pos: SourcePos | None = None

    def __str__(self) -> str:
        return render_expr(self)

    def __deepcopy__(self, memo) -> "Expr":
        """An expression is not changed once built (rewrites build new ones): a copied model
        shares its expressions, however deeply they nest (``po^-1^-1...``)."""
        return self

    def names(self) -> set[str]:
        if self.op == "name":
            return {self.name}
        out: set[str] = set()
        for a in self.args:
            out |= a.names()
        return out


_PREC = {"union": 1, "seq": 2, "diff": 3, "inter": 4, "product": 5}
_SYM = {"union": " | ", "seq": " ; ", "diff": " \\ ", "inter": " & ", "product": " * "}
_POST = {"inv": "^-1", "plus": "+", "star": "*", "opt": "?"}


def render_expr(e: Expr, outer: int = 0) -> str:
    """Print an expression in the model language, with minimal parentheses."""
    if e.op == "name":
        return e.name
    if e.op == "empty":
        return "0"
    if e.op == "universe":
        return "_"
    if e.op == "id":
        return "[" + render_expr(e.args[0]) + "]"
    if e.op == "compl":
        return "~" + render_expr(e.args[0], 6)
    if e.op in ("domain", "range"):  # herd's cat functions
        return f"{e.op}({render_expr(e.args[0])})"
    if e.op == "chosen":  # cat's with x from linearisations(S, r): see lang/cat_choice.py
        return f"linearisations({render_expr(e.args[0])}, {render_expr(e.args[1])})"
    if e.op == "among":  # cat's with x from S, S a set of relations: see lang/cat_choice.py
        return "{" + ", ".join(render_expr(a) for a in e.args) + "}"
    if e.op == "choose":
        return f"some {e.name} with " + " /\\ ".join(render_expr(a) for a in e.args) if e.args else f"some {e.name}"
    if e.op == "check":
        return f"{e.name} {render_expr(e.args[0], 6)}"
    if e.op in _POST:
        return render_expr(e.args[0], 7) + _POST[e.op]
    prec = _PREC[e.op]
    parts = []
    for i, a in enumerate(e.args):
        # \ is left-associative: its right operand needs parentheses at the same level;
        # * (cartesian product) is not associative at all
        inner = prec + 1 if (e.op == "diff" and i) or e.op == "product" else prec
        parts.append(render_expr(a, inner))
    text = _SYM[e.op].join(parts)
    return f"({text})" if prec < outer else text


@dataclass
class Cell:
    """A table cell: may the later access be performed before the earlier one?"""

    value: str  # "-", "Y", "d", "i", "di"
    pos: SourcePos | None = None

    def keeps(self, same_loc: bool, dependent: bool) -> bool:
        """True when the pair keeps its program order."""
        v = self.value
        if v == "-":
            return True
        if v == "Y":
            return False
        if v == "d":
            return same_loc
        if v == "i":
            return dependent
        return same_loc or dependent  # "di"


CELL_MEANING = {
    "-": "never: the pair keeps program order",
    "Y": "always: the later access may be performed first",
    "d": "only when the two locations differ",
    "i": "only when the later access does not depend on the earlier (by a dependency the model honours)",
    "di": "only when the locations differ and the later access is independent",
}


@dataclass
class Table:
    rows: list[str]
    cols: list[str]
    cells: dict[tuple[str, str], Cell]
    pos: SourcePos | None = None


# The dependency relations a `dependencies` block may name, with their meaning.
DEPENDENCY_RELATIONS = {
    "addr": "the later access's address is computed from the value the earlier read",
    "data": "the later write's value is computed from the value the earlier read",
    "ctrl": "the later access comes after a branch whose condition uses the value the earlier read",
    "addr;po": "the later access comes after an access whose address uses the value the earlier read",
    "ctrl+FENCE": "the later access comes after a branch on the value the earlier read and a fence FENCE "
                  "after that branch (ctrl+isync on Power, ctrl+isb on Arm)",
    "addr;po;ctrl+FENCE": "the later access comes after a ctrl+FENCE from a read that itself comes after an "
                          "access whose address uses the value the earlier read (herd's cc ; ci in ci)",
    "rdw": "both read one location and the later read takes a write of another thread newer than the one "
           "the earlier read returned (herd's rdw = po-loc & (fre ; rfe)); per-thread models only",
    "rfi": "the later read takes its value from a write of its own thread whose address or value comes from "
           "the earlier read (herd's rfi in ii0: (addr | data) ; rfi); per-thread models only",
    "detour": "the later read takes a write of another thread coherence-after a write of its own that the "
              "table keeps after the earlier read (herd's detour in ci0: ppo ; po-loc & (coe ; rfe)); "
              "per-thread models only",
}
# the dependencies that look at rf and co: default lets of a per-thread model (lang/defaults.py)
DYNAMIC_DEPENDENCIES = ("rdw", "rfi", "detour")
# names of DEPENDENCY_RELATIONS that are templates (FENCE is a declared fence) or not static
# dependencies (rdw looks at rf and co): a model without a block does not get them
_NOT_DEFAULT = ("ctrl+FENCE", "addr;po;ctrl+FENCE", "rdw", "rfi", "detour")
ADDR_PO_CTRL = "addr;po;ctrl+"


def ctrl_fence_of(name: str) -> str | None:
    """The fence a ``ctrl+FENCE`` or ``addr;po;ctrl+FENCE`` dependency names, else None."""
    for prefix in ("ctrl+", ADDR_PO_CTRL):
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return None


def is_ctrl_fence(name: str) -> bool:
    """``ctrl+isync``: a control dependency completed by a fence (its name follows the +)."""
    return name.startswith("ctrl+") and len(name) > 5


def dependency_known(name: str) -> bool:
    return (name in DEPENDENCY_RELATIONS and name not in _NOT_DEFAULT[:2]) or ctrl_fence_of(name) is not None


@dataclass
class DependencyRule:
    """One line of a `dependencies` block: relation ``name`` keeps these (earlier, later) pairs."""

    name: str  # one of DEPENDENCY_RELATIONS
    pairs: list[tuple[Expr, Expr]]
    doc: str = ""
    pos: SourcePos | None = None
    cost: int | None = None  # `cost N`: fence selection may insert this dependency (addr, data, ctrl ...)


def default_dependencies() -> list[DependencyRule]:
    """What a model without a `dependencies` block honours: every dependency, for every pair."""
    m = Expr("name", name="M", type=SET)
    return [DependencyRule(n, [(m, m)], "default") for n in DEPENDENCY_RELATIONS if n not in _NOT_DEFAULT]


@dataclass
class FenceDecl:
    name: str
    aliases: list[str]
    orders: list[tuple[Expr, Expr]]  # (earlier set, later set) pairs
    cost: int
    doc: str = ""
    pos: SourcePos | None = None
    cumulativity: str | None = None  # "strong" | "light" in a per-thread model (CUMULATIVITY)

    @property
    def spellings(self) -> set[str]:
        return {self.name, *self.aliases}


@dataclass
class Binding:
    name: str
    expr: Expr
    pos: SourcePos | None = None


@dataclass
class LetGroup:
    """One `let` (a single binding) or one `let rec ... and ...` group."""

    bindings: list[Binding]
    recursive: bool = False


@dataclass
class Axiom:
    name: str
    test: str  # acyclic | irreflexive | empty
    expr: Expr
    negated: bool = False
    doc: str = ""
    default: bool = False
    pos: SourcePos | None = None
    scope: int | None = None  # how many let groups precede it (None: all of them)

    def text(self) -> str:
        neg = "~" if self.negated else ""
        return f"{neg}{self.test} {render_expr(self.expr)}"


@dataclass
class Model:
    """A loaded, checked model: the single input of every engine."""

    name: str
    title: str
    doc: str
    path: str | None
    annotations: dict[str, str] = field(default_factory=dict)
    classes: dict[str, Expr] = field(default_factory=dict)
    class_docs: dict[str, str] = field(default_factory=dict)
    table: Table | None = None
    # the dependencies the `i` / `di` cells (and the `dep` relation) honour
    dependencies: list[DependencyRule] = field(default_factory=default_dependencies)
    dependencies_pos: SourcePos | None = None  # where the model's own block is (None: the default)
    forwarding: bool = False
    propagation: str = "multi-copy-atomic"  # PROPAGATION_MODES
    propagation_pos: SourcePos | None = None
    fences: dict[str, FenceDecl] = field(default_factory=dict)
    lets: list[LetGroup] = field(default_factory=list)
    axioms: list[Axiom] = field(default_factory=list)
    # a cat model's `flag` checks: they never forbid; the checker reports the names that
    # hold on some allowed execution (herd's `Flag NAME` lines)
    flags: list[Axiom] = field(default_factory=list)
    flags_skipped: list[str] = field(default_factory=list)  # flags whose expression mmdsl lacks
    # a cat model's `undefined_unless` checks (rc11.cat's data races, `Dr`): never forbidding, kept
    # for `mmdsl check`, which reports an allowed execution failing one (herd prints nothing for them)
    undefined: list[Axiom] = field(default_factory=list)
    shows: list[str] = field(default_factory=list)
    variants_tested: list[str] = field(default_factory=list)  # a cat model's `if "v"` names
    includes: list[str] = field(default_factory=list)
    # a herd model that computes co itself: its candidates' co only picks final writes (cat_own_co)
    own_co: bool = False
    # why a herd model that names no C set cannot be read over herd's one-event C RMWs ("" = it can)
    c_rmw_refusal: str = ""
    # a cat model's orders generated by `with x from generate_cos/generate_orders` (IR
    # names): herd counts one execution per value of them, not per coherence order
    # (axiomatic/checker.py herd_execution); None: not a cat model, one per candidate
    generated_orders: list[str] | None = None
    # a herd model that names no C set, read over herd's one-event C11 RMWs (lang.cat_rmw):
    # what the axiomatic checker runs instead on a C test with such an RMW
    one_event_rmw_model: "Model | None" = field(default=None, repr=False, compare=False)
    # a Linux-kernel model (lock.cat): a spin_lock is lock events there, not one C event
    kernel_locks: bool = False
    # what engines compile from the model, built once each (see ``compiled``)
    derived: dict = field(default_factory=dict, repr=False, compare=False)

    def compiled(self, key: str, build):
        """``build(self)``, computed the first time ``key`` is asked for and kept with the model."""
        value = self.derived.get(key)
        if value is None:
            value = self.derived[key] = build(self)
        return value

    def __getstate__(self):
        state = dict(self.__dict__)
        state["derived"] = {}  # compiled predicates are closures: rebuilt where the model lands
        return state

    @property
    def per_thread(self) -> bool:
        """Writes reach each other thread at their own time (not multi-copy atomic)."""
        return self.propagation == "per-thread"

    def fence_for(self, kind: str) -> FenceDecl | None:
        """The model fence one spelling names (``--kinds``, ``--cost``), or None."""
        k = kind.lower().replace(".", "-")
        for f in self.fences.values():
            if k in {s.lower() for s in f.spellings}:
                return f
        return None

    def fences_for(self, kind: str) -> list[FenceDecl]:
        """The model fences a test's fence event of ``kind`` belongs to (maybe none).

        As in herd, a fence event is in the set named by each of its tags: ``f[dmb,all,sy]``
        (kind ``dmb,all,sy``) is in every declared fence that spells one of ``dmb``,
        ``all`` or ``sy``, and orders what each of them orders. A kind no declaration
        spells orders nothing (see ``lang/fence_use.py`` for the warning).
        """
        tags = set(fence_tags(kind))
        return [f for f in self.fences.values() if tags & {s.lower() for s in f.spellings}]


def fence_tags(kind: str | None) -> list[str]:
    """The tags of a fence kind, lower-cased: ``dmb,all,sy`` -> ``['dmb', 'all', 'sy']``."""
    # a dot is a hyphen: f[dmb.ld] is the fence a model declares as dmb-ld (names have no dots)
    return [t.strip().lower().replace(".", "-") for t in (kind or "").split(",") if t.strip()]
