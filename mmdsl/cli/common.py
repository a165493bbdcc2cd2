"""What every command shares: printing errors without tracebacks, exit codes, JSON output."""

from __future__ import annotations

import functools
import sys

import typer

from ..core.errors import MmdslError

EXIT_OK = 0
EXIT_MISMATCH = 1  # ran fine, but an expectation or an agreement check failed
EXIT_ERROR = 2  # bad input: malformed test or model, unsupported construct


def fail(err: MmdslError, as_json: bool = False) -> None:
    """Report a user error (one paragraph, no traceback) and exit with code 2."""
    if as_json:
        from ..render.json_out import dumps, error_dict

        print(dumps({"errors": [error_dict(e) for e in getattr(err, "errors", None) or [err]]}))
    else:
        print(str(err), file=sys.stderr)
    raise typer.Exit(EXIT_ERROR)


def warn(warnings) -> None:
    """Print warnings (already located, one line each) on stderr."""
    for line in warnings:
        print(line, file=sys.stderr)


def user_errors(fn):
    """Turn MmdslError raised by a command into a clean message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MmdslError as err:
            fail(err, kwargs.get("as_json", False))

    return wrapper
