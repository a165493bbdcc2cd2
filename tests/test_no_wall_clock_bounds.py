"""No test bounds the wall clock unless it says why: a loaded machine (another test suite running
beside this one) stretches wall time, so a bound on it fails at random. Bound work (states,
candidates) or CPU time (``budget.cpu_budget``) instead; a test of a time limit (``--timeout 2``
must stop) keeps the wall clock with a margin of ten times the limit or more and marks its assert
with a ``# wall-clock:`` comment saying what it measures."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns", "time_ns"}
MARKER = "# wall-clock:"


def _reads_clock(node: ast.AST, timed: set[str]) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in CLOCKS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "time":
            return True
        if isinstance(n, ast.Name) and n.id in timed:
            return True
    return False


def wall_clock_asserts(source: str) -> list[int]:
    """The lines of asserts comparing a wall-clock reading (directly, or through a name assigned
    from one in the same function) without the marker comment."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        timed: set[str] = set()
        for n in ast.walk(scope):  # names holding an elapsed time: x = time.monotonic() - start
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.BinOp) and _reads_clock(n.value, set()):
                timed.update(t.id for t in n.targets if isinstance(t, ast.Name))
        for n in ast.walk(scope):
            if isinstance(n, ast.Assert) and any(isinstance(c, ast.Compare) for c in ast.walk(n.test)) \
                    and _reads_clock(n.test, timed):
                text = "\n".join(lines[n.lineno - 1: (n.end_lineno or n.lineno)])
                if MARKER not in text:
                    found.append(n.lineno)
    return sorted(set(found))


def test_the_check_finds_an_unmarked_bound_and_accepts_a_marked_one():
    bad = "import time\ndef test_x():\n    start = time.monotonic()\n    assert time.monotonic() - start < 3\n"
    indirect = "import time\ndef test_x():\n    t = time.perf_counter() - 0\n    assert t < 3\n"
    marked = bad.replace("< 3", "< 30  # wall-clock: --timeout 2 stops it")
    assert wall_clock_asserts(bad) == [4] and wall_clock_asserts(indirect) == [4]
    assert wall_clock_asserts(marked) == []


def test_no_test_bounds_the_wall_clock_unmarked():
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        lines = wall_clock_asserts(path.read_text())
        if lines:
            found[str(path.relative_to(TESTS))] = lines
    assert not found, f"asserts on wall-clock time without '{MARKER}' (bound CPU time or work instead): {found}"
