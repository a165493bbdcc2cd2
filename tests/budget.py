"""CPU-time budgets for tests: bound the work a test does, not how fast a (loaded) machine runs it.

``with cpu_budget(20):`` fails the test when the body used more than 20 CPU seconds, counted
for this process and for the child processes it waited for (``subprocess.run``). A machine
running another test suite beside this one slows the wall clock, not these counts. Tests of a
time limit (``--timeout 2`` must stop) measure the wall clock instead, with a margin of ten
times the limit or more, and say so with a ``# wall-clock:`` comment on the assert
(``tests/test_no_wall_clock_bounds.py`` checks that every other bound is on CPU time or work).
"""

from __future__ import annotations

import resource
import time
from contextlib import contextmanager


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of its waited-for children so far."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@contextmanager
def cpu_budget(seconds: float):
    start = cpu_seconds()
    yield
    used = cpu_seconds() - start
    assert used < seconds, f"used {used:.1f} CPU seconds, more than the budget of {seconds:g}"
