"""The explorer's memory ceiling (--max-memory) and a live progress line for long searches."""

from __future__ import annotations

import math
import sys
import time

from ..core.errors import MmdslError

# the ceiling is checked once every this many new states (a system call each time)
MEMORY_CHECK_EVERY = 4096
# progress appears only after the search has run this long (seconds), then refreshes
PROGRESS_AFTER = 3.0
PROGRESS_EVERY = 0.5


class MemoryLimit(MmdslError):
    """The process grew past the memory --max-memory allows."""

    kind = "limit"


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB (``getrusage``: cheap, whole process)."""
    try:
        import resource
    except ImportError:  # not on POSIX: no ceiling can be measured
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KB elsewhere


class MemoryCeiling:
    """Checks ``peak_memory_mb`` against ``max_mb`` (None: no ceiling) every ``MEMORY_CHECK_EVERY`` states."""

    def __init__(self, max_mb: float | None, measure=peak_memory_mb):
        if max_mb is not None and not 0 < max_mb < math.inf:  # NaN fails both
            raise MmdslError(f"--max-memory must be a positive, finite number of MB, not {max_mb:g}")
        self.max_mb = max_mb
        self.measure = measure

    def check(self, states: int, transitions: int) -> None:
        """Raise ``MemoryLimit`` if the process is past the ceiling (called with the states visited so far)."""
        if self.max_mb is None:
            return
        used = self.measure()
        if used > self.max_mb:
            raise MemoryLimit(
                f"the search used {used:.0f} MB, past the --max-memory ceiling of {self.max_mb:g} MB, "
                f"after {states} states ({transitions} transitions) without finishing",
                hint="raise --max-memory (or use --compact to store a hash of each visited state)")


class Progress:
    """A one-line display of states, states/s and depth on stderr, for searches past a few seconds.

    Shown only when ``enabled`` (the CLI turns it on for a terminal, off under --json) and
    stderr is a terminal; refreshed at most every ``PROGRESS_EVERY`` seconds and erased at the end.
    """

    def __init__(self, enabled: bool, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_tty(self.stream)
        self.start = time.perf_counter()
        self.last = self.start
        self.shown = False

    def update(self, states: int, depth: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < PROGRESS_AFTER or now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        rate = states / (now - self.start)
        self.stream.write(f"\rexploring: {states:,} states, {rate:,.0f} states/s, depth {depth}   ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
