"""`mmdsl run`'s work, and its command line read without typer for the common shapes.

typer (with pydantic, which it coerces every parameter through) is a third of the start-up
of ``mmdsl run`` on one test and ~0.1 s of every run. ``app.main`` therefore reads a
``mmdsl run`` command line here first (``run_fast``): files, ``-m``/``--model``,
``-q``/``--quiet``, ``--json``, ``--why``, ``--matrix``, ``-e``/``--engine``,
``--timeout``, ``--cat-path``/``-I``, herd's ``--variant``, ``--skipcheck``, ``--through``,
``--show``, ``-o``, ``--conf``, each value given as the next word; herd's single-dash
spellings (``-variant``, ``-show`` ...) are read as these (``herd_spellings``, before typer too). Anything else -- help,
another option, ``--opt=value``, a value that starts with ``-`` or is not a plain number --
goes to the typer command (``run_cmd``), which calls the same ``run_tests``, so both give
the same output and exit codes; typer's own messages (bad options, help) stay typer's.
"""

from __future__ import annotations

import errno
import os
import re
import sys

from ..core.errors import MmdslError
from .common import (EXIT_ERROR, EXIT_MISMATCH, EXIT_TIMEOUT, CommandExit, report, startup_done, use_cat_path,
                     warn)

_FLAGS = {"-q": "quiet", "--quiet": "quiet", "--json": "as_json", "--why": "why", "--matrix": "matrix"}
_VALUES = {"-m": "model", "--model": "model", "-e": "engine", "--engine": "engine", "--timeout": "timeout",
           "--cat-path": "cat_path", "-I": "cat_path", "--variant": "variant", "--skipcheck": "skipcheck",
           "--through": "through", "--show": "show", "-o": "output_dir", "--output-dir": "output_dir",
           "--conf": "conf"}
_LISTS = ("model", "cat_path", "variant", "skipcheck")
# herd7's spellings of the options `mmdsl run` shares with it
HERD_SPELLINGS = {"-model": "--model", "-variant": "--variant", "-skipcheck": "--skipcheck",
                  "-skipchecks": "--skipcheck", "-through": "--through", "-show": "--show", "-conf": "--conf",
                  "-timeout": "--timeout"}


def herd_spellings(argv: list[str]) -> list[str]:
    """``argv`` with herd's single-dash option names (``-variant mixed``) spelled as mmdsl's."""
    out, value_next = [], False
    for word in argv:
        out.append(word if value_next else HERD_SPELLINGS.get(word, word))
        value_next = not value_next and out[-1] in _VALUES
    return out
_NUMBER = re.compile(r"(0|[1-9][0-9]*)(\.[0-9]+)?\Z")  # --timeout: what typer reads the same


def parse_run_args(argv: list[str]) -> dict | None:
    """The arguments of ``run_tests`` for the words after ``mmdsl run``, or None when they are
    not of the common shapes above (typer reads them then)."""
    args = {"tests": [], "model": [], "as_json": False, "quiet": False, "why": False, "matrix": False,
            "engine": None, "timeout": 0.0, "cat_path": [], "variant": [], "skipcheck": []}
    # the others: run_tests' defaults
    words = iter(argv)
    for word in words:
        if not word.startswith("-"):
            args["tests"].append(word)
        elif word in _FLAGS:
            args[_FLAGS[word]] = True
        elif word in _VALUES:
            value = next(words, None)
            if value is None or value.startswith("-") or not value:
                return None
            name = _VALUES[word]
            if name == "timeout":
                if not _NUMBER.match(value):
                    return None
                args["timeout"] = float(value)
            elif name in _LISTS:
                args[name].append(value)
            else:
                args[name] = value
        else:
            return None
    if not args["tests"]:
        return None
    return args


def run_fast(argv: list[str]) -> int | None:
    """``mmdsl run ARGV`` without typer: its exit code, or None (not read here: use typer)."""
    args = parse_run_args(herd_spellings(argv))
    if args is None:
        return None
    try:
        try:
            run_tests(**args)
        except MmdslError as err:
            return report(err, args["as_json"])
        except RecursionError:
            from ..core.limits import too_deep_to_run

            return report(too_deep_to_run(), args["as_json"])
    except CommandExit as stop:
        return stop.code
    except KeyboardInterrupt:
        return 130  # as typer
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        # the reader went away (``mmdsl run ... | head``): exit 1 quietly, as typer does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def run_tests(tests, model=(), as_json=False, why=False, quiet=False, matrix=False, draw=None, draw_format="svg",
              engine=None, max_memory=None, compact=False, spec=None, timeout=0.0, cat_path=(), variant=(),
              skipcheck=(), through=None, show=None, output_dir=None, conf=None, unroll=None,
              reduction="threads") -> None:
    """Run tests under models and print herd-shaped results (``mmdsl run``).

    The defaults are the typer command's (``run_cmd.run``; a test checks they agree): a new
    option of ``mmdsl run`` goes into both, with the same default, and ``parse_run_args``
    leaves it to typer unless it is added to ``_FLAGS`` / ``_VALUES`` too. herd's options
    (``variant`` ... ``conf``) hold for this run only (``lang.herd_options``)."""
    from ..lang.herd_options import set_options

    model, cat_path, variant, skipcheck = list(model), list(cat_path), list(variant), list(skipcheck)
    if conf is not None:  # herd's -conf FILE: its options, after the command line's own
        from ..lang.herd_options import read_conf

        c = read_conf(conf)
        model = model or c.models
        cat_path += c.cat_path
        variant += c.variants
        skipcheck += c.skipchecks
        through, show = through or c.through, show or c.show
        timeout = timeout or c.timeout or 0.0
    model = model or ["sc"]
    set_options(variant, skipcheck, through or "none")
    try:
        if variant:
            _warn_untested_variants(model, variant)
        _run(tests, model, as_json, why, quiet, matrix, draw, draw_format, engine, max_memory, compact, spec,
             timeout, cat_path, show or "none", output_dir, unroll, reduction)
    finally:
        set_options()


def _warn_untested_variants(models, variants) -> None:
    """A --variant no `if` of a model tests changes nothing there: say so (herd's variants
    that change instruction semantics, -variant mixed ..., are not mmdsl's)."""
    from ..lang import load_model
    from ..lang.herd_options import split_names

    for name in models:
        try:
            m = load_model(name)
        except MmdslError:
            continue  # the run reports it
        untested = [v for v in split_names(variant for variant in variants) if v not in m.variants_tested]
        if untested:
            warn([f"warning: no condition of model {m.name} tests the variant(s) {', '.join(untested)}: "
                  "they change nothing there"])


def _run(tests, model, as_json, why, quiet, matrix, draw, draw_format, engine, max_memory, compact, spec,
         timeout, cat_path, show, output_dir, unroll=None, reduction="threads") -> None:
    from ..core.limits import TimeLimitError, check_timeout
    from ..render.herd_text import herd_block, reached_no_final_state, why_text
    from ..suite.runner import EngineDisagreement, check_engine, iter_test_files, run_many

    explicit_engine = engine is not None
    engine = engine or "axiomatic"
    check_engine(engine)
    if max_memory is not None:  # a bad ceiling is one error for the run, not one per test
        from ..explorer.memory import MemoryCeiling

        MemoryCeiling(max_memory)
    use_cat_path(cat_path)
    timeout = check_timeout(timeout)
    if why and engine == "explorer":
        raise MmdslError("--why explains forbidden executions with the axiomatic checker",
                         hint="use --engine axiomatic or --engine both")
    if reduction not in ("threads", "dotnet", "none"):
        raise MmdslError(f"unknown reduction '{reduction}'", expected="threads, dotnet, none")
    if reduction != "threads" and (engine not in ("explorer", "both") or spec is not None):
        raise MmdslError(f"--reduction {reduction} is an option of the explorer's runs",
                         hint="add --engine explorer (or both); --spec serial keeps the default reduction")

    files = iter_test_files(tests)
    if not files:
        print("no litmus tests found in " + ", ".join(tests), file=sys.stderr)
        raise CommandExit(EXIT_ERROR)
    if spec is not None:
        from .spec_common import run_spec

        if engine == "both":
            raise MmdslError("--spec serial runs one engine", hint="--engine explorer (default) or axiomatic")
        options = {"max_memory": max_memory, "compact": compact} if max_memory or compact else {}
        run_spec([str(f) for f in files], list(model), spec, engine if explicit_engine else "explorer", as_json,
                 True, options, timeout=timeout)
        return
    drawer = None
    if draw is not None:
        from ..render.run_diagrams import RunDiagrams

        drawer = RunDiagrams(draw, draw_format, files)
    herd_dots = None
    if output_dir is not None:  # herd's -o DIR (with -show): DIR/TEST.dot
        from ..render.herd_dot_out import HerdDotOutput

        herd_dots = HerdDotOutput(output_dir, show, model)
    elif show != "none":
        from ..render.herd_dot_out import check_show

        check_show(show)
    explorer = {k: v for k, v in (("max_memory", max_memory), ("compact", compact), ("unroll", unroll)) if v}
    if reduction != "threads":  # the explorer's partial-order reduction, as `explore --reduction`
        explorer["por"] = "dotnet" if reduction == "dotnet" else False
    items = []
    progress = _progress(not as_json, len(files) * len(model))
    # -q needs only each verdict: the checker stops at the first allowed execution that
    # satisfies the condition (herd's -speedcheck true) unless something else wants them all
    # (the explorer: at the first reachable state of a state property, Memorax's forbidden labels)
    verdict_only = quiet and not why and not as_json and drawer is None and engine in ("axiomatic", "explorer")
    for item in run_many(files, list(model), engine=engine, why=why or drawer is not None,
                         timeout=timeout, collect="verdict" if verdict_only else "witness",
                         explorer=explorer or None):
        if not items:  # the first test loaded the model and the parser: start-up is done
            startup_done()
        items.append(item)
        if drawer is not None:
            drawer.add(item)
        if herd_dots is not None:
            herd_dots.add(item)
        progress.advance()
        if as_json:
            continue
        if item.error is not None:
            print(str(item.error), file=sys.stderr)
            continue
        warn(item.result.warnings)
        text = ""
        if not quiet:
            if len(model) > 1:
                text += f"Model {item.model}\n"
            text += herd_block(item.result)
        if why:
            text += why_text(item.result)
        if text:
            print(text)
    progress.stop()
    if drawer is not None:
        drawer.finish()
    if herd_dots is not None:
        herd_dots.finish()
    errors = sum(1 for it in items if it.error is not None)
    disagreements = sum(1 for it in items if isinstance(it.error, EngineDisagreement))
    timeouts = sum(1 for it in items if isinstance(it.error, TimeLimitError))
    if as_json:
        from ..render.json_out import dumps, error_dict, result_dict

        print(dumps({
            "results": [result_dict(it.result, why) for it in items if it.result is not None],
            "errors": [dict(error_dict(it.error, str(it.path)), model=it.model)
                       for it in items if it.error is not None],
        }))
    elif len(files) > 1 or len(model) > 1 or (quiet and not why):  # -q on one test: its verdict
        _summary(items, len(files), model, errors, matrix)
    if errors > disagreements + timeouts:
        raise CommandExit(EXIT_ERROR)
    if disagreements:
        raise CommandExit(EXIT_MISMATCH)
    if timeouts:
        raise CommandExit(EXIT_TIMEOUT)
    # the explorer reached no final state (every path deadlocked or never ended): herd's
    # block with States 0 is a verdict about nothing. The checker cannot tell that from a
    # model forbidding every execution, a verdict herd exits 0 on: it only warns.
    if not verdict_only and any(it.result is not None and it.result.engine == "explorer"
                                and reached_no_final_state(it.result) for it in items):
        raise CommandExit(EXIT_MISMATCH)


class _NoProgress:
    def advance(self) -> None:
        pass

    def stop(self) -> None:
        pass


def _progress(enabled: bool, runs: int):
    """A progress bar on a terminal past 40 runs; below that, or off a terminal, not even its
    module is imported (rich's Console would find stderr is no terminal: suite.console)."""
    if not enabled or runs <= 40:
        return _NoProgress()
    isatty = getattr(sys.stderr, "isatty", None)
    if isatty is not None and not isatty() and not any(name in os.environ for name in _COLOUR_ENV):
        return _NoProgress()
    from ..suite.console import RunProgress

    progress = RunProgress(enabled=True, threshold=41)
    progress.start(runs)
    return progress


def _summary(items, nfiles: int, models, errors: int, full: bool) -> None:
    from ..render.matrix import matrix_counts, matrix_table

    counts = matrix_counts(items)
    table = full or nfiles <= 100
    lines = [(f"{m}: {c['Allowed']} allowed, {c['Forbidden']} forbidden",
              f", {c['errors']} errors" if c["errors"] else "") for m, c in counts.items()]
    lines.append((f"{nfiles} test(s) x {len(models)} model(s)", f"; {errors} failed" if errors else ""))
    if not table and _print_plain([head + tail for head, tail in lines]):
        return
    from rich.console import Console
    from rich.markup import escape

    console = Console()
    if table:
        console.print(matrix_table(items))
    for (head, tail), m in zip(lines, [*counts, None]):
        if m is not None:
            head = escape(m) + head[len(m):]
        console.print(head + (f"{tail[:2]}[bold yellow]{tail[2:]}[/]" if tail else ""))


_PLAIN = re.compile(r"[A-Za-z0-9_.,;:/+()= -]*\Z")
_COLOUR_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def _print_plain(lines: list[str]) -> bool:
    """Print ``lines`` as they are when rich's Console would print them unchanged -- on a file
    that is not a terminal, no colour forced, no markup or emoji code (``:name:``) in them,
    each shorter than the width rich would wrap them at -- and say so; False (nothing printed)
    otherwise. Saves importing rich for a run's summary (the common case: output to a file)."""
    if any(name in os.environ for name in _COLOUR_ENV):
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    if isatty is None or isatty():
        return False
    width = _rich_width()
    if any(len(line) >= width or line.count(":") > 1 or not _PLAIN.match(line) for line in lines):
        return False
    print("\n".join(lines))
    return True


def _rich_width() -> int:
    """The width rich's Console takes: COLUMNS, else the first of stdin, stdout, stderr that is a
    terminal, else 80."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80
