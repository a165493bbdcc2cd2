"""Memory errors of whole C programs as the language defines them: a NULL dereference, a read of a
malloc'd field never written, a read of a freed node, a double free -- each a failing check located
at its statement, reported like a failed assertion (its text names the error)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.program import BinOp, Const, Expr, Reg, Rmw, Store, UnOp, cell_location, cell_op
from .. import c_data
from .. import c_grammar as g
from ..c_statements import Label

if TYPE_CHECKING:  # pragma: no cover
    from .lower import ProgramLowering

# the value of a field malloc returned and nothing wrote yet, and of a field of a freed node (C leaves
# both indeterminate; these values, 0xBAADF00D and 0xDEADBEEF as signed 32-bit words, are unlikely data)
UNINIT = -1163005939
FREED = -559038737
FREED_FIELD = "__freed"  # a hidden field of each malloc'd node: 1 once it was freed
MEMORY_ERRORS = ("NULL dereference", "read of an uninitialised field", "use after free", "double free")


def is_memory_error(text: str) -> bool:
    """Whether a failed check's text (``kind: statement``) is one of the memory errors."""
    return text.split(":")[0] in MEMORY_ERRORS


def fail_unless(low: "ProgramLowering", ok: Expr, kind: str) -> None:
    """When ``ok`` is false here the thread stops with the error ``kind`` (like a failed assertion)."""
    number = low.new_check(low.cur_pos, f"{kind}: {low.cur_text}")
    fine = Label()
    low.jump(ok, fine)
    low.fail(number)
    low.place(fine)


def null_check(low: "ProgramLowering", ptr: Expr) -> None:
    """``p->f`` with ``p`` NULL is an error (not a read of the null node, as in the litmus dialect)."""
    if isinstance(ptr, Const) and ptr.value != 0:
        return
    if isinstance(ptr, Reg) and ptr.name in low.nonnull:
        return
    fail_unless(low, BinOp("ne", ptr, Const(0)), "NULL dereference")
    if isinstance(ptr, Reg):
        low.nonnull.add(ptr.name)


def malloced(low: "ProgramLowering", struct: str) -> bool:
    """Whether nodes of ``struct`` come from the implicit malloc pool (fields start uninitialised)."""
    pool = low.ctx.pool_of(struct)
    return pool is not None and pool.name in low.shared.malloc_pools


def check_read(low: "ProgramLowering", e: g.Postfix, v: Expr) -> None:
    """After a read of ``p->f`` from a malloc'd node: an uninitialised or freed value is an error."""
    t = c_data.type_of(low, e.arg)
    if t is None or t[0] != "ptr" or not malloced(low, t[1]) or not isinstance(v, Reg):
        return
    fail_unless(low, BinOp("ne", v, Const(UNINIT)), "read of an uninitialised field")
    fail_unless(low, BinOp("ne", v, Const(FREED)), "use after free")


def free(low: "ProgramLowering", e: g.Call) -> Expr:
    """``free(p)``: NULL does nothing; a node freed twice is an error; the fields of the node are
    overwritten with FREED, so a later read of them is reported as a use after free."""
    if len(e.args) != 1:
        raise low.malformed(f"'free' takes 1 argument, not {len(e.args)}", e.at)
    arg = e.args[0]
    if (isinstance(arg, g.Num) and arg.value == 0) or (isinstance(arg, g.Name) and arg.name == "NULL"):
        return Const(0)  # free(NULL) does nothing
    t = c_data.type_of(low, arg)
    if t is None or t[0] != "ptr" or not malloced(low, t[1]):
        raise low.unsupported("free of anything but a pointer malloc returned (a 'struct S *')", arg.at,
                              hint="malloc(sizeof(struct S)) gives the nodes free takes back")
    pool = low.ctx.pool_of(t[1])
    ptr = low.value(arg)
    skip = Label()
    low.jump(BinOp("eq", ptr, Const(0)), skip)
    old = low.temp()
    low.emit(Rmw(old, UnOp(cell_op(pool.name, FREED_FIELD, pool.size), ptr), Const(1), None))
    fail_unless(low, BinOp("eq", Reg(old), Const(0)), "double free")
    for f in low.ctx.structs[t[1]].fields:
        low.emit(Store(UnOp(cell_op(pool.name, f, pool.size), ptr), Const(FREED)))
    low.place(skip)
    return Const(0)


def uninitialised_pools(ctx: c_data.DataContext, names: set[str]) -> None:
    """The implicit malloc pools' fields start UNINIT (node 0, NULL, is never read: it is checked)."""
    for pool in ctx.pools.values():
        if pool.name not in names:
            continue
        for i in range(1, pool.size + 1):
            for f in ctx.structs[pool.struct].fields:
                ctx.init[cell_location(pool.name, i, f)] = UNINIT
            ctx.init[cell_location(pool.name, i, FREED_FIELD)] = 0

