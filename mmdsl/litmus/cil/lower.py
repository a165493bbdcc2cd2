"""Lower a thread's CIL (its delegate's method, calls inlined) to core instructions.

The evaluation stack holds core expressions; a field access becomes a Load or Store
where the CIL performs it (``volatile.`` gives the access the ``volatile`` annotation,
which the .NET model reads as acquire / release); locals and arguments are registers;
at a jump or a jump target the stack is kept in registers ``%jN``. Calls of the
program's own methods are inlined; ``leave`` runs the ``finally`` block it crosses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.program import Assign, BinOp, Branch, Const, Expr, Instr, Load, Reg, Rmw, Store, UnOp
from .calls import Address, Text, lower_library_call
from .reader import Method, Op, const_operand, field_ref, index_operand, method_ref
from .world import World

MAX_INLINE = 16  # nesting of inlined calls
_ARITH = {"add": "add", "sub": "sub", "mul": "mul", "div": "div", "rem": "mod", "and": "and", "or": "or",
          "xor": "xor", "shl": "shl", "shr": "shr", "ceq": "eq", "cgt": "gt", "clt": "lt",
          "cgt.un": "ugt", "clt.un": "ult"}
_WRAPS = ("add", "sub", "mul", "shl")  # int32 results cut to 32 bits
_BRANCH = {"beq": "eq", "bne.un": "ne", "blt": "lt", "bgt": "gt", "ble": "le", "bge": "ge",
           "blt.un": "ult", "bgt.un": "ugt", "ble.un": "ule", "bge.un": "uge"}
_SHORT_KEEP = ("ldloc.s", "stloc.s", "ldarg.s", "starg.s", "ldloca.s", "ldarga.s", "ldc.i4.s")


@dataclass
class _Frame:
    method: Method
    prefix: str
    args: list  # per argument: a register name, or a constant expression never reassigned
    ret: str | None  # the register of the returned value
    end: tuple  # the label key the method's ret jumps to
    depth: int


def lower_thread(world: World, tid: int, method: Method, this: int | None) -> tuple[list[Instr], list[int]]:
    """The instructions of the thread running ``method`` (on object ``this``), and its assertions' numbers."""
    low = ThreadLowering(world, tid)
    frame = _Frame(method, "", [Const(this or 0)], None, ("end",), 0)
    low.frame_code(frame)
    low.label(("end",))
    return low.finish(), low.asserts


class ThreadLowering:
    def __init__(self, world: World, tid: int):
        self.world = world
        self.tid = tid
        self.out: list[Instr] = []
        self.labels: dict[tuple, int] = {}
        self.depths: dict[tuple, int] = {}
        self.fresh = 0
        self.asserts: list[int] = []  # the numbers (World.assertion) of the thread's Debug.Asserts
        self.inlined = 0
        self.stack: list = []
        self.method: Method | None = None
        self.op: Op | None = None
        self.active: list[Method] = []  # the methods being inlined, outermost first
        self.volatile = False  # the last op was the prefix volatile.
        self.taken: set[str] = set()  # lockTaken locals (lock_taken_locals)
        self.allocations: list[tuple[int, Method, Op]] = []  # where each `new` is, in self.out

    # ----- output ------------------------------------------------------------------
    def refuse(self, message: str, hint: str | None = None):
        return self.world.refuse(message, self.method, self.op, hint)

    def emit(self, ins: Instr) -> None:
        op = self.op
        text = f"{self.method.name} {op.label}: {op.opcode} {_short(op.operand)}".rstrip() if op else ""
        self.out.append(replace(ins, pos=self.world.pos(op), text=text))

    def label(self, key: tuple) -> None:
        self.labels[key] = len(self.out)

    def finish(self) -> list[Instr]:
        """The instructions with jump targets resolved, and jumps to the next instruction dropped."""
        code = [replace(i, target=self.labels[i.target]) if isinstance(i, Branch) and isinstance(i.target, tuple)
                else i for i in self.out]
        keep = [not (isinstance(i, Branch) and i.cond is None and i.target == k + 1) for k, i in enumerate(code)]
        new_index, n = [], 0
        for k in keep + [True]:
            new_index.append(n)
            n += k
        out = [replace(i, target=new_index[i.target]) if isinstance(i, Branch) else i
               for i, k in zip(code, keep) if k]
        for at, method, op in self.allocations:  # one object per `new`: never run twice
            k = new_index[at]
            if any(isinstance(i, Branch) and i.target <= k <= j for j, i in enumerate(out)):
                self.method, self.op = method, op
                raise self.refuse("'new' inside a loop (each 'new' in a thread makes one object: it may run once)")
        return out

    def reg(self, kind: str = "r") -> str:
        self.fresh += 1
        return f"%{kind}{self.fresh}"

    # ----- the stack -----------------------------------------------------------------
    def pop(self):
        if not self.stack:
            raise self.world.error("the evaluation stack is empty", self.method, self.op)
        return self.stack.pop()

    def pop_expr(self) -> Expr:
        v = self.pop()
        if not isinstance(v, (Const, Reg, BinOp, UnOp)):
            raise self.refuse(f"'{self.op.opcode}' on {'an address' if isinstance(v, Address) else 'a string'}")
        return v

    def protect(self, reg: str, skip: int = -1) -> None:
        """Before ``reg`` is written: stack entries that read it keep their value in a fresh register."""
        for i, e in enumerate(self.stack):
            if i != skip and isinstance(e, (Reg, BinOp, UnOp)) and reg in e.regs():
                tmp = self.reg("k")
                self.out.append(Assign(tmp, e, text=f"{self.method.name}: keep a stack value"))
                self.stack[i] = Reg(tmp)

    def write(self, reg: str, e: Expr, skip: int = -1) -> None:
        self.protect(reg, skip)
        self.emit(Assign(reg, e))

    def store_local(self, reg: str, e: Expr) -> None:
        """``stloc``: a value just loaded (a fresh register no one else reads) is loaded into the local."""
        last = self.out[-1] if self.out else None
        live = {r for v in self.stack if hasattr(v, "regs") for r in v.regs()}
        if isinstance(e, Reg) and e.name.startswith("%r") and isinstance(last, (Load, Rmw)) \
                and last.dst == e.name and e.name not in live and reg not in live:
            self.out[-1] = replace(last, dst=reg)
            return
        self.write(reg, e)

    def spill(self, key: tuple, prefix: str) -> None:
        """Keep the stack in the registers a jump target expects (recorded on first use)."""
        depth = len(self.stack)
        if self.depths.setdefault(key, depth) != depth:
            raise self.refuse(f"the stack holds {depth} values at a jump to {key[-1]}, "
                              f"{self.depths[key]} on another way there")
        for i, e in enumerate(self.stack):
            j = f"{prefix}%j{i}"
            if e != Reg(j):
                if not isinstance(e, (Const, Reg, BinOp, UnOp)):
                    raise self.refuse("a jump with an address or a string on the stack")
                self.write(j, e, skip=i)
                self.stack[i] = Reg(j)

    def jump(self, key: tuple, prefix: str, cond: Expr | None = None) -> None:
        if cond is not None and _constant(cond) is not None:
            if not _constant(cond):
                return  # never taken
            cond = None
        if cond is not None and self.stack and any(r.startswith(prefix + "%j") for r in cond.regs()):
            tmp = self.reg("k")
            self.emit(Assign(tmp, cond))
            cond = Reg(tmp)
        self.spill(key, prefix)
        self.emit(Branch(cond, key))

    # ----- methods -----------------------------------------------------------------
    def frame_code(self, frame: _Frame, ops: list[Op] | None = None, ns: tuple = ()) -> None:
        """Lower ``ops`` (the method's main code by default) of one inlined method."""
        method = frame.method
        if ops is None:
            ops = method.ops
            self.taken |= lock_taken_locals(method, frame.prefix)
        base = (frame.prefix,) + ns
        targets = {t for o in ops for t in _targets(o)}
        self.stack = []
        falls = True  # control may reach the next op from the one before
        for op in ops:
            self.method, self.op = method, op
            key = base + (op.offset,)
            if op.offset in targets:
                if falls:
                    self.spill(key, frame.prefix)
                depth = self.depths.setdefault(key, len(self.stack) if falls else 0)
                self.stack = [Reg(f"{frame.prefix}%j{i}") for i in range(depth)]
                self.label(key)
            elif not falls:
                self.stack = []
            try:
                falls = self.op_code(frame, op, base)
            except (ValueError, IndexError, KeyError):  # a malformed operand in a hand-written listing
                raise self.world.error(f"cannot read '{op.opcode} {op.operand}'", method, op) from None
            self.method, self.op = method, op
        missing = sorted(targets - {o.offset for o in ops})
        if missing:
            raise self.world.error(f"a jump to IL_{missing[0]:04x}, which is not in this block of code",
                                   method, next(o for o in ops if missing[0] in _targets(o)))
        if falls and ns == ():
            raise self.world.error("control runs off the end of the method", method, ops[-1] if ops else None)

    def op_code(self, frame: _Frame, op: Op, base: tuple) -> bool:
        """Lower one op; False when control never goes on to the next one."""
        code = op.opcode
        if code.endswith(".s") and code not in _SHORT_KEEP:
            code = code[:-2]
        st = self.stack
        if code == "nop":
            return True
        if code == "volatile.":
            self.volatile = True
            return True
        volatile = self.volatile
        self.volatile = False
        if code.startswith("ldc.i4"):
            st.append(Const(const_operand(code, op.operand)))
        elif code == "ldnull":
            st.append(Const(0))
        elif code == "ldstr":
            st.append(Text(op.operand))
        elif code == "ldtoken":
            st.append(Text("type " + op.operand.replace("class ", "").strip()))
        elif code.startswith("ldloca"):
            st.append(Address(local=self.local(frame, op)))
        elif code.startswith("ldloc"):
            reg = self.local(frame, op)
            st.append(Const(1) if reg in self.taken else Reg(reg))
        elif code.startswith("stloc"):
            reg = self.local(frame, op)
            if reg in self.taken:
                self.pop_expr()  # lockTaken = false: always true where it is read (lock_taken_locals)
            else:
                self.store_local(reg, self.pop_expr())
        elif code.startswith("ldarg") and not code.startswith("ldarga"):
            a = frame.args[self.arg_index(frame, op)]
            st.append(Reg(a) if isinstance(a, str) else a)
        elif code.startswith("starg"):
            i = self.arg_index(frame, op)
            a = frame.args[i]
            if not isinstance(a, str):
                raise self.refuse("an assignment to an argument passed as a constant")
            self.write(a, self.pop_expr())
        elif code == "dup":
            v = self.pop()
            st.extend((v, v))
        elif code == "pop":
            self.pop()
        elif code in ("ldsfld", "ldfld", "stsfld", "stfld", "ldsflda", "ldflda"):
            self.field_access(code, op, volatile)
        elif code in _ARITH:
            b, a = self.pop_expr(), self.pop_expr()
            e = BinOp(_ARITH[code], a, b)
            st.append(UnOp("sext32", e) if e.op in _WRAPS else e)
        elif code == "shr.un":
            b, a = self.pop_expr(), self.pop_expr()
            st.append(UnOp("sext32", BinOp("shr", UnOp("zext32", a), b)))
        elif code == "neg":
            st.append(UnOp("sext32", UnOp("neg", self.pop_expr())))
        elif code == "not":
            st.append(BinOp("xor", self.pop_expr(), Const(-1)))
        elif code in ("conv.i4", "conv.i", "conv.u4"):
            if code == "conv.u4":
                raise self.refuse("'conv.u4' (unsigned 32-bit values) is not supported")
        elif code in ("br", "leave"):
            self.leave_or_jump(frame, op, base, code == "leave")
            return False
        elif code in ("brtrue", "brfalse"):
            v = self.pop_expr()
            self.jump(base + (_target(op),), frame.prefix, v if code == "brtrue" else UnOp("not", v))
        elif code in _BRANCH:
            b, a = self.pop_expr(), self.pop_expr()
            rel = _BRANCH[code]
            cond = BinOp(rel, a, b) if rel in ("eq", "ne", "lt", "gt", "le", "ge", "ult", "ugt") \
                else UnOp("not", BinOp("ugt" if rel == "ule" else "ult", a, b))
            self.jump(base + (_target(op),), frame.prefix, cond)
        elif code == "ret":
            if frame.ret is not None:
                self.write(frame.ret, self.pop_expr())
            self.stack = []
            self.emit(Branch(None, frame.end))
            return False
        elif code == "endfinally":
            self.stack = []
            self.emit(Branch(None, base + ("endfinally",)))
            return False
        elif code in ("call", "callvirt"):
            self.call(frame, op)
        elif code == "newobj":
            self.new_object(frame, op)
        elif code == "switch":
            v = self.pop_expr()
            if self.stack:
                raise self.refuse("a switch with values left on the stack")
            for i, t in enumerate(_targets(op)):
                self.jump(base + (t,), frame.prefix, BinOp("eq", v, Const(i)))
        else:
            raise self.refuse(f"CIL opcode '{op.opcode}' is not supported in a thread",
                              hint="see docs/csharp.md for the CIL mmdsl reads")
        return True

    def local(self, frame: _Frame, op: Op) -> str:
        i = index_operand(op.opcode.replace("ldloca", "ldloc"), op.operand)
        if i >= len(frame.method.locals):
            raise self.world.error(f"local {i} is not declared", frame.method, op)
        return f"{frame.prefix}V_{i}"

    def arg_index(self, frame: _Frame, op: Op) -> int:
        i = index_operand(op.opcode, op.operand)
        if i >= len(frame.args):
            raise self.world.error(f"argument {i} is not declared", frame.method, op)
        return i

    # ----- fields --------------------------------------------------------------------
    def field_access(self, code: str, op: Op, volatile: bool) -> None:
        ref = field_ref(op.operand)
        if ref is None:
            raise self.world.error(f"cannot read the field '{op.operand}'", self.method, op)
        f = self.world.asm.fields.get(ref)
        if f is None:
            raise self.refuse(f"field '{ref[0]}::{ref[1]}' is not a field of this program")
        if not f.type.startswith(("int32", "bool", "object", "class ")) or f.type.startswith("class [mscorlib]"):
            raise self.refuse(f"field '{ref[1]}' of type {f.type} (int, bool and object fields are supported)")
        annots = frozenset({"volatile"}) if volatile else frozenset()
        value = self.pop_expr() if code in ("stsfld", "stfld") else None
        if code in ("ldsfld", "stsfld", "ldsflda"):
            addr: Expr = Const(self.world.static_location(*ref))
            initial = self.world.initial.get(addr.value, 0)
            if code == "ldsfld" and f.readonly and isinstance(initial, int):
                self.stack.append(Const(initial))  # readonly: set by the static constructor, never again
                return
        else:
            addr = self.world.field_address(self.pop_expr(), ref[1])
        if code.endswith("flda"):
            self.stack.append(Address(addr))
        elif value is None:
            dst = self.reg()
            self.emit(Load(dst, addr, annots))
            self.stack.append(Reg(dst))
        else:
            self.emit(Store(addr, value, annots))

    # ----- control -------------------------------------------------------------------
    def leave_or_jump(self, frame: _Frame, op: Op, base: tuple, leave: bool) -> None:
        target = _target(op)
        if leave:
            self.stack = []
            for h in frame.method.handlers:
                if h.try_start <= op.offset < h.try_end and not h.try_start <= target < h.try_end:
                    if h.kind != "finally":
                        raise self.refuse(f"a '{h.kind}' handler (only try/finally, as lock writes it, is supported)")
                    self.finally_copy(frame, h, base)
        self.jump(base + (target,), frame.prefix)

    def finally_copy(self, frame: _Frame, handler, base: tuple) -> None:
        self.inlined += 1
        ns = base[1:] + (f"finally{self.inlined}",)
        saved = (self.method, self.op)
        self.frame_code(frame, handler.ops, ns)
        self.label((frame.prefix,) + ns + ("endfinally",))
        self.method, self.op = saved
        self.stack = []

    def call(self, frame: _Frame, op: Op) -> None:
        ref = method_ref(op.operand)
        if ref is None:
            raise self.world.error(f"cannot read the method '{op.operand}'", self.method, op)
        callee = self.world.method(ref.cls, ref.name)
        if callee is not None and self.world.is_program_class(ref.cls):
            if callee.virtual:
                raise self.refuse(f"call of virtual method '{ref.qualified}' (calls are resolved as written; "
                                  "virtual dispatch is not supported)")
            self.inline(frame, callee, ref.instance)
        elif not lower_library_call(self, ref):
            raise self.refuse(f"method '{ref.qualified}' is not supported in a thread",
                              hint="see docs/csharp.md for the library calls mmdsl reads")

    def new_object(self, frame: _Frame, op: Op) -> None:
        """``new C(...)`` in a thread: a node of its own (so it may run once), then C's constructor."""
        ref = method_ref(op.operand)
        if ref is None:
            raise self.world.error(f"cannot read the method '{op.operand}'", self.method, op)
        base = ref.qualified in ("object::.ctor", "System.Object::.ctor")
        ctor = self.world.method(ref.cls, ref.name)
        if not base and (ctor is None or not self.world.is_program_class(ref.cls)):
            raise self.refuse(f"'new {ref.cls}' in a thread (objects of the program's own classes are supported)")
        self.allocations.append((len(self.out), self.method, op))
        node = Const(self.world.new_object(ref.cls if not base else "object", f"{self.method.name} {op.label}"))
        if not base:
            self.stack[len(self.stack) - len(ref.params):len(self.stack) - len(ref.params)] = [node]
            self.inline(frame, ctor, True)
        self.method, self.op = frame.method, op
        self.stack.append(node)

    def inline(self, frame: _Frame, callee: Method, instance: bool) -> None:
        if frame.depth >= MAX_INLINE or any(callee is m for m in self.active):
            raise self.refuse(f"call of '{callee.qualified}': recursion (or inlining deeper than {MAX_INLINE}) "
                              "is not supported")
        self.inlined += 1
        prefix = f"{callee.name}#{self.inlined}."
        n = len(callee.params) + (1 if instance else 0)
        values = [self.pop_expr() for _ in range(n)][::-1]
        assigned = _assigned_args(callee)
        args: list = []
        for i, v in enumerate(values):
            if isinstance(v, Const) and i not in assigned:
                args.append(v)
            else:
                reg = f"{prefix}a{i}"
                self.write(reg, v)
                args.append(reg)
        caller_stack, saved = self.stack, (self.method, self.op)
        ret = f"{prefix}ret" if callee.returns != "void" else None
        inner = _Frame(callee, prefix, args, ret, (prefix, "end"), frame.depth + 1)
        self.active.append(callee)
        self.frame_code(inner)
        self.active.pop()
        self.label((prefix, "end"))
        self.method, self.op = saved
        self.stack = caller_stack
        if ret is not None:
            self.stack.append(Reg(ret))


def _constant(e: Expr) -> int | None:
    """The value of an expression without registers (None when it has some)."""
    if e.regs():
        return None
    from ...core.program import evaluate
    try:
        v = evaluate(e, {})
    except Exception:  # an address in arithmetic, a division by zero: left to the run
        return None
    return v if isinstance(v, int) else None


def lock_taken_locals(method: Method, prefix: str) -> set[str]:
    """The ``lockTaken`` locals of ``lock`` statements: a try block opening with
    ``ldloc obj; ldloca L; call Monitor::Enter(object, bool&)`` whose finally tests L. With no
    exceptions L is true wherever the finally reads it, so L reads as 1 and is never stored."""
    out = set()
    for h in method.handlers:
        body = [o for o in method.ops if h.try_start <= o.offset < h.try_end][:3]
        if h.kind == "finally" and len(body) == 3 and body[0].opcode.startswith("ldloc") \
                and body[1].opcode.startswith("ldloca") and body[2].opcode == "call" \
                and "Monitor::Enter(object, [out] bool&)" in body[2].operand.replace("class ", ""):
            local = index_operand("ldloc.s", body[1].operand)
            uses = [o for ops in [method.ops] + [x.ops for x in method.handlers] for o in ops
                    if o.opcode.startswith(("ldloc", "stloc")) and not o.opcode.startswith("ldloca")
                    and index_operand(o.opcode, o.operand) == local]
            loads_in_finally = all(o.opcode.startswith("stloc") or o in h.ops for o in uses)
            if loads_in_finally:
                out.add(f"{prefix}V_{local}")
    return out


def _assigned_args(method: Method) -> set[int]:
    out = set()
    for ops in [method.ops] + [h.ops for h in method.handlers]:
        for o in ops:
            if o.opcode.startswith("starg") or o.opcode.startswith("ldarga"):
                out.add(index_operand(o.opcode.replace("ldarga", "ldarg"), o.operand))
    return out


def _target(op: Op) -> int | None:
    code = op.opcode
    if (code.startswith("b") and code not in ("box",)) or code.startswith("leave"):
        text = op.operand.strip()
        if text.startswith("IL_"):
            return int(text[3:], 16)
    return None


def _targets(op: Op) -> list[int]:
    """Every jump target of an op (a switch has several)."""
    if op.opcode == "switch":
        return [int(t.strip()[3:], 16) for t in op.operand.strip("() ").split(",") if t.strip().startswith("IL_")]
    t = _target(op)
    return [] if t is None else [t]


def _short(operand: str) -> str:
    ref = field_ref(operand)
    if ref and "(" not in operand.split("::")[-1]:
        return ref[1]
    m = method_ref(operand)
    return f"{m.cls.rsplit('.', 1)[-1]}.{m.name}" if m else operand
