"""A time limit around one test run: SIGALRM in a main thread, an asynchronous exception elsewhere."""

from __future__ import annotations

import ctypes
import signal
import threading
from contextlib import contextmanager


MAX_TIMEOUT = 1e6  # seconds (11.6 days): the interval timer cannot count much further


def check_timeout(seconds: float | None) -> float | None:
    """The per-cell limit to use (None: no limit), or an error for one no timer can keep."""
    from ..core.errors import MmdslError

    if seconds is None or seconds == 0:
        return None
    if not 0 < seconds <= MAX_TIMEOUT:  # also NaN and infinity
        raise MmdslError(f"--timeout {seconds:g} is not a time limit",
                         expected=f"seconds between 0 (no limit) and {MAX_TIMEOUT:,.0f}")
    return seconds


class TestTimeout(BaseException):
    """Raised inside a test run that overran its time limit (a BaseException, so that no
    ``except Exception`` in an engine swallows it)."""

    __test__ = False  # not a pytest test class


@contextmanager
def time_limit(seconds: float | None):
    """Raise TestTimeout in the running code once ``seconds`` have passed (None or 0: no limit).

    In a process's main thread (local worker processes) this is an interval timer and
    SIGALRM; in any other thread (Dask workers run tasks in threads) a timer thread
    raises the exception asynchronously in the running thread. Both interrupt Python code;
    code blocked inside a C call is interrupted when it returns -- the local executor
    also kills a worker that overruns by more than a grace period.
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
def _alarm(seconds: float):
    def on_alarm(signum, frame):
        raise TestTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
