"""Events and candidate executions: what the axiomatic checker enumerates and diagrams draw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..relations import Rel
from .program import Value


class EventShape(NamedTuple):
    """What a model's event classes can test: kind, atomicity, init, annotations, fence kind."""

    kind: str  # "R", "W" or "F"
    rmw: bool = False
    init: bool = False
    annots: frozenset = frozenset()
    fence: str | None = None


def event_label(i: int) -> str:
    """a, b, ..., z, aa, ab, ... (herd's naming of events)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


@dataclass(frozen=True)
class Event:
    eid: int
    tid: int  # -1 for an initial write
    po: int  # position among the thread's events
    instr: int  # index of the instruction in its thread (-1 for initial writes)
    kind: str
    loc: str | None = None
    value: Value | None = None
    annots: frozenset = frozenset()
    fence: str | None = None
    rmw: bool = False
    init: bool = False
    label: str = ""

    @property
    def shape(self) -> EventShape:
        return EventShape(self.kind, self.rmw, self.init, self.annots, self.fence)

    @property
    def is_access(self) -> bool:
        return self.kind in ("R", "W")

    def short(self) -> str:
        """``Wx=1``, ``Ry=0``, ``F[mfence]``."""
        if self.kind == "F":
            return f"F[{self.fence}]"
        tag = "".join(f"[{a}]" for a in sorted(self.annots - {"atomic"})) if self.annots else ""
        star = "*" if self.rmw else ""
        return f"{self.kind}{star}{tag}{self.loc}={self.value}"

    def text(self) -> str:
        return f"{self.label}: {self.short()}"


@dataclass
class Execution:
    """One candidate execution: events, reads-from, coherence and the static relations."""

    events: list[Event]
    rf: Rel
    co: Rel
    static: dict[str, Rel] = field(default_factory=dict)
    final: dict = field(default_factory=dict)  # every register and location -> value

    @property
    def n(self) -> int:
        return len(self.events)

    def fr(self) -> Rel:
        return self.rf.inverse().seq(self.co)

    def threads(self) -> list[int]:
        return sorted({e.tid for e in self.events if e.tid >= 0})
