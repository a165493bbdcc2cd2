"""The graph machine's search: every combination of thread paths, each explored depth first.

The program's paths per thread come from the checker's path walker (``program_paths``:
the same paths, the same values, the same thin-air and C11 read-modify-write handling);
each combination is one ``Structure``, explored by a ``GraphMachine`` from the execution
of no event to every complete execution the axioms allow. The counts: ``explored`` partial
executions (states, the root of each combination included), ``pruned`` steps not enabled
(the extended execution fails a monotone axiom, or -- ``bounded`` of them -- the lower
bound of one that is not, ``bounds.py``), ``complete`` executions the
model allows, ``blocked`` states with nothing enabled that are not allowed complete
executions (a step every choice of which breaks a monotone axiom, or a complete execution
that fails a non-monotone axiom or its path's values), and ``duplicates`` (complete
executions reached twice: 0, by construction, counted to show it).
"""

from __future__ import annotations

import time
from collections import Counter

from ....axiomatic.candidates import Enumerator, own_co_locations, read_pins, rf_choices
from ....axiomatic.checker import combinations, observed_keys, program_paths, reached
from ....axiomatic.loops import DEFAULT_UNROLL, LoopBound
from ....axiomatic.structure import Structure
from ....core.condition import FinalState
from ....core.errors import UnsupportedError
from ....core.program import Program
from ....lang.fence_use import fence_warnings
from ....lang.ir import Model
from ...search import StateLimit
from ...trace import Step
from .axioms import AxiomPlan
from .machine import GraphMachine

MACHINE = "graph"


def refusal(program: Program, model: Model) -> str | None:
    """Why the graph machine cannot explore ``program`` under ``model`` exactly, or None."""
    if getattr(model, "own_co", False) and own_co_locations(program) is not None:
        return (f"model '{model.name}' computes co itself (herd picks only final writes for it): the graph "
                "machine builds co write by write, so it would not count herd's executions; use the checker")
    if program.state_property:
        return ("a property of every state (Memorax's forbidden labels) needs the table machine's states; "
                "the graph machine reaches complete executions only")
    return None


def explore_graph(program: Program, model: Model, *, max_states: int, target=None, result_class=None,
                  unroll: int | None = None, judge=None):
    """Every complete execution of ``program`` allowed by ``model``, built event by event.

    ``judge(structure, prepared, leaf)``, when given, replaces ``target``: True on the first
    execution wanted, whose trace is kept, and the search stops there (``mmdsl check``); None
    for a complete execution that is none of the program's (counted as blocked, not complete).

    A program with loops has them unrolled ``unroll`` times (default herd's 2), spin
    iterations blocked (``axiomatic/loops.py``); a verdict the bound may change says so."""
    from ...result import ENGINE, Exploration

    why = refusal(program, model)
    if why is not None:
        raise UnsupportedError(f"the graph explorer cannot run {program.name} under {model.name}: {why}")
    program.require_final_condition("explorer")
    start = time.perf_counter()
    keys = observed_keys(program)
    cond, filt = program.condition, program.filter
    if target is None:
        target = (lambda values: not cond.prop.holds(values)) if cond.quantifier == "forall" else cond.prop.holds
    loops = LoopBound(DEFAULT_UNROLL if unroll is None else unroll) if program.has_loops() else None
    checked_model, locations, traces, extra = program_paths(program, model, loops)
    states: Counter = Counter()
    counts = [0, 0]
    stats = {"explored": 0, "complete": 0, "blocked": 0, "duplicates": 0, "checks": 0, "pruned": 0, "bounded": 0,
             "structures": 0}
    found: dict = {"trace": None, "final": None, "first": None}
    for combo, thin_air in combinations(traces, extra):
        structure = Structure(program, list(combo), locations)
        stats["structures"] += 1
        if unsourced(structure):  # a root with no complete execution: not worth compiling the model
            stats["explored"] += 1
            stats["blocked"] += 1
            continue
        prepared = structure.prepare(checked_model)
        error = next((tr.error for tr in combo if tr.error is not None), None)
        enum = Enumerator(structure, prepared, prune=True, thin_air=thin_air)
        machine = GraphMachine(structure, prepared, enum, AxiomPlan(checked_model, prepared))

        def on_leaf(leaf, allowed, error=error, structure=structure, prepared=prepared) -> None:
            if error is not None:
                reached(error)(leaf, allowed)  # a path stopping at an unsupported value, taken
            if filt is not None and not filt.holds(leaf.final):
                return
            judged = judge(structure, prepared, leaf) if judge else None
            if judge and judged is None:  # not an execution of the program (``judge``): left out
                found["skip"] = True
                return
            states[FinalState.of(leaf.final, keys)] += 1
            counts[0 if cond.prop.holds(leaf.final) else 1] += 1
            if found["trace"] is None and (judged if judge else target(leaf.final)):
                found["final"] = FinalState.of(leaf.final, keys).text()
                found["first"] = time.perf_counter() - start
                found["hit"] = True

        _search(machine, on_leaf, stats, found, max_states, stop=judge is not None)
        stats["checks"] += machine.checks
        stats["pruned"] += machine.pruned
        stats["bounded"] += machine.bounded
        if judge is not None and found["trace"] is not None:
            break
    result_class = result_class or Exploration
    result = result_class(test=program.name, model=model.name, engine=ENGINE, condition=cond,
                          states=dict(states), positive=counts[0], negative=counts[1], path=program.path)
    if found["trace"] is not None:
        result.trace, result.trace_final = found["trace"], found["final"]
    elapsed = time.perf_counter() - start
    result.time = elapsed
    result.stats.update({
        "machine": MACHINE, **stats,
        # the table machines' names for the same counts, read by every caller of explore
        "states": stats["explored"], "transitions": stats["explored"] - stats["structures"],
        "final_states": stats["complete"], "deadlocks": stats["blocked"], "misspeculated": 0,
        "max_pending": 0, "search_time": round(elapsed, 4),
        "first_violation_time": None if found["first"] is None else round(found["first"], 4),
        "por": False, "search": "dfs", "truncated": False, "time": round(elapsed, 4),
    })
    result.warnings = fence_warnings(program, model)
    if loops is not None:
        result.stats.update({"unroll": loops.unroll, "unroll_cut": loops.cut, "spins_blocked": loops.spins})
        if loops.cut:
            result.warnings.append(f"warning: {program.name}: {loops.note()}")
    return result


def unsourced(structure: Structure) -> bool:
    """Does a read of this combination of paths assume a value no write of its location
    (the initial one included) can give? Then no read-from choice is left for it (the
    enumerator's own choices, ``rf_choices``), so no execution completes: a loop's paths
    walk every value of the domains, most of them never written by the other paths."""
    pins = read_pins(structure)
    return any(not opts for r, opts in rf_choices(structure, pins) if r in pins)


def _search(machine: GraphMachine, on_leaf, stats: dict, found: dict, max_states: int, stop=False) -> None:
    """Depth first from the root; a path of steps is kept per state for the first trace."""
    stats["explored"] += 1
    if not machine.root_consistent():
        stats["blocked"] += 1
        return
    seen: set = set()
    stack = [(machine.initial_state(), None)]  # (state, the steps to it as a linked list)
    while stack:
        state, path = stack.pop()
        if machine.is_complete(state):
            key = (state[1], state[2])
            if key in seen:
                stats["duplicates"] += 1
                continue
            seen.add(key)
            found.pop("hit", None)
            if machine.finish(state, on_leaf) and not found.pop("skip", False):
                stats["complete"] += 1
                if found.pop("hit", False) and found["trace"] is None:
                    found["trace"] = _trace(machine, path)
                    if stop:
                        return
            else:
                stats["blocked"] += 1
            continue
        steps = machine.enabled(state)
        if not steps:
            stats["blocked"] += 1
            continue
        for step in reversed(steps):
            stats["explored"] += 1
            if stats["explored"] > max_states:
                raise StateLimit(f"the graph search reached {max_states} partial executions without "
                                 f"finishing ({stats['complete']} complete so far)", hint="raise --max-states")
            stack.append((machine.apply(state, step), (path, state, step)))


def _trace(machine: GraphMachine, path) -> list[Step]:
    steps = []
    while path is not None:
        path, state, step = path
        ev = machine.s.events[step.eid]
        steps.append(Step(ev.tid, "add", ev.instr, machine.describe(state, step), False))
    return steps[::-1]
