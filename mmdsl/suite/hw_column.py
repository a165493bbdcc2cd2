"""`mmdsl suite --hw`: a "hw" column beside the models, each test run on this CPU.

A cell of the column says whether the condition's outcome was seen (``seen K/N``) or not
(``unseen``). A state observed on the CPU that one of the run's models forbids makes the
cell ``hw-forbidden`` (named in its message), which fails the run (exit 1); a test the host
cannot run (another ISA) is ``not run`` with the reason.
"""

from __future__ import annotations

from ..core.errors import MmdslError
from .manifest import ModelRef
from .run import SuiteRun
from .work import HW_FORBIDDEN, OK, Cell

HW_COLUMN = "hw"


def add_hw_column(run: SuiteRun, options, on_cell=None) -> list:
    """Run every test of ``run`` on the host and add the column; the HwResults (for summaries)."""
    from ..hardware import run_on_host
    from ..lang import load_model
    from ..litmus import load_litmus

    models = []
    for ref in run.models:
        try:
            models.append((ref.column, load_model(ref.source)))
        except MmdslError:
            continue  # its own column already says so
    results = []
    for entry in run.suite.tests:
        try:
            r = run_on_host(load_litmus(entry.path), options, models)
        except MmdslError as err:
            run.cells[(entry.key, HW_COLUMN)] = Cell(entry.key, HW_COLUMN, OK, verdict="not run",
                                                     engine="hardware", message=str(err))
        else:
            results.append(r)
            total = r.positive + r.negative
            verdict = f"seen {r.positive}/{total}" if r.positive else "unseen"
            bad = [f"{s.text()} x{n} forbidden by {c.model}" for c in r.checks for s, n in c.forbidden_seen.items()]
            run.cells[(entry.key, HW_COLUMN)] = Cell(
                entry.key, HW_COLUMN, HW_FORBIDDEN if bad else OK, verdict=verdict, observation=r.observation,
                positive=r.positive, negative=r.negative, states=len(r.hist.states), time=r.hist.time,
                engine="hardware", message="; ".join(bad))
        if on_cell is not None:
            on_cell(None)
    run.models.append(ModelRef(HW_COLUMN, HW_COLUMN))
    return results
