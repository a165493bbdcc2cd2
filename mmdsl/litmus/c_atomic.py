"""Atomic blocks in the C dialect: ``atomic { ... }`` and the double-word compare-and-swap ``cas2``.

Both lower to ``core.program.AtomicBegin`` ... ``AtomicEnd``: the instructions between are
one indivisible step. How the block orders the thread's other accesses is the model's
business (its accesses are RMW events, the ``At`` class of the bundled tables).
"""

from __future__ import annotations

from ..core.program import Assign, AtomicBegin, AtomicEnd, BinOp, Branch, Expr, Load, Nop, Reg, Store, UnOp
from . import c_grammar as g


def atomic_stmt(low, stmt: g.Atomic, depth: int) -> None:
    """``atomic { ... }``: the body lowered between the block's markers."""
    if low.in_atomic:
        raise low.unsupported("an atomic block inside an atomic block", stmt.at,
                              hint="nested atomic blocks add nothing: merge them into one")
    low.at_statement(stmt, "atomic {")
    begin = low.emit(Nop())
    low.in_atomic = True
    try:
        low._block(stmt.body, depth + 1)
    finally:
        low.in_atomic = False
    low.cur_pos = low.pos(stmt.body.end - 1)
    low.cur_text = "}"
    end = low.emit(AtomicEnd())
    low.instrs[begin] = AtomicBegin(end, pos=low.instrs[begin].pos, text="atomic {")


def cas2(low, e: g.Call, dst: str | None) -> Expr:
    """``cas2(&x, &y, o1, o2, n1, n2)``: when ``x == o1`` and ``y == o2``, write ``n1`` to ``x`` and
    ``n2`` to ``y``, all in one step; 1 when it wrote, 0 otherwise (McSPIN's CAS2)."""
    if len(e.args) != 6:
        raise low.malformed(f"'cas2' takes 6 arguments, not {len(e.args)}", e.at,
                            expected="cas2(&x, &y, old_x, old_y, new_x, new_y)")
    first, second = low.pointer(e.args[0]), low.pointer(e.args[1])
    if first.addr == second.addr:
        raise low.malformed("'cas2' on one location twice: a double-word compare-and-swap needs two "
                            "different locations", e.at, expected="cas2(&x, &y, ...) with x and y different")
    old1, old2 = low.value(e.args[2]), low.value(e.args[3])
    new1, new2 = low.value(e.args[4]), low.value(e.args[5])
    a, b, ok = low.temp(), low.temp(), low.temp()
    begin = low.emit(Nop())
    low.emit(Load(a, first.addr, annots=first.annots()))
    low.emit(Load(b, second.addr, annots=second.annots()))
    low.emit(Assign(ok, BinOp("land", BinOp("eq", Reg(a), old1), BinOp("eq", Reg(b), old2))))
    skip = low.emit(Nop())
    low.emit(Store(first.addr, new1, annots=first.annots()))
    low.emit(Store(second.addr, new2, annots=second.annots()))
    end = low.emit(AtomicEnd())
    low.instrs[skip] = Branch(UnOp("not", Reg(ok)), end, pos=low.instrs[skip].pos, text=low.instrs[skip].text)
    low.instrs[begin] = AtomicBegin(end, pos=low.instrs[begin].pos, text=low.instrs[begin].text)
    return Reg(ok)
