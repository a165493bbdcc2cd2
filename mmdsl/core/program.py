"""The core program IR every litmus dialect lowers to: threads of simple instructions."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Union

from .condition import Condition, Prop
from .errors import SourcePos, UnsupportedError

Value = Union[int, str]  # an integer, or the symbolic address of a location


# ----- expressions -------------------------------------------------------------
@dataclass(frozen=True)
class Const:
    value: Value

    def regs(self) -> frozenset[str]:
        return frozenset()

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Reg:
    name: str

    def regs(self) -> frozenset[str]:
        return frozenset((self.name,))

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class BinOp:
    op: str  # add sub mul div mod (div0 rem0 divrv remrv: ZERO_DIVISOR) xor and or shl shr eq ne lt le gt ge land lor
    left: "Expr"
    right: "Expr"

    def regs(self) -> frozenset[str]:
        return self.left.regs() | self.right.regs()

    def __str__(self) -> str:
        return f"({self.left} {_OP_TEXT[self.op]} {self.right})"


@dataclass(frozen=True)
class UnOp:
    op: str  # not neg, or a width's extension (EXTENSIONS: sext32, zext32 ...)
    arg: "Expr"

    def regs(self) -> frozenset[str]:
        return self.arg.regs()

    def __str__(self) -> str:
        if self.op.startswith(CELL):
            _, pool, fld, _size = self.op.split(":")
            return f"&{pool}[{self.arg}].{fld}"
        if self.op.startswith(INDEX):
            return f"&{self.op.split(':')[1]}[{self.arg}]"
        if self.op in EXTENSIONS:
            return f"{self.op}({self.arg})"
        return f"{'!' if self.op == 'not' else '-'}{self.arg}"


Expr = Union[Const, Reg, BinOp, UnOp]

_OP_TEXT = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "div0": "/", "rem0": "%", "divrv": "/",
    "remrv": "%", "xor": "^", "and": "&", "or": "|",
    "shl": "<<", "shr": ">>",
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "land": "&&", "lor": "||",
    "ult": "<u", "ugt": ">u",
}


MAX_SHIFT = 127
WORD = 64  # the machine word: every integer value is a signed 64-bit number


def wrap(v: int, width: int = WORD) -> int:
    """``v`` cut to its low ``width`` bits, read as a signed (two's complement) number."""
    half = 1 << (width - 1)
    return ((v + half) & ((1 << width) - 1)) - half


# width-annotated unary operators (UnOp): cut to N bits, then sign- or zero-extend to the
# 64-bit word, as a 32-bit ISA operation writes its register (RISC-V's *w forms sign-extend,
# AArch64's W registers and x86's 32-bit registers zero-extend)
EXTENSIONS = {f"{k}ext{n}": (k == "s", n) for k in ("s", "z") for n in (8, 16, 32)}

# division whose divisor is 0 (the quotient and the remainder), per operator: "div"/"mod"
# are C's (undefined behaviour: the execution is refused, DivisionByZero); the others
# are an ISA's, each of which defines a result
ZERO_DIVISOR = {
    "div0": (0, 0),     # AArch64 SDIV/UDIV: 0; PPC divw: undefined, mmdsl gives 0 (docs/litmus.md)
    "divrv": (-1, None),  # RISC-V DIV: all ones (-1); REM: the dividend (None)
}
REMAINDERS = {"mod": "div", "rem0": "div0", "remrv": "divrv"}


class DivisionByZero(UnsupportedError):
    """C's ``/`` or ``%`` by zero: undefined behaviour, so the execution has no defined result."""


def _divide(op: str, a: int, b: int) -> int:
    """Truncating division (toward zero, the remainder with the dividend's sign), as C,
    herd's OCaml and every ISA here divide; a zero divisor as ``op`` says (ZERO_DIVISOR)."""
    div = REMAINDERS.get(op, op)
    if not b:
        if div == "div":
            raise DivisionByZero(f"{'division' if op == div else 'remainder'} by zero: undefined behaviour "
                                 "in C: the execution has no defined result, so mmdsl refuses the test")
        q, r = ZERO_DIVISOR[div]
        if op == div:
            return q
        return a if r is None else r
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return wrap(q) if op == div else a - b * q


def apply_op(op: str, a: Value, b: Value) -> Value:
    """Apply a binary operator to two values (symbolic addresses allow +0, ==, !=).

    Integers are 64-bit words: sums, differences, products and left shifts wrap (two's
    complement), as the machine's registers do; a narrower operation is cut further by
    its dialect (EXTENSIONS)."""
    if isinstance(a, str) or isinstance(b, str):
        if op == "eq":
            return int(a == b)
        if op == "ne":
            return int(a != b)
        if op in ("add", "sub", "or", "xor") and b == 0:
            return a
        if op in ("add", "or", "xor") and a == 0:
            return b
        raise UnsupportedError(f"arithmetic '{_OP_TEXT[op]}' on the address of location "
                               f"'{a if isinstance(a, str) else b}' (only +0 is supported)")
    if op == "add":
        return wrap(a + b)
    if op == "sub":
        return wrap(a - b)
    if op == "mul":
        return wrap(a * b)
    if op in ("div", "mod") or op in ZERO_DIVISOR or op in REMAINDERS:
        return _divide(op, a, b)
    if op == "xor":
        return a ^ b
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op in ("shl", "shr"):
        # a shift by a count the dialect has bounded (x86 masks it to 5 or 6 bits);
        # ">>" is arithmetic (floor), as Python's
        if not 0 <= b <= MAX_SHIFT:
            raise UnsupportedError(f"shift by {b} (counts from 0 to {MAX_SHIFT} are supported)")
        return wrap(a << b) if op == "shl" else a >> b
    if op == "eq":
        return int(a == b)
    if op == "ne":
        return int(a != b)
    if op == "lt":
        return int(a < b)
    if op in ("ult", "ugt"):  # the words compared as unsigned (AArch64's LDUMAX, RISC-V's maxu)
        ua, ub = a % (1 << 64), b % (1 << 64)
        return int(ua < ub if op == "ult" else ua > ub)
    if op == "le":
        return int(a <= b)
    if op == "gt":
        return int(a > b)
    if op == "ge":
        return int(a >= b)
    if op == "land":
        return int(bool(a) and bool(b))
    if op == "lor":
        return int(bool(a) or bool(b))
    raise ValueError(op)


CELL = "cell:"  # UnOp("cell:POOL:FIELD:SIZE", index): the location of FIELD of node ``index`` (0..SIZE) of a pool


def cell_op(pool: str, fld: str, size: int) -> str:
    """The unary operator mapping a node index (1..size) of ``pool`` to the location of its field ``fld``."""
    return f"{CELL}{pool}:{fld}:{size}"


def cell_location(pool: str, index: int, fld: str) -> str:
    """The location of field ``fld`` of node ``index`` of ``pool``: ``pool1.next`` ..."""
    return f"{pool}{index}.{fld}"


def _cell(op: str, a: Value) -> str:
    _, pool, fld, size = op.split(":")
    if isinstance(a, str) or not 0 <= a <= int(size):  # node 0: null, whose fields catch null dereferences
        what = f"the address of '{a}'" if isinstance(a, str) else str(a)
        raise UnsupportedError(f"pointer value {what} is not a node of pool '{pool}' (nodes 1 to {size}, 0 null)")
    return cell_location(pool, a, fld)


INDEX = "index:"  # UnOp("index:NAME:SIZE", i): the location of element i (0..SIZE-1) of array NAME


def index_op(name: str, size: int) -> str:
    """The unary operator mapping an index to the location of that element of array ``name``."""
    return f"{INDEX}{name}:{size}"


def element_location(name: str, index: int) -> str:
    return f"{name}[{index}]"


def _element(op: str, a: Value) -> str:
    _, name, size = op.split(":")
    if isinstance(a, str) or not 0 <= a < int(size):
        raise UnsupportedError(f"index {a} is out of the bounds of array '{name}' (0 to {int(size) - 1})")
    return element_location(name, a)


def apply_unop(op: str, a: Value) -> Value:
    if op.startswith(CELL):
        return _cell(op, a)
    if op.startswith(INDEX):
        return _element(op, a)
    if isinstance(a, str):
        if op == "not":
            return 0
        raise UnsupportedError(f"negation of the address of location '{a}'")
    if op in EXTENSIONS:
        signed, width = EXTENSIONS[op]
        return wrap(a, width) if signed else a & ((1 << width) - 1)
    return int(not a) if op == "not" else wrap(-a)


def evaluate(e: Expr, regs: dict[str, Value]) -> Value:
    """Evaluate ``e`` with concrete register values (unset registers read 0)."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Reg):
        return regs.get(e.name, 0)
    if isinstance(e, BinOp):
        return apply_op(e.op, evaluate(e.left, regs), evaluate(e.right, regs))
    return apply_unop(e.op, evaluate(e.arg, regs))


# ----- instructions ------------------------------------------------------------
@dataclass(frozen=True)
class Instr:
    """Base of all instructions: where it came from and its original text."""

    pos: SourcePos | None = field(default=None, kw_only=True, compare=False)
    text: str = field(default="", kw_only=True, compare=False)


@dataclass(frozen=True)
class Load(Instr):
    dst: str | None
    addr: Expr
    annots: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Store(Instr):
    addr: Expr
    value: Expr
    annots: frozenset[str] = frozenset()


OLD = "%old"  # inside an Rmw, the register holding the value just read


@dataclass(frozen=True)
class Rmw(Instr):
    """An atomic read-modify-write: read ``old`` into ``dst``, then write ``new``.

    ``new`` and ``cond`` may use the pseudo-register ``%old``. When ``cond`` is false
    the instruction only reads (a failed compare-and-swap); when ``blocking`` it waits
    instead until ``cond`` holds (a lock acquisition: wait for 0, write 1).
    ``fail_annots``, when given, annotate the read of a failed one instead of ``annots``
    (C11's failure order, as herd reads it; the explorer keeps ``annots``).

    ``compared`` marks herd's AArch64 CAS (``cond`` is ``%old == compared``), whose three
    ways herd explores: it succeeds, and ``dst`` takes its value either from the read or
    from ``compared`` (equal, with different dependencies); it fails and only reads; it
    fails and writes back the value it read. Its write depends on ``compared`` through
    the comparison (herd's ``pick`` dependencies, axiomatic.threads).
    """

    dst: str | None
    addr: Expr
    new: Expr
    cond: Expr | None = None
    blocking: bool = False
    annots: frozenset[str] = frozenset()
    fail_annots: frozenset[str] | None = None
    compared: Expr | None = None
    # a C11 RMW or spin_lock, one event in herd's C (kernel RMWs are two, as here): how herd's
    # cat models read it (lang.cat_rmw), not what the instruction does, so not compared
    one_event: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class StoreCond(Instr):
    """A store-conditional (RISC-V ``sc``): it may fail or succeed, as herd lets it.

    On success it writes ``value`` and pairs with the thread's latest load-reserved
    (a Load annotated ``lr``) in the ``rmw`` relation, and ``dst`` gets 0; on failure
    no write happens and ``dst`` gets 1.
    """

    dst: str | None
    addr: Expr
    value: Expr
    annots: frozenset[str] = frozenset()
    # None (RISC-V): the status depends on the write. "data" (PPC stwcx.) or "addr" (ARM
    # STREX): as herd computes it, the status depends on every register the instruction
    # reads, the reservation included (its load's address registers), and the reservation
    # feeds the write's data or address dependency
    reservation_dep: str | None = None


@dataclass(frozen=True)
class Fence(Instr):
    kind: str
    annots: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Assign(Instr):
    dst: str
    expr: Expr


@dataclass(frozen=True)
class Branch(Instr):
    """Jump to instruction index ``target`` when ``cond`` is non-zero (always when None).

    With ``choice`` the jump is nondeterministic (Memorax's `either`): both ways are
    possible and ``cond`` is the constant 1, so code that only follows control flow sees a
    two-way branch. Only the explorer runs such programs.
    """

    cond: Expr | None
    target: int
    choice: bool = False


@dataclass(frozen=True)
class Assume(Instr):
    """Only executions where ``cond`` holds exist (herd's filter-like `assume`)."""

    cond: Expr


@dataclass(frozen=True)
class Nop(Instr):
    """A label or an empty cell: keeps positions stable, does nothing."""


@dataclass(frozen=True)
class AtomicBegin(Instr):
    """The start of an atomic block: the instructions up to ``end`` (an ``AtomicEnd``) are one
    indivisible step (C ``atomic { ... }``, Memorax ``locked { ... }``, CAS2).

    The block is loop-free (its branches go forward, inside it) and holds only loads,
    stores, assignments, branches and ``assume``s; an ``assume`` that fails makes the whole
    block wait (as a blocking compare-and-swap). Its accesses are events of the class
    ``RMW`` (the ``At`` class of the bundled tables): how they order the thread's other
    accesses is the model's reordering table, read for that class.
    """

    end: int


@dataclass(frozen=True)
class AtomicEnd(Instr):
    """The end of an atomic block (see ``AtomicBegin``)."""


def atomic_regions(instrs) -> list[tuple[int, int]]:
    """The (begin, end) index pairs of a thread's atomic blocks."""
    return [(k, ins.end) for k, ins in enumerate(instrs) if isinstance(ins, AtomicBegin)]


def in_atomic_block(instrs) -> set[int]:
    """Indices of the instructions inside some atomic block (markers excluded)."""
    return {k for b, e in atomic_regions(instrs) for k in range(b + 1, e)}


def atomic_block_error(instrs) -> tuple[int, str] | None:
    """The first instruction an atomic block may not hold (its index and why), or None.

    A block holds loads, stores, assignments, ``assume``s, no-ops and branches that go
    forward to a place inside it (at most its end): one indivisible, loop-free step.
    """
    for b, e in atomic_regions(instrs):
        for k in range(b + 1, e):
            ins = instrs[k]
            if isinstance(ins, (AtomicBegin, AtomicEnd)):
                return k, "an atomic block inside an atomic block"
            if isinstance(ins, Branch) and ins.choice:
                return k, "a nondeterministic choice inside an atomic block (write one block per alternative)"
            if isinstance(ins, Branch) and not k < ins.target <= e:
                return k, "a jump out of an atomic block or back inside it (a block is loop-free and left at its end)"
            if not isinstance(ins, (Load, Store, Assign, Assume, Nop, Branch)):
                return k, (f"{type(ins).__name__.lower()} '{ins.text}' inside an atomic block (a block holds loads, "
                           "stores, local computation and forward branches)")
    return None


MEMORY_INSTRS = (Load, Store, Rmw, StoreCond, Fence)


@dataclass
class Thread:
    tid: int
    name: str
    instrs: list[Instr]
    reg_init: dict[str, Value] = field(default_factory=dict)
    # registers whose initial value is any of several (Memorax's `$r = * : [a:b]`)
    reg_choices: dict[str, tuple[Value, ...]] = field(default_factory=dict)
    # the name of each labelled pc a state property may test (key ("at", tid))
    pc_labels: dict[int, str] = field(default_factory=dict)
    # the operations of a data-type harness (C calls of a function from the thread function):
    # (first instruction, one past the last, function name); --spec serial runs each atomically
    operations: list[tuple[int, int, str]] = field(default_factory=list)
    # instruction pairs (i, j, reads_only), i < j, that one evaluation leaves out of program
    # order (the C operands of one expression, unsequenced as herd evaluates them): the events
    # of i are not po-before those of j (with reads_only, only before j's read: a kernel RMW's
    # read half is unsequenced with its arguments, its write still follows them)
    unsequenced: frozenset[tuple[int, int, bool]] = frozenset()

    def has_loops(self) -> bool:
        return any(isinstance(i, Branch) and i.target <= k for k, i in enumerate(self.instrs))

    def registers(self) -> set[str]:
        """Every register the thread initialises or writes."""
        out: set[str] = set(self.reg_init)
        for ins in self.instrs:
            dst = getattr(ins, "dst", None)
            if dst:
                out.add(dst)
        return out


@dataclass
class Program:
    """A litmus test or a program, after lowering from its surface syntax."""

    name: str
    arch: str
    threads: list[Thread]
    init: dict[str, Value]
    condition: Condition
    path: str | None = None
    doc: str = ""
    info: dict[str, str] = field(default_factory=dict)
    observed: list[tuple] = field(default_factory=list)  # extra `locations [...]` keys
    filter: Prop | None = None
    source: str = ""
    # dialect-specific data the writer needs to print the program back (-o)
    layout: object | None = None
    # locations whose initial value is any of several (Memorax's `x = * : [a:b]`)
    init_choices: dict[str, tuple[Value, ...]] = field(default_factory=dict)

    @property
    def state_property(self) -> bool:
        """The condition tests where threads are (keys ("at", tid)): it holds or not on every
        reachable state, not on final states (a Memorax `forbidden` tuple of labels)."""
        return any(k[0] == "at" for k in self.condition.keys())

    def initial_choices(self) -> list[tuple[dict[str, Value], dict[int, dict[str, Value]]]]:
        """Every (memory init, per-thread register init) the initial-value choices allow."""
        keys: list[tuple] = [("mem", loc) for loc in self.init_choices]
        values: list[tuple] = [self.init_choices[loc] for loc in self.init_choices]
        for t in self.threads:
            keys.extend(("reg", t.tid, r) for r in t.reg_choices)
            values.extend(t.reg_choices.values())
        out = []
        for combo in product(*values):
            mem = dict(self.init)
            regs = {t.tid: dict(t.reg_init) for t in self.threads}
            for key, v in zip(keys, combo):
                if key[0] == "mem":
                    mem[key[1]] = v
                else:
                    regs[key[1]][key[2]] = v
            out.append((mem, regs))
        return out

    @property
    def locations(self) -> list[str]:
        """Every memory location: initialised, the initial value of a location or a register
        (a pointer), accessed by a constant address, or in the condition."""
        locs: dict[str, None] = {}
        for loc in self.init:
            locs[loc] = None
        for v in self.init.values():
            if isinstance(v, str):
                locs[v] = None
        for t in self.threads:
            for v in t.reg_init.values():
                if isinstance(v, str):
                    locs[v] = None
            for ins in t.instrs:
                for e in _exprs_of(ins):
                    _const_locations(e, locs)
        for key in self.condition.keys():
            if key[0] == "mem":
                locs[key[1]] = None
        return list(locs)

    def has_loops(self) -> bool:
        return any(t.has_loops() for t in self.threads)

    def require_final_condition(self, engine: str) -> None:
        """Refuse, by name, an engine that judges final states only for a state property."""
        if self.state_property:
            raise UnsupportedError(
                f"{self.name}: its condition {self.condition.text()} says where the threads are on "
                f"every state (a Memorax 'forbidden' tuple); the {engine} judges final states only",
                hint="use the explorer: mmdsl explore, --engine explorer, or 'engine: explorer' in a manifest")


def _exprs_of(ins: Instr) -> list[Expr]:
    out = []
    fields = ins.__dict__  # frozen dataclasses: their fields, without five getattr calls
    for attr in ("addr", "value", "new", "expr", "cond"):
        e = fields.get(attr)
        if e is not None and not isinstance(e, (int, str)):
            out.append(e)
    return out


def _const_locations(e: Expr, locs: dict) -> None:
    """Add the string constants (locations) of ``e`` to ``locs``, in the order ``_consts`` yields
    them, with an explicit stack instead of nested generators (this runs for every test)."""
    stack = [e]
    while stack:
        e = stack.pop()
        if isinstance(e, Const):
            if isinstance(e.value, str):
                locs[e.value] = None
        elif isinstance(e, BinOp):
            stack.append(e.right)
            stack.append(e.left)
        elif isinstance(e, UnOp):
            stack.append(e.arg)


def _consts(e: Expr):
    if isinstance(e, Const):
        yield e.value
    elif isinstance(e, BinOp):
        yield from _consts(e.left)
        yield from _consts(e.right)
    elif isinstance(e, UnOp):
        yield from _consts(e.arg)
