"""Pure relation algebra on event indices (bitsets); knows nothing about events."""

from .algebra import Rel, bits, mask_of, union_all
from .cycles import find_cycle, is_acyclic, reflexive_points, topological_order

__all__ = [
    "Rel",
    "bits",
    "mask_of",
    "union_all",
    "find_cycle",
    "is_acyclic",
    "reflexive_points",
    "topological_order",
]
