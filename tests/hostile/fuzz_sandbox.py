"""Run `mmdsl` command lines in a guarded subprocess: a memory limit, a wall-clock limit per command.

``run_jobs`` hands a batch of jobs to ``fuzz_driver.py`` (one Python process for the
batch, started with ``RLIMIT_AS`` set) and reads one line per job as it finishes. A job
that runs past its wall-clock limit is a hang: the process group is killed, the job is
reported with ``hung=True``, and the remaining jobs go to a fresh driver. A driver that
dies (a crash, the memory limit) reports its current job with what it printed.

``check_outcome`` is the property every fuzzed command must have: exit 0 (or 1 where the
command documents 1), or exit 2 with a one-paragraph error that names the input's
``file:line:col``; never a traceback, never past the limits.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

DRIVER = Path(__file__).resolve().parent / "fuzz_driver.py"
MEMORY_LIMIT = 1536 << 20  # bytes of address space for the driver (mmdsl fences needs ~400 MiB)
TIME_LIMIT = 30.0  # wall-clock seconds for one command; the bundled tests take well under one


@dataclass
class Job:
    """One command line to run: ``mmdsl ARGS`` in folder ``cwd``; ``inputs`` are the fuzzed
    files (names relative to ``cwd``) that a located error must name."""

    cwd: str
    args: list[str]
    inputs: list[str] = field(default_factory=list)
    ok_codes: tuple[int, ...] = (0, 2)
    timeout_exits_1: bool = False  # the command was given --timeout: a run it stops exits 1 (docs/cli.md)


@dataclass
class Outcome:
    job: Job
    code: int | None
    stdout: str
    stderr: str
    hung: bool = False
    seconds: float = 0.0
    places: list[str] = field(default_factory=list)  # files named as FILE:LINE:COL in the output
    traceback: bool = False

    def describe(self) -> str:
        shown = " ".join(self.job.args)
        files = []
        for name in self.job.inputs:
            try:
                files.append(f"--- {name}:\n{(Path(self.job.cwd) / name).read_text(errors='replace')}")
            except OSError:
                pass
        state = "HUNG (killed)" if self.hung else f"exit {self.code}"
        return (f"mmdsl {shown}  [{state}, {self.seconds:.1f}s]\n" + "\n".join(files)
                + f"\n--- stderr:\n{self.stderr[-4000:]}\n--- stdout:\n{self.stdout[-1500:]}")


def _limit_memory() -> None:
    os.setsid()  # its own process group, so that a kill also ends what it started
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _start(jobs: list[Job]) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_limit_memory, env=_environment())
    proc.stdin.write(json.dumps([{"cwd": j.cwd, "args": j.args} for j in jobs]).encode())
    proc.stdin.close()
    return proc


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"COLUMNS": "120", "TERM": "dumb", "NO_COLOR": "1", "PYTHONHASHSEED": "0"})
    return env


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    proc.stdout.close()
    proc.stderr.close()


def run_jobs(jobs: list[Job], time_limit: float = TIME_LIMIT) -> list[Outcome]:
    """Run every job (in order, few processes); one Outcome each."""
    outcomes: list[Outcome] = []
    while len(outcomes) < len(jobs):
        outcomes += _run_batch(jobs[len(outcomes):], time_limit)
    return outcomes


def _run_batch(jobs: list[Job], time_limit: float) -> list[Outcome]:
    """Run jobs in one driver until all are done or one hangs or kills the driver."""
    proc = _start(jobs)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    sel.register(proc.stderr, selectors.EVENT_READ)
    buffer, errors = b"", b""  # errors: what the driver (or a worker it started) wrote to fd 2
    results: list[Outcome] = []
    started = time.monotonic()
    limit = 60.0  # for the first job: importing mmdsl on a loaded machine
    current = None

    def finish(hung: bool, code: int | None) -> list[Outcome]:
        _kill(proc)
        err = errors.decode(errors="replace")
        if current is None:
            raise RuntimeError(f"the fuzz driver stopped outside a job: {err[-3000:]}")
        results.append(Outcome(jobs[current], code, "", err, hung=hung, seconds=time.monotonic() - started))
        return results

    while True:
        left = limit - (time.monotonic() - started)
        events = sel.select(timeout=left) if left > 0 else []
        if not events:
            return finish(True, None)
        for key, _ in events:
            chunk = os.read(key.fileobj.fileno(), 1 << 16)
            if key.fileobj is proc.stderr:
                if chunk:
                    errors += chunk
                else:
                    sel.unregister(proc.stderr)
                continue
            if not chunk:  # the driver died (a crash or the memory limit)
                proc.wait()
                return finish(False, proc.returncode)
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                msg = json.loads(line)
                now = time.monotonic()
                elapsed, started = now - started, now
                if "start" in msg:
                    current, limit = msg["start"], time_limit
                    continue
                out = Outcome(jobs[msg["done"]], msg["code"], msg["stdout"], msg["stderr"],
                              seconds=elapsed, places=msg["places"], traceback=msg["traceback"])
                if errors:  # printed straight to the terminal, past the driver's capture
                    out.stderr += errors.decode(errors="replace")
                    errors = b""
                results.append(out)
                current = None
                if len(results) == len(jobs):
                    _kill(proc)
                    return results


def problems(outcome: Outcome) -> list[str]:
    """What is wrong with one outcome (empty: it behaved)."""
    found = []
    if outcome.hung:
        return [f"ran past the {TIME_LIMIT:.0f} s limit"]
    both = outcome.stdout + outcome.stderr
    if outcome.traceback or "Traceback" in both:
        found.append("printed a Python traceback")
    if "MemoryError" in both or "RecursionError" in both:
        found.append("ran out of memory or stack")
    stopped = outcome.job.timeout_exits_1 and outcome.code == 1 and "timed out" in both
    if outcome.code not in outcome.job.ok_codes and not stopped:
        found.append(f"exit code {outcome.code}, expected one of {outcome.job.ok_codes}")
    if outcome.code == 2 and not found:
        if not both.strip():
            found.append("exit code 2 without a message")
        elif not _located(outcome.places, outcome.job.inputs):
            found.append("an error that names no file:line:col of the input")
    return found


def _located(places: list[str], inputs: list[str]) -> bool:
    """Whether the output names a place (file:line:col) in one of the fuzzed files, or in a
    test or model file (an error in a file that the fuzzed one refers to)."""
    names = {os.path.basename(i) for i in inputs}
    return not inputs or any(os.path.basename(p) in names or p.endswith((".litmus", ".mm")) for p in places)
