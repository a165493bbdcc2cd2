"""``--spec serial``: a program's observations under a model against its serial observations (CheckFence).

The model's final states come from the explorer (default: data-type harnesses branch a
lot, which the operational search handles far better than candidate enumeration) or
the axiomatic checker; each is projected on the serial set's keys and must be one of
the serial observations (``core.serial``). A failing check keeps a trace to the first
observation no serial execution has.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..core.condition import FinalState
from ..core.errors import UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Program
from ..core.serial import ERR_REG, SerialSet, compare, serial_observations
from ..lang.ir import Model

SPECS = ("serial",)
PASS, FAIL, BOUND = "Pass", "Fail", "Bound"


@dataclass
class SpecResult:
    """The serial observations, the model's, and those of the model that are not serial."""

    test: str
    model: str
    engine: str
    path: str | None
    serial: SerialSet
    result: TestResult
    extra: list[FinalState] = field(default_factory=list)  # the model's observations not in the serial set
    time: float = 0.0
    trace: list = field(default_factory=list)  # explorer: the steps to the first extra observation
    trace_final: str = ""
    unroll: str | None = None

    @property
    def bound_reached(self) -> list[FinalState]:
        return [s for s in self.extra if any(k[0] == "reg" and k[2] == ERR_REG and v == 2 for k, v in s)]

    @property
    def verdict(self) -> str:
        if not self.extra:
            return PASS
        return BOUND if len(self.bound_reached) == len(self.extra) else FAIL


def check_spec(program: Program, model: Model, spec: str = "serial", engine: str = "explorer",
               **explorer_options) -> SpecResult:
    """Check ``program`` under ``model`` against ``spec`` (only ``serial``) with ``engine``."""
    if spec not in SPECS:
        raise UnsupportedError(f"unknown --spec '{spec}'", expected=" or ".join(SPECS))
    start = time.perf_counter()
    serial = serial_observations(program)

    def unwanted(values: dict) -> bool:
        return FinalState.of(values, serial.keys) not in serial.states

    out = SpecResult(program.name, model.name, engine, program.path, serial, None,  # type: ignore[arg-type]
                     unroll=program.info.get("unroll"))
    if engine == "explorer":
        from .explore import explore

        result = explore(program, model, order="bfs", target=unwanted, **explorer_options)
        out.trace, out.trace_final = result.trace or [], getattr(result, "trace_final", "") or ""
    elif engine == "axiomatic":
        from ..axiomatic import check

        if program.has_loops():
            raise UnsupportedError(f"{program.name} has loops: the axiomatic checker runs loop-free programs",
                                   hint="use the explorer, or declare 'unroll=N' in the header")
        result = check(program, model, collect="none")
    else:
        raise UnsupportedError(f"--spec serial runs on the explorer or the axiomatic checker, not '{engine}'")
    out.result = result
    out.extra = compare(serial, result.states)
    out.time = time.perf_counter() - start
    return out
