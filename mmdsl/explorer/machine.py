"""The one small interface every explorer machine offers to the shared search above it."""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Protocol


class ExplorerMachine(Protocol):
    """A machine of ``explorer/machines/``: states, the steps enabled in one, their effect.

    The table machine (``machines/table``: one memory, pending lists), the per-thread
    propagation machine (``machines/propagation``) and the execution-graph machine of an
    axiomatic model (``machines/graph``) each give these five things; search, limits,
    reduction and traces are written once over them (``explorer/search.py``,
    ``explorer/machines/graph/search.py``). The table and propagation machines split them
    between a ``Machine`` (``initial_state``, ``final_values``), its ``Semantics``
    (``enabled``, ``apply``) and ``explorer.trace.Describer`` (``describe``).
    """

    def initial_state(self) -> Hashable:
        """The state before any step."""

    def enabled(self, state: Hashable) -> Iterable[Any]:
        """The steps enabled in ``state`` (none: a final state or a blocked one)."""

    def apply(self, state: Hashable, step: Any) -> Hashable:
        """The state after ``step``."""

    def final_values(self, state: Hashable) -> dict | None:
        """Every register and location of a final ``state`` (None when it is not final)."""

    def describe(self, state: Hashable, step: Any) -> str:
        """``step`` from ``state`` in words, for traces."""
