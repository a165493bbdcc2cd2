"""`mmdsl compare`: the cells whose verdicts changed between two saved runs (like herd's mcompare)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import EXIT_MISMATCH, user_errors


@user_errors
def compare(
    run_a: Optional[str] = typer.Argument(None, help="A saved run: its id, 'last' or 'last~N'."),
    run_b: Optional[str] = typer.Argument(None, help="The other run (default: the latest)."),
    db: Path = typer.Option(Path("runs.db"), "--db", help="The SQLite file runs were saved in (--save)."),
) -> None:
    """List the verdicts that differ between two saved runs; without runs, list the saved runs.

    Exit code: 0 nothing changed, 1 some verdict changed, 2 bad input.
    """
    from ..suite.store import comparison_lines, compare_runs, list_runs, load_run

    if run_a is None:
        for r in list_runs(db):
            print(f"{r['id']:>4}  {r['timestamp']}  {r['suite']}  {r['models']}  {r['engine']}  "
                  f"{r['cells']} cells")
        return
    a = load_run(db, run_a)
    b = load_run(db, run_b or "last")
    for line in comparison_lines(a, b):
        print(line)
    changes, _ = compare_runs(a, b)
    if changes:
        raise typer.Exit(EXIT_MISMATCH)
