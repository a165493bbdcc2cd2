"""What the CIL front end knows of a program: its fields as locations, its objects, its errors."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...core.errors import LitmusError, SourcePos, UnsupportedError
from ...core.program import CELL, BinOp, Const, Expr, Load, UnOp, cell_location, cell_op
from .reader import Assembly, Method, Op

POOL = "obj"  # every object is node i of one pool: its field f is the location obj<i>.f
MONITOR = "$lock"  # the field of an object that Monitor.Enter/Exit (C#'s lock) take and release
INT_TYPES = ("int32", "bool", "object", "class ", "uint32", "int16", "uint16", "int8", "uint8", "char")


@dataclass(frozen=True)
class ILPos(SourcePos):
    """A C# line (no column: the line table has none), told apart per CIL instruction (``listing``:
    its line in the listing), so two instructions of one line are two places (a fence may go
    between them), while the core instructions one CIL instruction lowers to share one."""

    listing: int = 0


@dataclass
class World:
    asm: Assembly
    path: str | None  # the user's file (.cs or .il)
    listing: bool  # the file is the listing itself (.il): errors can point at its lines
    objects: list[tuple[str, str]] = field(default_factory=list)  # node i+1: (class, how it was made)
    statics: dict[tuple[str, str], object] = field(default_factory=dict)  # initial values by field
    monitors: bool = False
    initial: dict = field(default_factory=dict)  # location -> the value set-up left there
    written: set = field(default_factory=set)  # locations some thread stores to
    written_fields: set = field(default_factory=set)  # fields some thread stores to through a register
    types: dict[str, int] = field(default_factory=dict)  # typeof(C) -> its object (lock(typeof(C)))
    source: list[str] = field(default_factory=list)  # the C# file's lines (empty for a listing)
    assertions: dict = field(default_factory=dict)  # number (from 1) -> (pos, text, method): each Debug.Assert

    def assertion(self, method: Method, op: Op) -> int:
        """Number the Debug.Assert at ``op`` (in Main or a thread), remembering where it is and its text."""
        number = len(self.assertions) + 1
        line = op.source_line if not self.listing else None
        text = self.source[line - 1].strip() if line and line <= len(self.source) else f"{op.opcode} {op.operand}"
        self.assertions[number] = (self.pos(op) or SourcePos(self.path, method.line, 1), text, method.qualified)
        return number

    # ----- errors --------------------------------------------------------------------
    def where(self, method: Method | None, op: Op | None) -> str:
        file = self.path or "<input>"
        if method is None:
            return file
        at = f" {op.label}" if op is not None else ""
        return f"{file}: {method.qualified}{at}"

    def pos(self, op: Op | None) -> SourcePos | None:
        """The op's place: its line in a listing, else its C# line (from the debug symbols)."""
        if op is None:
            return None
        if self.listing:
            return SourcePos(self.path, op.line, 1)
        return ILPos(self.path, op.source_line, 1, op.line) if op.source_line else None

    def refuse(self, message: str, method: Method | None, op: Op | None, hint: str | None = None):
        """An UnsupportedError naming the file, the method and the IL offset."""
        return UnsupportedError(f"{self.where(method, op)}: {message}", self.pos(op), hint=hint)

    def error(self, message: str, method: Method | None, op: Op | None):
        return LitmusError(f"{self.where(method, op)}: {message}", self.pos(op))

    # ----- program classes and methods ----------------------------------------------------
    def method(self, cls: str, name: str) -> Method | None:
        return self.asm.methods.get((cls, name))

    def is_program_class(self, cls: str) -> bool:
        return cls in self.asm.classes

    # ----- locations ---------------------------------------------------------------
    def static_location(self, cls: str, name: str) -> str:
        """A static field's location: its name, or Class.name where two classes share it."""
        same = [c for (c, n), f in self.asm.fields.items() if n == name and f.static]
        return name if len(same) <= 1 else f"{cls.replace('/', '.')}.{name}"

    def new_object(self, cls: str, how: str) -> int:
        self.objects.append((cls, how))
        return len(self.objects)

    def note_writes(self, instrs) -> None:
        """Remember the locations a thread may write (a field of an object in a register: that
        field of every object)."""
        for ins in instrs:
            addr = getattr(ins, "addr", None)
            if addr is None or isinstance(ins, Load):
                continue
            if isinstance(addr, Const):
                self.written.add(addr.value)
            elif isinstance(addr, UnOp) and addr.op.startswith(CELL):
                self.written_fields.add(addr.op.split(":")[2])
            else:
                self.written_fields.add("*")

    def may_write(self, loc: str) -> bool:
        """May a thread write ``loc`` (so Main's read of it after the joins is a final value)?"""
        if loc in self.written or "*" in self.written_fields:
            return True
        return loc.startswith(POOL) and loc.split(".", 1)[-1] in self.written_fields

    def type_object(self, cls: str) -> int:
        if cls not in self.types:
            self.types[cls] = self.new_object("typeof", cls)
        return self.types[cls]

    def instance_fields(self, cls: str) -> list[str]:
        return [n for (c, n), f in self.asm.fields.items() if c == cls and not f.static]

    def field_address(self, obj: Expr, name: str) -> Expr:
        """The location of field ``name`` of the object ``obj`` (a constant node or a register)."""
        if isinstance(obj, Const) and isinstance(obj.value, int):
            if not 1 <= obj.value <= len(self.objects):
                raise UnsupportedError(f"field '{name}' of a null or unknown object")
            return Const(cell_location(POOL, obj.value, name))
        return UnOp(cell_op(POOL, name, len(self.objects)), obj)

    def resize_cells(self, instrs: list) -> list:
        """``instrs`` with every field-of-a-register address over all the objects made (threads'
        ``new`` adds objects after earlier addresses were written)."""
        size = len(self.objects)

        def fix(e):
            if isinstance(e, UnOp):
                arg = fix(e.arg)
                if e.op.startswith(CELL + POOL + ":"):
                    _, pool, fld, _ = e.op.split(":")
                    return UnOp(cell_op(pool, fld, size), arg)
                return UnOp(e.op, arg)
            if isinstance(e, BinOp):
                return BinOp(e.op, fix(e.left), fix(e.right))
            return e

        out = []
        for ins in instrs:
            changes = {a: fix(getattr(ins, a)) for a in ("addr", "value", "new", "cond", "expr")
                       if getattr(ins, a, None) is not None and not isinstance(getattr(ins, a), (int, str))}
            out.append(replace(ins, **changes) if changes else ins)
        return out

    def monitor_address(self, obj: Expr) -> Expr:
        self.monitors = True
        return self.field_address(obj, MONITOR)

    def object_locations(self) -> dict[str, int]:
        """Every field of every object (and its monitor, when some code locks), initially 0."""
        out: dict[str, int] = {}
        for i, (cls, _) in enumerate(self.objects, 1):
            for name in self.instance_fields(cls):
                out[cell_location(POOL, i, name)] = 0
            if self.monitors:
                out[cell_location(POOL, i, MONITOR)] = 0
        return out
