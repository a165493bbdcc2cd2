"""Model differences: the tests of a suite on which two models disagree, and their executions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .manifest import ModelRef, Suite
from .run import SuiteRun
from .work import OK


@dataclass
class Difference:
    test: str
    allowed_by: str  # the model column that allows the condition's outcome
    forbidden_by: str
    files: list[str] = field(default_factory=list)


@dataclass
class ModelDiff:
    a: ModelRef
    b: ModelRef
    run: SuiteRun
    differences: list[Difference]
    failed: list[tuple[str, str, str]]  # test, model, what happened (no verdict to compare)
    outdir: Path | None = None  # where write_executions put the files
    undrawn: list[tuple[str, str]] = field(default_factory=list)  # test, why it has no executions written
    # test, model column, what of the test that model alone has no rule for (the other has):
    # the two verdicts judge different programs, so the test is left out of the comparison
    unshared: list[tuple[str, str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        a, b = self.a.column, self.b.column
        left_out = {t for t, _, _ in self.failed} | {t for t, _, _ in self.unshared}
        compared = len(self.run.tests) - len(left_out)
        some = f"{compared} {'compared ' if left_out else ''}test{'s' if compared != 1 else ''}"
        if not self.differences:
            head = f"{a} and {b} agree on {'all ' if compared != 1 else ''}{some} of {self.run.suite.name}"
        elif compared == 1:
            head = f"{a} and {b} differ on the one test of {self.run.suite.name}:"
        else:
            head = f"{a} and {b} differ on {len(self.differences)} of the {some} of {self.run.suite.name}:"
        lines = [head]
        width = max((len(d.test) for d in self.differences), default=0)
        for d in self.differences:
            lines.append(f"  {d.test:<{width}}  allowed by {d.allowed_by}, forbidden by {d.forbidden_by}")
        if self.differences:
            for col in (a, b):
                count = sum(d.allowed_by == col for d in self.differences)
                lines.append(f"{col} allows {count} of them")
        groups: dict[tuple[str, str], list[str]] = {}
        for test, col, what in self.failed:
            groups.setdefault((col, what), []).append(test)
        for (col, what), tests in groups.items():
            shown = ", ".join(tests[:3]) + (", ..." if len(tests) > 3 else "")
            said = "gave an error" if what == "error" else what
            lines.append(f"not compared: {len(tests)} test(s) {said} under {col} ({shown})")
        lines += self._unshared_lines()
        files = [f for d in self.differences for f in d.files]
        if self.outdir is not None:
            texts = sum(f.endswith(".txt") for f in files)
            lines.append(f"wrote {len(files) - texts} diagram(s) and {texts} text explanation(s) into {self.outdir} "
                         "(the witness under the model that allows, the forbidding cycle under the other)")
        for test, why in self.undrawn:
            lines.append(f"no executions written for {test}: {why}")
        return lines

    def _unshared_lines(self) -> list[str]:
        """One line per test left out because one model has no rule for part of it."""
        per_test: dict[str, dict[str, list[str]]] = {}
        for test, col, what in self.unshared:
            per_test.setdefault(test, {}).setdefault(col, []).append(what)
        if not per_test:
            return []
        lines = [f"not compared: {len(per_test)} test(s) use a fence or an annotation only one of the models "
                 "has rules for:"]
        width = max(len(t) for t in per_test)
        for test, cols in per_test.items():
            said = "; ".join(f"{col} has no {', '.join(whats)}" for col, whats in cols.items())
            lines.append(f"  {test:<{width}}  {said}")
        return lines


def differences(run: SuiteRun, a: ModelRef, b: ModelRef) -> ModelDiff:
    """Every test whose verdict under ``a`` differs from its verdict under ``b``.

    A test that uses a fence or an annotation one model has no rule for and the other has
    (``lwsync`` under armv8, ``w[rel]`` under power) is not compared: the first model
    reads it as a program without that construct. A construct neither model knows is the
    same program for both, and is compared.
    """
    diffs, failed, unshared = [], [], []
    for test in run.tests:
        ca, cb = run.cells.get((test, a.column)), run.cells.get((test, b.column))
        bad = [(c, col) for c, col in ((ca, a.column), (cb, b.column)) if c is None or c.status != OK]
        if bad:
            failed += [(test, col, c.text if c is not None else "not run") for c, col in bad]
            continue
        only_a, only_b = set(ca.ignored) - set(cb.ignored), set(cb.ignored) - set(ca.ignored)
        if only_a or only_b:
            unshared += [(test, col, what) for col, whats in ((a.column, only_a), (b.column, only_b))
                         for what in sorted(whats)]
            continue
        if ca.verdict != cb.verdict:
            allowing, forbidding = (a, b) if ca.verdict == "Allowed" else (b, a)
            diffs.append(Difference(test, allowing.column, forbidding.column))
    return ModelDiff(a, b, run, diffs, failed, unshared=unshared)


def write_executions(diff: ModelDiff, suite: Suite, out: Path, fmt: str = "svg") -> None:
    """For each difference: the witness under the allowing model and a forbidden execution with
    its violated axiom and cycle under the other, as diagrams and herd-shaped text."""
    from ..core.errors import UnsupportedError
    from ..lang import load_model
    from ..litmus import load_litmus
    from ..render.drawing import require_loop_free
    from .drawing import write_difference

    diff.outdir = out
    paths = {t.key: t.path for t in suite.tests}
    models = {diff.a.column: diff.a, diff.b.column: diff.b}
    for d in diff.differences:
        program = load_litmus(paths[d.test])
        try:
            require_loop_free(program)
        except UnsupportedError as err:  # the explorer told them apart; the checker cannot run it
            diff.undrawn.append((d.test, err.message))
            continue
        allowing = load_model(models[d.allowed_by].source)
        forbidding = load_model(models[d.forbidden_by].source)
        d.files, failures = write_difference(program, allowing, forbidding, out, d.test, fmt)
        diff.undrawn += [(d.test, why) for why in failures]
