"""``ATOMIC_BEGIN(); ... ATOMIC_END();`` blocks of a C program: checked for shape, lowered as markers.

A block is a run of statements of one statement list, opened by ``ATOMIC_BEGIN()`` and closed
by ``ATOMIC_END()`` in that same list (``<atomicity.h>``); ``MOVER_BEGIN()`` and
``MOVER_END()`` mark the seed's stronger ``mover`` specification the same way. A list holds no block inside
another (a block nests only in an inner statement or a called function), and nothing
inside one jumps out of it (``return``, ``break``, ``continue``, ``goto``): every execution
that enters a block reaches its end unless it waits forever, which is what
``mmdsl check --atomicity`` looks for. Each thread lowers a marker as a plain store to its
own location ``__atomic<tid>``: the set of blocks open after it, so a state says by itself
which blocks each thread is in (the seed's ``region_atom?(s, t)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import LitmusError, UnsupportedError
from ...core.program import Const, Store
from .. import c_grammar as g

BEGINS = {"ATOMIC_BEGIN": "atomic", "MOVER_BEGIN": "mover"}  # the seed's two specifications
ENDS = {"ATOMIC_END": "atomic", "MOVER_END": "mover"}
MARKERS = (*BEGINS, *ENDS)
LOCATION = "__atomic"  # + thread id: the blocks the thread is in, a bit mask (0: none)
MAX_BLOCKS = 62


@dataclass(frozen=True)
class AtomicBlock:
    """One annotated block: its number (from 1), where it opens and closes, and its function."""

    number: int
    function: str
    pos: object  # SourcePos of ATOMIC_BEGIN
    end_pos: object  # SourcePos of ATOMIC_END
    end_at: int = -1  # source offset of ATOMIC_END's call
    kind: str = "atomic"  # or "mover": every step both a left and a right mover (independent)

    @property
    def name(self) -> str:
        return f"{self.function}@{self.pos.line}"


def marker_name(stmt: g.Stmt) -> str | None:
    """The marker's name when ``stmt`` is ``ATOMIC_BEGIN();``, ``MOVER_END();``..., else None."""
    if isinstance(stmt, g.ExprStmt) and isinstance(stmt.expr, g.Call) and stmt.expr.name in MARKERS:
        return stmt.expr.name
    return None


def find_blocks(functions: dict, pos) -> dict[int, AtomicBlock]:
    """Check every function's blocks; the blocks by the source offset of their ATOMIC_BEGIN."""
    blocks: dict[int, AtomicBlock] = {}
    for fn in functions.values():
        _statements(fn.body.stmts, fn.name, pos, blocks)
    return blocks


def _statements(stmts: list, fn: str, pos, blocks: dict) -> None:
    opened = None  # the ATOMIC_BEGIN statement of the block open in this list
    for st in stmts:
        kind = marker_name(st)
        if kind in BEGINS:
            if opened is not None:
                raise UnsupportedError(f"a second {kind}() in '{fn}' while the block opened at "
                                       f"{pos(opened.at)} is still open", pos(st.at),
                                       hint="close the first block before; a block nests "
                                            "only in an inner statement or a called function")
            opened = st
            continue
        if kind in ENDS:
            begin = kind.replace("_END", "_BEGIN")
            if opened is None:
                raise LitmusError(f"{kind}() in '{fn}' closes no block", pos(st.at),
                                  expected=f"a {begin}() earlier in the same statement list")
            if opened.expr.name != begin:
                raise LitmusError(f"{kind}() in '{fn}' closes the {opened.expr.name}() at {pos(opened.at)}",
                                  pos(st.at), expected=opened.expr.name.replace("_BEGIN", "_END") + "()")
            number = len(blocks) + 1
            blocks[opened.expr.at] = AtomicBlock(number, fn, pos(opened.at), pos(st.at), st.expr.at, ENDS[kind])
            opened = None
            continue
        _nested(st, fn, pos, blocks, inside=opened)
    if opened is not None:
        raise LitmusError(f"{opened.expr.name}() in '{fn}' is never closed", pos(opened.at),
                          expected=opened.expr.name.replace("_BEGIN", "_END") + "() later in the same statement list")


def _nested(st: g.Stmt, fn: str, pos, blocks: dict, inside) -> None:
    """Statements inside ``st``: their own lists' blocks, and no jump out of an open block."""
    if inside is not None:
        jump = _jump_out(st, 0)
        if jump is not None:
            what, at = jump
            raise UnsupportedError(f"'{what}' inside the atomic block opened at {pos(inside.at)}", pos(at),
                                   hint="leave the block by its end marker: move the jump after it")
    for body in _bodies(st):
        if isinstance(body, g.Block):
            _statements(body.stmts, fn, pos, blocks)
        elif body is not None:
            _statements([body], fn, pos, blocks)


def _bodies(st: g.Stmt) -> list:
    if isinstance(st, g.Block):
        return [st]
    if isinstance(st, g.If):
        return [st.then, st.other]
    if isinstance(st, (g.While, g.DoWhile, g.For)):
        return [st.body]
    return []


def _jump_out(st: g.Stmt, loops: int):
    """The first statement in ``st`` that leaves it: (what, offset), or None."""
    if isinstance(st, g.Return):
        return "return", st.at
    if isinstance(st, g.Unsupported):
        return st.what, st.at
    if isinstance(st, g.Jump) and loops == 0:
        return st.kind, st.at
    inner = loops + 1 if isinstance(st, (g.While, g.DoWhile, g.For)) else loops
    for body in _bodies(st):
        if body is None:
            continue
        for sub in (body.stmts if isinstance(body, g.Block) else [body]):
            found = _jump_out(sub, inner)
            if found is not None:
                return found
    return None


def lower_marker(low, e: g.Call, blocks: dict) -> Const:
    """ATOMIC_BEGIN / ATOMIC_END as the thread's store to ``__atomic<tid>`` of the blocks now open.

    The value is a bit mask (block n is bit n - 1): a block entered from inside another one
    (an atomic function calling an atomic function, inlined) keeps the outer one open.
    """
    if e.args:
        raise low.malformed(f"'{e.name}' takes no arguments", e.at)
    if not hasattr(low, "atomic_open"):
        low.atomic_open = []
    if e.name in BEGINS:
        block = blocks.get(e.at)
        if block is None:  # inside an expression: find_blocks saw statements only
            raise low.unsupported(f"{e.name}() inside an expression", e.at, hint="write it as a statement")
        if block.number > MAX_BLOCKS:
            raise low.unsupported(f"more than {MAX_BLOCKS} atomic blocks", e.at)
        low.atomic_open.append(block.number)
    else:
        if not any(b.end_at == e.at for b in blocks.values()) or not low.atomic_open:
            raise low.unsupported(f"{e.name}() inside an expression", e.at, hint="write it as a statement")
        low.atomic_open.pop()
    mask = sum(1 << (n - 1) for n in low.atomic_open)
    low.emit(Store(Const(f"{LOCATION}{low.tid}"), Const(mask), ()))
    return Const(0)


def open_blocks(mask: int) -> tuple[int, ...]:
    """The numbers of the blocks a marker value says are open."""
    return tuple(n + 1 for n in range(MAX_BLOCKS) if mask >> n & 1)
