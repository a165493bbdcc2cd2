"""The explorer's entry point: run a program on the machine its model needs, return final states, trace, stats."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterator

from ..axiomatic.checker import observed_keys
from ..core.condition import FinalState
from ..core.errors import UnsupportedError
from ..core.outcome import TestResult
from ..core.program import AtomicBegin, Program
from ..lang.fence_use import fence_warnings
from ..lang.ir import Model
from .machines.table.enabling import model_rules
from .graph import build_graph
from .result import ENGINE, Exploration
from .overtaking import Overtaking, step_overtakings, trace_overtakings
from .memory import MemoryLimit
from .search import SearchOutcome, StateLimit, path_to, search
from .machines.table.state import Machine, waiting_pc
from .trace import Describer
from .machines.table.transitions import PendingLimit, Semantics

DEFAULT_MAX_PENDING = 16
DEFAULT_MAX_STATES = 2_000_000
# the pending-list bound of a program that loops forever with a property on its states
# (Memorax's `.rmm`): its buffers would grow without end, so a full list waits
DEFAULT_BUFFER_BOUND = 3


def pending_bound(program: Program, max_pending: int | None) -> int:
    """The pending-list bound a search of ``program`` uses when asked for ``max_pending``."""
    if max_pending is not None:
        return max_pending
    return DEFAULT_BUFFER_BOUND if program.state_property else DEFAULT_MAX_PENDING




def explore(program: Program, model: Model, *, por: bool | str = True, order: str = "dfs",
            max_pending: int | None = None, max_states: int = DEFAULT_MAX_STATES,
            graph: bool = False, truncate: bool | None = None, compare_sc: bool = False,
            max_memory: float | None = None, progress: bool = False, compact: bool = False,
            target=None, unroll: int | None = None, first: bool = False,
            all_traces: int = 0) -> Exploration:
    """Explore every state of ``program`` under ``model`` (a reordering-table model).

    ``por``: True (persistent thread sets, ``reduction``), ``"dotnet"`` (the .NET checker's
    ample sets, ``reduction_dotnet``) or False. ``all_traces``: when positive, also a trace
    to every final state reaching the outcome, grouped by reordering, at most that many
    kept (``result.all_traces``, see ``all_traces.py``).

    ``por`` turns the partial-order reduction on (the final states are the same either
    way). ``order`` is ``"dfs"`` or ``"bfs"`` (the trace is then a shortest one). ``max_pending``
    bounds each thread's pending list and ``max_states`` the states visited (``PendingLimit`` /
    ``StateLimit`` when reached). With ``graph`` the explored state graph is kept, and hitting
    ``max_states`` truncates it instead of raising (``truncate`` overrides). ``compare_sc``
    also explores the program under ``sc`` for its state count. ``max_memory`` (MB) is a
    ceiling on the process's memory (``MemoryLimit``), ``progress`` a progress line on a
    terminal for long searches. ``compact`` stores a 128-bit hash of each visited state
    instead of the state (less memory; a collision, very unlikely, would miss states).
    ``target(values)`` chooses the final states the trace leads to (default: the outcome's).
    With ``first`` the search stops at the first state reaching the outcome (a verdict
    without the full counts: ``stats["stopped_at_first"]``).

    A model without a table machine (axioms of its own, a herd cat) runs on the
    execution-graph machine (``machines/graph``), and so does a program with loops that
    the table machine refuses; there ``unroll`` bounds the loops (default herd's 2, spin
    iterations blocked, see ``axiomatic/loops.py``) and the stats are the graph machine's.

    ``stats``: states, transitions, final_states (distinct full final states),
    deadlocks (non-final states with nothing enabled: a lock never freed, an assume
    failed), max_pending, search_time, first_violation_time (seconds until the first
    final state reaching the outcome, or None), por, search, truncated, time, and with
    ``compare_sc`` sc_states, sc_transitions.
    """
    if uses_graph_machine(model):  # axioms without a table machine: execution graphs (machines/graph)
        if all_traces:
            raise UnsupportedError(
                f"model '{model.name}' runs on the execution-graph machine (it has no reordering table): "
                "--all-traces groups the table machines' traces by reordering, which that machine has not")
        if graph:
            raise UnsupportedError(
                f"model '{model.name}' runs on the execution-graph machine (it has no reordering table), "
                "whose states are partial executions, not the table machines' states: it draws no state graph",
                hint="draw its executions instead: mmdsl draw TEST -m MODEL --show allowed")
        return _on_graph(program, model, max_states, target, unroll)
    start = time.perf_counter()
    try:
        space = explore_space(program, model, por=por, order=order, max_pending=max_pending,
                              max_states=max_states, graph=graph, truncate=truncate, max_memory=max_memory,
                              progress=progress, compact=compact, target=target,
                              first=first)
    except UnsupportedError as err:
        from .machines.graph.search import refusal

        if not program.has_loops() or graph or refusal(program, model) is not None:
            raise
        # a loop the table machine cannot run (a branch it would have to guess in a loop):
        # the graph machine unrolls it, and says so
        result = _on_graph(program, model, max_states, target, unroll)
        result.warnings.insert(0, f"note: {program.name}: the table machine of {model.name} cannot run this "
                                  f"loop ({err.message.splitlines()[0]}); explored on the execution-graph machine")
        return result
    result = space.result(Exploration)
    result.stats["stopped_at_first"] = space.found.stopped_at_first
    machine, found = space.machine, space.found
    describer = Describer(machine)
    if found.target is not None:
        result.trace = [describer.step(state, tr) for state, tr in path_to(found, found.target)]
        last = found.state_list[found.target]
        if program.state_property:
            result.trace_final = FinalState.of(machine.at_values(last), program.condition.keys()).text()
        else:
            result.trace_final = machine.final_state(last, observed_keys(program)).text()
    if all_traces:
        from .all_traces import all_traces as collect

        if program.state_property:
            final = lambda st: FinalState.of(machine.at_values(st), program.condition.keys()).text()  # noqa: E731
        else:
            final = lambda st: machine.final_state(st, observed_keys(program)).text()  # noqa: E731
        result.all_traces = collect(space, final, all_traces)
    if graph:
        result.graph = build_graph(describer, found.state_list, found.edges, found.final_ids,
                                   found.target_ids, found.truncated)
    if compare_sc:
        result.stats.update(_sc_stats(program, model, found, por, order, max_pending, max_states,
                                               max_memory, compact))
    result.time = time.perf_counter() - start
    result.stats["time"] = round(result.time, 4)
    return result


def _on_graph(program: Program, model: Model, max_states: int, target, unroll: int | None) -> Exploration:
    from .machines.graph.search import explore_graph

    if any(isinstance(ins, AtomicBegin) for t in program.threads for ins in t.instrs):
        raise UnsupportedError(
            f"atomic blocks are not supported on the execution-graph machine (model '{model.name}'); the "
            "explorer runs them under the reordering-table models (sc, tso, pso, pso-cas, ...)")

    try:
        return explore_graph(program, model, max_states=max_states, target=target, unroll=unroll)
    except StateLimit as err:
        err.message = f"exploring {program.name} under {model.name}: {err.message}"
        raise


def uses_graph_machine(model: Model) -> bool:
    """Whether ``model`` runs on the execution-graph machine: it has no reordering-table
    machine (axioms of its own, a cat model, no table); a table model keeps its machine."""
    from .machines.table.enabling import require_explorable

    try:
        require_explorable(model)
    except UnsupportedError:
        return True
    return False


@dataclass
class StateSpace:
    """A finished search, kept whole for callers that need more than an ``Exploration``.

    Fence selection reads the final states reaching the target, the out-of-order steps
    on the path to each (``trace_overtakings``) and on every edge of the graph
    (``edges``, when explored with ``graph=True``), in model terms (``Overtaking``).
    """

    program: Program
    model: Model
    machine: Machine
    found: SearchOutcome
    por: bool
    order: str
    bounded_pending: int | None = None  # the pending-list bound of a state-property search

    @property
    def states(self) -> int:
        return self.found.states

    @property
    def targets(self) -> list[int]:
        """The ids of the final states reaching the target, in the order found (nearest first under bfs)."""
        return sorted(self.found.target_ids)

    def result(self, cls=TestResult) -> TestResult:
        """The search as a ``TestResult`` (engine "explorer"; the condition's verdict, whatever the target)."""
        found, program = self.found, self.program
        prop = program.condition.prop
        if program.state_property:  # the states reaching the property, by where the threads are
            finals: dict = {}
            for sid in found.target_ids:
                fs = FinalState.of(self.machine.at_values(found.state_list[sid]), program.condition.keys())
                finals[fs] = finals.get(fs, 0) + 1
            positive, negative = len(found.target_ids), found.states - len(found.target_ids)
        else:
            finals = dict(found.finals)
            positive = sum(1 for s in found.finals if prop.holds(s.as_dict()))
            negative = len(found.finals) - positive
        result = cls(test=program.name, model=self.model.name, engine=ENGINE, condition=program.condition,
                     states=finals, positive=positive, negative=negative, path=program.path, time=found.time)
        result.stats.update(_stats(found, self.por, self.order))
        if program.state_property:
            result.stats["buffer_bound"] = self.bounded_pending
        result.warnings = fence_warnings(program, self.model)
        return result

    def trace_overtakings(self, target: int) -> list[Overtaking]:
        """The overtakings along the path the search took to state ``target``."""
        return trace_overtakings(self.machine, path_to(self.found, target), self.found.state_list[target])

    def edges(self) -> Iterator[tuple[int, int, list[Overtaking]]]:
        """Every edge of the explored graph (``graph=True``) as (source, target, its overtakings)."""
        states = self.found.state_list
        for src, dst, tr in self.found.edges:
            yield src, dst, step_overtakings(self.machine, states[src], tr)


def explore_space(program: Program, model: Model, *, target=None, por: bool | str = True, order: str = "dfs",
                  max_pending: int | None = None, max_states: int = DEFAULT_MAX_STATES,
                  graph: bool = False, truncate: bool | None = None, max_memory: float | None = None,
                  progress: bool = False, compact: bool = False, first: bool = False,
                  bounded: bool | None = None, dead_target=None) -> StateSpace:
    """Search the states of ``program`` under ``model`` and keep the search (see ``explore`` for the options).

    ``target(values)`` says which final states to find (``values``: every register and
    location); by default those reaching the condition's outcome (failing a ``forall``).
    ``bounded`` (default: only for a program with a state property) makes a thread whose
    pending list is full wait instead of raising ``PendingLimit``: exact when the model lets
    no operation pass ``max_pending`` earlier ones (``max_pending=1`` under ``sc``).
    ``dead_target(machine, state)``: which dead (non-final, stuck) states are targets too (``search``).
    """
    if order not in ("dfs", "bfs"):
        raise ValueError(order)
    max_pending = pending_bound(program, max_pending)
    semantics_class = Semantics
    atomic_blocks = any(isinstance(ins, AtomicBegin) for t in program.threads for ins in t.instrs)
    if atomic_blocks:
        if model.per_thread:
            raise UnsupportedError(
                f"atomic blocks are not supported by the explorer under '{model.name}' (writes reach each "
                "thread at its own time there); they run under the one-memory models (sc, tso, pso, pso-cas, ...)")
        por = False  # an atomic block touches several locations in one issue step: no reduction
    if model.per_thread:  # writes reach each thread at its own time: a storage, not one memory
        from .machines.propagation.propagation import PropagationMachine, PropagationSemantics

        machine = PropagationMachine(program, model_rules(model))
        semantics_class = PropagationSemantics
    else:
        machine = Machine(program, model_rules(model))
    state_target = None
    if program.state_property:
        # where the threads are, on every state: the reduction keeps only final states, so it
        # is off; the programs loop forever, so buffers are bounded (a full one waits)
        por = False
        state_target = _at_target(machine, program.condition.prop)

        if target is None:
            target = lambda values: False  # noqa: E731 - final states are not what is asked
    search_por = False if model.per_thread else por  # a per-thread machine reduces itself (propagation_reduction)
    if target is None:
        cond = program.condition
        target = (lambda values: not cond.prop.holds(values)) if cond.quantifier == "forall" else cond.prop.holds
    try:
        semantics = semantics_class(machine, max_pending,
                                    bounded=program.state_property if bounded is None else bounded)
        if model.per_thread:
            semantics.reduce = por  # settle at once, constant assignments first (propagation_reduction)
        found = search(machine, semantics,
                       keys=observed_keys(program), is_target=target, state_filter=program.filter, por=search_por,
                       order=order, max_states=max_states, truncate=graph if truncate is None else truncate,
                       keep_graph=graph, state_target=state_target, max_memory=max_memory, progress=progress,
                       compact=compact, first=first, dead_target=dead_target)
    except (StateLimit, PendingLimit, MemoryLimit) as err:
        err.message = f"exploring {program.name} under {model.name}: {err.message}"
        unrolled = getattr(program.layout, "unroll_pos", None)
        if isinstance(err, (StateLimit, MemoryLimit)) and unrolled is not None:
            # the loops' copies multiply the states: point at the bound the user chose
            err.pos = unrolled
            err.hint = (f"{err.hint}, or lower unroll={program.layout.unroll} here "
                        "(each loop copied that many times); --timeout bounds the time")
        raise
    return StateSpace(program, model, machine, found, por, order,
                      bounded_pending=max_pending if program.state_property else None)


def _at_target(machine: Machine, prop):
    """The state property as a test on a state, decided once per tuple of the threads' pcs.

    The property reads only where the threads are (``Machine.at_values``: the label of each
    pc), so its verdict is a function of the pcs, kept in a table; a state where it holds
    is a target unless some thread goes on from an unconfirmed guess (``at_values`` None).
    """
    labels = [(t.tid, t.thread.pc_labels) for t in machine.threads]
    verdicts: dict = {}
    at_values = machine.at_values

    def state_target(state) -> bool:
        pcs = tuple([waiting_pc(t, pc, pending) if pending else pc
                     for t, (pc, _, pending) in zip(machine.threads, state[1])])
        holds = verdicts.get(pcs)
        if holds is None:
            holds = verdicts[pcs] = prop.holds(
                {("at", tid): names.get(pc, f"#{pc}") for (tid, names), pc in zip(labels, pcs)})
        return holds and at_values(state) is not None

    return state_target


def _stats(found: SearchOutcome, por: bool, order: str) -> dict:
    return {
        "states": found.states,
        "transitions": found.transitions,
        "final_states": len(found.final_ids),
        "deadlocks": found.deadlocks,
        "misspeculated": found.misspeculated,
        "max_pending": found.max_pending,
        "search_time": round(found.time, 4),
        "first_violation_time": None if found.first_target_time is None else round(found.first_target_time, 4),
        "por": por,
        "search": order,
        "truncated": found.truncated,
    }


def _sc_stats(program: Program, model: Model, found: SearchOutcome, por: bool, order: str,
              max_pending: int, max_states: int, max_memory: float | None = None,
              compact: bool = False) -> dict:
    """States and transitions of the same program under ``sc``, for comparison."""
    from ..lang import load_model

    if model.name == "sc":
        return {"sc_states": found.states, "sc_transitions": found.transitions}
    try:
        other = explore_space(program, load_model("sc"), target=lambda values: False, por=por, order=order,
                              max_pending=max_pending, max_states=max_states, max_memory=max_memory,
                              compact=compact).found
    except UnsupportedError:  # e.g. a fence kind sc does not know
        return {"sc_states": None, "sc_transitions": None}
    return {"sc_states": other.states, "sc_transitions": other.transitions}
