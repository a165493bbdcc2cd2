"""Insert fence instructions into a program (core IR), re-targeting the branches around them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from ..core.errors import UnsupportedError
from ..core.program import Branch, Fence, Program, Thread

Insertion = tuple[int, int, str]  # (thread id, before instruction index, fence kind)


def insert_fences(program: Program, insertions: list[Insertion]) -> Program:
    """The program with a ``Fence(kind)`` before instruction ``index`` of thread ``tid`` for each insertion.

    A fence inserted before instruction i runs whenever control reaches i: a branch that
    jumped to i now jumps to the (first) fence inserted there. Several fences at one
    place keep the order given.
    """
    at: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for tid, index, kind in insertions:
        if not 0 <= tid < len(program.threads):
            raise UnsupportedError(f"no thread {tid} to put a fence in")
        if not 0 <= index <= len(program.threads[tid].instrs):
            raise UnsupportedError(f"{program.threads[tid].name} has no instruction {index + 1}")
        at[tid][index].append(kind)
    threads = []
    for t in program.threads:
        if t.tid not in at:
            threads.append(t)
            continue
        threads.append(_thread_with_fences(t, at[t.tid]))
    return replace(program, threads=threads, layout=None, source="")


def _thread_with_fences(t: Thread, at: dict[int, list[str]]) -> Thread:
    n = len(t.instrs)
    # new index of "control arrives at old instruction i" (the first fence there, if any)
    arrive = []
    shift = 0
    for i in range(n + 1):
        arrive.append(i + shift)
        shift += len(at.get(i, ()))
    out = []
    for i in range(n + 1):
        for kind in at.get(i, ()):
            out.append(Fence(kind, text=kind))
        if i == n:
            break
        ins = t.instrs[i]
        if isinstance(ins, Branch):
            ins = replace(ins, target=arrive[ins.target])
        out.append(ins)
    # a label (a state property's "at") stays on its instruction, after the fences before it:
    # a thread about to run those fences has not reached the label yet
    labels = {arrive[i] + len(at.get(i, ())): name for i, name in t.pc_labels.items()}
    moved = {i: arrive[i] + len(at.get(i, ())) for i in range(n)}
    unsequenced = frozenset((moved[i], moved[j], r) for i, j, r in t.unsequenced)
    return replace(t, instrs=out, reg_init=dict(t.reg_init), pc_labels=labels, unsequenced=unsequenced)
