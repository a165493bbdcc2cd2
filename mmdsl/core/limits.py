"""Time limits on a run: one mechanism for the CLI, local worker processes and Dask threads.

``time_limit`` raises :class:`TestTimeout` in the running code once a number of seconds
have passed: in a process's main thread through an interval timer and SIGALRM, in any
other thread (Dask runs tasks in threads) through an asynchronous exception raised by a
timer thread. ``within`` turns that into a :class:`TimeLimitError`, a user error that
names what ran out of time. Every command that takes ``--timeout`` (``run``, ``explore``,
``fences``, ``draw``, ``suite``) goes through these two.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from .errors import MmdslError

MAX_TIMEOUT = 1e6  # seconds (11.6 days): the interval timer cannot count much further


class TimeLimitError(MmdslError):
    """A run that did not finish within its ``--timeout``."""

    kind = "timeout"


class TestTimeout(BaseException):
    """Raised inside a run that overran its time limit (a BaseException, so that no
    ``except Exception`` in an engine swallows it)."""

    __test__ = False  # not a pytest test class


def check_timeout(seconds: float | None) -> float | None:
    """The limit to use (None: no limit), or an error for one no timer can keep."""
    if seconds is None or seconds == 0:
        return None
    if not 0 < seconds <= MAX_TIMEOUT:  # also NaN and infinity
        raise MmdslError(f"--timeout {seconds_text(seconds)} is not a time limit",
                         expected=f"seconds between 0 (no limit) and {MAX_TIMEOUT:,.0f}")
    return seconds


def too_deep_to_run(what: str = "the input") -> MmdslError:
    """The error for a RecursionError that escaped the parsers (which locate their own)."""
    from .errors import UnsupportedError

    return UnsupportedError(f"{what} is nested or chained too deeply to be handled (Python's recursion limit)",
                            hint="split it into smaller parts")


def seconds_text(seconds: float) -> str:
    """A number of seconds as the user wrote it: ``1000001``, ``0.25`` (``:g`` would print 1e+06)."""
    if isinstance(seconds, float) and seconds.is_integer() and abs(seconds) < 1e16:
        return str(int(seconds))
    return repr(seconds) if isinstance(seconds, float) else str(seconds)


def timeout_text(seconds: float) -> str:
    return f"timed out after {seconds_text(seconds)} s"


@contextmanager
def time_limit(seconds: float | None):
    """Raise TestTimeout in the running code once ``seconds`` have passed (None or 0: no limit).

    Both ways interrupt Python code; code blocked inside a C call is interrupted when it
    returns (the local suite executor also kills a worker that overruns by more than a
    grace period, and ``within(..., hard=True)`` ends the process).
    """
    if not seconds or seconds <= 0:
        yield
        return
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        with _alarm(seconds):
            yield
    else:
        with _async_timer(seconds):
            yield


@contextmanager
def within(seconds: float | None, what: str, *, hard: bool = False):
    """Run the body within ``seconds`` or raise TimeLimitError("``what``: timed out after N s").

    With ``hard`` (the CLI's single runs), a watchdog also ends the process with exit code 1
    when the body is stuck in native code well past the limit, where no exception can reach it.
    """
    seconds = check_timeout(seconds)
    watchdog = _watchdog(seconds, what) if hard and seconds else None
    try:
        with time_limit(seconds):
            yield
    except TestTimeout:
        raise TimeLimitError(f"{what}: {timeout_text(seconds)}",
                             hint="raise --timeout, or give --timeout 0 for no limit") from None
    finally:
        if watchdog is not None:
            watchdog.cancel()


def grace(seconds: float) -> float:
    """How long past its limit a run stuck in native code may go on before it is killed."""
    return seconds * 0.5 + 2.0


def _watchdog(seconds: float, what: str) -> threading.Timer:
    def expire() -> None:
        print(f"timeout: {what}: {timeout_text(seconds)} (stopped inside native code)",
              file=sys.stderr, flush=True)
        os._exit(1)

    timer = threading.Timer(seconds + grace(seconds), expire)
    timer.daemon = True
    timer.start()
    return timer


@contextmanager
def _alarm(seconds: float):
    """SIGALRM after ``seconds``; an outer limit that ends sooner is kept, and restored after."""
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer_left and outer_left <= seconds:  # the enclosing limit fires first: let it
        yield
        return

    def on_alarm(signum, frame):
        raise TestTimeout(seconds)

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:  # give the enclosing limit what is left of its time
            left = outer_left - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


@contextmanager
def _async_timer(seconds: float):
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(TestTimeout))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
            timer.cancel()
            if state["fired"]:  # fired as the run ended: withdraw it if not yet delivered
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
