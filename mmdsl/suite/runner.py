"""Running tests under models: expand paths, run each (test, model) pair, keep errors per file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..core.errors import MmdslError
from ..core.outcome import TestResult
from ..core.resources import resolve_bundled

from ..litmus.registry import PROGRAM_SUFFIXES as LITMUS_SUFFIXES  # .litmus and .rmm


def iter_test_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every litmus file named, or found (recursively, sorted) under a named directory."""
    out: list[Path] = []
    for raw in paths:
        if os.path.isfile(raw):  # the common case, one stat (2,554 arguments: a corpus)
            out.append(Path(raw))
            continue
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
             collect: str = "witness", program=None, explorer: dict | None = None,
             loaded=None) -> TestResult:
    """Run one test file under one model with the chosen engine (``loaded``: the model,
    already loaded by the caller)."""
    from ..lang import load_model
    from ..litmus import load_litmus

    model = loaded if loaded is not None else load_model(model_name)
    prog = program if program is not None else load_litmus(path)
    return check_with(prog, model, engine, why=why, collect=collect, explorer=explorer)


ENGINES = ("axiomatic", "explorer", "both")


def check_with(program, model, engine: str = "axiomatic", *, why: bool = False,
               collect: str = "witness", explorer: dict | None = None) -> TestResult:
    """Run a parsed program under a loaded model with the named engine.

    ``explorer`` holds extra options of the explorer's search (``max_memory``, ``compact``,
    ``unroll``; the checker reads ``unroll`` too).

    ``both`` runs the axiomatic checker and the explorer and fails loudly when their
    sets of final states differ (the axiomatic result is returned otherwise).
    """
    result = _check_with(program, model, engine, why=why, collect=collect, explorer=explorer)
    from ..render.herd_text import no_final_state_line

    # collect="verdict" enumerates only executions that may reach the outcome: none is no news
    line = None if collect == "verdict" else no_final_state_line(result, program.filter is not None)
    if line is not None and line not in result.warnings:
        result.warnings.append(line)
    return result


def _check_with(program, model, engine: str, *, why: bool, collect: str, explorer: dict | None) -> TestResult:
    if engine != "explorer":
        program.require_final_condition("axiomatic checker")
    unroll = (explorer or {}).get("unroll")  # herd's -unroll: both engines read it
    if engine == "axiomatic":
        from ..axiomatic import check

        return check(program, model, why=why, collect=collect, unroll=unroll)
    if engine == "explorer":
        if collect == "verdict" and program.state_property:  # reachable or not: the first one decides
            explorer = dict(explorer or {}, first=True, order="bfs")  # the nearest, in a space maybe endless
        return _explore(program, model, explorer) if explorer else _explore(program, model)
    if engine == "both":
        from ..axiomatic import check

        ax = check(program, model, why=why, collect=collect, unroll=unroll)
        ex = _explore(program, model, explorer) if explorer else _explore(program, model)
        if ax.state_set() != ex.state_set():
            only_ax = sorted(s.text() for s in ax.state_set() - ex.state_set())
            only_ex = sorted(s.text() for s in ex.state_set() - ax.state_set())
            raise EngineDisagreement(
                f"{program.name} under {model.name}: the engines disagree; axiomatic only: "
                f"{'; '.join(only_ax) or '-'}; explorer only: {'; '.join(only_ex) or '-'}")
        return ax
    raise MmdslError(f"unknown engine '{engine}'", expected=", ".join(ENGINES))


class EngineDisagreement(MmdslError):
    """The axiomatic checker and the explorer found different final states."""

    kind = "engines disagree"


def check_engine(engine: str) -> None:
    """Fail early, once, when ``engine`` is unknown."""
    if engine not in ENGINES:
        raise MmdslError(f"unknown engine '{engine}'", expected=", ".join(ENGINES))


def _explore(program, model, options: dict | None = None) -> TestResult:
    from ..explorer import explore

    return explore(program, model, **(options or {}))


def run_many(paths: list[Path], models: list[str], *, engine: str = "axiomatic",
             why: bool = False, timeout: float | None = None,
             collect: str = "witness", explorer: dict | None = None) -> Iterator[RunItem]:
    """Run every test under every model; a bad file yields an item with its error, the rest go on.

    ``timeout`` limits each test under each model, as ``suite --timeout`` does: parsing the
    test counts against its first model. A test that times out yields a TimeLimitError item
    and the run goes on; a model that cannot be loaded within it stops the whole run.
    ``collect="verdict"`` stops each axiomatic check at its first witness (``run -q``).
    ``explorer``: options of the explorer's searches (``max_memory``, ``compact``).
    """
    from ..core.limits import TimeLimitError, check_timeout, too_deep_to_run, within
    from ..lang import load_model
    from ..litmus import load_litmus

    timeout = check_timeout(timeout)
    loaded = {}
    for m in models:  # a bad model is an error for the whole run, reported once
        with within(timeout, f"loading model '{m}'"):
            loaded[m] = load_model(m)  # once per run, not once per test (no stat calls per test)
    for path in paths:
        prog = None
        for i, m in enumerate(models):
            try:
                with within(timeout, f"{path} under {m}"):
                    if prog is None:
                        prog = load_litmus(path)
                    result = run_test(path, m, engine=engine, why=why, program=prog, collect=collect,
                                      explorer=explorer, loaded=loaded[m])
            except TimeLimitError as err:
                error = err
            except MmdslError as err:
                error = located(err, path)
            except RecursionError:
                error = located(too_deep_to_run("the test"), path)
            else:
                yield RunItem(path, m, result=result)
                continue
            if prog is None:  # the test could not be read: the same error under every model
                for rest in models[i:]:
                    yield RunItem(path, rest, error=error)
                break
            yield RunItem(path, m, error=error)


def located(err: MmdslError, path: Path) -> MmdslError:
    """``err`` with the test's path in front of its message when it has no position of its own."""
    if err.pos is None:
        err.message = f"{path}: {err.message}"
    return err
