"""herd's AArch64 built-in names for cat models (aarch64.cat and its includes), as mmdsl's events give them.

herd's Armv8 model (``aarch64.cat``) is written for a machine with far more kinds of
events than a litmus test of loads, stores, atomics, barriers and branches produces:
implicit accesses (translation-table walks, tag checks, instruction fetches), faults,
TLB and cache maintenance, exception entry and return, and register events from which
the model computes its own dependencies (``catdep``). The AArch64 dialect produces none
of the system-level events, so their sets are empty here, as they are in herd on such
tests. What mmdsl has is mapped:

* ``Exp`` (explicit accesses) is every memory access, ``NExp`` (implicit ones) is empty;
* ``A`` / ``Q`` are the reads of LDAR, LDAXR, SWPA... / LDAPR, ``L`` the writes of STLR,
  STLXR, SWPL...; the dialect annotates both events of an atomic, herd only the read
  (acquire) or the write (release), so the sets keep the right half;
* ``NoRet``: the read of an atomic whose result goes to the zero register (STADD);
* ``DMB.SY`` ... ``DSB.OSHLD``, ``ISB``: the dialect's fence kinds ``dmb-sy`` ... ``isb``;
* ``same-instance`` is ``sm`` (the events of one instruction);
* in a ``catdep`` model, ``po`` leaves out the pairs of one instruction (an atomic's
  read and write), and ``sm`` (herd's single-copy-atomic classes, without mixed-size
  accesses) relates each access to itself only: herd's own values of both.

Register-level names (``rf-reg``, ``iico_data``, ``iico_ctrl``, ``iico_order``, ``Rreg``,
``DATA``, ``ADDR``, ``BCC``, ``B``, ``T``) exist in herd only with its register events,
which herd keeps for a model that declares the ``catdep`` option in its header (the
model computes its dependencies itself). From the point a file of the model declares
``catdep`` (aarch64.cat, aarch64deps.cat, aarch32.cat do), they are empty, a
definition of ``data``, ``addr`` or ``ctrl`` keeps mmdsl's relation of that name (which
the dialects compute from register dataflow as herd does, restricted to reads, as
herd's are), and ``po`` / ``sm`` are herd's values for such a model (below). Why that
gives herd's verdicts is in docs/cat.md ("aarch64.cat"); without ``catdep`` these names
are refused.
"""

from __future__ import annotations

from .ir import REL, SET, Expr

BARRIER_OPTIONS = ("SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "OSH", "OSHST", "OSHLD", "NSH", "NSHST", "NSHLD")

# herd's DMB.SY ... -> the AArch64 dialect's fence kind dmb-sy ...
FENCE_SETS = {f"{b}.{o}": (f"{b.lower()}-{o.lower()}",) for b in ("DMB", "DSB") for o in BARRIER_OPTIONS}
FENCE_SETS["ISB"] = ("isb",)

# herd's AArch64 annotation sets: (the dialect's annotation, the event kind herd puts it on)
ANNOTATION_SETS = {"A": ("A", "R"), "Q": ("Q", "R"), "L": ("L", "W"), "NoRet": ("NoRet", "R")}

# system-level event sets no AArch64 litmus test of mmdsl's dialect produces: empty
EMPTY_SETS = {
    "NExp": "implicit accesses (translation-table walks, tag and instruction fetches)",
    "SPURIOUS": "spurious hardware updates",
    "FAULT": "fault effects",
    "TagCheck": "tag-check faults",
    "TLBI": "TLB maintenance", "TLBInXS": "TLB maintenance (nXS)", "TLBIIS": "TLB maintenance (inner shareable)",
    "DC.CVAU": "data-cache maintenance",
    "IC.IALLUIS": "instruction-cache maintenance", "IC.IALLU": "instruction-cache maintenance",
    "IC.IVAU": "instruction-cache maintenance",
    "EXC-ENTRY": "exception entries", "EXC-RET": "exception returns", "SVC": "supervisor calls",
    "PTEXS": "page-table entries (XS attribute)",
    "Restricted-CMODX": "instruction fetches of concurrently modified code",
}
EMPTY_RELATIONS = {
    "same-low-order-bits": "addresses sharing their low-order bits (translation faults)",
}
# functions over page-table entries, applied only to empty sets here: empty results
EMPTY_FUNCTIONS = {"same-oa", "oa-changes", "at-least-one-writable"}

# register-level names: empty inside herd's own aarch64 files only (see the docstring)
REGISTER_SETS = ("Rreg", "DATA", "ADDR", "BCC", "B", "T")
REGISTER_RELATIONS = ("rf-reg", "iico_data", "iico_ctrl", "iico_order")
# the dependency definitions of aarch64deps.cat that keep mmdsl's relations
CATDEP_DEFINITIONS = ("data", "addr", "ctrl")

RESERVED = (set(FENCE_SETS) | set(ANNOTATION_SETS) | set(EMPTY_SETS) | set(EMPTY_RELATIONS)
            | {"Exp", "same-instance"})


def _n(name: str, typ: str, pos=None) -> Expr:
    return Expr("name", name=name, type=typ, pos=pos)


def lookup(name: str, pos, catdep: bool = False):
    """The value of an AArch64 built-in name, or None when ``name`` is not one here;
    ``catdep``: a file of the model has declared herd's ``catdep`` option."""
    if name == "Exp":
        return _n("M", SET, pos)
    if name in ANNOTATION_SETS:
        annot, kind = ANNOTATION_SETS[name]
        return Expr("inter", (_n(annot, SET), _n(kind, SET)), type=SET, pos=pos)
    if name in EMPTY_SETS or name in EMPTY_RELATIONS:
        return Expr("empty", type=SET if name in EMPTY_SETS else REL, pos=pos)
    if name == "same-instance":
        return _n("sm", REL, pos)
    if catdep and name == "po":  # herd's po never joins two events of one instruction
        return Expr("diff", (_n("po", REL), _n("sm", REL)), type=REL, pos=pos)
    if catdep and name == "sm":  # herd's sm without mixed sizes: each access alone
        return Expr("id", (_n("M", SET),), type=REL, pos=pos)
    if catdep and (name in REGISTER_SETS or name in REGISTER_RELATIONS):
        return Expr("empty", type=SET if name in REGISTER_SETS else REL, pos=pos)
    return None


def _mentions_registers(node) -> bool:
    """Whether a cat expression (parser Node) names one of herd's register-level sets or relations."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif hasattr(n, "kind"):
            if n.kind == "var" and (n.text in REGISTER_SETS or n.text in REGISTER_RELATIONS):
                return True
            stack.extend(n.args)
    return False


def catdep_definition(name: str, pos, catdep: bool, node=None):
    """mmdsl's own relation for a dependency that a ``catdep`` model (aarch64deps.cat)
    computes from register events (``data``, ``addr``, ``ctrl`` defined in terms of
    ``iico_data``, ``DATA``, ``BCC`` ...): from a read, as herd's start at one. A definition
    that names no register-level set or relation is the model's own."""
    if name in CATDEP_DEFINITIONS and catdep and (node is None or _mentions_registers(node)):
        return Expr("seq", (Expr("id", (_n("R", SET),), type=REL), _n(name, REL)), type=REL, pos=pos)
    return None
