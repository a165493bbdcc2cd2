"""The C dialect's built-in calls: Linux-kernel and C11 atomics, fences and spinlocks, lowered to core instructions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.program import OLD, Assign, BinOp, Const, Expr, Fence, Load, Reg, Rmw, Store
from . import c_grammar as g
from .c_data import Access, Local, Location
from .c_statements import Label

if TYPE_CHECKING:  # pragma: no cover
    from .c_lower import ThreadLowering

MEMORY_ORDERS = {
    "memory_order_relaxed": frozenset({"rlx"}),
    "memory_order_consume": frozenset({"acq", "con"}),  # con: herd's CON set, kept apart from ACQ
    "memory_order_acquire": frozenset({"acq"}),
    "memory_order_release": frozenset({"rel"}),
    "memory_order_acq_rel": frozenset({"acq", "rel"}),
    "memory_order_seq_cst": frozenset({"sc"}),
}
SC = MEMORY_ORDERS["memory_order_seq_cst"]
# Linux-kernel ordering suffixes of value-returning atomics
LKMM_SUFFIXES = {"": frozenset({"mb"}), "_relaxed": frozenset({"once"}), "_acquire": frozenset({"acq"}),
                 "_release": frozenset({"rel"})}
NORETURN = frozenset({"once", "noreturn"})
ARITH = {"add": "add", "sub": "sub", "or": "or", "and": "and", "xor": "xor"}


# ----- helpers ----------------------------------------------------------------------
def _arity(low: "ThreadLowering", e: g.Call, n: int, signature: str) -> None:
    if len(e.args) != n:
        raise low.malformed(f"'{e.name}' takes {n} argument{'s' if n != 1 else ''}, not {len(e.args)}", e.at,
                            expected=signature)


def _deref(low: "ThreadLowering", e: g.Call, arg: g.Node) -> "Access":
    """READ_ONCE(*x) / WRITE_ONCE(*x, v): the argument is the location itself."""
    if isinstance(arg, g.Unary) and arg.op == "*":
        return low.pointer(arg.arg)
    raise low.malformed(f"'{e.name}' needs the location, as in {e.name}(*x{', v' if 'WRITE' in e.name else ''})",
                        arg.at, expected="'*' and a pointer")


def _order(low: "ThreadLowering", arg: g.Node) -> frozenset[str]:
    if isinstance(arg, g.Name) and arg.name in MEMORY_ORDERS:
        return MEMORY_ORDERS[arg.name]
    raise low.malformed("not a memory order", arg.at, expected=", ".join(MEMORY_ORDERS))


def _dest(dst: str | None, low: "ThreadLowering", *uses: Expr) -> str:
    """The register an instruction reads into: ``dst`` unless an operand still needs it."""
    if dst and not any(dst in u.regs() for u in uses):
        return dst
    return low.temp()


def _load(low, acc: "Access", annots: frozenset, dst) -> Expr:
    reg = dst or low.temp()
    low.emit(Load(reg, acc.addr, acc.annots(*annots)))
    return Reg(reg)


def _store(low, acc: "Access", value: Expr, annots: frozenset) -> None:
    low.emit(Store(acc.addr, value, acc.annots(*annots)))


def _kernel_start(low, annots: frozenset, conditional: bool = False) -> int:
    """A kernel RMW opens as herd builds it: a fully ordered one's leading ``smp_mb()`` comes
    before its arguments are evaluated. Returns where the arguments' instructions start."""
    if "mb" in annots:
        low.emit(Fence("mb", frozenset({"cmpxchg-mb"}) if conditional else frozenset()))
    return len(low.instrs)


def _rmw(low, acc: "Access", new: Expr, annots: frozenset, dst, cond: Expr | None = None,
         returns: str = "old", operand: Expr | None = None, op: str = "add",
         fail_annots: frozenset | None = None, args_from: int | None = None,
         one_event: bool = False) -> Expr | None:
    """A read-modify-write. A fully ordered kernel one (annotation ``mb``: xchg, cmpxchg,
    atomic_*_return ...) is bracketed by ``smp_mb()`` fences as herd's linux-kernel.def
    semantics makes it (F[mb]; R; W; F[mb]). herd makes no fence for a cmpxchg that fails;
    a conditional one's fences are annotated ``cmpxchg-mb`` so that a model can leave them
    out when it did not write (herd's linux-kernel.cat loaded by mmdsl does: cat_linux). A
    branch on success would give its read a control dependency herd does not have.
    ``args_from`` (a kernel RMW, opened by ``_kernel_start``): its leading fence is already
    there, and its read half is unsequenced with the arguments evaluated since (herd)."""
    fenced = "mb" in annots
    mark = frozenset({"cmpxchg-mb"}) if cond is not None else frozenset()
    if fenced and args_from is None:
        low.emit(Fence("mb", mark))
    fail = None if fail_annots is None else acc.annots(*fail_annots)
    uses = [new] + ([cond] if cond is not None else [])
    reg = None
    if returns is not None:
        reg = _dest(dst if returns == "old" else None, low, *uses)
    at = low.emit(Rmw(reg, acc.addr, new, cond, annots=acc.annots(*annots), fail_annots=fail, one_event=one_event))
    if args_from is not None:
        low.unsequence(range(args_from, at), range(at, at + 1), None, reads_only=True)
    if fenced:
        low.emit(Fence("mb", mark))
    if returns is None:
        return None
    if returns == "new":
        return BinOp(op, Reg(reg), operand)
    return Reg(reg)


def _is_pointer(low: "ThreadLowering", arg: g.Node) -> bool:

    if not isinstance(arg, g.Name):
        return False
    found = low.names.get(arg.name)
    return isinstance(found, Location) or bool(found is not None and found.pointer)


# ----- Linux kernel ---------------------------------------------------------------------
def read_once(low, e, dst):
    _arity(low, e, 1, "READ_ONCE(*x)")
    return _load(low, _deref(low, e, e.args[0]), frozenset({"once"}), dst)


def write_once(low, e, dst):
    _arity(low, e, 2, "WRITE_ONCE(*x, value)")
    acc = _deref(low, e, e.args[0])
    _store(low, acc, low.value(e.args[1]), frozenset({"once"}))


def _loader(annots: frozenset, signature: str):
    def lower(low, e, dst):
        _arity(low, e, 1, signature)
        return _load(low, low.pointer(e.args[0]), annots, dst)
    return lower


def _storer(annots: frozenset, signature: str):
    def lower(low, e, dst):
        _arity(low, e, 2, signature)
        acc = low.pointer(e.args[0])
        _store(low, acc, low.value(e.args[1]), annots)
    return lower


def _fence(kind: str, annots: frozenset = frozenset()):
    def lower(low, e, dst):
        _arity(low, e, 0, f"{e.name}()")
        low.emit(Fence(kind, annots))
    return lower


def _xchg(annots: frozenset):
    def lower(low, e, dst):
        _arity(low, e, 2, f"{e.name}(x, value)")
        acc = low.pointer(e.args[0])
        start = _kernel_start(low, annots)
        return _rmw(low, acc, low.value(e.args[1]), annots, dst, args_from=start)
    return lower


def _cmpxchg(annots: frozenset):
    def lower(low, e, dst):
        _arity(low, e, 3, f"{e.name}(x, old, new)")
        acc = low.pointer(e.args[0])
        start = _kernel_start(low, annots, conditional=True)
        expected = low.value(e.args[1])
        middle = len(low.instrs)
        new = low.value(e.args[2])
        if any(isinstance(i, (Load, Rmw)) for i in low.instrs[middle:]):
            # herd evaluates the new value only when the comparison succeeds: a failing
            # cmpxchg has no such read, which one instruction list cannot say
            raise low.unsupported(f"a memory read in the new value of '{e.name}'", e.args[2].at,
                                  hint="read it into a local first")
        low.unsequence(range(start, middle), range(middle, len(low.instrs)), e.at)
        return _rmw(low, acc, new, annots, dst, cond=BinOp("eq", Reg(OLD), expected),
                    fail_annots=frozenset({"once"}), args_from=start)  # herd: a failed cmpxchg is a READ_ONCE
    return lower


def _kernel_arith(op: str, annots: frozenset, returns: str | None, unit: bool):
    """atomic_add(i, v), atomic_inc(v), atomic_add_return(i, v), atomic_fetch_add(i, v) ..."""
    def lower(low, e, dst):
        if unit:
            _arity(low, e, 1, f"{e.name}(v)")
            amount, target = Const(1), e.args[0]
        else:
            _arity(low, e, 2, f"{e.name}(i, v)")
            if _is_pointer(low, e.args[0]) and not _is_pointer(low, e.args[1]):  # C11 argument order
                return _c11_fetch(op, explicit=False)(low, e, dst)
        start = _kernel_start(low, annots)
        if not unit:
            amount, target = low.value(e.args[0]), e.args[1]
        acc = low.pointer(target)
        return _rmw(low, acc, BinOp(op, Reg(OLD), amount), annots, dst, returns=returns, operand=amount, op=op,
                    args_from=start)
    return lower


def _kernel_test(op: str, unit: bool, test: str):
    """atomic_dec_and_test(v), atomic_sub_and_test(i, v) ...: the new value compared with 0
    (linux-kernel.def: ``__atomic_op_return{mb}(X,-,V) == 0``, ``... < 0``)."""
    inner = _kernel_arith(op, LKMM_SUFFIXES[""], "new", unit)

    def lower(low, e, dst):
        return BinOp(test, inner(low, e, None), Const(0))
    return lower


def spin_lock(low, e, dst):
    _arity(low, e, 1, "spin_lock(l)")
    acc = low.pointer(e.args[0])
    low.emit(Rmw(None, acc.addr, Const(1), BinOp("eq", Reg(OLD), Const(0)), blocking=True,
                 annots=acc.annots("lock"), one_event=True))  # herd's C: one event (outside the kernel bell)


def spin_unlock(low, e, dst):
    _arity(low, e, 1, "spin_unlock(l)")
    _store(low, low.pointer(e.args[0]), Const(0), frozenset({"unlock"}))


def spin_trylock(low, e, dst):
    _arity(low, e, 1, "spin_trylock(l)")
    acc = low.pointer(e.args[0])
    old = low.temp()
    low.emit(Rmw(old, acc.addr, Const(1), BinOp("eq", Reg(OLD), Const(0)), annots=acc.annots("lock"),
                 one_event=True))
    return BinOp("eq", Reg(old), Const(0))


# ----- C11 ---------------------------------------------------------------------------------
def _c11_load(explicit: bool):
    def lower(low, e, dst):
        _arity(low, e, 2 if explicit else 1, f"{e.name}(x{', order' if explicit else ''})")
        annots = _order(low, e.args[1]) if explicit else SC
        return _load(low, low.pointer(e.args[0]), annots, dst)
    return lower


def _c11_operands(low, e, explicit: bool):
    """(location, value, annotations) of ``f(x, value)`` / ``f_explicit(x, value, order)``."""
    _arity(low, e, 3 if explicit else 2, f"{e.name}(x, value{', order' if explicit else ''})")
    acc = low.pointer(e.args[0])
    value = low.value(e.args[1])
    return acc, value, _order(low, e.args[2]) if explicit else SC


def _c11_store(explicit: bool):
    def lower(low, e, dst):
        acc, value, annots = _c11_operands(low, e, explicit)
        _store(low, acc, value, annots)
    return lower


def _c11_exchange(explicit: bool):
    def lower(low, e, dst):
        acc, value, annots = _c11_operands(low, e, explicit)
        return _rmw(low, acc, value, annots, dst, one_event=True)
    return lower


def _c11_fetch(op: str, explicit: bool):
    def lower(low, e, dst):
        acc, value, annots = _c11_operands(low, e, explicit)
        return _rmw(low, acc, BinOp(op, Reg(OLD), value), annots, dst, one_event=True)
    return lower


def _c11_cas(explicit: bool):
    """herd's semantics: compare *x with *expected; on success write desired, on failure copy *x to *expected."""
    def lower(low, e, dst):
        _arity(low, e, 5 if explicit else 3,
               f"{e.name}(x, &expected, desired{', success_order, failure_order' if explicit else ''})")
        acc = low.pointer(e.args[0])
        exp = e.args[1]
        annots = _order(low, e.args[3]) if explicit else SC
        fail = _order(low, e.args[4]) if explicit else SC  # a failed one reads with it (herd)
        if isinstance(exp, g.Unary) and exp.op == "&" and isinstance(exp.arg, g.Name):

            local = low.lookup(exp.arg)
            if not isinstance(local, Local):
                raise low.unsupported(f"'&{exp.arg.name}' (the address of a pointer parameter)", exp.at)
            desired = low.value(e.args[2])
            old, ok = low.temp(), low.temp()
            low.emit(Rmw(old, acc.addr, desired, BinOp("eq", Reg(OLD), Reg(local.reg)), annots=acc.annots(*annots),
                         fail_annots=acc.annots(*fail), one_event=True))
            low.emit(Assign(ok, BinOp("eq", Reg(old), Reg(local.reg))))
            low.emit(Assign(local.reg, Reg(old)))
            return Reg(ok)
        eacc = low.pointer(exp)
        expected = low.temp()
        low.emit(Load(expected, eacc.addr, low.plain(eacc)))
        desired = low.value(e.args[2])
        old, ok = low.temp(), low.temp()
        low.emit(Rmw(old, acc.addr, desired, BinOp("eq", Reg(OLD), Reg(expected)), annots=acc.annots(*annots),
                     fail_annots=acc.annots(*fail), one_event=True))
        low.emit(Assign(ok, BinOp("eq", Reg(old), Reg(expected))))

        done = Label()
        low.jump(Reg(ok), done)
        low.emit(Store(eacc.addr, Reg(old), low.plain(eacc)))
        low.place(done)
        return Reg(ok)
    return lower


def thread_fence(low, e, dst):
    _arity(low, e, 1, "atomic_thread_fence(order)")
    annots = _order(low, e.args[0])
    if annots == SC:
        low.emit(Fence("mb", annots))
    elif annots == frozenset({"acq", "rel"}):
        low.emit(Fence("acq_rel", annots))
    elif annots == frozenset({"acq"}):
        low.emit(Fence("acquire", annots))
    elif annots == frozenset({"rel"}):
        low.emit(Fence("release", annots))
    # a relaxed fence does nothing


def _deref_loader(annots: frozenset, signature: str):
    """rcu_dereference(*p): like READ_ONCE, the argument is the location (linux-kernel.def)."""
    def lower(low, e, dst):
        _arity(low, e, 1, signature)
        return _load(low, _deref(low, e, e.args[0]), annots, dst)
    return lower


def _deref_storer(annots: frozenset, signature: str, then_mb: bool = False):
    """rcu_assign_pointer(*p, v), smp_store_mb(*x, v): the location, then the value."""
    def lower(low, e, dst):
        _arity(low, e, 2, signature)
        acc = _deref(low, e, e.args[0])
        _store(low, acc, low.value(e.args[1]), annots)
        if then_mb:
            low.emit(Fence("mb"))
    return lower


# linux-kernel.def's other primitives: fences (herd's __fence{tag}) and RCU
KERNEL_EXTRAS = {
    "barrier": _fence("barrier"),
    "smp_mb__before_atomic": _fence("before-atomic"),
    "smp_mb__after_atomic": _fence("after-atomic"),
    "smp_mb__after_spinlock": _fence("after-spinlock"),
    "smp_mb__after_unlock_lock": _fence("after-unlock-lock"),
    "rcu_read_lock": _fence("rcu-lock"),
    "rcu_read_unlock": _fence("rcu-unlock"),
    "synchronize_rcu": _fence("sync-rcu"),
    "synchronize_rcu_expedited": _fence("sync-rcu"),
    "rcu_dereference": _deref_loader(frozenset({"once"}), "rcu_dereference(*p)"),
    "rcu_assign_pointer": _deref_storer(frozenset({"rel"}), "rcu_assign_pointer(*p, value)"),
    "smp_store_mb": _deref_storer(frozenset({"once"}), "smp_store_mb(*x, value)", then_mb=True),
}


def cas_weak(low, e, dst):
    raise low.unsupported(f"'{e.name}' (it may fail spuriously)", e.at,
                          hint="use atomic_compare_exchange_strong_explicit")


def _table() -> dict:
    t = {
        "READ_ONCE": read_once,
        "WRITE_ONCE": write_once,
        "smp_load_acquire": _loader(frozenset({"acq"}), "smp_load_acquire(x)"),
        "smp_store_release": _storer(frozenset({"rel"}), "smp_store_release(x, value)"),
        "atomic_read": _loader(frozenset({"once"}), "atomic_read(v)"),
        "atomic_read_acquire": _loader(frozenset({"acq"}), "atomic_read_acquire(v)"),
        "atomic_set": _storer(frozenset({"once"}), "atomic_set(v, i)"),
        "atomic_set_release": _storer(frozenset({"rel"}), "atomic_set_release(v, i)"),
        "smp_mb": _fence("mb"),
        "smp_rmb": _fence("rmb"),
        "smp_wmb": _fence("wmb"),
        "MemoryBarrier": _fence("mb"),
        # the four fences of CheckFence's relaxed model (and SPARC's membar masks), by what they order
        "load_load_fence": _fence("ll"),
        "load_store_fence": _fence("ls"),
        "store_load_fence": _fence("sl"),
        "store_store_fence": _fence("ss"),
        "spin_lock": spin_lock,
        "spin_unlock": spin_unlock,
        "spin_trylock": spin_trylock,
        "atomic_thread_fence": thread_fence,
        "atomic_load": _c11_load(False),
        "atomic_load_explicit": _c11_load(True),
        "atomic_store": _c11_store(False),
        "atomic_store_explicit": _c11_store(True),
        "atomic_exchange": _c11_exchange(False),
        "atomic_exchange_explicit": _c11_exchange(True),
        "atomic_compare_exchange_strong": _c11_cas(False),
        "atomic_compare_exchange_strong_explicit": _c11_cas(True),
        "atomic_compare_exchange_weak": cas_weak,
        "atomic_compare_exchange_weak_explicit": cas_weak,
    }
    for suffix, annots in LKMM_SUFFIXES.items():
        t["xchg" + suffix] = _xchg(annots)
        t["cmpxchg" + suffix] = _cmpxchg(annots)
        t["atomic_xchg" + suffix] = _xchg(annots)
        t["atomic_cmpxchg" + suffix] = _cmpxchg(annots)
        for op in ("add", "sub"):
            t[f"atomic_{op}_return{suffix}"] = _kernel_arith(op, annots, "new", False)
            t[f"atomic_fetch_{op}{suffix}"] = _kernel_arith(op, annots, "old", False)
        for op, base in (("inc", "add"), ("dec", "sub")):
            t[f"atomic_{op}_return{suffix}"] = _kernel_arith(base, annots, "new", True)
            t[f"atomic_fetch_{op}{suffix}"] = _kernel_arith(base, annots, "old", True)
    # herd's __atomic_op: a read tagged 'noreturn and a write tagged 'once (annotation
    # noreturn on both events here; herd's linux-kernel.bell's Noreturn is its read)
    for op in ("add", "sub"):
        t[f"atomic_{op}"] = _kernel_arith(op, NORETURN, None, False)
    t["atomic_inc"] = _kernel_arith("add", NORETURN, None, True)
    t["atomic_dec"] = _kernel_arith("sub", NORETURN, None, True)
    t.update(KERNEL_EXTRAS)
    t["atomic_sub_and_test"] = _kernel_test("sub", False, "eq")
    t["atomic_dec_and_test"] = _kernel_test("sub", True, "eq")
    t["atomic_inc_and_test"] = _kernel_test("add", True, "eq")
    t["atomic_add_negative"] = _kernel_test("add", False, "lt")
    for op in ARITH:
        t[f"atomic_fetch_{op}_explicit"] = _c11_fetch(op, True)
        t.setdefault(f"atomic_fetch_{op}", _c11_fetch(op, False))
    return t


BUILTINS = _table()
SUPPORTED_CALLS = ("READ_ONCE, WRITE_ONCE, smp_load_acquire, smp_store_release, smp_mb, smp_rmb, smp_wmb, "
                   "smp_mb__before_atomic and the other smp_mb__* fences, barrier, smp_store_mb, "
                   "rcu_read_lock, rcu_read_unlock, synchronize_rcu, rcu_dereference, rcu_assign_pointer, "
                   "xchg*, cmpxchg*, atomic_* (kernel and C11 forms), spin_lock, spin_unlock, spin_trylock, "
                   "MemoryBarrier, load_load_fence, load_store_fence, store_load_fence, store_store_fence "
                   "(see docs/litmus-c.md)")
__all__ = ["BUILTINS", "SUPPORTED_CALLS", "MEMORY_ORDERS"]
