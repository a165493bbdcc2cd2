"""Results of running a test under a model: final states, counts, herd's verdict words."""

from __future__ import annotations

from dataclasses import dataclass, field

from .condition import Condition, FinalState, observation_word

ALLOWED = "Allowed"
FORBIDDEN = "Forbidden"


@dataclass
class Violation:
    """Why a candidate execution is forbidden: the axiom and a witnessing cycle of events."""

    axiom: str
    test: str
    cycle: list[int]  # event ids; for irreflexive/empty, the offending events
    edges: list[str] = field(default_factory=list)  # relation name of each cycle edge


@dataclass
class TestResult:
    """What one engine found for one test under one model."""

    test: str
    model: str
    engine: str
    condition: Condition
    states: dict[FinalState, int]  # allowed final states -> number of executions
    positive: int
    negative: int
    time: float = 0.0
    path: str | None = None
    candidates: int = 0
    stats: dict = field(default_factory=dict)
    why: list = field(default_factory=list)  # explanations (forbidden witnesses)
    witness: object | None = None  # one allowed execution matching the condition
    warnings: list[str] = field(default_factory=list)  # e.g. a fence the model does not declare
    flags: list[str] = field(default_factory=list)  # a cat model's flags that hold on some allowed execution

    @property
    def ok(self) -> bool:
        return self.condition.validated(self.positive, self.negative)

    @property
    def observation(self) -> str:
        return observation_word(self.positive, self.negative)

    @property
    def verdict(self) -> str:
        """Allowed when some allowed execution satisfies the condition's proposition."""
        return ALLOWED if self.positive > 0 else FORBIDDEN

    def state_set(self) -> set[FinalState]:
        return set(self.states)
