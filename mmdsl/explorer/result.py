"""What an exploration returns: the explorer's ``TestResult`` with its trace and state graph, for every machine."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.outcome import TestResult
from .graph import StateGraph
from .trace import Step

ENGINE = "explorer"


@dataclass
class Exploration(TestResult):
    """What the explorer found: a ``TestResult`` (engine "explorer") plus a trace and the state graph.

    ``states`` maps each reachable final state (restricted to the observed keys, exactly
    as the axiomatic checker's) to the number of distinct full final states showing it;
    ``positive``/``negative`` count distinct final states satisfying or not the
    condition's proposition (herd counts executions). ``stats`` holds the search
    counters (see ``explore``).
    """

    trace: list[Step] | None = None  # a path to the first final state reaching the outcome
    trace_final: str | None = None  # that final state, as text
    graph: StateGraph | None = None
    all_traces: object = None  # all_traces.AllTraces, when asked (explore(all_traces=CAP))

    @property
    def result(self) -> "Exploration":
        """The exploration itself (it is the ``TestResult``); kept for callers of the first version."""
        return self
