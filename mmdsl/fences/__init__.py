"""Minimum-fence selection: CP-SAT encodings (OR-Tools imported late) and re-checked answers."""

from .loop import FenceOptions, Selection
from .select import select_fences

__all__ = ["FenceOptions", "Selection", "select_fences"]
