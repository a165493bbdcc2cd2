"""Blocks of a Memorax `.rmm` program marked ``/* @atomic */ { ... }`` for ``mmdsl check --atomicity``.

The marking is a comment, so Memorax and every other mmdsl command read the file as it was:
``/* @atomic */`` (``/* @mover */`` for the seed's stronger specification; not ``//``, which
Memorax's lexer does not skip)
stands right before a block statement ``{ ... }`` (labels may come between), and that block
is the atomic one. A block is a statement of the language, so its extent and nesting need
no second marker, and a block cannot be left open. Only for ``--atomicity`` the program is
lowered with three changes (``rmm_lower`` calls back here):

* each marked block stores the set of blocks its thread is in to ``__atomic<tid>`` on entry
  and exit (as the C front end's ``ATOMIC_BEGIN``/``ATOMIC_END``, ``cprog.atomic_blocks``);
* a ``read: x = e`` waits until ``x`` holds ``e`` (one blocking step, Memorax's meaning)
  instead of reading and cutting the paths that read another value: a thread spinning there
  waits, which the must-complete check must see;
* **locks**: ``.rmm`` has no mutex, so a location is a lock when every access to it in the
  program is an acquire ``cas(l, 0, c)`` (c a non-zero constant: wait until free, take it)
  or a release ``write: l := 0``, and it starts at 0. An acquire then stores its thread's
  number + 1 (only zero and non-zero are ever tested, so nothing else changes), which tells
  the checker who holds it. Any other access (a ``read``, a ``locked write``, a ``cas`` to
  another value) makes it plain data: its accesses are then judged as data, never as movers,
  which can only add noise, never hide an error.

A goto may not leave a marked block or jump into one: every execution that enters a block
passes its end unless it waits forever.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..core.errors import LitmusError, SourcePos, UnsupportedError, line_col
from ..core.files import read_input
from ..core.program import OLD, BinOp, Const, Reg, Rmw, Store
from .cprog.atomic_blocks import LOCATION, MAX_BLOCKS, AtomicBlock
from .cprog.program import CProgram

KINDS = ("atomic", "mover")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_PRAGMA = re.compile(r"(?:/\*|//)\s*@(\w*)(.*?)(?:\*/)?\Z", re.DOTALL)
_GAP = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.DOTALL)
_BEFORE_BLOCK = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*|[_A-Za-z][_A-Za-z0-9]*\s*:(?!=))*", re.DOTALL)


def find_pragmas(text: str, path: str | None) -> dict:
    """The marks of ``text``: (line, col) of the marked block's ``{`` -> (kind, SourcePos of the mark)."""
    out = {}
    for m in _COMMENT.finditer(text):
        p = _PRAGMA.match(m.group())
        if p is None:
            continue
        where = SourcePos(path, *line_col(text, m.start()))
        kind, rest = p.group(1), p.group(2).strip()
        if m.group().startswith("//"):
            raise LitmusError(f"a mark in a line comment ('// @{kind}')", where,
                              expected=f"/* @{kind} */ (Memorax's lexer skips only /* */ comments)")
        if kind not in KINDS:
            raise LitmusError(f"unknown mark '@{kind}'", where, expected="/* @atomic */ or /* @mover */")
        if rest:
            raise LitmusError(f"text after '@{kind}' in its comment: '{rest[:20]}'", where,
                              expected=f"/* @{kind} */ alone, then a block {{ ... }}")
        brace = _BEFORE_BLOCK.match(text, m.end()).end()
        if not text.startswith("{", brace):
            after = _GAP.match(text, m.end()).end()
            found = text[after:after + 20].split("\n")[0] or "end of file"
            raise LitmusError(f"/* @{kind} */ is not followed by a block (at '{found}')", where,
                              expected="a block statement '{ ... }' after the mark (labels may come between)")
        out[line_col(text, brace)] = (kind, where)
    return out


class Marks:
    """The marked blocks as ``rmm_lower`` meets them, and the locks found when it is done."""

    def __init__(self, pragmas: dict, path: str | None):
        self.pragmas = pragmas
        self.path = path
        self.blocks: dict[tuple, AtomicBlock] = {}  # by the place of the block's '{'
        self.locks: list[str] = []

    def block(self, body, node) -> None:
        """Lower a block statement; a marked one between its two marker stores."""
        mark = self.pragmas.get(body.low.origin(node.at))
        if mark is None:
            for st in node.parts[0]:
                body.lstmt(st)
            return
        kind, where = mark
        if body.locked:
            raise UnsupportedError(f"an @{kind} block inside 'locked {{ }}'", where,
                                   hint="'locked { }' is one indivisible step already; mark a block around it")
        key = body.low.origin(node.at)
        if key not in self.blocks:
            if len(self.blocks) >= MAX_BLOCKS:
                raise UnsupportedError(f"more than {MAX_BLOCKS} marked blocks", where)
            self.blocks[key] = AtomicBlock(len(self.blocks) + 1, f"P{body.pid}", where, where, kind=kind)
        number = self.blocks[key].number
        body.atomic_open.append(number)
        start = self._marker(body, where, f"@{kind} {{")
        for st in node.parts[0]:
            body.lstmt(st)
        body.atomic_open.pop()
        self._marker(body, where, f"}} @{kind}")
        body.atomic_ranges.append((start, len(body.instrs), where))

    @staticmethod
    def _marker(body, where: SourcePos, text: str) -> int:
        mask = sum(1 << (n - 1) for n in body.atomic_open)
        return body.emit(Store(Const(f"{LOCATION}{body.pid}"), Const(mask), frozenset(), pos=where, text=text))

    @staticmethod
    def await_read(addr, value, pos) -> Rmw:
        """``read: x = e`` as one step that waits until ``x`` holds ``e`` (it writes back what it read)."""
        return Rmw(None, addr, Reg(OLD), BinOp("eq", Reg(OLD), value), blocking=True,
                   annots=frozenset({"await"}), pos=pos, text="read: ... = ...")

    def check_gotos(self, body) -> None:
        """No goto leaves a marked block or enters one past its start."""
        for k, label, at in body.gotos:
            target = body.labels.get(label)
            if target is None:
                continue  # reported by the lowering
            for start, end, where in body.atomic_ranges:
                inside, lands = start < k < end - 1, start < target <= end - 1
                if inside != lands:
                    what = "leaves" if inside else "jumps into"
                    raise UnsupportedError(f"'goto {label}' {what} the marked block at {where}",
                                           SourcePos(self.path, *body.low.origin(at)),
                                           hint="leave a marked block by its end, and enter it at its start")

    def finish(self, program):
        """The program with its marker locations and its locks' acquires and releases annotated."""
        used = set(self.blocks)
        for key, (kind, where) in self.pragmas.items():
            if key not in used:
                raise LitmusError(f"/* @{kind} */ marks no block statement", where,
                                  expected="a block statement '{ ... }' (not the braces of 'either', 'or' "
                                           "or 'locked')")
        init = dict(program.init)
        for th in program.threads:
            init[f"{LOCATION}{th.tid}"] = 0
        self.locks = _locks(program)
        threads = [replace(th, instrs=[_as_lock(ins, th.tid, self.locks) for ins in th.instrs])
                   for th in program.threads]
        return replace(program, threads=threads, init=init)


def _acquire(ins) -> bool:
    return (isinstance(ins, Rmw) and ins.blocking and ins.dst is None and ins.cond == BinOp("eq", Reg(OLD), Const(0))
            and isinstance(ins.new, Const) and ins.new.value != 0)


def _release(ins) -> bool:
    return isinstance(ins, Store) and ins.value == Const(0)


def _locks(program) -> list[str]:
    """The locations every access of which is an acquire or a release, with an acquire, starting at 0."""
    kinds: dict[str, set] = {}
    for th in program.threads:
        for ins in th.instrs:
            addr = getattr(ins, "addr", None)
            if isinstance(addr, Const) and isinstance(addr.value, str):
                kinds.setdefault(addr.value, set()).add(
                    "acquire" if _acquire(ins) else "release" if _release(ins) else "other")
    choices = getattr(program, "init_choices", {}) or {}
    return sorted(loc for loc, ks in kinds.items() if "acquire" in ks and "other" not in ks
                  and program.init.get(loc, 0) == 0 and loc not in choices and not loc.startswith("__"))


def _as_lock(ins, tid: int, locks: list[str]):
    addr = getattr(ins, "addr", None)
    if not isinstance(addr, Const) or addr.value not in locks:
        return ins
    if _acquire(ins):
        return replace(ins, new=Const(tid + 1), annots=ins.annots | {"lock"})
    return replace(ins, annots=ins.annots | {"unlock"})


def load_rmm_atomicity(path: str) -> CProgram:
    """A `.rmm` program with its marked blocks, ready for ``check_atomicity``."""
    from .rmm import parse_rmm

    text = read_input(Path(path), ".rmm program", LitmusError).removeprefix("\ufeff")
    marks = Marks(find_pragmas(text, path), path)
    if not marks.pragmas:
        raise UnsupportedError(f"--atomicity on {path}: the program marks no block", None,
                               hint="put /* @atomic */ before each block { ... } meant to be atomic")
    program = parse_rmm(text, path, marks)
    blocks = sorted(marks.blocks.values(), key=lambda b: b.number)
    return CProgram(program=program, functions=[th.name for th in program.threads], atomic_blocks=blocks)
