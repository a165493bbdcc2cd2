"""Diagrams for suite cells (``--draw``) and for model differences (``diff-models -o``).

Workers only lay diagrams out (DOT text travels back with the cell, so a Dask worker
needs no shared disk); the parent writes them and has Graphviz render them in batches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import writing
from .work import OK, cell_diagram

if TYPE_CHECKING:  # pragma: no cover
    from .run import SuiteRun


@dataclass
class DrawnFiles:
    files: list[Path] = field(default_factory=list)
    missing_dot: bool = False
    nothing: list[str] = field(default_factory=list)  # cells with no execution to draw
    failed: list[str] = field(default_factory=list)  # cells whose diagram could not be made, with why

    def lines(self, outdir) -> list[str]:
        from ..render.graphviz_out import INSTALL_HINT

        out = [f"wrote {len(self.files)} diagram(s) into {outdir}"]
        if self.nothing:
            out.append(f"nothing to draw (no execution satisfies the condition) for {len(self.nothing)} cell(s)")
        if self.failed:
            out.append(f"no diagram for {len(self.failed)} cell(s), e.g. {self.failed[0]}")
        if self.missing_dot:
            out.append(INSTALL_HINT)
        return out


def write_cell_diagrams(run: SuiteRun, outdir: str | Path, fmt: str = "svg") -> DrawnFiles:
    """``OUTDIR/MODEL/TEST.FMT`` (and ``.dot``) for every cell with a diagram; each cell's
    ``files["diagram"]`` names the file the HTML report links to. Model columns and test
    keys are made safe file names (``core.outfiles``); a diagram `dot` fails on is listed
    in ``failed`` and noted in its cell's message, and the other cells still get theirs."""
    from ..core.outfiles import safe_stem, safe_subpath
    from ..render.graphviz_out import write_diagrams

    out = Path(outdir)
    diagrams, owners = [], []
    drawn = DrawnFiles()
    for test in run.tests:
        for col in run.columns:
            cell = run.cells.get((test, col))
            if cell is None or cell.status != OK:
                continue
            if not cell.dot:
                if cell.message:  # why the worker could not lay it out
                    drawn.failed.append(f"{test} under {col}: {cell.message.removeprefix('no diagram: ')}")
                else:
                    drawn.nothing.append(f"{test} under {col}")
                continue
            diagrams.append((f"{safe_stem(col)}/{safe_subpath(test)}", cell.dot))
            owners.append(cell)
            cell.dot = None  # written once; the run keeps only the file name
    written = write_diagrams(diagrams, out, fmt)
    for cell, (path, why) in zip(owners, written.outputs()):
        if path is not None:
            cell.files["diagram"] = str(path)
        else:
            cell.message = f"no diagram: graphviz `dot` failed: {why}"
            drawn.failed.append(f"{cell.test} under {cell.model}: graphviz `dot` failed: {why}")
    drawn.files, drawn.missing_dot = written.files, written.missing_dot
    return drawn


def write_difference(program, allowing, forbidding, out: Path, test: str,
                     fmt: str = "svg") -> tuple[list[str], list[str]]:
    """For one test two models disagree on: under the allowing model the witness, under the
    other a forbidden execution with the cycle that forbids it; as diagrams
    (``OUT/TEST.MODEL.witness.FMT``, ``OUT/TEST.MODEL.forbidden.FMT``, with their ``.dot``) and
    as herd-shaped text with the explanation (``.txt``), every name made file-safe. The files
    written, and a line for each diagram `dot` could not render."""
    from ..axiomatic import check
    from ..core.outfiles import inside, safe_stem, safe_subpath
    from ..render.graphviz_out import write_diagrams
    from ..render.herd_text import herd_block, why_text

    texts, diagrams = [], []
    for model, kind in ((allowing, "witness"), (forbidding, "forbidden")):
        result = check(program, model, why=True)
        name = f"{safe_subpath(test)}.{safe_stem(model.name)}.{kind}"
        path = inside(out, f"{name}.txt")
        with writing(f"the explanations into {out}"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"Model {model.name}\n" + herd_block(result, show_time=False) + why_text(result),
                            errors="replace")
        texts.append(str(path))
        dot = cell_diagram(program, model, result)
        if dot is not None:
            diagrams.append((name, dot))
    written = write_diagrams(diagrams, out, fmt)
    shown = [str(p) for p in written.files]
    return shown + texts, written.failure_lines()
