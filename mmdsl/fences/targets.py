"""What the chosen fences must achieve: forbid the test's outcome, or every final state SC forbids."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..axiomatic.checker import observed_keys
from ..core.condition import FinalState, prop_text
from ..core.errors import UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Program

TARGETS = ("outcome", "sc", "serial")
STATE_SET_TARGETS = ("sc", "serial")  # the unwanted final states are those outside a set


@dataclass
class Target:
    """Which final states are unwanted, and how to say what was achieved."""

    name: str  # outcome | sc
    description: str
    program: Program
    sc_states: frozenset = field(default_factory=frozenset)

    def unwanted(self, final: dict) -> bool:
        """Is an execution ending in ``final`` (every register and location) one to forbid?"""
        if self.name in STATE_SET_TARGETS:
            return FinalState.of(final, observed_keys(self.program)) not in self.sc_states
        cond = self.program.condition
        holds = cond.prop.holds(final)
        return (not holds) if cond.quantifier == "forall" else holds

    def unwanted_state(self, state: FinalState) -> bool:
        """The same question on a final state over the observed keys."""
        if self.name in STATE_SET_TARGETS:
            return FinalState.of(state.as_dict(), observed_keys(self.program)) not in self.sc_states
        return self.unwanted(state.as_dict())

    def achieved(self, result: TestResult) -> bool:
        """Does a run of the fenced program show the target met?"""
        return not any(self.unwanted_state(s) for s in result.states)


def make_target(program: Program, name: str, engine: str = "axiomatic") -> Target:
    """The target ``name`` (outcome | sc) for ``program``; SC's states come from ``engine``."""
    if name == "outcome":
        cond = program.condition
        verb = "forbid" if cond.quantifier == "exists" else "keep"
        return Target(name, f"{verb} {cond.quantifier} ({prop_text(cond.prop)})", program)
    if name == "sc":
        if program.state_property:
            raise UnsupportedError(f"--target sc compares final states, and {program.name}'s property "
                                   "is on every state (a Memorax 'forbidden' tuple)",
                                   hint="use the default --target outcome: keep the forbidden labels unreachable")
        from ..lang import load_model

        sc = load_model("sc")
        if engine == "explorer":
            from ..explorer import explore

            states = frozenset(explore(program, sc).states)
        else:
            from ..axiomatic import check

            states = frozenset(check(program, sc, collect="none").states)
        return Target(name, f"forbid every final state SC forbids ({len(states)} SC state(s))", program,
                      states)
    if name == "serial":
        from ..core.serial import serial_observations

        serial = serial_observations(program)
        return Target(name, f"forbid every observation no serial execution has ({len(serial.states)} serial "
                      "observation(s), each operation atomic)", program, serial.states)
    raise UnsupportedError(f"unknown target '{name}'", expected=" or ".join(TARGETS))
