"""The operational explorer: reordering tables compiled into enabling predicates, state-space search."""

from .explore import DEFAULT_MAX_PENDING, DEFAULT_MAX_STATES, ENGINE, Exploration, explore
from .graph import StateEdge, StateGraph, StateNode
from .search import StateLimit
from .transitions import PendingLimit

__all__ = [
    "explore", "Exploration", "ENGINE", "DEFAULT_MAX_PENDING", "DEFAULT_MAX_STATES",
    "StateGraph", "StateNode", "StateEdge", "StateLimit", "PendingLimit",
]
