"""Lowering of one C thread function (the ``c_grammar`` AST) to core instructions with control flow."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable

from ..core.errors import LitmusError, SourcePos, UnsupportedError
from ..core.program import (
    atomic_block_error,
    MEMORY_INSTRS, Assign, Assume, BinOp, Branch, Const, Expr, Instr, Load, Reg, Store, Thread, UnOp,
)
from . import c_atomic, c_data
from . import c_grammar as g
from .c_builtins import BUILTINS, SUPPORTED_CALLS
from .c_data import Access, DataContext, Local, Location, fold
from .c_statements import Boundary, Label, StatementLowering, _Loop

BINOPS = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "^": "xor", "&": "and", "|": "or",
    "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "&&": "land", "||": "lor",
}


@dataclass
class ThreadCode:
    thread: Thread
    boundaries: list[Boundary] = field(default_factory=list)
    locals: set[str] = field(default_factory=set)
    faults: bool = False  # the thread sets %err (a null dereference or an unwinding bound reached)


class ThreadLowering(StatementLowering):
    """Lower one ``P<n>(...) { ... }`` function; ``pos(at)`` maps body offsets to file positions."""

    def __init__(self, fn: g.Function, tid: int, text: str, pos: Callable[[int], SourcePos],
                 ctx: DataContext | None = None):
        self.ctx = ctx or DataContext()
        self.call_stack: list[str] = []  # the functions being inlined
        self.ncalls: dict[str, int] = {}
        self.ret: tuple[str | None, Label] | None = None  # where 'return' goes in an inlined function
        self.prefix = ""  # register prefix of an inlined function's locals
        self.operations: list[tuple[int, int, str]] = []
        self.nonnull: set[str] = set()  # registers known not to be null here
        self.unwind_label = Label()
        self.faulted = False  # a null check sets %err
        self.fn = fn
        self.tid = tid
        self.text = text
        self.pos = pos
        self.instrs: list[Instr] = []
        self.fixups: list[tuple[int, Label]] = []
        self.boundaries: list[Boundary] = []
        self.names: dict[str, Location | Local] = {}  # the names visible here
        self.scopes: list[list[str]] = [[]]  # locals declared in each open block
        self.registers: set[str] = set()  # every local of the thread (the condition may name them)
        self.loops: list[_Loop] = []
        self.cur_pos: SourcePos | None = None
        self.cur_text = ""
        self.ntemp = 0
        self.unsequenced: set[tuple[int, int, bool]] = set()
        self.in_atomic = False  # lowering the body of an atomic block (c_atomic)

    # ---- entry -------------------------------------------------------------------------
    def lower(self) -> ThreadCode:
        for p in self.fn.params:
            self._param(p)
        self._block(self.fn.body, 0)
        faults = c_data.fault_exits(self)
        for idx, label in self.fixups:
            self.instrs[idx] = replace(self.instrs[idx], target=label.index)
        bad = atomic_block_error(self.instrs)
        if bad is not None:
            raise UnsupportedError(f"{bad[1]} is not supported in the C dialect", self.instrs[bad[0]].pos)
        thread = Thread(self.tid, self.fn.name, self.instrs, operations=self.operations,
                        unsequenced=frozenset(self.unsequenced))
        return ThreadCode(thread, self.boundaries, self.registers, faults)

    # ---- errors and emission ---------------------------------------------------------------
    def unsupported(self, what: str, at: int, hint: str | None = None) -> UnsupportedError:
        return UnsupportedError(f"{what} is not supported in the C dialect", self.pos(at), hint=hint)

    def malformed(self, what: str, at: int, expected: str | None = None) -> LitmusError:
        return LitmusError(what, self.pos(at), expected=expected)

    def emit(self, ins: Instr) -> int:
        if len(self.instrs) >= c_data.MAX_THREAD_INSTRS:
            raise c_data.thread_limit_error(f"thread {self.fn.name}", self.cur_pos)
        dst = getattr(ins, "dst", None)
        if dst:
            self.nonnull.discard(dst)
            if isinstance(ins, Assign) and isinstance(ins.expr, Const) and isinstance(ins.expr.value, int) \
                    and ins.expr.value != 0:
                self.nonnull.add(dst)
        self.instrs.append(replace(ins, pos=self.cur_pos, text=self.cur_text))
        return len(self.instrs) - 1

    def emit_assign(self, reg: str, v: Expr) -> None:
        self.emit(Assign(reg, v))

    def new_label(self) -> Label:
        return Label()

    def block(self, block: g.Block) -> None:
        """An inlined function's body (its locals live in the fresh scope the caller set up)."""
        self._block(block, 0)

    def null_check(self, ptr: Expr) -> None:
        c_data.null_check(self, ptr)

    def jump(self, cond: Expr | None, label: Label) -> None:
        if isinstance(cond, Const):
            if not cond.value:
                return
            cond = None
        label.used = True
        self.fixups.append((self.emit(Branch(cond, -1)), label))

    def place(self, label: Label) -> None:
        label.index = len(self.instrs)
        self.nonnull.clear()  # a join point: other paths arrive here

    def temp(self) -> str:
        self.ntemp += 1
        return f"%t{self.ntemp - 1}"

    def source(self, start: int, end: int) -> str:
        return re.sub(r"\s+", " ", self.text[start:end]).strip()

    def at_statement(self, stmt: g.Stmt, text: str | None = None) -> None:
        self.cur_pos = self.pos(stmt.at)
        self.cur_text = text if text is not None else self.source(stmt.at, stmt.end)
        self.ntemp = 0

    # ---- names ----------------------------------------------------------------------------
    def _param(self, p: g.Param) -> None:
        d = p.decl
        if d.array:
            raise self.unsupported(f"array parameter '{d.name}'", d.at)
        if d.stars == 0:
            spelled = " ".join(p.ctype.words)
            raise self.unsupported(f"parameter '{d.name}' that is not a pointer", d.at,
                                   hint=f"parameters name shared locations: write '{spelled} *{d.name}'")
        if d.stars > 2:
            raise self.unsupported(f"pointer to pointer to pointer (parameter '{d.name}')", d.at)
        # 'int **p': a location that holds an address (the kernel's rcu_assign_pointer(*p, x) /
        # r0 = rcu_dereference(*p) publish one); '**p' itself stays refused (pointer())
        if d.init is not None:
            raise self.malformed(f"parameter '{d.name}' has a default value", d.init.at, expected="',' or ')'")
        if d.name in self.names:
            raise self.malformed(f"parameter '{d.name}' is declared twice in {self.fn.name}", d.at)
        self.names[d.name] = Location(d.name, p.ctype.volatile, p.ctype.atomic)

    def _declare(self, ctype: g.CType, d: g.Declarator) -> Local:
        return self.declare_local(ctype, d)

    def declare_local(self, ctype: g.CType, d: g.Declarator) -> Local:
        if d.array:
            raise self.unsupported(f"array '{d.name}'", d.at)
        if d.stars > 1:
            raise self.unsupported(f"pointer to pointer ('{d.name}')", d.at)
        struct = None
        if ctype.words[:1] == ("struct",):
            t = c_data.field_type(self.ctx, ctype, d, self.pos)
            if t[0] == "struct":
                raise self.unsupported(f"a local struct variable ('{d.name}')", d.at,
                                       hint="declare shared structs at the top level, or use a pointer")
            struct = t[1]
        old = self.names.get(d.name)
        if isinstance(old, Location):
            raise self.malformed(f"local '{d.name}' has the name of a parameter of {self.fn.name}", d.at,
                                 expected="a new name")
        if old is not None and d.name in self.scopes[-1]:
            raise self.malformed(f"'{d.name}' is declared twice in the same block of {self.fn.name}", d.at,
                                 expected="a new name")
        if old is not None:
            raise self.unsupported(f"declaring '{d.name}' again in an inner block of {self.fn.name}", d.at,
                                   hint="a local is a register named after it: shadowing is not supported")
        if d.name in self.ctx.globals:
            raise self.malformed(f"local '{d.name}' has the name of a global", d.at, expected="a new name")
        local = Local(self.prefix + d.name, d.stars == 1 and struct is None, ctype.volatile, ctype.atomic, struct)
        self.names[d.name] = local
        self.scopes[-1].append(d.name)
        if not self.prefix:
            self.registers.add(d.name)
        return local

    def _open_scope(self) -> None:
        self.scopes.append([])

    def _close_scope(self) -> None:
        """Leaving a block: its locals are no longer visible (a later block may declare them again)."""
        for name in self.scopes.pop():
            del self.names[name]

    def lookup(self, node: g.Name) -> Location | Local:
        found = self.names.get(node.name)
        if found is None and node.name in self.ctx.globals:
            raise self.malformed(f"global '{node.name}' is a location, not a pointer to one", node.at,
                                 expected=f"'&{node.name}'")
        if found is None and node.name == "NULL":
            raise self.malformed("NULL cannot be used here", node.at, expected="a pointer to a location")
        if found is None:
            raise self.malformed(f"unknown name '{node.name}' in {self.fn.name}", node.at,
                                 expected="a parameter or a local declared before this use")
        return found

    # ---- expressions ----------------------------------------------------------------------------
    def effect(self, e: g.Node) -> None:
        """Lower an expression evaluated for its effects (an expression statement)."""
        if isinstance(e, g.AssignExpr):
            self.assign(e)
        elif isinstance(e, g.Postfix) and e.kind in ("++", "--"):
            self.assign(g.AssignExpr(e.at, "+=" if e.kind == "++" else "-=", e.arg, g.Num(e.at, 1)))
        elif isinstance(e, g.Unary) and e.op in ("++", "--"):
            self.assign(g.AssignExpr(e.at, "+=" if e.op == "++" else "-=", e.arg, g.Num(e.at, 1)))
        elif isinstance(e, g.Call):
            self.call(e, None)
        elif isinstance(e, g.Unary) and e.op == "*":
            acc = self.pointer(e.arg)
            self.emit(Load(None, acc.addr, self.plain(acc)))
        else:
            self.value(e)

    def into(self, reg: str, e: g.Node) -> None:
        """``reg = e``: a load or an atomic call writes ``reg`` itself, anything else is an Assign."""
        n = len(self.instrs)
        v = self.value(e, reg)
        if v == Reg(reg) and any(getattr(i, "dst", None) == reg for i in self.instrs[n:]):
            return
        self.emit(Assign(reg, v))

    def assign(self, e: g.AssignExpr) -> Expr:
        op = e.op[:-1]
        if op in ("<<", ">>"):
            raise self.unsupported(f"shift assignment '{e.op}'", e.at)
        t = e.target
        if isinstance(t, g.Name) and t.name not in self.names and t.name in self.ctx.globals:
            addr, _ = c_data.global_address(self, t)
            return self._store_at(Access(addr, False, False), op, e.value)
        if isinstance(t, g.Postfix) and t.kind in ("->", "."):
            addr, _ = c_data.member(self, t)
            return self._store_at(Access(addr, False, False), op, e.value)
        if isinstance(t, g.Name):
            found = self.lookup(t)
            if isinstance(found, Location):
                raise self.unsupported(f"assigning to parameter '{t.name}' (a pointer)", t.at,
                                       hint=f"to write the location, write '*{t.name} = ...'")
            if op:
                self.emit(Assign(found.reg, fold(BinOp(BINOPS[op], Reg(found.reg), self.value(e.value)))))
            else:
                self.into(found.reg, e.value)
            return Reg(found.reg)
        if isinstance(t, g.Unary) and t.op == "*":
            return self._store_at(self.pointer(t.arg), op, e.value)
        self.reject_shape(t)
        raise self.malformed("cannot assign to this expression", t.at, expected="a local or '*pointer'")

    def _store_at(self, acc: Access, op: str, value: g.Node) -> Expr:
        if op:
            old = self.temp()
            self.emit(Load(old, acc.addr, self.plain(acc)))
            v = fold(BinOp(BINOPS[op], Reg(old), self.value(value)))
        else:
            v = self.value(value)
        self.emit(Store(acc.addr, v, self.plain(acc)))
        return v

    def value(self, e: g.Node, dst: str | None = None) -> Expr:
        """Lower ``e`` for its value; a load or an atomic call writes ``dst`` when given."""
        if isinstance(e, g.Num):
            return Const(e.value)
        if isinstance(e, g.Name):
            if e.name not in self.names and e.name in self.ctx.globals:
                addr, _ = c_data.global_address(self, e)
                reg = dst or self.temp()
                self.emit(Load(reg, addr, frozenset()))
                return Reg(reg)
            if e.name == "NULL" and e.name not in self.names:
                return Const(0)
            found = self.lookup(e)
            return Const(found.name) if isinstance(found, Location) else Reg(found.reg)
        if isinstance(e, g.Postfix) and e.kind in ("->", "."):
            addr, _ = c_data.member(self, e)
            reg = dst or self.temp()
            self.emit(Load(reg, addr, frozenset()))
            return Reg(reg)
        if isinstance(e, g.Unary) and e.op == "&" and c_data.addressable(self, e.arg):
            return c_data.address_of(self, e.arg)
        if isinstance(e, g.Unary):
            if e.op == "*":
                acc = self.pointer(e.arg)
                reg = dst or self.temp()
                self.emit(Load(reg, acc.addr, self.plain(acc)))
                return Reg(reg)
            if e.op in ("++", "--"):
                raise self.unsupported(f"'{e.op}' inside an expression", e.at, hint="write it as a statement")
            if e.op == "&":
                raise self.unsupported("taking an address with '&'", e.at,
                                       hint="only atomic_compare_exchange's expected value may be '&local'")
            v = self.value(e.arg)
            if e.op == "+":
                return v
            if e.op == "~":
                return fold(BinOp("sub", fold(UnOp("neg", v)), Const(1)))
            return fold(UnOp("not" if e.op == "!" else "neg", v))
        if isinstance(e, g.Binary):
            if e.op in ("<<", ">>"):
                raise self.unsupported(f"shift '{e.op}'", e.at)
            if e.op in ("&&", "||") and has_effects(e.right):
                return self._short_circuit(e, dst)
            start = len(self.instrs)
            left = self.value(e.left)
            middle = len(self.instrs)
            right = self.value(e.right)
            self.unsequence(range(start, middle), range(middle, len(self.instrs)), e.at)
            return fold(BinOp(BINOPS[e.op], left, right))
        if isinstance(e, g.Call):
            v = self.call(e, dst)
            if v is None:
                raise self.malformed(f"'{e.name}' returns no value", e.at)
            return v
        if isinstance(e, g.AssignExpr):
            return self.assign(e)
        self.reject_shape(e)
        raise self.malformed("cannot evaluate this expression", e.at)  # pragma: no cover

    def unsequence(self, first: range, second: range, at: int | None, reads_only: bool = False) -> None:
        """The instructions of ``first`` and ``second`` (two operands of one expression) are
        evaluated unsequenced, as herd's C semantics does: no program order between their
        events (with ``reads_only``, ``second`` is a kernel RMW: only its read half)."""
        mem_first = [i for i in first if isinstance(self.instrs[i], MEMORY_INSTRS)]
        mem_second = [j for j in second if isinstance(self.instrs[j], MEMORY_INSTRS)]
        if not mem_first or not mem_second:
            return
        for k in list(first) + list(second):
            if isinstance(self.instrs[k], (Branch, Assume)):
                raise UnsupportedError(
                    "a memory access beside a call that branches (an inlined function, a compare-and-swap, "
                    "a null check) in one expression is not supported in the C dialect",
                    self.cur_pos if at is None else self.pos(at),
                    hint="C leaves the order of the two operands unspecified: evaluate one of them into a local first")
        for i in mem_first:
            for j in mem_second:
                self.unsequenced.add((i, j, reads_only))

    def _short_circuit(self, e: g.Binary, dst: str | None) -> Expr:
        reg = self.temp()
        done = Label()
        is_and = e.op == "&&"
        self.emit(Assign(reg, Const(0 if is_and else 1)))
        self.branch(e.left, not is_and, done)
        self.branch(e.right, not is_and, done)
        self.emit(Assign(reg, Const(1 if is_and else 0)))
        self.place(done)
        return Reg(reg)

    def reject_shape(self, e: g.Node) -> None:
        """Raise the UnsupportedError naming an expression form the dialect does not have."""
        if isinstance(e, g.Postfix):
            what = {"[": "array indexing"}
            if e.kind in what:
                raise self.unsupported(what[e.kind], e.at)
            raise self.unsupported(f"'{e.kind}' inside an expression", e.at, hint="write it as a statement")
        if isinstance(e, g.Ternary):
            raise self.unsupported("the conditional operator '?:'", e.at, hint="use if/else")

    def pointer(self, e: g.Node) -> Access:
        """The location a pointer expression designates."""
        if isinstance(e, g.Unary) and e.op == "&" and c_data.addressable(self, e.arg):
            return Access(c_data.address_of(self, e.arg), False, False)
        if isinstance(e, g.Name):
            found = self.lookup(e)
            if isinstance(found, Location):
                return Access(Const(found.name), found.volatile, found.atomic)
            if found.struct:
                raise self.unsupported(f"dereferencing struct pointer '{e.name}' as a whole", e.at,
                                       hint=f"access its fields: {e.name}->field")
            if not found.pointer:
                raise self.malformed(f"'{e.name}' is not a pointer", e.at, expected="a pointer parameter or local")
            return Access(Reg(found.reg), found.volatile, found.atomic)
        if isinstance(e, g.Unary) and e.op == "*":
            raise self.unsupported("pointer to pointer", e.at)
        if isinstance(e, g.Unary) and e.op == "&":
            raise self.unsupported("taking an address with '&'", e.at)
        if isinstance(e, g.Binary) and e.op in ("+", "-"):
            raise self.unsupported("pointer arithmetic", e.at)
        self.reject_shape(e)
        raise self.unsupported("this pointer expression", e.at, hint="use a pointer parameter or local by name")

    @staticmethod
    def plain(acc: Access) -> frozenset[str]:
        """Annotations of a plain access ``*p``: volatile, or sc through an atomic type (C11)."""
        return acc.annots("sc") if acc.atomic else acc.annots()

    def call(self, e: g.Call, dst: str | None) -> Expr | None:
        fn = self.ctx.functions.get(e.name)
        if fn is not None:
            return c_data.inline(self, fn, e, dst)
        if e.name == "malloc":
            return c_data.malloc(self, e)
        if e.name == "cas":
            return c_data.cas(self, e, dst)
        if e.name == "cas2":
            return c_atomic.cas2(self, e, dst)
        spec = BUILTINS.get(e.name)
        if spec is None:
            raise self.unsupported(f"call to '{e.name}'", e.at, hint="supported: " + SUPPORTED_CALLS)
        return spec(self, e, dst)


def has_effects(e) -> bool:
    """Whether evaluating ``e`` touches memory or changes a register."""
    if isinstance(e, (g.Call, g.AssignExpr)):
        return True
    if isinstance(e, g.Unary):
        return e.op in ("*", "++", "--") or has_effects(e.arg)
    if isinstance(e, g.Binary):
        return has_effects(e.left) or has_effects(e.right)
    if isinstance(e, g.Postfix):
        return True
    if isinstance(e, g.Ternary):
        return True
    return False
