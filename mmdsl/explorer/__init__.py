"""The operational explorer: reordering tables and axioms compiled into enabling steps, state-space search."""

from .explore import DEFAULT_MAX_PENDING, DEFAULT_MAX_STATES, ENGINE, Exploration, StateSpace, explore, explore_space
from .memory import MemoryLimit
from .graph import StateEdge, StateGraph, StateNode
from .overtaking import Overtaking
from .search import StateLimit
from .machines.table.state import control_successors
from .machines.table.transitions import PendingLimit

__all__ = [
    "explore", "Exploration", "ENGINE", "DEFAULT_MAX_PENDING", "DEFAULT_MAX_STATES",
    "StateGraph", "StateNode", "StateEdge", "StateLimit", "PendingLimit", "MemoryLimit",
    "explore_space", "StateSpace", "Overtaking", "control_successors",
]
