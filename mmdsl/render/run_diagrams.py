"""`mmdsl run --draw DIR`: one diagram per test and model, written as the results come in."""

from __future__ import annotations

import sys
from pathlib import Path

from .drawing import result_diagram, run_diagram_stem
from .graphviz_out import INSTALL_HINT, Written, check_format, write_diagrams
from .matrix import test_labels
from .styles import SCREEN


class RunDiagrams:
    """Writes ``DIR/MODEL/LABEL.FMT`` (and ``.dot``) for every successful run item."""

    def __init__(self, outdir: str | Path, fmt: str, paths: list[Path]):
        self.outdir = Path(outdir)
        self.fmt = check_format(fmt)
        self.labels = test_labels([str(p) for p in paths])
        self.written = Written()
        self.skipped: list[str] = []
        self._models: dict = {}
        self._programs: dict = {}

    def add(self, item) -> None:
        """Draw one run item (a test under a model); items that failed are skipped."""
        if item.result is None:
            return
        from ..lang import load_model
        from ..litmus import load_litmus

        model = self._models.get(item.model)
        if model is None:
            model = self._models[item.model] = load_model(item.model)
        key = str(item.path)
        program = self._programs.get(key)
        if program is None:
            self._programs.clear()  # items come test by test: keep only the current one
            program = self._programs[key] = load_litmus(item.path)
        source = result_diagram(program, model, item.result, SCREEN)
        label = self.labels[key]
        if source is None:
            self.skipped.append(f"{label} under {item.model}")
            return
        stem = f"{run_diagram_stem(model.name)}/{run_diagram_stem(label)}"
        self.written.add(write_diagrams([(stem, source)], self.outdir, self.fmt))

    def finish(self) -> None:
        """One line on stderr: how many diagrams went where (and the install hint if `dot` is missing)."""
        print(f"wrote {len(self.written.files)} diagram(s) into {self.outdir}", file=sys.stderr)
        if self.skipped:
            print("no execution satisfies the condition, nothing drawn: " + ", ".join(self.skipped),
                  file=sys.stderr)
        if self.written.missing_dot:
            print(INSTALL_HINT, file=sys.stderr)
