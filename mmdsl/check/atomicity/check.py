"""``mmdsl check --atomicity``: explore a C (or .rmm) program's whole state space under sc, then judge each
ATOMIC_BEGIN/ATOMIC_END block (.rmm: ``/* @atomic */ { }``) per mode: checked, noise (possibly not atomic) or error
(definitely not atomic: it may not complete, or it read a value another thread wrote inside it)."""

from __future__ import annotations

import re
from collections import deque

from ...core.errors import UnsupportedError
from ...core.program import Branch
from ...explorer import DEFAULT_MAX_STATES
from ...explorer.machines.table.enabling import model_rules
from ...explorer.machines.table.state import Machine
from ...explorer.machines.table.transitions import ISSUE, MISSPECULATED, Semantics
from ...explorer.search import StateLimit, path_to, search
from ...explorer.trace import Describer
from ...lang.ir import Model
from ...litmus.cprog import CProgram
from ...litmus.cprog.atomic_blocks import open_blocks
from ..mapping import compile_orders
from ..verdict import _dead_state, _values
from .facts import SpaceFacts
from .patterns import product_path, search_patterns
from .report import COLUMNS, AtomicityResult, BlockReport


def interleaving(model: Model) -> bool:
    """Whether ``model``'s executions are interleavings (what the movers are defined over): a table
    that keeps every pair in program order, writes seen by all at once, no forwarding. By the
    table, not the name: a user's .mm equal to sc passes, a weaker one named sc does not."""
    table = model.table
    return (table is not None and not model.per_thread and not model.forwarding
            and all(c.value == "-" for c in table.cells.values()))


def check_atomicity(cp: CProgram, model: Model, *, max_states: int = DEFAULT_MAX_STATES) -> AtomicityResult:
    """Explore every interleaving of ``cp`` (local steps first, no other reduction) and judge its blocks."""
    if not interleaving(model):
        raise UnsupportedError(f"--atomicity under model '{model.name}' (its table lets accesses pass earlier "
                               "ones, or its writes reach threads at different times)",
                               None, hint="atomicity is judged over interleavings: run it with -m sc")
    if not cp.atomic_blocks:
        raise UnsupportedError(f"--atomicity on {cp.program.name}: the program marks no block",
                               None, hint="put ATOMIC_BEGIN(); ... ATOMIC_END(); (#include <atomicity.h>) "
                                          "around each block meant to be atomic (in .rmm: /* @atomic */ { ... })")
    program = compile_orders(cp.program, model)
    found, machine = _explore(program, model, max_states)
    facts = SpaceFacts(machine, found)
    flags, parents = search_patterns(facts, cp.atomic_blocks)
    stuck = _may_not_complete(cp, facts)
    reports = []
    for block in cp.atomic_blocks:
        f = flags[block.number]
        rep = BlockReport(block.number, block.name, str(block.pos), f.entered > 0, block.kind)
        if block.number in stuck:
            rep.definite, sid = stuck[block.number]
            rep.trace = _compact(trace_lines(machine, path_to(found, sid)))
        elif f.stale is not None:
            node, why = f.stale
            rep.definite = why
            rep.trace = _product_trace(found, machine, parents, node)
        for mode, (node, why) in f.broken.items():
            rep.possible[mode] = (why, _product_trace(found, machine, parents, node))
        for column, modes in COLUMNS.items():
            if not rep.entered:
                rep.verdicts[column] = "not reached"
            elif rep.definite:
                rep.verdicts[column] = "error"
            elif all(m in f.broken for m in modes):
                rep.verdicts[column] = "noise"
            else:
                rep.verdicts[column] = "checked"
        reports.append(rep)
    stats = {"states": found.states, "transitions": found.transitions, "product_states": len(parents),
             "threads": len(machine.threads)}
    mutexes = {machine.locations[i] for i in facts.lock_locs}
    races = {loc: ("mutex" if loc in mutexes else "") + (", " if loc in mutexes and why else "") + (why or "")
             or None for loc, why in ((loc, facts.race_free(loc)) for loc in sorted(facts.locations))}
    return AtomicityResult(program.name, model.name, reports, stats, races)


def _explore(program, model: Model, max_states: int):
    """Every state, every edge, no reduction; breadth-first, so the parents give shortest paths.

    A thread performs each memory operation before it issues the next (a pending list of one,
    waited on when full): under sc an issue changes only the thread itself, so every order of
    performs the unbounded machine has is still there, with far fewer states. ``LocalFirst``
    then takes such a local step alone where one is enabled (see there).
    """
    machine = Machine(program, model_rules(model))
    semantics = LocalFirst(machine, 1, bounded=True)
    try:
        found = search(machine, semantics, keys=[], is_target=lambda values: False, por=False, order="bfs",
                       max_states=max_states, keep_graph=True)
    except StateLimit as err:
        err.message = f"checking the atomicity of {program.name}: {err.message}"
        raise
    return found, machine


class LocalFirst(Semantics):
    """Where a thread's enabled steps are all issues, only that thread moves (an ample set of one).

    An issue changes the thread's own pc, registers and pending list only: it is independent
    of every other thread's step, cannot be disabled by one, and is invisible to the checks
    (positions change on performs, regions are memory). Taking it first keeps every order of
    performs, every deadlock, and every way out of a block. The cycle proviso: a backward
    jump is never taken alone (a cycle of issues alone is a loop of one thread's register
    steps, and it has one), so no thread is left waiting forever behind a reduced cycle.
    """

    def enabled(self, state):
        out = super().enabled(state)
        if out is None or out is MISSPECULATED:
            return out
        for t, trs in enumerate(out):
            if trs and all(tr.action == ISSUE for tr in trs) and not self._backward(state, t):
                return [trs if u == t else [] for u in range(len(out))]
        return out

    def _backward(self, state, t: int) -> bool:
        pc = state[1][t][0]
        ins = self.m.threads[t].thread.instrs[pc]
        return isinstance(ins, Branch) and ins.target <= pc


def _waits(facts: SpaceFacts, state) -> str:
    """Who waits for what in a deadlock: each blocked thread's pending lock, join or start, and its holder."""
    machine = facts.m
    names = [th.name for th in machine.threads]
    out = []
    for t, (_pc, _regs, pending) in enumerate(state[1]):
        if not pending or pending[0][2] is None:
            continue
        op = pending[0]
        loc = machine.locations[op[2]]
        ins = machine.threads[t].thread.instrs[op[3]]
        if op[2] in facts.lock_locs:
            owner = state[0][op[2]] - 1
            holder = names[owner] if 0 <= owner < len(names) else "nobody"
            what = f"mutex {loc} held by {holder}"
        elif loc.startswith("__done"):
            what = f"{names[int(loc[6:])]} to end (pthread_join)"
        else:
            what = f"{loc} ({ins.text})"
        out.append(f"{names[t]} at {ins.pos} waits for {what}")
    return "; ".join(out)


def _product_trace(found, machine, parents, node) -> list[str]:
    states = found.state_list
    return _compact(trace_lines(machine, [(states[src], tr) for src, _dst, tr in product_path(parents, node)]))


def trace_lines(machine, path) -> list[str]:
    """The steps of ``path`` ((state, transition) pairs) in words, each with its source line."""
    describer = Describer(machine)
    out = []
    for state, tr in path:
        step = describer.step(state, tr)
        ins = machine.threads[step.tid].thread.instrs[step.instr] if step.instr is not None else None
        where = f"  [{ins.pos}: {ins.text}]" if ins is not None and ins.pos is not None and ins.text else ""
        out.append(step.text() + where)
    return out


def _compact(lines: list[str]) -> list[str]:
    """The performs (what other threads can see) and the choices; markers as the blocks entered and left."""
    out = []
    for line in lines:
        if ": issue " in line and "(goes" not in line:
            continue
        thread = line.split(":", 1)[0]
        for marker in ("ATOMIC_BEGIN", "ATOMIC_END"):
            if f": {marker}();]" in line:
                line = f"{thread}: {marker}()  [{line.split('[', 1)[1]}"
        mark = re.search(r"perform W __atomic\d+=\d+  \[(.*): (@\w+ \{|\} @\w+)\]$", line)
        if mark:  # a .rmm block's marker (rmm_atomic): its mark, where the block opens
            line = f"{thread}: {mark.group(2)}  [{mark.group(1)}]"
        out.append(line.replace(": perform ", ": "))
    return out


def _may_not_complete(cp: CProgram, facts: SpaceFacts) -> dict:
    """Blocks some thread is in at a state from which it can never leave them: block -> (why, state id).

    Lipton's restriction R1 (the seed's must-complete check): from every reachable state where
    a thread is inside a block, some path takes it out. Dead states that are no execution (an
    assumption failed, a loop ran past --unroll) count as leaving, and so does every state after
    a failed assertion (the execution is wrong already, ``mmdsl check`` reports it; the thread
    left its blocks as an exception leaves a method, holding its mutexes). A deadlock is
    reported as one.
    """
    found, machine = facts.found, facts.m
    states = found.state_list
    preds: dict[int, list] = {}
    for src, dst, _tr in found.edges:
        preds.setdefault(dst, []).append(src)
    cut = set()
    for sid in found.deadlock_ids:
        kind, _ = _dead_state(cp, machine, states[sid], _values(machine, states[sid]))
        if kind != "deadlock":
            cut.add(sid)
    nthreads = len(machine.threads)
    cut |= {sid for sid in range(found.states) if any(facts.failed(states[sid], u) for u in range(nthreads))}
    out: dict = {}
    for t in range(nthreads):
        good = cut | {sid for sid in range(found.states) if facts.region(states[sid], t) == 0}
        queue = deque(good)
        while queue:
            for p in preds.get(queue.popleft(), ()):
                if p not in good:
                    good.add(p)
                    queue.append(p)
        dead = [sid for sid in found.deadlock_ids if sid not in good]
        for sid in dead + [sid for sid in range(found.states) if sid not in good]:  # a deadlock first
            blocks = [b for b in open_blocks(facts.region(states[sid], t)) if b not in out]
            if not blocks:
                continue
            name = machine.threads[t].name
            if sid in found.deadlock_ids:
                why = f"deadlock with {name} inside the block ({_waits(facts, states[sid])})"
            else:
                why = f"{name} can never leave the block from here (it waits forever)"
            for b in blocks:
                out[b] = (why, sid)
    return out
