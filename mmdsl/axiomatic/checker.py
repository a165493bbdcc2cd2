"""The axiomatic checker: every candidate execution of a test, filtered by a model's axioms."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import product

from ..core.condition import FinalState, key_sort
from ..core.events import Execution
from ..core.outcome import TestResult, Violation
from ..core.program import AtomicBegin, Program
from ..lang.cat_choice import COUNTED_ORDERS
from ..lang.fence_use import fence_warnings
from ..lang.defaults import atomic_block_reading
from ..lang.cat_rmw import has_one_event_rmw, refuse_c11_rmw_with_locks, refuse_c_locks
from ..lang.ir import Model
from .candidates import Enumerator, Leaf
from .explain import explain
from .loops import LoopBound
from .structure import Structure
from .thin_air import SeedOverflow, model_forbids_thin_air
from .threads import supplied, thin_air_traces

ENGINE = "axiomatic"


@dataclass
class Explanation:
    """A forbidden execution that would satisfy the condition, and why it is forbidden."""

    execution: Execution
    violations: list[Violation]
    state: FinalState


@dataclass
class Collected:
    allowed: list[Execution] = field(default_factory=list)
    forbidden: list[Explanation] = field(default_factory=list)


def observed_keys(program: Program) -> list:
    keys = list(program.condition.keys())
    for k in program.observed:
        if k not in keys:
            keys.append(k)
    return keys


def _execution(structure: Structure, leaf: Leaf) -> Execution:
    events = []
    from dataclasses import replace

    for e in structure.events:
        if e.value is None and e.eid in leaf.values:
            e = replace(e, value=leaf.values[e.eid])
        events.append(e)
    return Execution(events, leaf.rf, leaf.co, dict(structure.rels), leaf.final)


def reached(error):
    """The leaf callback of a path that stops at ``error``: taken by an allowed execution, it is
    the test's error; taken by none (the value domains over-approximate), it is no error."""
    def on_leaf(leaf: Leaf, allowed: bool) -> None:
        raise error
    return on_leaf


def check(program: Program, model: Model, *, why: bool = False, collect: str = "witness",
          prune: bool = True, max_explanations: int = 4, max_collected: int = 10_000,
          unroll: int | None = None) -> TestResult:
    """Run ``program`` under ``model``.

    collect: "witness" keeps one allowed execution matching the condition; "allowed" keeps
    every allowed execution; "all" keeps every allowed execution and every forbidden one
    with its violations (in ``result.stats["collected"]``); "none" keeps nothing;
    "verdict" keeps nothing and stops at the first allowed execution that satisfies the
    condition's proposition (herd's ``-speedcheck true``): the verdict is known then, but
    the states and counts are those seen so far (``result.stats["stopped_early"]``). ``unroll``:
    a program with loops has each unrolled that many times, herd's ``-unroll`` (spin
    iterations blocked, see ``loops.py``; a loop is refused without it). With
    ``why``, forbidden executions whose final state satisfies the condition are explained
    (axiom and cycle) in ``result.why``.
    """
    program.require_final_condition("axiomatic checker")
    start = time.perf_counter()
    keys = observed_keys(program)
    state_keys = sorted(keys, key=key_sort)  # a final state's keys in FinalState's order
    prop = program.condition.prop
    filt = program.filter
    states: Counter = Counter()
    counts = [0, 0]
    flags: set[str] = set()  # the model's flags that hold on some allowed execution
    witness: list[Execution] = []
    store = Collected()
    explanations: list[Explanation] = []
    ncands = 0
    npartial = 0
    nexplained = 0  # complete candidates enumerated to find explanations (--why)
    stopped = False
    loops = LoopBound(unroll) if unroll is not None and program.has_loops() else None
    model, locations, traces, extra = program_paths(program, model, loops)
    # verdict-only: stop at the first witness, unless a path ends at an error that the full
    # run would report (it is raised only when an allowed execution takes that path)
    verdict_only = (collect == "verdict" and not why
                    and not any(tr.error is not None for paths in traces + (extra or []) for tr in paths))
    wanted = wanted_values(prop) if verdict_only else None
    final_locations = [k[1] for k in keys if k[0] == "mem"]
    uncounted = False  # some candidate's orders were too many to count (Prepared.uncounted)
    for combo, thin_air in combinations(traces, extra):
        structure = Structure(program, list(combo), locations)
        prepared = structure.prepare(model)
        error = next((tr.error for tr in combo if tr.error is not None), None)
        if error is not None:  # some thread's path stops at an unsupported value
            Enumerator(structure, prepared, prune=prune).run(reached(error))
            continue
        enum = Enumerator(structure, prepared, prune=prune, wanted=wanted, thin_air=thin_air)
        # herd's executions that several candidates stand for (herd_execution): the
        # condition's answer and the union of the orders they pass, counted at the end
        merged: dict = {}

        def on_leaf(leaf: Leaf, allowed: bool, structure=structure, prepared=prepared, merged=merged) -> None:
            if filt is not None and not filt.holds(leaf.final):
                return
            holds = prop.holds(leaf.final)
            states[FinalState.of_sorted(leaf.final, state_keys)] += 1
            if verdict_only:  # the counts are those seen so far: no orders counted
                counts[0 if holds else 1] += 1
            else:
                orders = prepared.passing_orders(leaf.dynamic)
                execution = herd_execution(leaf, prepared, model, final_locations)
                if execution is None:
                    counts[0 if holds else 1] += len(orders)
                else:
                    merged.setdefault(execution, (holds, set()))[1].update(orders)
            for flag, fires in prepared.flag_tests:
                if flag.name not in flags and fires(leaf.dynamic):
                    flags.add(flag.name)
            if collect in ("allowed", "all") and len(store.allowed) < max_collected:
                store.allowed.append(_execution(structure, leaf))
            elif collect == "witness" and holds and not witness:
                witness.append(_execution(structure, leaf))
            elif verdict_only and holds:
                raise _VerdictKnown

        try:
            enum.run(on_leaf, want_forbidden=False)
        except _VerdictKnown:
            stopped = True
        for holds, orders in merged.values():
            counts[0 if holds else 1] += len(orders)
        uncounted = uncounted or prepared.uncounted
        ncands += enum.candidates
        npartial += enum.partial
        if stopped:
            break
        if why or collect == "all":
            def on_forbidden(leaf: Leaf, allowed: bool, structure=structure, prepared=prepared) -> None:
                if allowed or (filt is not None and not filt.holds(leaf.final)):
                    return
                holds = prop.holds(leaf.final)
                explanation = None
                if why and holds and len(explanations) < max_explanations:
                    explanation = Explanation(_execution(structure, leaf), explain(prepared, leaf.dynamic),
                                              FinalState.of(leaf.final, keys))
                    explanations.append(explanation)
                if collect == "all" and len(store.forbidden) < max_collected:
                    store.forbidden.append(explanation or Explanation(
                        _execution(structure, leaf), explain(prepared, leaf.dynamic),
                        FinalState.of(leaf.final, keys)))
                elif collect != "all" and len(explanations) >= max_explanations:
                    raise _VerdictKnown  # every explanation wanted is found

            if collect == "all":
                Enumerator(structure, prepared, prune=False).run(on_forbidden, want_forbidden=True)
                continue
            if len(explanations) >= max_explanations:
                continue
            # only forbidden executions that satisfy the condition are explained: cut the
            # others early as -q does, and stop once max_explanations are found
            explainer = Enumerator(structure, prepared, prune=False, wanted=wanted_values(prop))
            try:
                explainer.run(on_forbidden, want_forbidden=True)
            except _VerdictKnown:
                pass
            nexplained += explainer.candidates
    result = TestResult(
        test=program.name, model=model.name, engine=ENGINE, condition=program.condition,
        states=dict(states), positive=counts[0], negative=counts[1],
        time=time.perf_counter() - start, path=program.path, candidates=ncands,
    )
    result.witness = witness[0] if witness else None
    result.flags = sorted(flags)
    result.warnings = fence_warnings(program, model)
    if loops is not None and loops.cut:
        result.warnings.append(f"warning: {program.name}: {loops.note()}")
    if uncounted:
        result.warnings.append(f"warning: {program.name}: witness counts are lower than herd's: some "
                               "execution has more orders from linearisations(...) than mmdsl counts "
                               f"({COUNTED_ORDERS:,} tried per candidate)")
    result.why = explanations
    result.stats["collected"] = store
    result.stats["stopped_early"] = stopped
    result.stats["partial"] = npartial  # work done besides the complete candidates
    result.stats["why_candidates"] = nexplained
    return result


def program_paths(program: Program, model: Model, loops=None) -> tuple:
    """What every engine over candidate executions starts from: (the model to check, C11's
    one-event RMW variant where herd's applies, the program's locations, every thread's
    paths, the extra paths only a value out of thin air takes or None; see ``combinations``).
    ``loops``: a ``loops.LoopBound`` to unroll loops to (None: a loop is refused)."""
    if model.one_event_rmw_model is not None and program.arch == "C":
        (refuse_c11_rmw_with_locks if model.kernel_locks else refuse_c_locks)(program)
    if model.one_event_rmw_model is not None and has_one_event_rmw(program, locks=not model.kernel_locks):
        model = model.one_event_rmw_model  # herd's C11 RMWs are one event: see lang.cat_rmw
    if any(isinstance(ins, AtomicBegin) for t in program.threads for ins in t.instrs):
        model = atomic_block_reading(model)  # each block one event of the global order
    locations = program.locations  # a property that walks the program: once per check
    traces, extra = thin_air_traces(program, locations, loops)
    if isinstance(extra, SeedOverflow):  # no thin-air values looked for: see thin_air.py
        if not model_forbids_thin_air(model, check):
            raise extra.error(program)
        extra = None
    return model, locations, traces, extra


def herd_execution(leaf: Leaf, prepared, model: Model, final_locations: list) -> tuple | None:
    """What tells herd's executions apart when the candidate ``leaf`` may share one with
    other candidates, else None (each candidate and passing order is one execution).

    herd (a cat model, without its ``withco`` option) does not enumerate coherence orders
    itself: it chooses rf, a final write for each location of the final state, and the
    orders the model generates. Unless the model generates co over every write
    (``generate_cos``) or reads a co it does not generate, the candidates with the same rf, the same final writes there and
    the same generated orders (C11's ``mo``, over atomic writes only) are one execution of
    herd's, times the orders of its ``linearisations`` that one of them passes (the
    checker counts the union: riscv-total.cat orders every write, and the candidates that
    differ in unobserved final writes pass disjoint sets of orders).
    """
    names = model.generated_orders
    if names is None or "co" in names:
        return None  # not a cat model, or co generated over every write
    if not names and model.compiled("reads-co", _reads_co):
        return None  # reads a co it does not generate: as with herd's cos.cat, one per co
    finals = tuple(leaf.co_orders[loc][-1] if leaf.co_orders.get(loc) else None for loc in final_locations)
    return (tuple(sorted(leaf.rf_src.items())), finals, prepared.generated_orders(leaf.dynamic, names))


# the candidate's relations that depend on its coherence order
_CO_NAMES = frozenset({"co", "fr", "coe", "coi", "fre", "fri", "com"})


def _reads_co(model: Model) -> bool:
    """Whether a cat model's lets or checks read co (or fr ...) other than through FW (herd's
    final writes, ``W \\ domain(co)`` in mmdsl): herd leaves co unbound in a model that does
    not generate it, and a model that reads it is checked as if it included cos.cat."""
    def reads(e) -> bool:
        if e.op == "domain" and e.args and e.args[0].op == "name" and e.args[0].name == "co":
            return False
        if e.op == "name":
            return e.name in _CO_NAMES
        return any(reads(a) for a in e.args)
    return (any(reads(b.expr) for g in model.lets for b in g.bindings)
            or any(reads(ax.expr) for ax in model.axioms))


def combinations(traces, extra):
    """One path per thread, and whether one of them is only taken by a value out of thin air:
    every combination of ``traces``, then those with at least one path of ``extra`` (see
    ``thin_air_traces``)."""
    for combo in product(*traces):
        yield combo, False
    if extra is None:
        return
    for k in range(len(traces)):  # the first thread with an extra path is thread k
        for combo in product(*traces[:k], extra[k], *(a + b for a, b in zip(traces[k + 1:], extra[k + 1:]))):
            if supplied(combo):
                yield combo, True


def wanted_values(prop) -> dict:
    """Final values every state satisfying ``prop`` has: the equalities of a conjunction."""
    from ..core.condition import And, Atom

    items = prop.items if isinstance(prop, And) else (prop,)
    wanted: dict = {}
    for item in items:
        if isinstance(item, Atom) and not item.negated:
            if wanted.get(item.key, item.value) != item.value:
                return {item.key: _NEVER}  # x=1 /\ x=2: no state has both
            wanted[item.key] = item.value
    return wanted


_NEVER = object()  # a wanted value no event has


class _VerdictKnown(Exception):
    """Raised from a leaf when the search can stop: in verdict-only mode an allowed execution
    satisfies the condition; with ``why``, every explanation wanted is found."""
