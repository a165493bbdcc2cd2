"""What every command shares: printing errors without tracebacks, exit codes, JSON output.

typer is imported only where a function needs it: ``run_main`` (``mmdsl run`` started
without typer) uses this module too.
"""

from __future__ import annotations

import functools
import gc
import sys

from ..core.errors import MmdslError

EXIT_OK = 0
EXIT_MISMATCH = 1  # ran fine, but an expectation or an agreement check failed
EXIT_ERROR = 2  # bad input: malformed test or model, unsupported construct
EXIT_TIMEOUT = 1  # stopped by --timeout: the input may be fine, the run was cut short


STARTUP_GC_THRESHOLD = (50_000, 20, 100)  # gen0 collections every 50,000 allocations, not 700
_startup = {"gc": None}  # the collector's thresholds before collect_seldom(), while start-up lasts


def collect_seldom() -> None:
    """The ``mmdsl`` process's start-up (``app.main``): collect cyclic garbage seldom.

    Start-up makes ~10^5 long-lived objects (typer, pydantic, the parsers, the model) and
    almost no garbage; the collector's default threshold walks them again and again.
    """
    _startup["gc"] = gc.get_threshold()
    gc.set_threshold(*STARTUP_GC_THRESHOLD)


def startup_done() -> None:
    """Before a command's loop: move everything made so far out of the collector's sight
    (``gc.freeze``) and collect as before. Only in the ``mmdsl`` process (after
    ``collect_seldom``), not where a test calls the command in its own process: that process
    goes on after the command and its garbage must stay collectable."""
    if _startup["gc"] is not None:
        gc.freeze()
        gc.set_threshold(*_startup["gc"])
        _startup["gc"] = None


class CommandExit(Exception):
    """A command's exit code, raised by code that runs without typer (``run_main``); the
    typer command turns it into ``typer.Exit``."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def timeout_option():
    """The ``--timeout SECONDS`` option of run, explore, fences and draw (suite has its own default)."""
    import typer

    return typer.Option(0.0, "--timeout", min=0,
                        help="Stop past SECONDS with a clear message and exit code 1 (0: no limit); "
                             "run: per test and model, parsing included, the other tests go on.")


def cat_path_option():
    """``--cat-path DIR`` (repeatable): where a herd .cat model's includes are searched, like herd's -I."""
    import typer

    return typer.Option([], "--cat-path", "-I", metavar="DIR",
                        help="For -m FILE.cat: a folder searched for included .cat files and stdlib.cat "
                             "after the model's own folder (like herd's -I); repeat for several.")


def use_cat_path(dirs) -> None:
    """Make ``--cat-path`` folders the search path of cat models (worker processes inherit it)."""
    if dirs:  # the cat loader is imported only when a folder is given (not for every run)
        import os

        from ..lang.cat_lower import CAT_PATH_ENV

        os.environ[CAT_PATH_ENV] = os.pathsep.join(str(d) for d in dirs)


def report(err: MmdslError, as_json: bool = False) -> int:
    """Print a user error (one paragraph, no traceback); its exit code: 2 (1 for a timeout)."""
    from ..core.limits import TimeLimitError

    if as_json:
        from ..render.json_out import dumps, error_dict

        print(dumps({"errors": [error_dict(e) for e in getattr(err, "errors", None) or [err]]}))
    else:
        print(str(err), file=sys.stderr)
    return EXIT_TIMEOUT if isinstance(err, TimeLimitError) else EXIT_ERROR


def fail(err: MmdslError, as_json: bool = False) -> None:
    """Report a user error (one paragraph, no traceback) and exit with code 2 (1 for a timeout)."""
    import typer

    raise typer.Exit(report(err, as_json))


def warn(warnings) -> None:
    """Print warnings (already located, one line each) on stderr."""
    for line in warnings:
        print(line, file=sys.stderr)


def user_errors(fn):
    """Turn MmdslError raised by a command into a clean message and exit code 2; so too a
    RecursionError, the last resort for an input nested or chained beyond what a recursive
    part of the tool can follow (the parsers locate such errors themselves)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MmdslError as err:
            fail(err, kwargs.get("as_json", False))
        except RecursionError:
            from ..core.limits import too_deep_to_run

            fail(too_deep_to_run(), kwargs.get("as_json", False))

    return wrapper


def within_timeout(what: str):
    """Run a single-test command within its ``--timeout`` (the ``timeout`` argument), or stop
    it with a TimeLimitError naming ``what`` -- formatted with the command's arguments, e.g.
    ``"exploring {test} under {model}"``. Put it under ``@user_errors``, which prints the error.

    A watchdog also ends the process when the command is stuck in native code (CP-SAT,
    graphviz) well past the limit. ``run`` limits each test instead (``suite.runner.run_many``).
    """

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            from ..core.limits import within

            with within(kwargs.get("timeout"), what.format(**kwargs), hard=True):
                return fn(*args, **kwargs)

        return wrapper

    return decorate
