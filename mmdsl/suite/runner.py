"""Running tests under models: expand paths, run each (test, model) pair, keep errors per file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..core.errors import MmdslError
from ..core.outcome import TestResult
from ..core.resources import resolve_bundled

LITMUS_SUFFIXES = (".litmus",)


def iter_test_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every litmus file named, or found (recursively, sorted) under a named directory."""
    out: list[Path] = []
    for raw in paths:
        p = resolve_bundled(raw, "litmus")
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in LITMUS_SUFFIXES and q.is_file()))
        else:
            out.append(p)
    return out


@dataclass
class RunItem:
    path: Path
    model: str
    result: TestResult | None = None
    error: MmdslError | None = None


def run_test(path: Path, model_name: str, *, engine: str = "axiomatic", why: bool = False,
             collect: str = "witness", program=None) -> TestResult:
    """Run one test file under one model with the chosen engine."""
    from ..lang import load_model
    from ..litmus import load_litmus

    model = load_model(model_name)
    prog = program if program is not None else load_litmus(path)
    if engine == "axiomatic":
        from ..axiomatic import check

        return check(prog, model, why=why, collect=collect)
    raise MmdslError(f"unknown engine '{engine}'", expected="axiomatic")


def run_many(paths: list[Path], models: list[str], *, engine: str = "axiomatic",
             why: bool = False) -> Iterator[RunItem]:
    """Run every test under every model; a bad file yields an item with its error, the rest go on."""
    from ..lang import load_model
    from ..litmus import load_litmus

    for m in models:
        load_model(m)  # a bad model is an error for the whole run, reported once
    for path in paths:
        try:
            prog = load_litmus(path)
        except MmdslError as err:
            for m in models:
                yield RunItem(path, m, error=err)
            continue
        for m in models:
            try:
                yield RunItem(path, m, result=run_test(path, m, engine=engine, why=why, program=prog))
            except MmdslError as err:
                if err.pos is None and getattr(err, "path", None) is None:
                    err.message = f"{path}: {err.message}"
                yield RunItem(path, m, error=err)
