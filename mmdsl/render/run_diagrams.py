"""`mmdsl run --draw DIR`: one diagram per test and model, laid out as results come in, rendered at the end."""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.errors import MmdslError
from ..core.outfiles import safe_stem, safe_subpath
from .drawing import result_diagram
from .graphviz_out import INSTALL_HINT, check_format, write_diagrams
from .matrix import test_labels
from .styles import SCREEN


class RunDiagrams:
    """Writes ``DIR/MODEL/LABEL.FMT`` (and ``.dot``) for every successful run item.

    The DOT texts are kept until ``finish`` so that `dot` renders them all in one batch.
    """

    def __init__(self, outdir: str | Path, fmt: str, paths: list[Path]):
        self.outdir = Path(outdir)
        self.fmt = check_format(fmt)
        self.labels = test_labels([str(p) for p in paths])
        self.diagrams: list[tuple[str, str]] = []
        self.skipped: list[str] = []  # no execution satisfies the condition
        self.failed: list[str] = []  # no execution diagram can be drawn (a loop), with why
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
        label = self.labels[key]
        try:
            source = result_diagram(program, model, item.result, SCREEN)
        except MmdslError as err:
            self.failed.append(f"{label} under {item.model}: {err.message}")
            return
        if source is None:
            self.skipped.append(f"{label} under {item.model}")
            return
        self.diagrams.append((f"{safe_stem(model.name)}/{safe_subpath(label)}", source))

    def finish(self) -> None:
        """Render, then one line on stderr: how many diagrams went where (and the hint if `dot` is missing)."""
        written = write_diagrams(self.diagrams, self.outdir, self.fmt)
        print(f"wrote {len(written.files)} diagram(s) into {self.outdir}", file=sys.stderr)
        if self.skipped:
            print("no execution satisfies the condition, nothing drawn: " + ", ".join(self.skipped),
                  file=sys.stderr)
        for line in self.failed:
            print(f"no diagram for {line}", file=sys.stderr)
        for line in written.failure_lines():
            print(line, file=sys.stderr)
        if written.missing_dot:
            print(INSTALL_HINT, file=sys.stderr)
