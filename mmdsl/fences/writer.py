"""Writing the fenced test back in its own dialect, and re-checking what was written."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import MmdslError, UnsupportedError, writing
from ..core.program import Program
from ..litmus import dialect_for, parse_litmus
from .encoding import Choice
from .places import FenceKind


def fence_spelling(dialect, kind: FenceKind) -> str:
    """The first spelling of ``kind`` (its name, then its aliases) the dialect can write."""
    write = getattr(dialect, "fence_text", None)
    if write is None:
        return kind.name
    for spelling in kind.spellings:
        try:
            write(spelling)
            return spelling
        except (MmdslError, NotImplementedError):
            continue
    raise UnsupportedError(
        f"the {getattr(dialect, 'name', '?')} dialect cannot write fence '{kind.name}' "
        f"(spellings: {', '.join(kind.spellings)})",
        hint="restrict the kinds with --kinds to fences the dialect has, or write the test in LISA")


def fenced_source(program: Program, fences: list[Choice], notes: list[str] | None = None) -> str:
    """The test's source text with the fences inserted, in the test's own dialect.

    ``notes`` (a list) receives what the writer did beyond the selection: a fence in code
    with several copies (a C function inlined at several calls) is written once and runs
    at every copy.
    """
    try:
        dialect = dialect_for(program.arch)
    except UnsupportedError:  # a program of another format (a .rmm, a C# file): read, never written
        dialect = None
    if not hasattr(dialect, "write_with_fences"):
        raise UnsupportedError(f"the {program.arch} dialect cannot write fenced tests back",
                               hint="the fences listed are the answer: write them into the program by hand")
    if any(c.is_dependency for c in fences):  # power/armv7/armv8: dependencies written in diy's idioms
        return _with_dependencies(dialect, program, fences)
    insertions = []
    for c in fences:
        try:
            insertions.append((c.place.tid, c.place.index, fence_spelling(dialect, c.kind)))
        except UnsupportedError as err:  # at the instruction the fence would go before
            instrs = program.threads[c.place.tid].instrs
            raise err.locate(instrs[min(c.place.index, len(instrs) - 1)].pos if instrs else None) from None
    text = dialect.write_with_fences(program, insertions)
    if notes is not None and hasattr(dialect, "shared_fence_notes"):
        notes.extend(dialect.shared_fence_notes(program, insertions))
    return text


def write_fenced(program: Program, fences: list[Choice], out: str | Path, notes: list[str] | None = None) -> Program:
    """Write the fenced test to ``out`` and read it back (the caller re-runs what was read); ``notes``
    as ``fenced_source``."""
    text = fenced_source(program, fences, notes)
    with writing("the fenced test"):
        Path(out).write_text(text)
    return parse_litmus(text, str(out))


def _with_dependencies(dialect, program: Program, choices: list[Choice]) -> str:
    """The source with the fences and the dependencies among ``choices`` written in (asm_dependencies)."""
    from ..litmus.asm_dependencies import DependencyInsertion

    if not hasattr(dialect, "write_with_devices"):
        raise UnsupportedError(f"the {program.arch} dialect cannot write dependencies back")
    fences = [(c.place.tid, c.place.index, fence_spelling(dialect, c.kind)) for c in choices if not c.is_dependency]
    deps = [DependencyInsertion(c.place.tid, c.source, c.place.index, c.kind.name) for c in choices if c.is_dependency]
    return dialect.write_with_devices(program, fences, deps)
