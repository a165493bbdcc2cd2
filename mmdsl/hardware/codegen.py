"""A test's threads as C statements: the core IR translated for the host, never its text pasted.

Two back ends share the translation of registers, expressions and control flow:

- ``asm``: x86-64 inline assembly (GCC extended asm, AT&T syntax), one ``asm volatile``
  with a ``"memory"`` clobber per memory instruction, so the compiler keeps them in program
  order and emits exactly the instruction the test names (``movq``, ``mfence``, ``xchgq``,
  ``lock xaddq``, ``lock cmpxchgq``);
- ``c11``: ``<stdatomic.h>`` calls with the test's memory orders, for C tests on any host.

Every C name is generated here (``loc_3``, ``r_0_2``); locations and registers of the test
are only keys of tables. Constants are Python ints checked to fit in 64 bits. Anything the
harness cannot run faithfully is refused by name with the instruction's place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import UnsupportedError
from ..core.program import (OLD, Assign, Assume, BinOp, Branch, Const, Fence, Load, Nop, Program, Reg, Rmw, Store,
                            Thread, UnOp)

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
_ASM_FENCES = {"mfence": "mfence", "lfence": "lfence", "sfence": "sfence"}
# C11 (herd's annotations) -> <stdatomic.h> memory orders; 'once' (READ_ONCE) and plain
# accesses are relaxed atomics on the host
_C11_ORDER = {"rlx": "memory_order_relaxed", "once": "memory_order_relaxed", "acq": "memory_order_acquire",
              "rel": "memory_order_release", "sc": "memory_order_seq_cst", "con": "memory_order_acquire"}
_C_BIN = {"add": "+", "sub": "-", "mul": "*", "xor": "^", "and": "&", "or": "|",
          "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "land": "&&", "lor": "||"}


def c_int(v) -> str:
    """A 64-bit integer literal, or an error for anything else (a location used as a value)."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise UnsupportedError(f"the value '{v}' (the address of a location) as data: the hardware harness "
                               "runs integer values only")
    if not INT64_MIN <= v <= INT64_MAX:
        raise UnsupportedError(f"the constant {v} does not fit in 64 bits")
    if v == INT64_MIN:
        return "(-INT64_C(9223372036854775807) - 1)"
    return f"INT64_C({v})"


@dataclass
class Names:
    """The C names of a test's locations and of one thread's registers."""

    locations: dict[str, str]  # location -> C array name
    regs: dict[str, str] = field(default_factory=dict)
    tid: int = 0

    def reg(self, name: str) -> str:
        if name not in self.regs:
            self.regs[name] = f"r_{self.tid}_{len(self.regs)}"
        return self.regs[name]

    def cell(self, addr) -> str:
        """``&loc_K[i]`` for a constant address; computed addresses are refused."""
        if isinstance(addr, Const) and isinstance(addr.value, str) and addr.value in self.locations:
            return f"&{self.locations[addr.value]}[i]"
        raise UnsupportedError(f"the computed address '{addr}': the hardware harness accesses locations by "
                               "constant address only")


def expr(e, names: Names, old: str | None = None) -> str:
    """The C expression (int64_t) of an IR expression; ``%old`` is ``old`` inside an RMW."""
    if isinstance(e, Const):
        return c_int(e.value)
    if isinstance(e, Reg):
        if e.name == OLD:
            if old is None:
                raise UnsupportedError("'%old' outside a read-modify-write")
            return old
        return names.reg(e.name)
    if isinstance(e, BinOp):
        a, b = expr(e.left, names, old), expr(e.right, names, old)
        if e.op in ("add", "sub", "mul"):  # wrap around, as the hardware does (no signed overflow in C)
            return f"((int64_t)((uint64_t)({a}) {_C_BIN[e.op]} (uint64_t)({b})))"
        if e.op in ("div", "mod", "shl", "shr"):
            return f"hw_{e.op}({a}, {b})"
        if e.op in _C_BIN:
            return f"((int64_t)(({a}) {_C_BIN[e.op]} ({b})))"
    if isinstance(e, UnOp) and e.op in ("not", "neg"):
        a = expr(e.arg, names, old)
        return f"((int64_t)!({a}))" if e.op == "not" else f"((int64_t)(0 - (uint64_t)({a})))"
    raise UnsupportedError(f"the expression '{e}' in the hardware harness")


def _uses_old(e) -> bool:
    return e is not None and OLD in e.regs()


class _Body:
    """One thread's statements."""

    def __init__(self, thread: Thread, names: Names, backend: str):
        self.thread = thread
        self.names = names
        self.backend = backend
        self.lines: list[str] = []

    def emit(self, line: str) -> None:
        self.lines.append("    " + line)

    def instr(self, k: int, ins) -> None:
        if isinstance(ins, Nop):
            return
        if isinstance(ins, Assign):
            self.emit(f"{self.names.reg(ins.dst)} = {expr(ins.expr, self.names)};")
        elif isinstance(ins, Branch):
            if ins.choice or ins.target <= k:
                raise UnsupportedError("a loop (a backward or nondeterministic branch): the hardware harness runs "
                                       "loop-free tests")
            test = "1" if ins.cond is None else expr(ins.cond, self.names)
            self.emit(f"if ({test}) goto L{self.thread.tid}_{min(ins.target, len(self.thread.instrs))};")
        elif isinstance(ins, Assume):
            raise UnsupportedError("'assume' (executions it rules out cannot be undone on hardware)")
        elif self.backend == "asm":
            self.asm(ins)
        else:
            self.c11(ins)

    # ----- x86-64 inline assembly ---------------------------------------------------------
    def asm(self, ins) -> None:
        n = self.names
        if isinstance(ins, Load):
            dst = n.reg(ins.dst) if ins.dst else "hw_sink"
            self.emit(f'__asm__ __volatile__("movq (%1),%0" : "=r"({dst}) : "r"({n.cell(ins.addr)}) : "memory");')
        elif isinstance(ins, Store):
            self.emit(f'__asm__ __volatile__("movq %1,(%0)" : : "r"({n.cell(ins.addr)}), '
                      f'"er"((int64_t){expr(ins.value, n)}) : "memory");')
        elif isinstance(ins, Fence):
            kind = ins.kind.lower()
            if kind not in _ASM_FENCES:
                raise UnsupportedError(f"the fence '{ins.kind}' on x86-64 (mfence, lfence, sfence are run)")
            self.emit(f'__asm__ __volatile__("{_ASM_FENCES[kind]}" : : : "memory");')
        elif isinstance(ins, Rmw):
            self.asm_rmw(ins)
        else:
            raise UnsupportedError(f"the instruction '{ins.text or type(ins).__name__}' on x86-64")

    def asm_rmw(self, ins: Rmw) -> None:
        n = self.names
        if ins.blocking:
            raise UnsupportedError("a blocking read-modify-write (a lock) in the hardware harness")
        cell = n.cell(ins.addr)
        dst = n.reg(ins.dst) if ins.dst else "hw_sink"
        lock = "lock " if "atomic" in ins.annots else ""
        new = ins.new
        self.emit("{")
        if ins.cond is None and not _uses_old(new):  # XCHG: always locked
            self.emit(f'    int64_t v = {expr(new, n)};')
            self.emit(f'    __asm__ __volatile__("xchgq %0,(%1)" : "+r"(v) : "r"({cell}) : "memory");')
        elif (ins.cond is None and isinstance(new, BinOp) and new.op == "add" and new.left == Reg(OLD)
              and not _uses_old(new.right)):  # LOCK XADD
            self.emit(f'    int64_t v = {expr(new.right, n)};')
            self.emit(f'    __asm__ __volatile__("{lock}xaddq %0,(%1)" : "+r"(v) : "r"({cell}) : "memory", "cc");')
        elif (isinstance(ins.cond, BinOp) and ins.cond.op == "eq" and ins.cond.left == Reg(OLD)
              and not _uses_old(ins.cond.right) and not _uses_old(new)):  # (LOCK) CMPXCHG
            self.emit(f'    int64_t v = {expr(ins.cond.right, n)}, w = {expr(new, n)};')
            self.emit(f'    __asm__ __volatile__("{lock}cmpxchgq %2,(%1)" : "+a"(v) : "r"({cell}), "r"(w) '
                      ': "memory", "cc");')
        elif lock:  # any other atomic update: a LOCK CMPXCHG loop (every locked instruction is a full fence)
            cond = "1" if ins.cond is None else expr(ins.cond, n, "v")
            self.emit('    int64_t v, w; unsigned char ok;')
            self.emit(f'    __asm__ __volatile__("movq (%1),%0" : "=r"(v) : "r"({cell}) : "memory");')
            self.emit(f'    do {{ w = ({cond}) ? {expr(new, n, "v")} : v;')
            self.emit(f'         __asm__ __volatile__("lock cmpxchgq %3,(%2)\\n\\tsete %1" : "+a"(v), "=q"(ok) '
                      f': "r"({cell}), "r"(w) : "memory", "cc"); }} while (!ok);')
        else:
            raise UnsupportedError("a read-modify-write that is neither atomic (LOCK) nor XCHG/XADD/CMPXCHG")
        self.emit(f"    {dst} = v;")
        self.emit("}")

    # ----- C11 <stdatomic.h> -----------------------------------------------------------
    def order(self, annots) -> str:
        known = [a for a in annots if a in _C11_ORDER]
        extra = sorted(set(annots) - set(_C11_ORDER))
        if extra:
            raise UnsupportedError(f"the annotation(s) {', '.join(extra)} in the C11 hardware harness "
                                   f"(memory orders {', '.join(sorted(_C11_ORDER))} are run)")
        if "acq" in known and "rel" in known:
            return "memory_order_acq_rel"
        if "sc" in known:
            return "memory_order_seq_cst"
        return _C11_ORDER[known[0]] if known else "memory_order_relaxed"

    def c11(self, ins) -> None:
        n = self.names
        if isinstance(ins, Load):
            dst = n.reg(ins.dst) if ins.dst else "hw_sink"
            self.emit(f"{dst} = atomic_load_explicit({n.cell(ins.addr)}, {self.order(ins.annots)});")
        elif isinstance(ins, Store):
            self.emit(f"atomic_store_explicit({n.cell(ins.addr)}, {expr(ins.value, n)}, {self.order(ins.annots)});")
        elif isinstance(ins, Fence):
            annots = set(ins.annots) or {"sc"}
            self.emit(f"atomic_thread_fence({self.order(annots)});")
        elif isinstance(ins, Rmw):
            if ins.blocking:
                raise UnsupportedError("a blocking read-modify-write (a lock) in the hardware harness")
            cell, order = n.cell(ins.addr), self.order(ins.annots)
            dst = n.reg(ins.dst) if ins.dst else "hw_sink"
            cond = "1" if ins.cond is None else expr(ins.cond, n, "v")
            self.emit("{")
            self.emit(f"    int64_t v = atomic_load_explicit({cell}, memory_order_relaxed), w;")
            self.emit(f"    do {{ if (!({cond})) break; w = {expr(ins.new, n, 'v')}; }}")
            self.emit(f"    while (!atomic_compare_exchange_weak_explicit({cell}, &v, w, {order}, "
                      "memory_order_relaxed));")
            self.emit(f"    {dst} = v;")
            self.emit("}")
        else:
            raise UnsupportedError(f"the instruction '{ins.text or type(ins).__name__}' in the C11 harness")


@dataclass
class ThreadCode:
    """One thread's C function body and the C names of its registers."""

    tid: int
    lines: list[str]
    names: Names


def thread_code(program: Program, thread: Thread, locations: dict[str, str], backend: str) -> ThreadCode:
    """The C statements of one thread (registers declared and initialised first)."""
    names = Names(locations, tid=thread.tid)
    body = _Body(thread, names, backend)
    for k, ins in enumerate(thread.instrs):
        try:
            body.emit(f"L{thread.tid}_{k}: ;")
            body.instr(k, ins)
        except UnsupportedError as err:
            raise err.locate(ins.pos, ins.text) from None
    body.emit(f"L{thread.tid}_{len(thread.instrs)}: ;")
    for name in thread.reg_init:
        names.reg(name)
    decls = []
    for name, cname in names.regs.items():
        init = thread.reg_init.get(name, 0)
        try:
            decls.append(f"    int64_t {cname} = {c_int(init)};")
        except UnsupportedError as err:
            raise UnsupportedError(f"{program.name}: thread {thread.name}'s register {name}: {err.message}") from None
    return ThreadCode(thread.tid, decls + body.lines, names)
