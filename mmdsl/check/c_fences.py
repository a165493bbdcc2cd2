"""`mmdsl fences X.c`: the cheapest fences making a C program's assertions hold, as C11 fences at source lines.

The program is selected on as compiled under the model (``mapping.compile_orders``): the
CP-SAT selection of ``fences`` (proved optimal, each answer re-checked on the compiled
program) forbids every final state with a failed assertion. Each chosen model fence is
then written back as the weakest ``atomic_thread_fence`` whose compiled form covers it
(``ll``/``ls`` -> acquire, ``ss`` -> release, anything else -> seq_cst), inserted before the
statement the fence goes before; a fence chosen in every copy of a function reused by
several threads is one line of C. The fenced C text is read again and checked as a
whole program (assertions, deadlock, livelock): that verdict is the answer's re-check.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field

from ..fences import FenceOptions, Selection, select_fences
from ..fences.solver import FEASIBLE, OPTIMAL
from ..lang.ir import Model
from ..litmus.cprog import CProgram, load_c_program
from .mapping import compile_orders
from .result import CheckResult
from .verdict import check_program

# the C11 fence whose compiled form (mapping.py) covers each partial fence kind; any other kind: seq_cst
C11_ORDER = {"ll": "acquire", "ls": "acquire", "ss": "release"}


@dataclass
class SourceFence:
    """One ``atomic_thread_fence`` to write: before the statement at ``line``:``col`` of ``function``."""

    function: str
    line: int | None
    col: int | None
    order: str  # acquire | release | seq_cst
    threads: list[str] = field(default_factory=list)  # the threads running it (copies of the function)
    kinds: list[str] = field(default_factory=list)  # the model fences it stands for
    before: str = ""  # the C statement it follows
    after: str = ""  # the C statement it precedes
    writable: bool = True  # the place is the start of a statement on its own line

    @property
    def text(self) -> str:
        return f"atomic_thread_fence(memory_order_{self.order});"

    def as_json(self) -> dict:
        return {"function": self.function, "line": self.line, "col": self.col, "fence": self.text,
                "threads": self.threads, "model_fences": self.kinds, "after_statement": self.before,
                "before_statement": self.after, "writable": self.writable}


@dataclass
class CFences:
    """The selection on the compiled program, the C fences it comes to, and the fenced program's check."""

    selection: Selection
    fences: list[SourceFence]
    fenced_text: str | None = None  # the C source with the fences written in (None: not writable)
    recheck: CheckResult | None = None
    why_not_written: str | None = None

    @property
    def solved(self) -> bool:
        return self.selection.status in (OPTIMAL, FEASIBLE)

    @property
    def ok(self) -> bool:
        """A fence set was found and the fenced C program checks safe (or needs none)."""
        if not self.selection.needed:
            return True
        return self.solved and self.recheck is not None and not self.recheck.error


def select_c_fences(cp: CProgram, path: str, model: Model, options: FenceOptions, *,
                    max_states: int, load_args: dict | None = None) -> CFences:
    """Choose fences for ``cp`` (read from ``path``) under ``model`` and re-check the fenced C text."""
    compiled = compile_orders(cp.program, model)
    sel = select_fences(compiled, model, options)
    out = CFences(sel, [])
    if not sel.needed or not out.solved:
        return out
    out.fences = source_fences(compiled, cp, path, sel)
    original = _read(path)
    if original is None or not all(f.writable for f in out.fences):
        out.why_not_written = ("a fence goes inside a statement or a header, not before a statement of "
                               f"{path}: write it by hand" if original is not None else f"cannot read {path}")
        return out
    out.fenced_text = fenced_source(original, out.fences)
    out.recheck = check_text(out.fenced_text, path, model, max_states=max_states, load_args=load_args or {})
    return out


def source_fences(compiled, cp: CProgram, path: str, sel: Selection) -> list[SourceFence]:
    """The chosen fences as C fences at source places, one per (function, place)."""
    lines = (_read(path) or "").split("\n")
    by_place: dict[tuple, SourceFence] = {}
    for c in sel.fences:
        t = compiled.threads[c.place.tid]
        instrs = t.instrs
        ins = instrs[c.place.index] if c.place.index < len(instrs) else None
        pos = getattr(ins, "pos", None)
        fn = cp.functions[c.place.tid] if c.place.tid < len(cp.functions) else t.name
        if pos is not None and _same_file(pos.file or "", path):
            inner = enclosing_function(lines, pos.line)
            fn = fn if inner in (None, fn) else f"{inner} (called from {fn})"
        key = (fn, pos.line if pos else None, pos.col if pos else None)
        order = C11_ORDER.get(c.kind.name, "seq_cst")
        f = by_place.get(key)
        if f is None:
            writable = (pos is not None and pos.file is not None and _same_file(pos.file, path)
                        and 1 <= pos.line <= len(lines) and lines[pos.line - 1][:pos.col - 1].strip() == "")
            f = by_place[key] = SourceFence(fn, key[1], key[2], order, before=c.place.before,
                                            after=c.place.after, writable=writable)
        elif order != f.order:  # acquire in one copy, release in another: both
            f.order = "seq_cst"
        f.threads.append(t.name)
        if c.kind.name not in f.kinds:
            f.kinds.append(c.kind.name)
    return sorted(by_place.values(), key=lambda f: (f.line or 0, f.col or 0, f.function))


def fenced_source(text: str, fences: list[SourceFence]) -> str:
    """``text`` with each fence written before its statement, on a line of its own, indented alike."""
    lines = text.split("\n")
    for f in sorted(fences, key=lambda f: (f.line, f.col), reverse=True):
        indent = lines[f.line - 1][:f.col - 1]
        lines.insert(f.line - 1, f"{indent}{f.text}  /* mmdsl fences */")
    return "\n".join(lines)


def check_text(text: str, path: str, model: Model, *, max_states: int, load_args: dict) -> CheckResult:
    """Check C source ``text`` as if it were the file ``path`` (written beside it, so its own
    headers are found; in a temporary folder where that folder cannot be written)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle = tempfile.NamedTemporaryFile("w", suffix=".c", prefix=".mmdsl-fenced-", dir=folder, delete=False)
    except OSError:
        handle = tempfile.NamedTemporaryFile("w", suffix=".c", prefix="mmdsl-fenced-", delete=False)
    try:
        with handle:
            handle.write(text)
        cp = load_c_program(handle.name, **load_args)
        return check_program(cp, model, max_states=max_states)
    finally:
        os.unlink(handle.name)


_DEFINITION = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$")


def enclosing_function(lines: list[str], line: int) -> str | None:
    """The C function whose definition opens nearest above ``line`` (a definition's head starts
    in column 1 and ends without ';'), for naming where a fence goes; None when none does."""
    for text in reversed(lines[:line - 1]):
        m = _DEFINITION.match(text)
        if m and m.group(1) not in ("if", "while", "for", "switch", "return"):
            return m.group(1)
    return None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return None


def _same_file(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)
