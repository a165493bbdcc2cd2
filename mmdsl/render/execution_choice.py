"""Which executions of a test to draw (`--show`, `--max`), the predictable name of each file, and the fences drawn in place."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import MmdslError
from ..core.events import Execution
from ..core.outfiles import safe_stem
from ..core.outcome import TestResult, Violation
from ..core.program import Program
from ..lang.ir import Model
from .execution_view import DependencyInsertion, Insertion

SHOW = ("witness", "allowed", "forbidden", "all")


@dataclass
class Chosen:
    """One execution to draw, the stem of its file name, and why it is drawn."""

    stem: str  # SB, SB-2, SB-forbidden-1
    execution: Execution
    status: str  # witness (allowed, satisfies the condition) | allowed | forbidden
    violations: list[Violation] = field(default_factory=list)


@dataclass
class Choice:
    chosen: list[Chosen]
    total: int  # how many executions matched before --max cut the list
    result: TestResult

    @property
    def cut(self) -> bool:
        return self.total > len(self.chosen)


def choose_executions(program: Program, model: Model, show: str = "witness", max_count: int = 10) -> Choice:
    """The executions ``--show`` asks for, in the checker's (deterministic) order, at most ``max_count``.

    witness: allowed executions whose final state satisfies the condition's proposition;
    allowed: every allowed execution; forbidden: forbidden executions satisfying the
    proposition (why the outcome cannot happen), each with its violated axioms; all:
    every allowed then every forbidden execution.
    """
    from ..axiomatic import check

    if show not in SHOW:
        raise MmdslError(f"unknown --show '{show}'", expected=", ".join(SHOW))
    if max_count < 1:
        raise MmdslError(f"--max must be at least 1, not {max_count}")
    result = check(program, model, collect="all" if show in ("forbidden", "all") else "allowed")
    store = result.stats["collected"]
    prop = program.condition.prop
    stem = safe_stem(program.name)
    allowed: list[tuple[Execution, str]] = []
    if show in ("witness", "allowed", "all"):
        for x in store.allowed:
            holds = prop.holds(x.final)
            if show == "witness" and not holds:
                continue
            allowed.append((x, "witness" if holds else "allowed"))
    forbidden = []
    if show in ("forbidden", "all"):
        forbidden = [ex for ex in store.forbidden if show == "all" or prop.holds(ex.execution.final)]
    chosen = [Chosen(stem if k == 1 else f"{stem}-{k}", x, status) for k, (x, status) in enumerate(allowed, 1)]
    chosen += [Chosen(f"{stem}-forbidden-{k}", ex.execution, "forbidden", ex.violations)
               for k, ex in enumerate(forbidden, 1)]
    return Choice(chosen[:max_count], len(chosen), result)


def none_message(program: Program, model: Model, show: str, choice: Choice) -> str:
    """What to say when ``--show`` matched nothing, and what to try instead."""
    name = f"{program.name} under {model.name}"
    if show == "witness":
        return (f"{name}: no allowed execution satisfies {program.condition.text()} (the outcome is forbidden); "
                f"use --show forbidden to draw why, or --show allowed for the allowed executions")
    if show == "forbidden":
        return (f"{name}: no execution satisfying {program.condition.text()} is forbidden; "
                f"use --show witness or --show all")
    return f"{name}: no {'allowed ' if show == 'allowed' else ''}execution to draw"


def cut_message(choice: Choice, max_count: int) -> str:
    return (f"drew {len(choice.chosen)} of {choice.total} executions (--max {max_count}); "
            f"use --max {choice.total} to draw them all")


def chosen_fences(program: Program, model: Model) -> tuple[list[Insertion], str]:
    """The cheapest fences forbidding the test's outcome (``mmdsl fences``), and one line about them."""
    insertions, _, line = chosen_devices(program, model)
    return insertions, line


def chosen_devices(program: Program, model: Model) -> tuple[list[Insertion], list[DependencyInsertion], str]:
    """The cheapest fences and dependencies forbidding the test's outcome (``mmdsl fences``; the
    dependencies under power, armv7, armv8), and one line about them."""
    from ..fences import select_fences
    from ..fences.solver import FEASIBLE, OPTIMAL

    sel = select_fences(program, model)
    if not sel.needed:
        return [], [], f"{program.name} under {model.name}: the outcome is already forbidden; no fence needed"
    if sel.status not in (OPTIMAL, FEASIBLE):
        return [], [], f"{program.name} under {model.name}: no fence set found ({sel.status}); drawn without fences"
    places = ", ".join(f"{program.threads[c.place.tid].name} {c.kind.name} {c.place.text()}" for c in sel.fences)
    dependencies = [(c.place.tid, c.source, c.place.index, c.kind.name) for c in sel.fences if c.is_dependency]
    return sel.insertions(), dependencies, (f"{program.name} under {model.name}: fences {places} "
                                            f"(cost {sel.cost}, {sel.status.lower()})")


def fence_note(status: str, dependencies: bool = False) -> str:
    """The title note of a diagram with chosen fences (and dependency edges) drawn in place."""
    what = "+F and dependency edges: the fences and dependencies" if dependencies else "+F: the fences"
    if status == "witness":
        return f"{what} `mmdsl fences` chooses; with them this execution is forbidden"
    return f"{what} `mmdsl fences` chooses, drawn in place"
