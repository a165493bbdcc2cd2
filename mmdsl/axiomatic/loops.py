"""Loops on candidate executions: herd-style bounded unrolling, and spin iterations blocked.

A thread with a backward jump has infinitely many paths; the path walker
(``threads._PathWalker``) follows a loop's back edge at most ``unroll`` times (herd's
``-unroll N``, measured against herd7 7.58: a loop testing at its end runs its body
N+1 times, a C ``while`` testing at its head N times; a path needing more is not an
execution), and
never after an iteration that changed nothing but what it read (a *spin* iteration:
no write, no fence, and every register it changed now holds a value computed from this
iteration's reads only, in a loop whose body has no branch but its back edge, so the
iteration that leaves writes every such register again). Blocking a spin iteration instead of repeating it is the
assume-transformation of GenMC: an execution that spins k times before leaving the
loop has the final state of the one that leaves at once, with the failed iterations'
reads removed -- and removing reads keeps an execution consistent under axioms that are
monotone in the events (every axiom a model prunes with). So a spin-wait, an ``await``
and a load-reserved/store-conditional retry loop are explored without a bound; only
loops that do something per iteration (a counter, a store) meet the bound, and every
verdict those cuts can affect says so (``LoopBound.cut``). A register the loop writes
before it reads it (``dead_registers``) may hold anything after a spin iteration, the
next one overwrites it: so a failed compare-and-swap of a retry loop, whose registers are
pinned to the values the compare saw, is a spin too, and so are the ``smp_mb()``s around
a kernel ``cmpxchg``, which exist only when it writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.program import OLD
from .symbolic import variables

DEFAULT_UNROLL = 2  # herd7's default -unroll


@dataclass
class LoopBound:
    """The unrolling bound of one run, and what the walks met (shared by every walker)."""

    unroll: int = DEFAULT_UNROLL
    cut: int = 0  # paths stopped at the bound: the verdict holds up to it
    spins: int = 0  # spin iterations blocked

    def note(self) -> str:
        """The line a verdict carries when a path was cut at the bound, else ''."""
        if not self.cut:
            return ""
        return (f"loops unrolled {self.unroll} times (--unroll {self.unroll}): executions that "
                "jump back into a loop more often are not explored, the verdict holds up to that bound")


_OPERANDS = ("addr", "value", "new", "cond", "expr", "compared")


def dead_registers(instrs, head: int, implicit=()) -> frozenset:
    """The registers every iteration of the straight loop at ``head`` writes before it reads
    them (none of ``implicit``, registers instructions use without naming them): the next
    iteration, and the one that leaves, overwrite whatever a spin iteration left there."""
    end = max(k for k, i in enumerate(instrs) if getattr(i, "target", None) == head and k >= head)
    written: set = set()
    read: set = set(implicit)
    for ins in instrs[head:end + 1]:
        for attr in _OPERANDS:
            e = getattr(ins, attr, None)
            if e is not None and hasattr(e, "regs"):
                read |= e.regs() - written - {OLD}  # an Rmw's %old is its own read
        dst = getattr(ins, "dst", None)
        if dst and dst not in read:
            written.add(dst)
    return frozenset(written)


def _inert(ev) -> bool:
    """An event a spin iteration may hold: a read, or the smp_mb() herd puts around a
    cmpxchg only when it writes (a spin iteration writes nothing: ``lang/cat_linux.py``)."""
    return ev.kind == "R" or (ev.kind == "F" and "cmpxchg-mb" in (ev.annots or ()))


def spins(head_regs: dict, head_reads: int, regs: dict, events, dead=frozenset()) -> bool:
    """Was the iteration from the loop head (registers ``head_regs``, ``head_reads`` reads
    so far) to the back edge (``regs``, ``events`` added since the head) a spin iteration?
    ``dead``: registers the loop writes before reading them (``dead_registers``), which
    may hold anything: a failed compare-and-swap's pinned values."""
    if not all(_inert(ev) for ev in events):
        return False
    for reg, value in regs.items():
        if head_regs.get(reg) == value or reg in dead:
            continue
        if not isinstance(value, tuple):
            return False  # a concrete value that changed: a counter, a status
        if any(v < head_reads for v in variables(value)):
            return False  # computed from something read before this iteration
    return True
