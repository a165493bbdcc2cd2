"""diy's edge vocabulary: program-order, fence, dependency and communication edges, parsed and listed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import MmdslError

DIRS = ("R", "W")
COM_KINDS = ("rf", "fr", "co")
# communication edges: name -> (kind, external, source direction, target direction)
_COM = {
    "Rfe": ("rf", True, "W", "R"), "Rfi": ("rf", False, "W", "R"),
    "Fre": ("fr", True, "R", "W"), "Fri": ("fr", False, "R", "W"),
    "Coe": ("co", True, "W", "W"), "Coi": ("co", False, "W", "W"),
    "Wse": ("co", True, "W", "W"), "Wsi": ("co", False, "W", "W"),  # diy's older names
}
DEPENDENCIES = ("Addr", "Data", "Ctrl")
# well-known fence spellings as diy capitalises them in edge names
_FENCE_WORDS = {"mfence": "MFence", "sfence": "SFence", "lfence": "LFence", "sync": "Sync",
                "lwsync": "LwSync", "isync": "ISync", "eieio": "Eieio", "mb": "Mb"}


@dataclass(frozen=True, order=True)
class Edge:
    """One edge of a cycle: from an access of direction ``src`` to one of direction ``dst``.

    ``kind`` is po, fence, dep (program order, maybe with a fence or a dependency between),
    or rf, fr, co (communication). ``same_loc``: both accesses touch one location.
    ``external``: the accesses are on different threads (communication edges only).
    """

    kind: str
    src: str
    dst: str
    same_loc: bool
    external: bool = False
    fence: str = ""  # the fence's spelling, for kind == "fence"
    dep: str = ""  # Addr, Data or Ctrl, for kind == "dep"

    @property
    def is_com(self) -> bool:
        return self.kind in COM_KINDS

    @property
    def name(self) -> str:
        sd = ("s" if self.same_loc else "d") + self.src + self.dst
        if self.kind == "po":
            return "Po" + sd
        if self.kind == "fence":
            return fence_word(self.fence) + sd
        if self.kind == "dep":
            return "Dp" + self.dep + ("s" if self.same_loc else "d") + self.dst
        return {"rf": "Rf", "fr": "Fr", "co": "Co"}[self.kind] + ("e" if self.external else "i")

    def __str__(self) -> str:
        return self.name


def fence_word(spelling: str) -> str:
    """``mfence`` -> ``MFence``, ``fence-rw-w`` -> ``Fence.rw.w``: the fence as diy writes it
    inside an edge name (a ``-`` cannot be part of an edge word)."""
    return _FENCE_WORDS.get(spelling.lower()) or (spelling[:1].upper() + spelling[1:]).replace("-", ".")


_PO = re.compile(r"Po([sd])([RW*])([RW*])$")
_DP = re.compile(r"Dp(Addr|Data|Ctrl)([sd])([RW*])$")
_FENCED = re.compile(r"([A-Za-z][A-Za-z0-9.]*?)([sd])([RW*])([RW*])$")


def _dirs(c: str) -> tuple[str, ...]:
    return DIRS if c == "*" else (c,)


def parse_edges(word: str, fences: dict[str, str] | None = None, any_fence: bool = False) -> list[Edge]:
    """Every edge a word names: ``PodWR`` is one, ``Pod**`` four, ``MFenced*W`` two.

    ``fences`` maps a lower-case fence word (``mfence``, ``membar``) to the spelling the
    tests will use; a fence edge naming another fence is refused (unless ``any_fence``:
    LISA writes every fence, ``f[word]``), as is any unknown word.
    """
    w = word.strip()
    if w in _COM:
        kind, ext, s, d = _COM[w]
        return [Edge(kind, s, d, True, ext)]
    m = _PO.match(w)
    if m:
        return [Edge("po", s, d, m.group(1) == "s") for s in _dirs(m.group(2)) for d in _dirs(m.group(3))]
    m = _DP.match(w)
    if m:
        dep, sl = m.group(1), m.group(1 + 1) == "s"
        targets = [d for d in _dirs(m.group(3)) if not (dep == "Data" and d == "R")]
        if not targets:
            raise MmdslError(f"edge '{word}': a data dependency ends on a write (DpDatadW)")
        return [Edge("dep", "R", d, sl, dep=dep) for d in targets]
    m = _FENCED.match(w)
    if m:
        known = fences or {}
        spelling = known.get(m.group(1).lower())
        if spelling is None and any_fence:
            spelling = m.group(1).lower()
        if spelling is None:
            raise MmdslError(f"edge '{word}' names fence '{m.group(1)}', which is not a fence here",
                             hint=("fences: " + ", ".join(sorted(known))) if known else
                             "this architecture or model has no fences to name")
        return [Edge("fence", s, d, m.group(2) == "s", fence=spelling)
                for s in _dirs(m.group(3)) for d in _dirs(m.group(4))]
    raise MmdslError(f"unknown edge '{word}'",
                     hint="diy's edges: PodWR, PosRR, Rfe, Rfi, Fre, Fri, Coe, Coi (Wse, Wsi), DpAddrdR, "
                          "DpDatadW, DpCtrldW, MFencedWR (a fence, d/s, two directions); * stands for R and W")


def parse_edge_list(text: str, fences: dict[str, str] | None = None) -> list[Edge]:
    """A comma- or space-separated list of edge words, expanded and without repeats."""
    out: list[Edge] = []
    for word in re.split(r"[,\s]+", text.strip()):
        if word:
            for e in parse_edges(word, fences):
                if e not in out:
                    out.append(e)
    return out


def parse_cycle(text: str, fences: dict[str, str] | None = None) -> list[Edge]:
    """A cycle written as diy writes it (``PodWR Fre PodWR Fre``): one edge per word."""
    out = []
    for word in text.split():
        edges = parse_edges(word, fences)
        if len(edges) != 1:
            raise MmdslError(f"cycle edge '{word}' is not a single edge (no * in a cycle)")
        out.append(edges[0])
    return out


_COM_RANK = {"rf": 0, "fr": 1, "co": 2}
_KIND_TAG = {"rf": 0, "fr": 0, "co": 0, "po": 1, "fence": 2, "dep": 3}
_DIR = {"W": 0, "R": 1}


_X86_FENCES = ("mfence", "sfence", "lfence")  # X86_64Base's barrier type, in order
_RISCV_ACCESS = ("r", "ir", "w", "ow", "rw", "iorw")  # RISCVBase's access type, in order


def _fence_key(spelling: str) -> tuple:
    """The order of diy's fence values: X86's MFENCE < SFENCE < LFENCE; RISC-V's
    ``fence.i`` < ``fence.tso`` < ``Fence(a1, a2)`` by accesses (constant constructors first);
    other fences by name."""
    w = spelling.lower().replace(".", "-")
    if w in _X86_FENCES:
        return (0, _X86_FENCES.index(w))
    if w in ("fence-i", "fence-tso"):
        return (1, 0 if w == "fence-i" else 1)
    parts = w.split("-")
    if len(parts) == 3 and parts[0] == "fence" and parts[1] in _RISCV_ACCESS and parts[2] in _RISCV_ACCESS:
        return (2, _RISCV_ACCESS.index(parts[1]), _RISCV_ACCESS.index(parts[2]))
    return (3, w)


def diy_key(e: "Edge") -> tuple:
    """OCaml's structural order on diy's edge values (constructor, then fields in order)."""
    tag = _KIND_TAG[e.kind]
    sd = 1 if not e.same_loc else 0
    if e.is_com:
        return (tag, _COM_RANK[e.kind], 1 if e.external else 0)
    if e.kind == "po":
        return (tag, sd, _DIR[e.src], _DIR[e.dst])
    if e.kind == "fence":
        return (tag, _fence_key(e.fence), sd, _DIR[e.src], _DIR[e.dst])
    return (tag, ("Addr", "Data", "Ctrl").index(e.dep), sd, _DIR[e.dst])


def diy_sorted(edges) -> list[Edge]:
    """``edges`` in the order diy7 lists a relax or safe set (and so searches them)."""
    return sorted(dict.fromkeys(edges), key=diy_key)


def cycle_text(cycle) -> str:
    return " ".join(e.name for e in cycle)
