"""Data in the C dialect: what names denote, structs, shared globals, a bounded node pool, inlined calls.

A ``struct`` declared at the top level gives each field of each node its own location.
``struct node pool[3];`` declares the pool of that struct type: nodes 1 to 3 (a pointer
is a node index, null is 0), their fields the locations ``pool1.next`` ... ``malloc``
takes the next node of the pool at lowering time (each call site, after inlining and
unrolling, gets its own node). Top-level scalars and struct variables are shared
locations (``top``, ``Q.head``). A call of a function defined in the test is inlined;
a call made by a thread function is one *operation* of the harness (``--spec serial``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..core.errors import LitmusError, SourcePos, UnsupportedError
from ..core.program import (
    OLD, Assign, BinOp, Const, Expr, Reg, Rmw, UnOp, apply_op, apply_unop, cell_location, cell_op,
)
from . import c_grammar as g

if TYPE_CHECKING:  # pragma: no cover
    from .c_lower import ThreadLowering


@dataclass
class Location:
    """A parameter: the name of a shared location, and how accesses through it are annotated."""

    name: str
    volatile: bool
    atomic: bool


@dataclass
class Local:
    """A local variable: a register of the thread (holding an int or the address of a location)."""

    reg: str
    pointer: bool
    volatile: bool  # for pointers: the pointee is volatile
    atomic: bool
    struct: str | None = None  # a pointer to a node of this struct (its value is a node index)


@dataclass
class Access:
    """Where an access goes and the annotations its pointer gives it."""

    addr: Expr
    volatile: bool
    atomic: bool

    def annots(self, *extra: str) -> frozenset[str]:
        return frozenset(extra) | ({"volatile"} if self.volatile else set())


def fold(e: Expr) -> Expr:
    """Constant-fold integer operations (keeps `while (1)` and `-1` simple)."""
    try:
        if isinstance(e, BinOp) and isinstance(e.left, Const) and isinstance(e.right, Const):
            if isinstance(e.left.value, int) and isinstance(e.right.value, int):
                return Const(apply_op(e.op, e.left.value, e.right.value))
        if isinstance(e, UnOp) and isinstance(e.arg, Const) and isinstance(e.arg.value, int):
            return Const(apply_unop(e.op, e.arg.value))
    except UnsupportedError:
        pass
    return e


MAX_POOL = 64  # nodes in one pool
MAX_CALL_DEPTH = 16  # nested inlined calls
INLINED_DEPTH = 1000  # added to the block depth of an inlined body's fence places (below any of the caller's)
MAX_UNROLL = 1000  # the largest 'unroll' a test may declare
MAX_THREAD_INSTRS = 20_000  # instructions of one thread after inlining and unrolling
ERR_REG = "%err"  # bit 1: a null pointer was dereferenced; bit 2: a loop reached its unwinding bound
ERR_NULL, ERR_BOUND = 1, 2

# a value type: None (an int), ("ptr", S) a pointer to struct S, ("struct", S) a struct variable,
# ("iptr", atomic) a pointer to an int (whole C programs: its value is the name of a location)
Type = tuple | None


@dataclass
class StructInfo:
    name: str
    fields: dict[str, Type]  # in declaration order


@dataclass
class Pool:
    name: str
    struct: str
    size: int
    used: int = 0


@dataclass
class Global:
    name: str
    type: Type


@dataclass
class DataContext:
    """What every thread of one test shares: structs, globals, the node pools, the functions, the unroll bound."""

    structs: dict[str, StructInfo] = field(default_factory=dict)
    globals: dict[str, Global] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)  # by struct name
    functions: dict[str, g.Function] = field(default_factory=dict)
    init: dict[str, int] = field(default_factory=dict)
    unroll: int | None = None
    unrolled: set[tuple[int, int]] = field(default_factory=set)  # (start, end) of each loop unrolled
    int_pointers: bool = False  # 'int *' globals and fields allowed (whole C programs)

    def pool_of(self, struct: str) -> Pool | None:
        return self.pools.get(struct)


def field_type(ctx: DataContext, ctype: g.CType, d: g.Declarator, pos) -> Type:
    """The type of a field, global or local declared ``ctype d``."""
    if ctype.words and ctype.words[0] == "struct":
        name = ctype.words[1]
        if name not in ctx.structs:
            raise LitmusError(f"unknown struct '{name}'", pos(d.at), expected="a struct defined before this use")
        if d.stars > 1:
            raise UnsupportedError(f"pointer to pointer ('{d.name}') is not supported in the C dialect", pos(d.at))
        return ("ptr", name) if d.stars == 1 else ("struct", name)
    if d.stars == 1 and ctx.int_pointers:  # whole C programs: an int pointer holds a location's name
        return ("iptr", ctype.atomic)
    if d.stars > 1 and ctx.int_pointers:
        raise UnsupportedError(f"pointer to pointer ('{d.name}') is not supported in C programs", pos(d.at))
    if d.stars:
        raise UnsupportedError(f"pointer to int ('{d.name}') outside a thread's parameters is not supported",
                               pos(d.at), hint="shared pointers point to nodes: 'struct node *p'")
    return None


def build_context(items: list, pos, unroll: int | None, int_pointers: bool = False) -> DataContext:
    """Structs, globals and pools of the top-level declarations; the functions other than P0, P1 ..."""
    ctx = DataContext(unroll=unroll, int_pointers=int_pointers)
    for item in items:
        if isinstance(item, g.StructDef):
            if item.name in ctx.structs:
                raise LitmusError(f"struct '{item.name}' is defined twice", pos(item.at))
            info = StructInfo(item.name, {})
            ctx.structs[item.name] = info  # a field may point to its own struct
            for decl in item.fields:
                for d in decl.items:
                    if d.array or d.init is not None:
                        raise UnsupportedError(f"field '{d.name}' with an array or an initial value is not "
                                               "supported in the C dialect", pos(d.at))
                    t = field_type(ctx, decl.ctype, d, pos)
                    if t is not None and t[0] == "struct":
                        raise UnsupportedError(f"a struct inside a struct (field '{d.name}') is not supported",
                                               pos(d.at), hint="use a pointer field")
                    if d.name in info.fields:
                        raise LitmusError(f"field '{d.name}' is declared twice in struct '{item.name}'", pos(d.at))
                    info.fields[d.name] = t
        elif isinstance(item, g.GlobalDecl):
            for d in item.decl.items:
                _global(ctx, item.decl.ctype, d, pos)
        elif isinstance(item, g.Function) and not _is_thread(item.name):
            if item.name in ctx.functions:
                raise LitmusError(f"function '{item.name}' is defined twice", pos(item.at))
            ctx.functions[item.name] = item
    return ctx


def _is_thread(name: str) -> bool:
    return name[:1] == "P" and name[1:].isdigit()


def _global(ctx: DataContext, ctype: g.CType, d: g.Declarator, pos) -> None:
    if d.name in ctx.globals or any(p.name == d.name for p in ctx.pools.values()):
        raise LitmusError(f"'{d.name}' is declared twice", pos(d.at))
    t = field_type(ctx, ctype, d, pos)
    if d.array:
        if t is None or t[0] != "struct":
            raise UnsupportedError(f"array '{d.name}' is not supported in the C dialect", pos(d.at),
                                   hint="an array of structs is a node pool: 'struct node pool[3];'")
        if not isinstance(d.size, g.Num):
            raise LitmusError(f"pool '{d.name}' needs a number of nodes", pos(d.at), expected="'[3]'")
        if not 1 <= d.size.value <= MAX_POOL:
            raise UnsupportedError(f"pool '{d.name}' has {d.size.value} nodes; 1 to {MAX_POOL} are supported",
                                   pos(d.size.at))
        if t[1] in ctx.pools:
            raise UnsupportedError(f"a second pool of struct '{t[1]}' ('{d.name}')", pos(d.at),
                                   hint="one pool per struct type")
        ctx.pools[t[1]] = Pool(d.name, t[1], d.size.value)
        for i in range(0, d.size.value + 1):  # node 0 is null: its fields catch null dereferences
            for f in ctx.structs[t[1]].fields:
                ctx.init[cell_location(d.name, i, f)] = 0
        return
    ctx.globals[d.name] = Global(d.name, t)
    if t is not None and t[0] == "struct":
        if d.init is not None:
            raise UnsupportedError(f"an initial value for struct '{d.name}'", pos(d.init.at))
        for f in ctx.structs[t[1]].fields:
            ctx.init[f"{d.name}.{f}"] = 0
        return
    value = 0
    if isinstance(d.init, g.Call) and d.init.name == "malloc":  # a node taken before the threads start
        value = _take_node(ctx, _sizeof_name(d.init), pos(d.init.at))
    elif d.init is not None:
        if isinstance(d.init, g.Num):
            value = d.init.value
        elif isinstance(d.init, g.Unary) and d.init.op == "-" and isinstance(d.init.arg, g.Num):
            value = -d.init.arg.value
        elif not (isinstance(d.init, g.Name) and d.init.name == "NULL"):
            raise UnsupportedError(f"the initial value of '{d.name}' must be a number", pos(d.init.at))
    ctx.init[d.name] = value


# ----- expressions over structs and pointers ------------------------------------------------------
def type_of(low: "ThreadLowering", e: g.Node) -> Type:
    """The static type of an expression (None: an int)."""
    ctx = low.ctx
    if isinstance(e, g.Name):
        found = low.names.get(e.name)
        if isinstance(found, Local):
            return ("ptr", found.struct) if found.struct else None
        glob = ctx.globals.get(e.name) if found is None else None
        return glob.type if glob else None
    if isinstance(e, g.Postfix) and e.kind in ("->", "."):
        return member(low, e)[1]
    if isinstance(e, g.Call):
        if e.name == "malloc":
            return ("ptr", _sizeof_struct(low, e))
        fn = ctx.functions.get(e.name)
        if fn is not None and fn.returns is not None and fn.returns.words[:1] == ("struct",) and fn.return_stars:
            return ("ptr", fn.returns.words[1])
    return None


def member(low: "ThreadLowering", e: g.Postfix) -> tuple[Expr, Type]:
    """The address of ``s.f`` or ``p->f`` (null-checked) and the field's type."""
    base_t = type_of(low, e.arg)
    want = "ptr" if e.kind == "->" else "struct"
    if base_t is None or base_t[0] != want:
        shape = "a pointer to a struct" if e.kind == "->" else "a struct variable"
        raise low.malformed(f"'{e.kind}{e.extra}' needs {shape} on its left", e.at, expected=shape)
    info = low.ctx.structs[base_t[1]]
    if e.extra not in info.fields:
        raise low.malformed(f"struct '{info.name}' has no field '{e.extra}'", e.at,
                            expected="one of " + ", ".join(info.fields))
    ftype = info.fields[e.extra]
    if e.kind == ".":
        if not isinstance(e.arg, g.Name):
            raise low.unsupported("'.' on this expression", e.at, hint="use '.' on a global struct variable")
        return Const(f"{e.arg.name}.{e.extra}"), ftype
    pool = low.ctx.pool_of(base_t[1])
    if pool is None:
        raise low.malformed(f"no pool of struct '{base_t[1]}' to point into", e.at,
                            expected=f"a declaration such as 'struct {base_t[1]} pool[3];'")
    ptr = low.value(e.arg)
    low.null_check(ptr)
    return UnOp(cell_op(pool.name, e.extra, pool.size), ptr), ftype


def global_address(low: "ThreadLowering", e: g.Name) -> tuple[Expr, Type] | None:
    glob = low.ctx.globals.get(e.name)
    if glob is None:
        return None
    if glob.type is not None and glob.type[0] == "struct":
        raise low.unsupported(f"struct variable '{e.name}' as a whole", e.at, hint=f"use its fields: {e.name}.f")
    return Const(e.name), glob.type


def addressable(low: "ThreadLowering", e: g.Node) -> bool:
    """Whether ``&e`` is the address of a shared location: a global, ``s.f`` or ``p->f``."""
    return (isinstance(e, g.Postfix) and e.kind in ("->", ".")) or (
        isinstance(e, g.Name) and e.name not in low.names and e.name in low.ctx.globals)


def address_of(low: "ThreadLowering", e: g.Node) -> Expr:
    """``&global``, ``&s.f``, ``&p->f``: the address of a shared location."""
    if isinstance(e, g.Name):
        return global_address(low, e)[0]
    return member(low, e)[0]


def _sizeof_name(e: g.Call) -> str | None:
    """``S`` of ``malloc(sizeof(struct S))``, or None."""
    arg = e.args[0] if len(e.args) == 1 else None
    if not (isinstance(arg, g.Call) and arg.name == "sizeof" and arg.args
            and arg.args[0].name.split()[:1] == ["struct"] and len(arg.args[0].name.split()) == 2):
        return None
    return arg.args[0].name.split()[1]


def _sizeof_struct(low: "ThreadLowering", e: g.Call) -> str:
    name = _sizeof_name(e)
    if name is None:
        raise low.malformed("malloc takes the size of a struct", e.at, expected="malloc(sizeof(struct node))")
    return name


def _take_node(ctx: DataContext, struct: str | None, pos: SourcePos) -> int:
    """The next free node of the pool of ``struct`` (an error naming the pool when it is used up)."""
    if struct is None:
        raise LitmusError("malloc takes the size of a struct", pos, expected="malloc(sizeof(struct node))")
    if struct not in ctx.structs:
        raise LitmusError(f"unknown struct '{struct}'", pos)
    pool = ctx.pool_of(struct)
    if pool is None:
        raise LitmusError(f"malloc of struct '{struct}' and no pool of it", pos,
                          expected=f"a declaration such as 'struct {struct} pool[3];'")
    if pool.used >= pool.size:
        raise UnsupportedError(f"a malloc beyond the {pool.size} node(s) of pool '{pool.name}' is not supported",
                               pos, hint="declare a larger pool")
    pool.used += 1
    return pool.used


def malloc(low: "ThreadLowering", e: g.Call) -> Expr:
    """The next free node of the struct's pool, fixed at lowering time."""
    struct = _sizeof_struct(low, e)
    if low.loops and low.ctx.unroll is None:
        raise low.unsupported("malloc inside a loop", e.at,
                              hint="declare 'unroll=N' in the header: each unrolled copy gets its own node")
    return Const(_take_node(low.ctx, struct, low.pos(e.at)))


def cas(low: "ThreadLowering", e: g.Call, dst: str | None) -> Expr:
    """``cas(&loc, old, new)``: an atomic compare-and-swap (no ordering of its own); 1 when it wrote."""
    if len(e.args) != 3:
        raise low.malformed(f"'cas' takes 3 arguments, not {len(e.args)}", e.at, expected="cas(&x, old, new)")
    acc = low.pointer(e.args[0])
    expected = low.value(e.args[1])
    new = low.value(e.args[2])
    reg = low.temp()
    low.emit(Rmw(reg, acc.addr, new, BinOp("eq", Reg(OLD), expected), annots=acc.annots()))
    return BinOp("eq", Reg(reg), expected)


def inline(low: "ThreadLowering", fn: g.Function, e: g.Call, dst: str | None) -> Expr | None:
    """Lower the body of ``fn`` in place of the call, with fresh registers; 'return v' jumps to its end."""
    stack = low.call_stack
    if fn.name in stack:
        chain = " -> ".join([*stack, fn.name])
        raise low.unsupported(f"recursive call to '{fn.name}' ({chain})", e.at,
                              hint="functions are inlined at their calls: recursion has no bound")
    if len(stack) >= MAX_CALL_DEPTH:
        raise low.unsupported(f"calls nested deeper than {MAX_CALL_DEPTH} ('{fn.name}')", e.at)
    if len(e.args) != len(fn.params):
        raise low.malformed(f"'{fn.name}' takes {len(fn.params)} argument(s), not {len(e.args)}", e.at)
    start = len(low.instrs)
    values = [low.value(a) for a in e.args]
    low.ncalls[fn.name] = low.ncalls.get(fn.name, 0) + 1
    prefix = f"%{fn.name}{low.ncalls[fn.name]}."
    saved = (low.names, low.scopes, low.loops, low.ret, low.prefix, low.cur_pos, low.cur_text)
    low.names, low.scopes, low.loops, low.prefix = {}, [[]], [], prefix
    for p, v in zip(fn.params, values):
        if p.decl.array:
            raise low.unsupported(f"array parameter '{p.decl.name}'", p.decl.at)
        local = low.declare_local(p.ctype, p.decl)
        low.emit_assign(local.reg, v)
    ret_reg = prefix + "ret" if fn.returns is not None else None
    end = low.new_label()
    low.ret = (ret_reg, end)
    stack.append(fn.name)
    nb = len(low.boundaries)
    low.block(fn.body)
    stack.pop()
    low.place(end)
    low.boundaries[nb:] = inlined_boundaries(low.boundaries[nb:], end)
    low.names, low.scopes, low.loops, low.ret, low.prefix, low.cur_pos, low.cur_text = saved
    if not stack:
        low.operations.append((start, len(low.instrs), fn.name))
    return Reg(ret_reg) if ret_reg else None


def inlined_boundaries(boundaries: list, end) -> list:
    """The fence places of one inlined body, for ``-o`` to write into the function's own text.

    They rank below the caller's places at the same instruction (``choose_boundary`` takes
    the shallowest): a fence there goes into the caller, at this one call. The end of the
    body is no place when a ``return`` jumps past it to ``end``.
    """
    return [replace(b, depth=b.depth + INLINED_DEPTH) for b in boundaries
            if not (end.used and b.index == end.index)]


def null_check(low: "ThreadLowering", ptr: Expr) -> None:
    """Set bit 1 of %err when ``ptr`` is null (0): CheckFence's null-dereference error.

    The flag is computed as data, not by a branch: a branch would give every later access
    a control dependency on the pointer's load, an order the program itself does not have.
    The access then goes to node 0 (the null node), and the observation says %err.
    """
    if isinstance(ptr, Const) and ptr.value != 0:
        return
    if isinstance(ptr, Reg) and ptr.name in low.nonnull:
        return
    flag = Const(1) if isinstance(ptr, Const) else BinOp("eq", ptr, Const(0))
    low.emit(Assign(ERR_REG, BinOp("or", Reg(ERR_REG), flag)))
    low.faulted = True
    if isinstance(ptr, Reg):
        low.nonnull.add(ptr.name)


def fault_exits(low: "ThreadLowering") -> bool:
    """At the end of a thread: the exit that sets bit 2 of %err and stops it (a loop's bound reached)."""
    if not low.unwind_label.used:
        return low.faulted
    end = low.new_label()
    low.cur_pos, low.cur_text = None, ""
    low.jump(None, end)
    low.place(low.unwind_label)
    low.emit(Assign(ERR_REG, BinOp("or", Reg(ERR_REG), Const(ERR_BOUND))))
    low.place(end)
    return True


def return_stmt(low: "ThreadLowering", stmt: g.Return) -> None:
    """``return v;`` in an inlined function: the value into its result register, a jump to its end."""
    if low.ret is None:
        raise low.unsupported("'return' in a thread function", stmt.at,
                              hint="a thread function runs to its end; functions it calls may return")
    low.at_statement(stmt)
    reg, end = low.ret
    if stmt.value is not None:
        if reg is None:
            raise low.malformed("'return' with a value in a void function", stmt.value.at)
        low.into(reg, stmt.value)
    low.jump(None, end)


def unrolled_loop(low: "ThreadLowering", stmt: g.Stmt, header: str, cond: g.Node | None, body: g.Stmt, depth: int,
                  step: g.Node | None, test_first: bool) -> None:
    """The loop unrolled ``unroll`` times; where it would run once more the thread stops with %err = 2."""
    brk = low.new_label()
    low.ctx.unrolled.add((stmt.at, stmt.end))
    for _ in range(low.ctx.unroll):
        cont = low.new_label()
        low.at_statement(stmt, header)
        if test_first and cond is not None:
            low.branch(cond, False, brk)
        low.loop_body(body, depth, brk, cont, True)  # a `continue` here also ends the body: not one place
        low.place(cont)
        low.at_statement(stmt, header)
        if step is not None:
            low.effect(step)
        if not test_first and cond is not None:
            low.branch(cond, False, brk)
    low.at_statement(stmt, header)
    if test_first and cond is not None:
        low.branch(cond, False, brk)
    low.jump(None, low.unwind_label)
    low.place(brk)


def thread_limit_error(what: str, pos: SourcePos | None) -> UnsupportedError:
    return UnsupportedError(f"{what} has more than {MAX_THREAD_INSTRS} instructions after inlining and "
                            "unrolling", pos, hint="lower 'unroll', or call fewer operations")
