"""State-space search: depth- or breadth-first, visited-state hashing, optional reduction, limits."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from ..core.condition import FinalState
from ..core.errors import MmdslError
from .reduction import Reduction
from .state import Machine
from .transitions import MISSPECULATED, Semantics


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
    parents: list = field(default_factory=list)  # state id -> (parent id, transition)
    state_list: list = field(default_factory=list)  # state id -> state
    edges: list = field(default_factory=list)  # (src, dst, transition) when the graph is kept
    final_ids: set = field(default_factory=set)
    target_ids: set = field(default_factory=set)


def search(machine: Machine, semantics: Semantics, *, keys: list, is_target, state_filter=None,
           por: bool = True, order: str = "dfs", max_states: int = 2_000_000, truncate: bool = False,
           keep_graph: bool = False, state_target=None) -> SearchOutcome:
    """Explore every state reachable from the initial one.

    ``is_target(values)`` says whether a final state reaches the condition's outcome (the
    witness of an ``exists``, the violation of a ``~exists``, a counterexample of a
    ``forall``). ``state_filter`` is the test's ``filter``: final states failing it are
    not counted. With ``order="bfs"`` the first target found is a nearest one.
    ``state_target(state)``, when given, is tested on every state (a property of where the
    threads are, for programs that never finish): the states it holds on are targets too.
    """
    start = time.perf_counter()
    out = SearchOutcome()
    reduction = Reduction(machine, semantics) if por else None
    roots = machine.initial_states()
    ids = {s0: i for i, s0 in enumerate(roots)}
    states = list(roots)
    parents = [(-1, None)] * len(roots)
    frontier = deque(range(len(roots)))
    pop = frontier.pop if order == "dfs" else frontier.popleft
    enabled_of = semantics.enabled
    apply = semantics.apply
    edges = out.edges
    finals = out.finals
    transitions = 0
    while frontier:
        sid = pop()
        state = states[sid]
        if state_target is not None and state_target(state):
            out.target_ids.add(sid)
            if out.target is None:
                out.target = sid
                out.first_target_time = time.perf_counter() - start
        enabled = enabled_of(state)
        if enabled is None:
            out.deadlocks += 1
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
                if is_target(values):
                    out.target_ids.add(sid)
                    if out.target is None:
                        out.target = sid
                        out.first_target_time = time.perf_counter() - start
            else:
                out.deadlocks += 1
            continue
        for tr in chosen:
            nxt = apply(state, tr)
            transitions += 1
            nid = ids.get(nxt)
            if nid is None:
                nid = len(states)
                if nid >= max_states:
                    if truncate:
                        out.truncated = True
                        frontier.clear()
                        break
                    raise StateLimit(
                        f"the search reached {max_states} states without finishing "
                        f"({transitions} transitions so far)", hint="raise --max-states")
                ids[nxt] = nid
                states.append(nxt)
                parents.append((sid, tr))
                frontier.append(nid)
            if keep_graph:
                edges.append((sid, nid, tr))
    out.states = len(states)
    out.transitions = transitions
    out.max_pending = semantics.max_seen
    out.parents = parents
    out.state_list = states
    out.time = time.perf_counter() - start
    return out


def path_to(outcome: SearchOutcome, sid: int) -> list[tuple[object, object]]:
    """The (state before, transition) pairs from the initial state to state ``sid``."""
    steps = []
    while True:
        parent, tr = outcome.parents[sid]
        if parent < 0:
            break
        steps.append((outcome.state_list[parent], tr))
        sid = parent
    steps.reverse()
    return steps
