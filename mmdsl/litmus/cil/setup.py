"""Run a program's Main as set-up, thread starts, joins and a final check.

The static constructors and Main's code before the first ``Thread.Start`` run concretely
(they give the initial memory and the objects); the started delegates become the
program's threads; after the last ``Join`` Main's reads of fields stand for the final
state, and each ``Debug.Assert`` there becomes a proposition on it (every path through
the check code followed, its branch conditions kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.condition import And, Atom, Not, Or, Truth
from ...core.program import cell_location, wrap
from .reader import Method, Op, const_operand, field_ref, index_operand, method_ref
from .world import POOL, World

MAX_STEPS = 100_000  # instructions Main and the static constructors may run
MAX_PATHS = 1024  # paths through Main's check code


@dataclass(frozen=True)
class Delegate:
    method: Method
    target: int | None  # the object of an instance method


@dataclass(frozen=True)
class FnPtr:
    method: Method


@dataclass
class ThreadObj:
    delegate: Delegate
    started: bool = False
    joined: bool = False


@dataclass(frozen=True)
class Sym:
    """A value of the final state: a proposition on it (``prop``) or the value of a location."""

    key: tuple | None = None
    prop: object | None = None


@dataclass
class Frame:
    method: Method
    args: list
    locals: list
    stack: list = field(default_factory=list)
    pc: int = 0
    push_result: bool = False  # a call whose result the caller keeps
    new_object: int | None = None  # a constructor run by newobj: push this object on return

    def copy(self) -> "Frame":
        return Frame(self.method, list(self.args), list(self.locals), list(self.stack), self.pc,
                     self.push_result, self.new_object)


@dataclass
class Setup:
    memory: dict  # location -> initial value (ints; a delegate cache holds a Delegate)
    threads: list[ThreadObj]
    violations: list  # (proposition on the final state, assertion number): each the failure of an assertion
    asserts: int  # Debug.Assert calls met in Main


_BINARY = {"add": lambda a, b: wrap(a + b, 32), "sub": lambda a, b: wrap(a - b, 32),
           "mul": lambda a, b: wrap(a * b, 32), "and": lambda a, b: a & b, "or": lambda a, b: a | b,
           "xor": lambda a, b: a ^ b, "shl": lambda a, b: wrap(a << (b & 31), 32), "shr": lambda a, b: a >> (b & 31),
           "clt": lambda a, b: int(a < b), "cgt": lambda a, b: int(a > b), "ceq": lambda a, b: int(a == b)}
_BRANCH = {"beq": "eq", "bne.un": "ne", "blt": "lt", "bgt": "gt", "ble": "le", "bge": "ge"}
_CMP = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
        "gt": lambda a, b: a > b, "le": lambda a, b: a <= b, "ge": lambda a, b: a >= b}


def run_setup(world: World, on_joined) -> Setup:
    """Run the static constructors and Main; ``on_joined(threads)`` is called when the last
    thread is joined (it lowers the threads, so the check code knows what they may write)."""
    main = world.asm.entry
    if main is None:
        raise world.error("the program has no entry point (a static Main)", None, None)
    run = _Run(world, on_joined)
    for (cls, name), m in world.asm.methods.items():
        if name == ".cctor":
            if m.handlers:
                raise world.refuse("try blocks in a static constructor are not supported", m, None)
            run.execute(Frame(m, [], [0] * len(m.locals)), check_allowed=False)
    if main.handlers:
        raise world.refuse("try blocks in Main are not supported", main, None)
    run.execute(Frame(main, [0] * len(main.params), [0] * len(main.locals)), check_allowed=True)
    if not run.threads:
        raise world.refuse("Main starts no thread (new Thread(...).Start())", main, None)
    return Setup(run.memory, run.threads, run.violations, run.asserts)


class _Run:
    def __init__(self, world: World, on_joined):
        self.world = world
        self.on_joined = on_joined
        self.memory: dict = world.initial
        self.threads: list[ThreadObj] = []
        self.violations: list = []
        self.asserts = 0
        self.numbers: dict = {}  # (method, IL offset) -> the number of Main's Debug.Assert there
        self.steps = 0

    def phase(self) -> str:
        if not self.threads:
            return "setup"
        return "check" if all(t.joined for t in self.threads) else "running"

    def execute(self, frame: Frame, check_allowed: bool) -> None:
        paths = [([frame], [])]  # (call stack, branch conditions so far)
        done = 0
        while paths:
            frames, conds = paths.pop()
            forks = self._path(frames, conds, check_allowed)
            paths.extend(forks)
            done += 1 + len(forks)
            if done > MAX_PATHS:
                raise self.world.refuse(f"Main's check code has more than {MAX_PATHS} paths",
                                        frame.method, None)

    # one path until it ends; returns the paths it forked
    def _path(self, frames: list[Frame], conds: list, check_allowed: bool) -> list:
        w = self.world
        forks = []
        while frames:
            f = frames[-1]
            if f.pc >= len(f.method.ops):
                raise w.error("control runs off the end of the method", f.method, None)
            op = f.method.ops[f.pc]
            f.pc += 1
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise w.refuse(f"Main and the static constructors run more than {MAX_STEPS} instructions",
                               f.method, op)
            if self.phase() == "check" and not check_allowed:
                raise w.refuse("a static constructor starts threads", f.method, op)
            try:
                fork = self._step(frames, f, op, conds)
            except (ValueError, IndexError, KeyError):  # a malformed operand in a hand-written listing
                raise w.error(f"cannot read '{op.opcode} {op.operand}'", f.method, op) from None
            if fork is not None:
                forks.append(fork)
        return forks

    def _val(self, v, method: Method, op: Op) -> int:
        if isinstance(v, int):
            return v
        if isinstance(v, Sym):
            raise self.world.refuse("after the joins, Main may only compare a field with a constant "
                                    f"(== or !=) and combine such tests: '{op.opcode}' on a field's final value",
                                    method, op)
        raise self.world.refuse(f"'{op.opcode}' on a {type(v).__name__}", method, op)

    def _prop(self, v, method: Method, op: Op):
        if isinstance(v, Sym):
            return v.prop if v.prop is not None else Atom(v.key, 0, negated=True)
        return Truth(bool(self._val(v, method, op)))

    def _compare(self, rel: str, a, b, method: Method, op: Op):
        if isinstance(a, int) and isinstance(b, int):
            return int(_CMP[rel](a, b))
        if rel not in ("eq", "ne"):
            return self._val(a if isinstance(a, Sym) else b, method, op)  # refused
        if isinstance(a, int):
            a, b = b, a
        if isinstance(a, Sym) and isinstance(b, int):
            if a.key is not None:
                p = Atom(a.key, b)
            elif b in (0, 1):
                p = a.prop if b == 1 else Not(a.prop)
            else:
                p = Truth(False)
            return Sym(prop=p if rel == "eq" else Not(p))
        return self._val(a, method, op)  # two final values compared: refused

    def _branch(self, frames, f: Frame, target: str, cond, conds: list):
        """Jump (cond true), or fork when cond depends on the final state."""
        if isinstance(cond, Sym):
            p = self._prop(cond, f.method, None)
            other = [fr.copy() for fr in frames]
            other[-1].pc = self._index(other[-1], target)
            conds.append(Not(p))
            return (other, conds[:-1] + [p])
        if self._val(cond, f.method, None):
            f.pc = self._index(f, target)
        return None

    def _index(self, f: Frame, label: str) -> int:
        for i, o in enumerate(f.method.ops):
            if o.label.lower() == label.lower():
                return i
        raise self.world.refuse(f"a jump to {label}, which is not in the method's main code "
                                "(try/catch/finally blocks are not supported in Main)", f.method, None)

    def _step(self, frames: list[Frame], f: Frame, op: Op, conds: list):
        w, code, arg = self.world, op.opcode, op.operand
        st = f.stack
        if code.endswith(".s") and code not in ("ldloc.s", "stloc.s", "ldarg.s", "starg.s", "ldloca.s", "ldc.i4.s"):
            code = code[:-2]
        if code in ("nop", "volatile."):
            return None
        if code.startswith("ldc.i4"):
            st.append(const_operand(code, arg))
        elif code == "ldnull":
            st.append(0)
        elif code == "ldstr":
            st.append(("str", arg))
        elif code.startswith("ldloc") and not code.startswith("ldloca"):
            st.append(f.locals[index_operand(code, arg)])
        elif code.startswith("stloc"):
            f.locals[index_operand(code, arg)] = st.pop()
        elif code.startswith("ldarg") and not code.startswith("ldarga"):
            st.append(f.args[index_operand(code, arg)])
        elif code.startswith("starg"):
            f.args[index_operand(code, arg)] = st.pop()
        elif code == "dup":
            st.append(st[-1])
        elif code == "pop":
            st.pop()
        elif code in ("ldsfld", "stsfld", "ldfld", "stfld"):
            self._field(f, op, code)
        elif code in _BINARY:
            b, a = st.pop(), st.pop()
            if code == "ceq":
                st.append(self._compare("eq", a, b, f.method, op))
            else:
                st.append(_BINARY[code](self._val(a, f.method, op), self._val(b, f.method, op)))
        elif code in ("br", "leave"):
            f.pc = self._index(f, arg)
        elif code in ("brtrue", "brfalse"):
            v = st.pop()
            if code == "brfalse":
                v = self._compare("eq", v, 0, f.method, op)
            return self._branch(frames, f, arg, v, conds)
        elif code in _BRANCH:
            b, a = st.pop(), st.pop()
            return self._branch(frames, f, arg, self._compare(_BRANCH[code], a, b, f.method, op), conds)
        elif code == "ret":
            frames.pop()
            result = st.pop() if f.method.returns != "void" and st else None
            if frames:
                if f.new_object is not None:
                    frames[-1].stack.append(f.new_object)
                elif f.push_result:
                    frames[-1].stack.append(result)
        elif code == "ldftn":
            st.append(FnPtr(self._program_method(arg, f.method, op)))
        elif code == "ldtoken":
            cls = arg.replace("class ", "").strip()
            st.append(("type", cls))
        elif code in ("call", "callvirt", "newobj"):
            self._call(frames, f, op, code, conds)
        else:
            raise w.refuse(f"CIL opcode '{op.opcode}' is not supported in Main or a static constructor",
                           f.method, op)
        return None

    def _program_method(self, operand: str, method: Method, op: Op) -> Method:
        ref = method_ref(operand)
        target = ref and self.world.method(ref.cls, ref.name)
        if target is None:
            raise self.world.refuse(f"'{operand}' is not a method of this program", method, op)
        return target

    def _location(self, f: Frame, op: Op, code: str):
        ref = field_ref(op.operand)
        if ref is None:
            raise self.world.error(f"cannot read the field '{op.operand}'", f.method, op)
        if code in ("ldsfld", "stsfld"):
            return self.world.static_location(*ref)
        obj = f.stack.pop(-2 if code == "stfld" else -1)
        if not isinstance(obj, int) or not 1 <= obj <= len(self.world.objects):
            raise self.world.refuse(f"field '{ref[1]}' of a null or unknown object", f.method, op)
        return cell_location(POOL, obj, ref[1])

    def _field(self, f: Frame, op: Op, code: str) -> None:
        phase = self.phase()
        if phase == "running":
            raise self.world.refuse(
                f"Main uses field '{op.operand.split()[-1]}' while its threads run: mmdsl reads Main as "
                "set-up, Thread.Start, Thread.Join, then checks", f.method, op)
        loc = self._location(f, op, code)
        if code.startswith("st"):
            if phase == "check":
                raise self.world.refuse("Main writes a field after the joins", f.method, op)
            self.memory[loc] = f.stack.pop()
        elif phase == "check" and self.world.may_write(loc):
            f.stack.append(Sym(key=("mem", loc)))
        else:
            f.stack.append(self.memory.get(loc, 0))

    def _call(self, frames: list[Frame], f: Frame, op: Op, code: str, conds: list) -> None:
        w, st = self.world, f.stack
        ref = method_ref(op.operand)
        if ref is None:
            raise w.error(f"cannot read the method '{op.operand}'", f.method, op)
        name = ref.qualified
        argc = len(ref.params) + (1 if ref.instance and code != "newobj" else 0)
        if code == "newobj" and name == "System.Threading.ThreadStart::.ctor":
            fn, target = st.pop(), st.pop()
            if not isinstance(fn, FnPtr):
                raise w.refuse("a ThreadStart of something other than a method", f.method, op)
            st.append(Delegate(fn.method, target or None))
        elif code == "newobj" and name == "System.Threading.Thread::.ctor" and len(ref.params) == 1 \
                and "ThreadStart" in ref.params[0] and "Parameterized" not in ref.params[0]:
            d = st.pop()
            if not isinstance(d, Delegate):
                raise w.refuse("a Thread made from something other than a ThreadStart delegate", f.method, op)
            st.append(ThreadObj(d))
        elif name in ("System.Threading.Thread::Start", "System.Threading.Thread::Join") and not ref.params:
            t = st.pop()
            if not isinstance(t, ThreadObj):
                raise w.refuse(f"{ref.name} on something other than a Thread", f.method, op)
            self._start_join(t, ref.name, f.method, op)
        elif code == "newobj" and self.phase() != "setup":
            raise w.refuse("Main makes an object after starting its threads", f.method, op)
        elif code == "newobj" and name in ("object::.ctor", "System.Object::.ctor"):
            st.append(w.new_object("object", op.label))
        elif code == "call" and name in ("object::.ctor", "System.Object::.ctor"):
            st.pop()
        elif name == "System.Type::GetTypeFromHandle":
            t = st.pop()
            st.append(w.type_object(t[1] if isinstance(t, tuple) else "?"))
        elif name == "System.Diagnostics.Debug::Assert" and ref.params and ref.params[0] == "bool":
            self.asserts += 1
            for _ in ref.params[1:]:
                st.pop()
            p = self._prop(st.pop(), f.method, op)
            v = simplify(And(tuple(conds) + (Not(p),)))
            if v != Truth(False):  # one number per Debug.Assert, however many paths reach it
                key = (f.method.qualified, op.offset)
                self.numbers.setdefault(key, w.assertion(f.method, op))
                self.violations.append((v, self.numbers[key]))
        elif w.is_program_class(ref.cls) and w.method(ref.cls, ref.name) is not None:
            callee = w.method(ref.cls, ref.name)
            if callee.virtual or callee.handlers:
                raise w.refuse(f"Main or a static constructor calls '{ref.qualified}', "
                               f"{'a virtual method' if callee.virtual else 'which has try blocks'}", f.method, op)
            if code == "newobj":
                obj = w.new_object(ref.cls, op.label)
                args = [obj] + _pop(st, len(ref.params))
                frames.append(Frame(callee, args, [0] * len(callee.locals), new_object=obj))
            else:
                frames.append(Frame(callee, _pop(st, argc), [0] * len(callee.locals),
                                    push_result=callee.returns != "void"))
        else:
            raise w.refuse(f"method '{name}' is not supported in Main or a static constructor", f.method, op,
                           hint="Main may make objects, set fields, start and join threads, and "
                                "Debug.Assert on the final values")

    def _start_join(self, t: ThreadObj, what: str, method: Method, op: Op) -> None:
        if what == "Start":
            if t.started:
                raise self.world.refuse("a thread started twice", method, op)
            if any(u.joined for u in self.threads):
                raise self.world.refuse("Thread.Start after a Join: mmdsl reads Main as set-up, starts, "
                                        "joins, then checks", method, op)
            t.started = True
            self.threads.append(t)
        else:
            if not t.started:
                raise self.world.refuse("Join of a thread that was not started", method, op)
            t.joined = True
            if all(u.joined for u in self.threads):
                self.on_joined(self.threads)


def simplify(p):
    """``p`` with negations pushed into atoms, constants folded and conjunctions flattened."""
    if isinstance(p, Not):
        q = p.item
        if isinstance(q, Not):
            return simplify(q.item)
        if isinstance(q, Atom):
            return Atom(q.key, q.value, not q.negated)
        if isinstance(q, Truth):
            return Truth(not q.value)
        if isinstance(q, And):
            return simplify(Or(tuple(Not(i) for i in q.items)))
        if isinstance(q, Or):
            return simplify(And(tuple(Not(i) for i in q.items)))
        return p
    if isinstance(p, (And, Or)):
        unit, zero = (True, False) if isinstance(p, And) else (False, True)
        items: list = []
        for i in (simplify(i) for i in p.items):
            if i == Truth(zero):
                return i
            if i == Truth(unit):
                continue
            items.extend(i.items if type(i) is type(p) else (i,))
        if not items:
            return Truth(unit)
        return items[0] if len(items) == 1 else type(p)(tuple(dict.fromkeys(items)))
    return p


def _pop(stack: list, n: int) -> list:
    if n == 0:
        return []
    out = stack[-n:]
    del stack[-n:]
    return out
