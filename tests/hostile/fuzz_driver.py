"""Run many `mmdsl` command lines in one process, as a user would type them, one JSON line each.

The fuzz test (``test_fuzz.py``) starts this script as a subprocess under a memory limit
and a wall-clock limit per command (see ``fuzz_sandbox.py``): starting Python and
importing mmdsl for every input would cost far more than most runs. It reads a JSON list
of jobs on standard input -- ``{"cwd": FOLDER, "args": [...]}`` -- and for each job

1. prints ``{"start": i}`` (so that the parent knows which job hung if it must kill us),
2. runs ``mmdsl ARGS`` in FOLDER exactly as the console script does (``mmdsl.cli.app.main``
   with ``sys.argv`` set), capturing what it prints;
3. prints ``{"done": i, "code": EXIT, "stdout": ..., "stderr": ..., "places": [FILE, ...],
   "traceback": BOOL}`` (the output cut in its middle when long; the files named with a
   line and column, and whether a traceback was printed, are taken from all of it).

An exception that escapes the command is printed as Python would print it on a user's
terminal (``Traceback (most recent call last): ...``) and counted as exit code 1, so that
the parent sees exactly what a user would see. Nothing else is caught.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import traceback


PLACE = re.compile(r"([^\s:\"']+):\d+:\d+")  # the files of the file:line:col an output names


def run_one(args: list[str]) -> tuple[int, str, str]:
    """Run ``mmdsl ARGS`` in this process; its exit code and what it printed."""
    from mmdsl.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    saved_argv = sys.argv
    sys.argv = ["mmdsl", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
                if stop.code is not None and not isinstance(stop.code, int):
                    print(stop.code, file=sys.stderr)
            except BaseException:  # what the interpreter would print before dying
                traceback.print_exc()
                code = 1
    finally:
        sys.argv = saved_argv
    return code, out.getvalue(), err.getvalue()


def main() -> None:
    jobs = json.loads(sys.stdin.read())
    # Load what every command needs once; the commands import the rest lazily themselves.
    import mmdsl.cli.app  # noqa: F401

    home = os.getcwd()
    for i, job in enumerate(jobs):
        print(json.dumps({"start": i}), flush=True)
        os.chdir(job["cwd"])
        try:
            code, out, err = run_one(job["args"])
        finally:
            os.chdir(home)
        print(json.dumps({"done": i, "code": code, "stdout": _cut(out), "stderr": _cut(err),
                          "places": PLACE.findall(out + "\n" + err),
                          "traceback": "Traceback (most recent call last)" in out + err}), flush=True)


def _cut(text: str, keep: int = 8000) -> str:
    """Long output without its middle (a traceback's first and last lines both matter)."""
    return text if len(text) <= 2 * keep else f"{text[:keep]}\n[... cut ...]\n{text[-keep:]}"


if __name__ == "__main__":
    main()
