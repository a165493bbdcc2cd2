"""Compile a C# file with mono's mcs, disassemble it with monodis, and build the core program."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...core.condition import Atom, Condition, Or
from ...core.errors import LitmusError, SourcePos, UnsupportedError
from ...core.program import Program, Thread
from .lower import lower_thread
from .calls import ASSERT
from .mdb import method_lines
from .reader import read_il, set_source_lines
from .setup import run_setup
from .world import World

TOOLS = ("mcs", "monodis")
TIMEOUT = 60  # seconds each tool may take
_MCS_MESSAGE = re.compile(r"^(?P<file>.*?)\((?P<line>\d+),(?P<col>\d+)\):\s*(?P<kind>error|warning)\s+(?P<text>.*)$")


def missing_tools() -> list[str]:
    """The mono tools (Debian's mono-mcs and mono-utils) not on PATH."""
    return [t for t in TOOLS if shutil.which(t) is None]


def compile_cs(text: str, path: str | None) -> tuple[str, dict]:
    """The monodis listing of the C# program ``text`` (compiled with DEBUG defined, so that
    Debug.Assert stays) and its source lines per method token (mdb.method_lines); a compile
    error is mcs's own message at the file's line and column."""
    missing = missing_tools()
    if missing:
        raise UnsupportedError(f"reading C# needs mono's {' and '.join(missing)}, which is not installed",
                               hint="apt-get install mono-mcs mono-utils (./dev.sh setup does it)")
    name = Path(path).name if path else "Program.cs"
    with tempfile.TemporaryDirectory(prefix="mmdsl-cs-") as tmp:
        src = Path(tmp) / name
        src.write_text(text, encoding="utf-8")
        try:
            # -debug writes the line table (program.exe.mdb); -optimize+ keeps the code as without it
            built = subprocess.run(["mcs", "-d:DEBUG", "-debug", "-optimize+", "-target:exe", "-nowarn:169,414,649",
                                    "-out:program.exe", name], cwd=tmp, capture_output=True, text=True,
                                   timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise UnsupportedError(f"mcs took more than {TIMEOUT} s to compile {path}") from None
        if built.returncode != 0:
            raise _compile_error((built.stdout + built.stderr).replace("program.exe", name), path)
        try:
            listing = subprocess.run(["monodis", "program.exe"], cwd=tmp, capture_output=True, text=True,
                                     timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise UnsupportedError(f"monodis took more than {TIMEOUT} s on {path}") from None
        if listing.returncode != 0 or not listing.stdout.strip():
            raise UnsupportedError(f"monodis could not disassemble {path}: {listing.stderr.strip()}")
        symbols = Path(tmp) / "program.exe.mdb"
        return listing.stdout, method_lines(symbols.read_bytes()) if symbols.is_file() else {}


def _compile_error(output: str, path: str | None) -> LitmusError:
    errors = []
    for line in output.splitlines():
        m = _MCS_MESSAGE.match(line.strip())
        if m and m.group("kind") == "error":
            errors.append((int(m.group("line")), int(m.group("col")), m.group("text")))
    if not errors:
        return LitmusError(f"mcs could not compile {path}: {output.strip()}")
    line, col, text = errors[0]
    more = f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return LitmusError(f"mcs: {text}{more}", SourcePos(path, line, col))


@dataclass
class CsProgram:
    """A C# program as the checker reads it: the core program, each Debug.Assert by number
    (pos, C# text, method), and Main's checks after the joins as (proposition on the final
    state, assertion number)."""

    program: Program
    assertions: dict
    final: list


def parse_cs(text: str, path: str | None = None) -> Program:
    """A C# program (a .cs file) as a core program."""
    return read_cs(text, path).program


def read_cs(text: str, path: str | None = None) -> CsProgram:
    """A C# program (a .cs file) with its assertions (what ``mmdsl check`` reports)."""
    listing, lines = compile_cs(text, path)
    return build(listing, path, False, lines, text.splitlines())


def parse_il(text: str, path: str | None = None, listing: bool = True, lines: dict | None = None) -> Program:
    """A program from monodis's listing of it. ``listing``: ``path`` is the listing itself (an
    ``.il`` file), so errors point at its lines; else ``path`` is the C# source it came from,
    and ``lines`` its line table (mdb.method_lines)."""
    return build(text, path, listing, lines, []).program


def build(text: str, path: str | None, listing: bool, lines: dict | None, source: list[str]) -> CsProgram:
    """The program in monodis's listing ``text`` (``source``: the C# file's lines, for assertion texts)."""
    asm = read_il(text, path, listing)
    if lines:
        set_source_lines(asm, lines)
    world = World(asm, path, listing, source=source)
    lowered: list = []

    def lower_all(started) -> None:
        for tid, t in enumerate(started):
            instrs, numbers = lower_thread(world, tid, t.delegate.method, t.delegate.target)
            world.note_writes(instrs)
            lowered.append((instrs, numbers))

    setup = run_setup(world, lower_all)
    if not lowered:
        raise world.refuse("Main does not join every thread it starts", world.asm.entry, None)
    threads, asserts = [], setup.asserts
    props = [v for v, _ in setup.violations]
    for tid, (instrs, numbers) in enumerate(lowered):
        threads.append(Thread(tid, f"P{tid}", world.resize_cells(instrs)))
        asserts += len(numbers)
        # the thread's register holds the number of its first failed assertion
        props += [Atom(("reg", tid, ASSERT), n) for n in numbers]
    if not asserts:
        raise LitmusError(f"{path or 'the program'} has no assertion left: mmdsl checks Debug.Assert "
                          "(compiled with DEBUG defined); add one to a thread or after the joins in Main",
                          SourcePos(path, 1, 1) if path else None)
    init = {}
    for loc, v in setup.memory.items():
        if isinstance(v, int):
            init[loc] = v
    for loc in world.object_locations():
        init.setdefault(loc, 0)
    for (cls, name), f in world.asm.fields.items():
        if f.static and f.type.startswith(("int32", "bool", "object", "class ")) \
                and not f.type.startswith("class [mscorlib]"):
            init.setdefault(world.static_location(cls, name), 0)
    prop = props[0] if len(props) == 1 else Or(tuple(props))
    name = Path(path).stem if path else "program"
    methods = ", ".join(f"P{i}={t.delegate.method.qualified}" for i, t in enumerate(setup.threads))
    program = Program(name=name, arch="CIL", threads=threads, init=init, condition=Condition("exists", prop),
                      path=path, doc=f"a C# program: threads {methods}; the condition is an assertion failing",
                      source=text)
    return CsProgram(program, world.assertions, list(setup.violations))
