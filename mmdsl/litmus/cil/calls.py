"""The library calls a thread may make: Interlocked, Volatile, Monitor, MemoryBarrier, Debug.Assert.

Interlocked operations are one atomic read-modify-write each, annotated ``volatile``:
ECMA-335 (Partition I, 12.6.5) says they "perform implicit acquire/release operations",
which is how the .NET model reads a volatile read and write. ``Monitor.Enter`` (C#'s
``lock``) waits for the object's monitor to be 0 and sets it to the thread's id + 1 (annotated ``lock``);
``Monitor.Exit`` writes 0 (annotated ``unlock``); monitors are not re-entrant here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.program import OLD, Assign, BinOp, Const, Expr, Fence, Load, Reg, Rmw, Store, UnOp
from .reader import MethodRef

ASSERT = "assert"
FULL_FENCE = "full"
VOLATILE = frozenset({"volatile"})
_INTERLOCKED_NEW = {"Increment": Const(1), "Decrement": Const(-1)}


@dataclass(frozen=True)
class Address:
    """The address of a field (ldsflda / ldflda), or of a local (ldloca): a call's ref argument."""

    addr: Expr | None = None
    local: str | None = None


@dataclass(frozen=True)
class Text:
    """A string constant (an assertion's message)."""

    value: str


def _address(low, what: str):
    a = low.pop()
    if not isinstance(a, Address) or a.addr is None:
        raise low.refuse(f"{what} of something other than a field (ref field)")
    return a.addr


def lower_library_call(low, ref: MethodRef) -> bool:
    """Emit ``ref``'s instructions through ``low`` (the thread's lower.ThreadLowering); False when
    it is not a call mmdsl knows."""
    name, params = ref.qualified, ref.params
    int_ref = bool(params) and params[0].endswith("int32&")
    if name == "System.Threading.Thread::MemoryBarrier" or name == "System.Threading.Interlocked::MemoryBarrier":
        low.emit(Fence(FULL_FENCE))
    elif name == "System.Diagnostics.Debug::Assert" and params and params[0] == "bool":
        for _ in params[1:]:
            low.pop()
        cond = low.pop_expr()
        number = low.world.assertion(low.method, low.op)
        low.asserts.append(number)
        # the register keeps the number of the thread's first failed assertion (0: none failed)
        first = BinOp("land", BinOp("eq", Reg(ASSERT), Const(0)), UnOp("not", cond))
        low.emit(Assign(ASSERT, BinOp("add", Reg(ASSERT), BinOp("mul", first, Const(number)))))
    elif name in ("System.Threading.Volatile::Read", "System.Threading.Thread::VolatileRead") and int_ref:
        dst = low.reg()
        low.emit(Load(dst, _address(low, ref.name), VOLATILE))
        low.stack.append(Reg(dst))
    elif name in ("System.Threading.Volatile::Write", "System.Threading.Thread::VolatileWrite") and int_ref:
        value = low.pop_expr()
        low.emit(Store(_address(low, ref.name), value, VOLATILE))
    elif ref.cls == "System.Threading.Interlocked" and int_ref:
        _interlocked(low, ref)
    elif name == "System.Threading.Monitor::Enter" and params and params[0] == "object":
        taken = None
        if len(params) == 2:
            a = low.pop()
            if not isinstance(a, Address) or a.local is None:
                raise low.refuse("Monitor.Enter's lockTaken is not a local")
            taken = a.local
        obj = low.pop_expr()
        # the monitor holds its owner's thread id + 1 (0: free), so a deadlock tells who holds it
        low.emit(Rmw(None, low.world.monitor_address(obj), Const(low.tid + 1), BinOp("eq", Reg(OLD), Const(0)),
                     blocking=True, annots=frozenset({"lock"})))
        if taken is not None and taken not in low.taken:
            low.write(taken, Const(1))
    elif name == "System.Threading.Monitor::Exit" and params == ("object",):
        low.emit(Store(low.world.monitor_address(low.pop_expr()), Const(0), frozenset({"unlock"})))
    elif name in ("object::.ctor", "System.Object::.ctor") and ref.instance:
        low.pop()  # a constructor's call of object's: nothing to do
    elif name == "System.Type::GetTypeFromHandle":
        token = low.pop()
        cls = getattr(token, "value", "")
        if not cls.startswith("type "):
            raise low.refuse("Type.GetTypeFromHandle of something other than typeof(C)")
        low.stack.append(Const(low.world.type_object(cls[5:])))
    else:
        return False
    return True


def _interlocked(low, ref: MethodRef) -> None:
    dst = low.reg()
    if ref.name in _INTERLOCKED_NEW and len(ref.params) == 1:
        step = _INTERLOCKED_NEW[ref.name]
        addr = _address(low, ref.name)
        low.emit(Rmw(dst, addr, UnOp("sext32", BinOp("add", Reg(OLD), step)), annots=VOLATILE))
        low.stack.append(UnOp("sext32", BinOp("add", Reg(dst), step)))  # the new value
    elif ref.name == "Add" and len(ref.params) == 2:
        value = low.pop_expr()
        addr = _address(low, ref.name)
        low.emit(Rmw(dst, addr, UnOp("sext32", BinOp("add", Reg(OLD), value)), annots=VOLATILE))
        low.stack.append(UnOp("sext32", BinOp("add", Reg(dst), value)))
    elif ref.name == "Exchange" and len(ref.params) == 2:
        value = low.pop_expr()
        low.emit(Rmw(dst, _address(low, ref.name), value, annots=VOLATILE))
        low.stack.append(Reg(dst))
    elif ref.name == "CompareExchange" and len(ref.params) == 3:
        comparand, value = low.pop_expr(), low.pop_expr()
        low.emit(Rmw(dst, _address(low, ref.name), value, BinOp("eq", Reg(OLD), comparand), annots=VOLATILE))
        low.stack.append(Reg(dst))
    else:
        raise low.refuse(f"Interlocked.{ref.name}({', '.join(ref.params)}) is not supported",
                         hint="Interlocked.CompareExchange, Exchange, Increment, Decrement and Add on int fields are")
