"""State-space search: depth- or breadth-first, visited-state hashing, optional reduction, limits."""

from __future__ import annotations

import time
from collections import deque
from hashlib import blake2b
from marshal import dumps
from dataclasses import dataclass, field

from ..core.condition import FinalState
from ..core.errors import MmdslError, UnsupportedError
from .memory import MEMORY_CHECK_EVERY, MemoryCeiling, Progress
from .reduction_dotnet import reduction_for
from .machines.table.state import Machine
from .machines.table.transitions import MISSPECULATED, Semantics


class StateLimit(MmdslError):
    """The search visited more states than --max-states allows."""

    kind = "limit"


@dataclass
class SearchOutcome:
    """What one search found: final states, counters and what traces and graphs need."""

    finals: dict = field(default_factory=dict)  # FinalState -> number of distinct final states
    states: int = 0
    transitions: int = 0
    deadlocks: int = 0  # states with nothing enabled that are not final (locks, failed assumes)
    misspeculated: int = 0  # states dropped because a thread's guess (branch, address) proved wrong
    max_pending: int = 0
    time: float = 0.0
    first_target_time: float | None = None
    target: int | None = None  # id of the first final state reaching the condition's outcome
    truncated: bool = False
    stopped_at_first: bool = False  # the search stopped at its first target (``first``)
    parents: list = field(default_factory=list)  # state id -> (parent id, transition)
    state_list: list = field(default_factory=list)  # state id -> state
    edges: list = field(default_factory=list)  # (src, dst, transition) when the graph is kept
    final_ids: set = field(default_factory=set)
    target_ids: set = field(default_factory=set)
    deadlock_ids: list = field(default_factory=list)  # the states counted in ``deadlocks`` (C program checks)


def search(machine: Machine, semantics: Semantics, *, keys: list, is_target, state_filter=None,
           por: bool = True, order: str = "dfs", max_states: int = 2_000_000, truncate: bool = False,
           keep_graph: bool = False, state_target=None, max_memory: float | None = None,
           progress: bool = False, compact: bool = False, first: bool = False,
           dead_target=None) -> SearchOutcome:
    """Explore every state reachable from the initial one.

    ``is_target(values)`` says whether a final state reaches the condition's outcome (the
    witness of an ``exists``, the violation of a ``~exists``, a counterexample of a
    ``forall``). ``state_filter`` is the test's ``filter``: final states failing it are
    not counted. With ``order="bfs"`` the first target found is a nearest one.
    ``state_target(state)``, when given, is tested on every state (a property of where the
    threads are, for programs that never finish): the states it holds on are targets too.
    ``max_memory`` (MB) is a ceiling on the process's peak memory, checked every
    ``MEMORY_CHECK_EVERY`` new states (``MemoryLimit`` when passed); ``progress`` shows a
    progress line on a terminal once the search runs past a few seconds. With ``compact``
    the visited set keeps a 128-bit hash of each state instead of the state (``state_key``),
    and ``state_list`` rebuilds a state by replaying the path to it; a hash collision would
    miss states (see docs/explorer.md), and the state graph cannot be kept. With ``first``
    the search stops at its first target (the verdict is then known; the counts are of
    what was visited until then). ``dead_target(machine, state)``, when given, is tested on each
    state where nothing can go on that is not final (a deadlock, a failed assertion): the
    states it holds on are targets too (``first`` then stops at an error of a C program).
    """
    if compact and keep_graph:
        raise UnsupportedError("--compact keeps a hash of each state, not the state: it cannot keep "
                               "the state graph (drawings, --method cut)")
    start = time.perf_counter()
    out = SearchOutcome()
    ceiling = MemoryCeiling(max_memory)
    shown = Progress(progress)
    try:
        _run(out, machine, semantics, keys, is_target, state_filter, por, order, max_states, truncate,
             keep_graph, state_target, ceiling, shown, start, compact, first, dead_target)
    finally:
        shown.close()
    return out


def _run(out, machine, semantics, keys, is_target, state_filter, por, order, max_states, truncate,
         keep_graph, state_target, ceiling, shown, start, compact, first=False, dead_target=None) -> None:
    """The search loop of ``search``, filling ``out``."""
    reduction = reduction_for(por, machine, semantics)
    roots = machine.initial_states()
    key = state_key if compact else None
    ids = {(key(s0) if compact else s0): i for i, s0 in enumerate(roots)}
    states = list(roots)  # every state; under compact only the roots (the rest are replayed)
    parents = [(-1, None)] * len(roots)
    frontier = deque((i, s0) for i, s0 in enumerate(roots))
    kept: dict = {}  # under compact: the final and target states, which callers read back
    pop = frontier.pop if order == "dfs" else frontier.popleft
    enabled_of = semantics.enabled
    apply = semantics.apply
    edges = out.edges
    finals = out.finals
    transitions = 0
    while frontier:
        if first and out.target is not None:
            out.stopped_at_first = True
            break
        sid, state = pop()
        if state_target is not None and state_target(state):
            out.target_ids.add(sid)
            if compact:
                kept[sid] = state
            _first_target(out, sid, start)
        enabled = enabled_of(state)
        if enabled is None:
            _dead(out, machine, sid, state, dead_target, start)
            continue
        if enabled is MISSPECULATED:  # a guess proved wrong: this path never happened
            out.misspeculated += 1
            continue
        if reduction is not None:
            chosen = reduction.choose(state, enabled)
        else:
            chosen = [tr for trs in enabled for tr in trs]
        if not chosen:
            if machine.is_final(state):
                values = machine.final_values(state)
                if state_filter is not None and not state_filter.holds(values):
                    continue
                fs = FinalState.of(values, keys)
                finals[fs] = finals.get(fs, 0) + 1
                out.final_ids.add(sid)
                if compact:
                    kept[sid] = state
                if is_target(values):
                    out.target_ids.add(sid)
                    _first_target(out, sid, start)
            else:
                _dead(out, machine, sid, state, dead_target, start)
            continue
        for tr in chosen:
            nxt = apply(state, tr)
            transitions += 1
            k = key(nxt) if compact else nxt
            nid = ids.get(k)
            if nid is None:
                nid = len(parents)
                if nid >= max_states:
                    if truncate:
                        out.truncated = True
                        frontier.clear()
                        break
                    raise StateLimit(
                        f"the search reached {max_states} states without finishing "
                        f"({transitions} transitions so far; {where_threads_are(machine, state)})",
                        where_pos(machine, state), hint="raise --max-states")
                if not nid % 1024:
                    if not nid % MEMORY_CHECK_EVERY:
                        ceiling.check(nid, transitions)
                    if shown.enabled:
                        shown.update(nid, _depth(parents, sid) + 1)
                ids[k] = nid
                if not compact:
                    states.append(nxt)
                parents.append((sid, tr))
                frontier.append((nid, nxt))
            if keep_graph:
                edges.append((sid, nid, tr))
    out.states = len(parents)
    out.transitions = transitions
    out.max_pending = semantics.max_seen
    out.parents = parents
    out.state_list = ReplayedStates(states, parents, apply, kept) if compact else states
    out.time = time.perf_counter() - start


def _dead(out: SearchOutcome, machine: Machine, sid: int, state, dead_target, start: float) -> None:
    """Count state ``sid``, where nothing can go on and which is not final; a target when ``dead_target`` says so."""
    out.deadlocks += 1
    out.deadlock_ids.append(sid)
    if dead_target is not None and out.target is None and dead_target(machine, state):
        _first_target(out, sid, start)


def _first_target(out: SearchOutcome, sid: int, start: float) -> None:
    """State ``sid`` is a target: the first one found is the search's (and when it was found)."""
    if out.target is None:
        out.target = sid
        out.first_target_time = time.perf_counter() - start


def where_threads_are(machine: Machine, state) -> str:
    """Where each thread of ``state`` is, by source line: what a search stopped at a bound was doing."""
    parts = []
    for t, ts in zip(machine.threads, state[1]):
        instrs = t.thread.instrs
        pc = ts[0]
        if pc >= len(instrs):
            parts.append(f"{t.name} done")
            continue
        ins = instrs[pc]
        line = f"line {ins.pos.line}" if ins.pos else f"instruction {pc + 1}"
        parts.append(f"{t.name} at {line} ('{ins.text}')" if ins.text else f"{t.name} at {line}")
    return "it stopped with " + ", ".join(parts)


def where_pos(machine: Machine, state):
    """The place of the first unfinished thread's next instruction in ``state`` (None when all are done)."""
    for t, ts in zip(machine.threads, state[1]):
        if ts[0] < len(t.thread.instrs) and t.thread.instrs[ts[0]].pos is not None:
            return t.thread.instrs[ts[0]].pos
    return None


def path_to(outcome: SearchOutcome, sid: int) -> list[tuple[object, object]]:
    """The (state before, transition) pairs from the initial state to state ``sid``."""
    chain = []
    while True:
        parent, tr = outcome.parents[sid]
        if parent < 0:
            break
        chain.append((parent, tr))
        sid = parent
    chain.reverse()
    states = outcome.state_list
    if not isinstance(states, ReplayedStates):
        return [(states[parent], tr) for parent, tr in chain]
    steps, state = [], states.roots[sid]  # replayed forward once from the root
    for _, tr in chain:
        steps.append((state, tr))
        state = states.apply(state, tr)
    return steps


def state_key(state) -> bytes:
    """A 128-bit hash of a state: BLAKE2b of its marshal bytes (format 0, where equal tuples of ints,
    strings and None give equal bytes: no back-references, no mark on interned strings)."""
    return blake2b(dumps(state, 0), digest_size=16).digest()


class ReplayedStates:
    """The states of a compact search by id: the roots, finals and targets are kept, any other is
    rebuilt by replaying the transitions on its path."""

    def __init__(self, roots: list, parents: list, apply, kept: dict):
        self.roots = roots
        self.parents = parents
        self.apply = apply
        self.kept = kept

    def __len__(self) -> int:
        return len(self.parents)

    def __getitem__(self, sid: int):
        if sid in self.kept:
            return self.kept[sid]
        steps = []
        while True:
            parent, tr = self.parents[sid]
            if parent < 0:
                break
            steps.append(tr)
            sid = parent
        state = self.roots[sid]
        for tr in reversed(steps):
            state = self.apply(state, tr)
        return state


def _depth(parents: list, sid: int) -> int:
    """The number of steps from an initial state to state ``sid`` (for the progress line)."""
    depth = 0
    while parents[sid][0] >= 0:
        sid = parents[sid][0]
        depth += 1
    return depth
