"""One thread of a whole C program lowered: the C dialect's ``ThreadLowering`` plus threads,
mutexes, assert, assume, nondeterministic values, int arrays and atomic globals."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.program import (
    OLD, Assign, Assume, BinOp, Const, Expr, Fence, Load, Reg, Rmw, Store, element_location, index_op,
)
from .. import c_data
from .. import c_grammar as g
from ..c_lower import Access, ThreadLowering
from ..c_statements import Label
from . import memory
from .constants import assigned_names
from .atomic_blocks import MARKERS, lower_marker

ASSERT_REG = "%assert"  # the number of the assertion that failed (0: none)
SYNC = frozenset({"sc"})
IGNORED_CALLS = {"printf", "puts", "putchar", "fflush", "pthread_mutex_destroy", "pthread_attr_init",
                 "pthread_attr_destroy"}


@dataclass
class Spawn:
    """A thread ``main`` creates: its number, function, handle and argument."""

    tid: int
    function: str
    handle: str
    arg: Expr | None  # a constant, or None: passed through the location __arg<tid>
    pos: object = None


@dataclass
class Shared:
    """What the threads of one program share while they are lowered."""

    arrays: dict[str, tuple[int, bool, bool]] = field(default_factory=dict)  # name -> (size, volatile, atomic)
    flags: dict[str, tuple[bool, bool]] = field(default_factory=dict)  # scalar global -> (volatile, atomic)
    spawns: list[Spawn] = field(default_factory=list)
    asserts: dict[int, tuple[object, str, str]] = field(default_factory=dict)  # number -> (pos, text, thread)
    nondet: tuple[int, ...] = (0, 1)
    atomic_blocks: dict = field(default_factory=dict)  # ATOMIC_BEGIN's offset -> AtomicBlock
    malloc_pools: set[str] = field(default_factory=set)  # the pools malloc takes nodes from
    assigned: set[str] | None = None  # names some function changes (the others may be constants)


class ProgramLowering(ThreadLowering):
    """A thread function (or main) of a whole program; ``spawn`` is set for a created thread."""

    def __init__(self, fn, tid, text, pos, ctx, shared: Shared, spawn: Spawn | None):
        super().__init__(fn, tid, text, pos, ctx)
        self.shared = shared
        self.spawn = spawn
        self.end = Label()
        self.reg_choices: dict[str, tuple] = {}
        self.param_init: dict[str, object] = {}
        self.nnondet = 0
        self.const_regs: dict[str, int] = {}  # locals holding one constant for the whole thread
        if shared.assigned is None:
            shared.assigned = assigned_names([fn, *ctx.functions.values()])

    def unsupported(self, what: str, at: int, hint: str | None = None):
        err = super().unsupported(what, at, hint)
        err.message = err.message.replace("in the C dialect", "in C programs")
        return err

    # ---- the thread's frame ----------------------------------------------------------------
    def lower(self):
        if self.spawn is not None:  # wait to be created; the creation orders what main did before
            self.cur_pos, self.cur_text = self.spawn.pos, f"start of {self.fn.name}"
            self.emit(Rmw(None, Const(f"__start{self.tid}"), Reg(OLD), BinOp("eq", Reg(OLD), Const(1)),
                          blocking=True, annots=SYNC))
            self.emit(Fence("mb"))
        for p in self.fn.params:
            self._param(p)
        self.ret = ("%ret", self.end)
        self._block(self.fn.body, 0)
        self.cur_pos, self.cur_text = None, ""
        if self.unwind_label.used:  # a loop ran past --unroll: this execution is cut here
            done = Label()
            self.jump(None, done)
            self.place(self.unwind_label)
            self.emit(Assign(c_data.ERR_REG, Const(c_data.ERR_BOUND)))
            self.emit(Assume(Const(0), text="unroll bound reached"))
            self.place(done)
        self.place(self.end)
        if self.spawn is not None:  # located at the thread function's header
            self.cur_pos, self.cur_text = self.pos(self.fn.at), f"end of {self.fn.name}"
            self.emit(Fence("mb"))
            self.emit(Store(Const(f"__done{self.tid}"), Const(1), SYNC))
        from dataclasses import replace

        for idx, label in self.fixups:
            self.instrs[idx] = replace(self.instrs[idx], target=label.index)
        from ...core.program import Thread

        thread = Thread(self.tid, self.fn.name if self.spawn is None else f"{self.fn.name}#{self.tid}",
                        self.instrs, reg_init=dict(self.param_init), reg_choices=dict(self.reg_choices),
                        unsequenced=frozenset(self.unsequenced))
        return thread

    def _param(self, p: g.Param) -> None:
        d = p.decl
        local = self.declare_local(p.ctype, g.Declarator(d.at, d.name, min(d.stars, 1), False, False, None))
        if self.spawn is None:
            return
        if self.spawn.arg is not None:
            self.param_init[local.reg] = self.spawn.arg.value
            if isinstance(self.spawn.arg.value, int) and d.name not in self.shared.assigned:
                self.const_regs[local.reg] = self.spawn.arg.value
        else:
            self.emit(Load(local.reg, Const(f"__arg{self.tid}"), SYNC))

    # ---- arrays and atomic globals --------------------------------------------------------------
    def _element(self, e: g.Postfix) -> Access | None:
        if not (isinstance(e.arg, g.Name) and e.arg.name not in self.names and e.arg.name in self.shared.arrays):
            return None
        size, vol, atomic = self.shared.arrays[e.arg.name]
        idx = self.value(e.extra)
        if isinstance(idx, Const):
            if not isinstance(idx.value, int) or not 0 <= idx.value < size:
                raise self.malformed(f"index {idx.value} is out of the bounds of '{e.arg.name}[{size}]'", e.extra.at)
            return Access(Const(element_location(e.arg.name, idx.value)), vol, atomic)
        from ...core.program import UnOp

        return Access(UnOp(index_op(e.arg.name, size), idx), vol, atomic)

    def _global(self, e: g.Node) -> Access | None:
        if isinstance(e, g.Name) and e.name not in self.names and e.name in self.shared.flags:
            vol, atomic = self.shared.flags[e.name]
            return Access(Const(e.name), vol, atomic)
        if isinstance(e, g.Postfix) and e.kind == "[":
            return self._element(e)
        return None

    def null_check(self, ptr: Expr) -> None:
        memory.null_check(self, ptr)

    def _decl(self, stmt: g.Decl) -> None:
        super()._decl(stmt)
        for d in stmt.items:  # int i = <constant>; never changed: i is that constant
            last = self.instrs[-1] if self.instrs else None
            local = self.names.get(d.name)
            if d.init is not None and len(stmt.items) == 1 and d.name not in self.shared.assigned \
                    and isinstance(last, Assign) and local is not None and last.dst == getattr(local, "reg", None) \
                    and isinstance(last.expr, Const) and isinstance(last.expr.value, int):
                self.const_regs[local.reg] = last.expr.value

    def value(self, e: g.Node, dst: str | None = None) -> Expr:
        if isinstance(e, g.Name):
            found = self.names.get(e.name)
            reg = getattr(found, "reg", None)
            if reg in self.const_regs:
                return Const(self.const_regs[reg])
        if isinstance(e, g.Postfix) and e.kind == "->":
            v = super().value(e, dst)
            memory.check_read(self, e, v)
            return v
        if isinstance(e, g.Name) and e.name in self.shared.arrays and e.name not in self.names:
            return Const(element_location(e.name, 0))  # an array is the address of its first element
        acc = self._global(e) if isinstance(e, (g.Name, g.Postfix)) else None
        if acc is not None:
            reg = dst or self.temp()
            self.emit(Load(reg, acc.addr, self.plain(acc)))
            return Reg(reg)
        if isinstance(e, g.Unary) and e.op == "&":
            acc = self._global(e.arg)
            if acc is not None:
                return acc.addr
        if isinstance(e, g.Ternary):
            reg, other, done = self.temp(), Label(), Label()
            self.branch(e.cond, False, other)
            self.into(reg, e.then)
            self.jump(None, done)
            self.place(other)
            self.into(reg, e.other)
            self.place(done)
            return Reg(reg)
        return super().value(e, dst)

    def pointer(self, e: g.Node) -> Access:
        if isinstance(e, g.Unary) and e.op == "&":
            acc = self._global(e.arg)
            if acc is not None:
                return acc
        if isinstance(e, g.Name) and e.name in self.shared.arrays and e.name not in self.names:
            size, vol, atomic = self.shared.arrays[e.name]
            return Access(Const(element_location(e.name, 0)), vol, atomic)
        t = c_data.type_of(self, e) if isinstance(e, (g.Name, g.Postfix)) and getattr(e, "kind", "->") in (
            "->", ".") else None
        if t is not None and t[0] == "iptr":  # an int pointer stored in memory: load it, go where it points
            addr = self.value(e)
            self.null_check(addr)
            return Access(addr, False, t[1])
        acc = super().pointer(e)
        if isinstance(acc.addr, Reg) and isinstance(e, g.Name):  # a local pointer may hold NULL
            self.null_check(acc.addr)
        return acc

    def assign(self, e: g.AssignExpr) -> Expr:
        acc = self._global(e.target)
        if acc is not None:
            op = e.op[:-1]
            if op and acc.atomic:  # x += v on an _Atomic x is one atomic read-modify-write (C11)
                from ..c_lower import BINOPS

                v = self.value(e.value)
                old = self.temp()
                self.emit(Rmw(old, acc.addr, BinOp(BINOPS[op], Reg(OLD), v), annots=acc.annots("sc")))
                return BinOp(BINOPS[op], Reg(old), v)
            return self._store_at(acc, op, e.value)
        return super().assign(e)

    # ---- calls ---------------------------------------------------------------------------------
    def call(self, e: g.Call, dst: str | None) -> Expr | None:
        handler = getattr(self, "_call_" + e.name, None)
        if handler is not None:
            return handler(e)
        if e.name in IGNORED_CALLS:
            return Const(0)
        if e.name in MARKERS:
            return lower_marker(self, e, self.shared.atomic_blocks)
        if e.name in ("atomic_load_explicit", "atomic_load") and e.args and isinstance(e.args[0], g.Unary) \
                and e.args[0].op == "&" and isinstance(e.args[0].arg, g.Postfix) and e.args[0].arg.kind == "->":
            v = super().call(e, dst)  # an atomic read of a malloc'd node's field: checked as a plain one
            memory.check_read(self, e.args[0].arg, v)
            return v
        if e.name in ("__VERIFIER_assume", "assume"):
            self._arity(e, 1)
            self.emit(Assume(self.value(e.args[0])))
            return Const(0)
        if e.name in ("__VERIFIER_nondet_int", "__VERIFIER_nondet_uint", "__VERIFIER_nondet_bool",
                      "nondet_int"):
            return self._nondet(e)
        return super().call(e, dst)

    def _arity(self, e: g.Call, n: int) -> None:
        if len(e.args) != n:
            raise self.malformed(f"'{e.name}' takes {n} argument(s), not {len(e.args)}", e.at)

    def _nondet(self, e: g.Call) -> Expr:
        if self.loops and self.ctx.unroll is None:
            raise self.unsupported(f"'{e.name}' inside a loop without --unroll", e.at,
                                   hint="each unrolled copy gets its own value: pass --unroll N")
        self.nnondet += 1
        reg = f"%nondet{self.nnondet}"
        values = self.shared.nondet
        if e.name == "__VERIFIER_nondet_bool":
            values = (0, 1)
        self.reg_choices[reg] = tuple(values)
        return Reg(reg)

    def new_check(self, pos, text: str) -> int:
        """The number of a new check (an assertion, a memory error): its place, ``text`` and function
        are kept in ``shared.asserts``; ``fail`` with it stops the thread there."""
        number = len(self.shared.asserts) + 1
        self.shared.asserts[number] = (pos, text, self.fn.name)
        return number

    def fail(self, number: int) -> None:
        """Here the thread stops with check ``number`` failed (its assert register takes the number)."""
        self.emit(Assign(ASSERT_REG, Const(number)))
        self.jump(None, self.end)

    def _call_assert(self, e: g.Call) -> Expr:
        self._arity(e, 1)
        number = self.new_check(self.pos(e.at), self.cur_text)
        ok = Label()
        self.branch(e.args[0], True, ok)
        self.fail(number)
        self.place(ok)
        return Const(0)

    def _call_abort(self, e: g.Call) -> Expr:
        self.fail(self.new_check(self.pos(e.at), "abort()"))
        return Const(0)

    def _call_free(self, e: g.Call) -> Expr:
        return memory.free(self, e)

    def _call_pthread_exit(self, e: g.Call) -> Expr:
        self.jump(None, self.end)
        return Const(0)

    _call_exit = _call_pthread_exit

    def _handle(self, e: g.Node, what: str) -> str:
        if isinstance(e, g.Unary) and e.op == "&":
            e = e.arg
        if isinstance(e, g.Name):
            return e.name
        if isinstance(e, g.Postfix) and e.kind == "[" and isinstance(e.arg, g.Name):
            idx = self.value(e.extra)
            if isinstance(idx, Const):
                return f"{e.arg.name}[{idx.value}]"
        raise self.unsupported(f"this thread handle in {what}", e.at,
                               hint="a pthread_t variable, or an element of a pthread_t array with a constant index")

    def _call_pthread_create(self, e: g.Call) -> Expr:
        self._arity(e, 4)
        if self.spawn is not None or self.call_stack:
            raise self.unsupported("pthread_create outside main", e.at, hint="main creates every thread")
        if self.loops:
            raise self.unsupported("pthread_create inside a loop whose bounds are not constants", e.at)
        handle = self._handle(e.args[0], "pthread_create")
        fn = e.args[2]
        if isinstance(fn, g.Unary) and fn.op == "&":
            fn = fn.arg
        if not isinstance(fn, g.Name) or fn.name not in self.ctx.functions:
            raise self.malformed("pthread_create's third argument must name a function of the program",
                                 e.args[2].at, expected="a function defined in this file")
        tid = len(self.shared.spawns) + 1
        arg = self.value(e.args[3])
        spawn = Spawn(tid, fn.name, handle, arg if isinstance(arg, Const) else None, self.cur_pos)
        if spawn.arg is None:
            self.emit(Store(Const(f"__arg{tid}"), arg, SYNC))
        self.shared.spawns.append(spawn)
        self.emit(Fence("mb"))
        self.emit(Store(Const(f"__start{tid}"), Const(1), SYNC))
        return Const(0)

    def _call_pthread_join(self, e: g.Call) -> Expr:
        self._arity(e, 2)
        handle = self._handle(e.args[0], "pthread_join")
        if not (isinstance(e.args[1], g.Num) and e.args[1].value == 0) and not (
                isinstance(e.args[1], g.Name) and e.args[1].name == "NULL"):
            raise self.unsupported("pthread_join with a place for the thread's result", e.args[1].at,
                                   hint="pass NULL; return results through globals")
        found = [s for s in self.shared.spawns if s.handle == handle]
        if not found:
            raise self.malformed(f"pthread_join of '{handle}', which no pthread_create before it started",
                                 e.args[0].at)
        tid = found[-1].tid
        self.emit(Rmw(None, Const(f"__done{tid}"), Reg(OLD), BinOp("eq", Reg(OLD), Const(1)), blocking=True,
                      annots=SYNC))
        self.emit(Fence("mb"))
        return Const(0)

    def _call_pthread_mutex_lock(self, e: g.Call) -> Expr:
        self._arity(e, 1)
        acc = self.pointer(e.args[0])  # the mutex holds its owner's thread number + 1
        self.emit(Rmw(None, acc.addr, Const(self.tid + 1), BinOp("eq", Reg(OLD), Const(0)), blocking=True,
                      annots=acc.annots("lock", "acq"), one_event=True))
        return Const(0)

    def _call_pthread_mutex_trylock(self, e: g.Call) -> Expr:
        self._arity(e, 1)
        acc = self.pointer(e.args[0])
        old = self.temp()
        self.emit(Rmw(old, acc.addr, Const(self.tid + 1), BinOp("eq", Reg(OLD), Const(0)),
                      annots=acc.annots("lock", "acq"), one_event=True))
        return BinOp("ne", Reg(old), Const(0))

    def _call_pthread_mutex_unlock(self, e: g.Call) -> Expr:
        self._arity(e, 1)
        acc = self.pointer(e.args[0])
        self.emit(Store(acc.addr, Const(0), acc.annots("unlock", "rel")))
        return Const(0)

    def _call_pthread_mutex_init(self, e: g.Call) -> Expr:
        self._arity(e, 2)
        acc = self.pointer(e.args[0])
        self.emit(Store(acc.addr, Const(0), acc.annots()))
        return Const(0)

