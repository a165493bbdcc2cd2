"""Compile a harness with the system C compiler and run it, in a temporary folder, within a time limit.

No shell is involved: gcc and the harness are started with argument lists; the harness
reads only numbers on its command line. Its output (``harness`` module docstring) is read
back into a histogram of FinalStates.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from ..core.condition import FinalState
from ..core.errors import MmdslError, UnsupportedError
from ..core.limits import TimeLimitError
from ..core.program import Program
from .harness import Harness, build_harness

X86_ARCHS = ("X86", "X86_64")
C_ARCHS = ("C",)
CFLAGS = ["-O2", "-pthread", "-std=gnu11"]


@dataclass
class HwOptions:
    """How to run one test on the host."""

    iterations: int = 100_000
    size: int = 1000  # iterations per run (litmus7's size_of_test); runs = iterations / size
    timeout: float = 60.0  # seconds per test, compilation included (0: none)
    serial: bool = False  # debugging: a deliberately broken harness, threads one after the other
    cc: str | None = None  # the C compiler (default: gcc, else cc, on PATH)
    keep: str | None = None  # a folder to keep the harness's C source in


@dataclass
class Histogram:
    """What one harness process observed."""

    keys: list[tuple]
    states: dict[FinalState, int]
    threads: int
    cpus: int
    pinned: bool
    iterations: int
    size: int
    runs: int
    time: float  # seconds the threads ran (not compilation)
    overflow: int = 0
    compile_time: float = 0.0
    backend: str = "asm"
    params: dict = field(default_factory=dict)

    @property
    def oversubscribed(self) -> bool:
        """More threads than cores: threads take turns on a core, and outcomes needing true
        parallelism become rare (a biased harness, not a verdict on the hardware)."""
        return self.threads > self.cpus or not self.pinned


def host_isa() -> str:
    """``x86_64`` or the machine's own word (``aarch64``, ...)."""
    m = platform.machine().lower()
    return "x86_64" if m in ("x86_64", "amd64") else m


def backend_for(program: Program) -> str:
    """"asm" for X86/X86_64 tests on an x86-64 host, "c11" for C tests; other ISAs refused by name."""
    arch = program.arch.upper()
    if arch in C_ARCHS:
        return "c11"
    if arch in X86_ARCHS:
        if host_isa() != "x86_64":
            raise UnsupportedError(f"{program.name}: an {program.arch} test on this {host_isa()} host "
                                   "(x86 tests run on x86-64 hosts only)")
        return "asm"
    raise UnsupportedError(f"{program.name}: {program.arch} tests cannot run on this {host_isa()} host "
                           "(the hardware harness runs X86, X86_64 and C tests)")


def find_cc(cc: str | None = None) -> str:
    """The C compiler's path, or a clear error naming what is missing."""
    for name in ([cc] if cc else ["gcc", "cc"]):
        path = shutil.which(name)
        if path:
            return path
    raise MmdslError(f"no C compiler found ({cc or 'gcc'}): the hardware harness compiles each test",
                     hint="install Debian's gcc (./dev.sh setup does)")


def _remaining(deadline: float | None, what: str, limit: float) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeLimitError(f"{what}: stopped after {limit:g} s (--timeout)")
    return left


def run_harness(program: Program, options: HwOptions) -> Histogram:
    """Build, compile and run ``program``'s harness; its histogram."""
    if options.iterations < 1 or options.size < 1:
        raise MmdslError("--iterations and --size must be at least 1")
    backend = backend_for(program)
    harness = build_harness(program, backend)
    cc = find_cc(options.cc)
    limit = options.timeout or 0
    deadline = time.monotonic() + limit if limit else None
    what = f"running {program.name} on the hardware"
    with tempfile.TemporaryDirectory(prefix="mmdsl-hw-") as tmp:
        src = os.path.join(tmp, "harness.c")
        exe = os.path.join(tmp, "harness")
        with open(src, "w", encoding="ascii") as f:
            f.write(harness.source)
        if options.keep:
            os.makedirs(options.keep, exist_ok=True)
            shutil.copy(src, os.path.join(options.keep, "harness.c"))
        t0 = time.monotonic()
        done = _call([cc, *CFLAGS, "-o", exe, src], tmp, _remaining(deadline, what, limit), what, limit)
        if done.returncode != 0:
            raise MmdslError(f"{program.name}: the C compiler rejected the harness:\n{done.stderr.strip()[:2000]}")
        compile_time = time.monotonic() - t0
        args = [exe, str(options.iterations), str(min(options.size, options.iterations)), "1" if options.serial else "0"]
        done = _call(args, tmp, _remaining(deadline, what, limit), what, limit)
    if done.returncode != 0:
        raise MmdslError(f"{program.name}: the harness failed (exit {done.returncode}): {done.stderr.strip()[:500]}")
    hist = parse_histogram(done.stdout, harness)
    hist.compile_time = compile_time
    return hist


def _call(args: list[str], cwd: str, timeout: float | None, what: str, limit: float):
    try:
        return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:  # subprocess.run has killed the child
        raise TimeLimitError(f"{what}: stopped after {limit:g} s (--timeout)") from None


def parse_histogram(text: str, harness: Harness) -> Histogram:
    """Read the harness's output; anything off its format is an error naming the line."""
    fields: dict[str, list[str]] = {}
    states: dict[FinalState, int] = {}
    lines = text.splitlines()
    if not lines or lines[0] != "mmdsl-hw 1" or lines[-1] != "end":
        raise MmdslError("the harness's output is not a histogram (no 'mmdsl-hw 1' ... 'end')")
    nkeys = len(harness.keys)
    try:
        for line in lines[1:-1]:
            words = line.split()
            if words[0] == "state":
                values = [int(w) for w in words[2:]][:nkeys]
                if len(values) != nkeys:
                    raise ValueError(line)
                states[FinalState.of(dict(zip(harness.keys, values)), harness.keys)] = int(words[1])
            else:
                for name, value in zip(words[::2], words[1::2]):
                    fields[name] = value
        return Histogram(keys=harness.keys, states=states, threads=int(fields["threads"]), cpus=int(fields["cpus"]),
                         pinned=fields["pinned"] == "1", iterations=int(fields["iterations"]),
                         size=int(fields["size"]), runs=int(fields["runs"]), time=int(fields["time_us"]) / 1e6,
                         overflow=int(fields["overflow"]), backend=harness.backend)
    except (ValueError, KeyError, IndexError) as err:
        raise MmdslError(f"the harness's output is malformed near {err}") from None
