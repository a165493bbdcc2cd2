"""What every command shares: printing errors without tracebacks, exit codes, JSON output."""

from __future__ import annotations

import functools
import sys

import typer

from ..core.errors import MmdslError

EXIT_OK = 0
EXIT_MISMATCH = 1  # ran fine, but an expectation or an agreement check failed
EXIT_ERROR = 2  # bad input: malformed test or model, unsupported construct
EXIT_TIMEOUT = 1  # stopped by --timeout: the input may be fine, the run was cut short


def timeout_option():
    """The ``--timeout SECONDS`` option of run, explore, fences and draw (suite has its own default)."""
    return typer.Option(0.0, "--timeout", min=0,
                        help="Stop past SECONDS with a clear message and exit code 1 (0: no limit); "
                             "run: per test and model, parsing included, the other tests go on.")


def fail(err: MmdslError, as_json: bool = False) -> None:
    """Report a user error (one paragraph, no traceback) and exit with code 2 (1 for a timeout)."""
    from ..core.limits import TimeLimitError

    if as_json:
        from ..render.json_out import dumps, error_dict

        print(dumps({"errors": [error_dict(err)]}))
    else:
        print(str(err), file=sys.stderr)
    raise typer.Exit(EXIT_TIMEOUT if isinstance(err, TimeLimitError) else EXIT_ERROR)


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
