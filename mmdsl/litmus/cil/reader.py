"""Read monodis's text disassembly of an assembly: classes, fields, methods and their CIL."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import LitmusError, SourcePos


@dataclass
class Op:
    """One CIL instruction: its IL offset, opcode and operand text, and its line in the listing."""

    offset: int
    opcode: str
    operand: str
    line: int
    source_line: int | None = None  # the C# line, from the debug symbols

    @property
    def label(self) -> str:
        return f"IL_{self.offset:04x}"


@dataclass
class Handler:
    """A protected region: the offsets of its `.try` block, and its handler's kind and code."""

    try_start: int
    try_end: int  # one past the try block's last instruction
    kind: str  # "finally", "catch", "fault", "filter"
    ops: list[Op]
    line: int


@dataclass
class Method:
    cls: str
    name: str
    static: bool
    returns: str
    params: list[str]
    ops: list[Op] = field(default_factory=list)  # the code outside handlers, in offset order
    handlers: list[Handler] = field(default_factory=list)
    locals: list[str] = field(default_factory=list)
    entry: bool = False
    line: int = 0
    virtual: bool = False  # virtual, override, abstract: a call may run another class's method
    token: int = 0  # the MethodDef token (monodis's "method line N": 0x06000000 + N)

    @property
    def qualified(self) -> str:
        return f"{self.cls}::{self.name}"


@dataclass
class Field:
    cls: str
    name: str
    static: bool
    type: str
    readonly: bool = False  # initonly: written only by a constructor


@dataclass
class Assembly:
    classes: list[str] = field(default_factory=list)
    fields: dict[tuple[str, str], Field] = field(default_factory=dict)
    methods: dict[tuple[str, str], Method] = field(default_factory=dict)

    @property
    def entry(self) -> Method | None:
        return next((m for m in self.methods.values() if m.entry), None)


_OP = re.compile(r"^IL_([0-9a-fA-F]{4,}):\s+([a-z][a-z0-9.]*)\s*(.*?)\s*$")
_CLASS = re.compile(r"^\.class\s+(.*?)\s*$")
_NAME = re.compile(r"('(?:[^'\\]|\\.)*'|[A-Za-z_<>$`][\w<>$`.]*)\s*$")
_METHOD_SIG = re.compile(r"(?P<ret>.*?)\s*(?P<name>'(?:[^'\\]|\\.)*'|[\w<>$`.]+)\s*\((?P<params>.*)\)\s*cil\s+managed")


def unquote(name: str) -> str:
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == "'" else name


def split_params(text: str) -> list[str]:
    """A parameter list split at its top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def set_source_lines(asm: Assembly, lines: dict) -> None:
    """Give every op its C# line from ``lines`` (method token -> (IL offset, line) entries, mdb)."""
    from .mdb import line_at

    for m in asm.methods.values():
        entries = lines.get(m.token)
        if entries:
            for op in m.ops + [o for h in m.handlers for o in h.ops]:
                op.source_line = line_at(entries, op.offset)


def read_il(text: str, path: str | None = None, listing: bool = True) -> Assembly:
    """The classes, fields and methods of a monodis listing; anything unreadable is an error
    at its line (``listing``: ``path`` is the listing; else the C# file it was made from)."""
    return _Reader(text, path, listing).read()


class _Reader:
    def __init__(self, text: str, path: str | None, listing: bool = True):
        self.lines = text.splitlines()
        self.path = path
        self.listing = listing
        self.asm = Assembly()
        self.i = 0

    def error(self, message: str, line: int) -> LitmusError:
        if self.listing:
            return LitmusError(message, SourcePos(self.path, line, 1))
        return LitmusError(f"{self.path}: {message} (line {line} of monodis's listing of it)")

    def read(self) -> Assembly:
        classes: list[tuple[str, int]] = []  # the open classes and the brace depth each opened at
        depth = 0
        self.token = 0
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            s = raw.strip()
            self.i += 1
            if s.startswith("// method line "):
                self.token = 0x06000000 + int(s.split()[-1]) if s.split()[-1].isdigit() else 0
            if not s or s.startswith("//"):
                continue
            m = _CLASS.match(s)
            if m:
                name = unquote(_NAME.search(m.group(1).split(" extends ")[0]).group(1))
                outer = classes[-1][0] + "/" if classes else ""
                classes.append((outer + name, depth))
                self.asm.classes.append(outer + name)
                continue
            if s.startswith(".field") and classes:
                self._field(s, classes[-1][0])
                continue
            if s.startswith(".method") and classes:
                self._method(s, classes[-1][0])
                continue
            if s.startswith("{") or s.endswith("{"):
                depth += s.count("{") - s.count("}")
                continue
            if s.startswith("}"):
                depth -= 1
                if classes and depth == classes[-1][1]:
                    classes.pop()
        return self.asm

    def _field(self, s: str, cls: str) -> None:
        body = s.split("=")[0].split(" at ")[0].strip()
        name = unquote(_NAME.search(body).group(1))
        words = body.split()
        static = "static" in words
        mods = {"private", "public", "static", "family", "assembly", "initonly", "literal", ".field",
                "famorassem", "famandassem", "privatescope", "notserialized", "specialname", "rtspecialname"}
        type_text = " ".join(w for w in words[:-1] if w not in mods)
        self.asm.fields[(cls, name)] = Field(cls, name, static, type_text, "initonly" in words)

    def _method(self, s: str, cls: str) -> None:
        start = self.i
        header = s
        while "cil managed" not in header and "managed" not in header.split("(")[-1]:
            if self.i >= len(self.lines):
                raise self.error("a method header with no 'cil managed'", start)
            header += " " + self.lines[self.i].strip()
            self.i += 1
        m = _METHOD_SIG.search(header)
        if not m:
            raise self.error(f"cannot read the method header '{header}'", start)
        words = header.split()
        ret = m.group("ret").split()
        ret = " ".join(w for w in ret if w not in {".method", "public", "private", "static", "hidebysig",
                                                    "specialname", "rtspecialname", "instance", "default",
                                                    "virtual", "final", "newslot", "family", "assembly"})
        params = split_params(m.group("params"))
        method = Method(cls, unquote(m.group("name")), "static" in words, ret.strip(), params, line=start,
                        virtual="virtual" in words or "abstract" in words, token=self.token)
        self._body(method)
        self.asm.methods[(cls, method.name)] = method

    def _body(self, method: Method) -> None:
        # up to the method's opening brace
        while self.i < len(self.lines) and not self.lines[self.i].strip().startswith("{"):
            self.i += 1
        self.i += 1
        # ops of the method outside handlers; a stack of open regions
        stack: list[tuple[str, list[Op], int, int | None]] = []  # (kind, ops, line, try start)
        current: list[Op] = method.ops
        tries: list[tuple[int, int]] = []  # the last closed try block's offsets, per nesting level
        locals_open = False
        while self.i < len(self.lines):
            line_no = self.i + 1
            s = self.lines[self.i].strip()
            self.i += 1
            if locals_open:
                if s.endswith(")"):
                    locals_open = False
                    s = s[:-1]
                for part in s.split(","):
                    if part.strip():
                        method.locals.append(part.strip())
                continue
            if not s or s.startswith("//") or s.startswith(".maxstack") or s.startswith(".custom") \
                    or s.startswith(".param") or s.startswith("(") or s.startswith("01 "):
                continue
            if s.startswith(".entrypoint"):
                method.entry = True
                continue
            if s.startswith(".locals"):
                rest = s.split("(", 1)[1] if "(" in s else ""
                locals_open = not rest.rstrip().endswith(")")
                rest = rest.rstrip().removesuffix(")")
                method.locals.extend(p.strip() for p in split_params(rest) if p.strip())
                continue
            if s.startswith("} // end of method") or (s == "}" and not stack):
                return
            if s.startswith(".try"):
                stack.append(("try", current, line_no, len(current)))
                continue
            if s.startswith("}") and stack and stack[-1][0] == "try":
                _, outer, _, first = stack.pop()
                ops = outer[first:]  # the try block's ops: those appended since it opened
                if not ops:
                    raise self.error("an empty .try block", line_no)
                tries.append((ops[0].offset, ops[-1].offset + 1))
                current = outer
                continue
            head = s.split("{")[0].split()
            if head and head[0] in ("finally", "catch", "fault", "filter") and "{" in s:
                span = tries.pop() if tries else (0, 0)
                handler = Handler(span[0], span[1], head[0], [], line_no)
                method.handlers.append(handler)
                stack.append((head[0], current, line_no, None))
                current = handler.ops
                continue
            if s.startswith("}") and stack:
                _, outer, _, _ = stack.pop()
                current = outer
                continue
            if s.endswith("("):  # switch (IL_a, IL_b, ...) over several lines
                while not s.endswith(")") and self.i < len(self.lines):
                    s += " " + self.lines[self.i].strip()
                    self.i += 1
            m = _OP.match(s)
            if not m:
                raise self.error(f"cannot read '{s}' in {method.qualified}", line_no)
            op = Op(int(m.group(1), 16), m.group(2), m.group(3), line_no)
            current.append(op)
        raise self.error(f"the listing ends inside {method.qualified}", len(self.lines))


_FIELD_REF = re.compile(r"(\S+)::('(?:[^'\\]|\\.)*'|\S+)\s*$")
_METHOD_REF = re.compile(r"^(?P<head>.*?)\s*(?P<cls>\S+)::(?P<name>'(?:[^'\\]|\\.)*'|[^\s(]+)\s*\((?P<params>.*)\)\s*$")


def class_name(text: str) -> str:
    """``[mscorlib]System.Threading.Thread`` -> ``System.Threading.Thread``; quotes dropped."""
    text = re.sub(r"^\[[^\]]*\]", "", text.strip())
    return "/".join(unquote(p) for p in text.split("/"))


def field_ref(operand: str) -> tuple[str, str] | None:
    """(class, field) of a field operand (``int32 modreq (...) Peterson::v``)."""
    m = _FIELD_REF.search(operand)
    return (class_name(m.group(1)), unquote(m.group(2))) if m else None


@dataclass(frozen=True)
class MethodRef:
    cls: str
    name: str
    params: tuple[str, ...]
    returns: str
    instance: bool

    @property
    def qualified(self) -> str:
        return f"{self.cls}::{self.name}"


def method_ref(operand: str) -> MethodRef | None:
    """The method a call, ldftn or newobj names."""
    m = _METHOD_REF.match(operand)
    if not m:
        return None
    head = m.group("head").split()
    instance = "instance" in head
    ret = [w for w in head if w not in ("instance", "default", "explicit")]
    if ret and ret[-1] in ("class", "valuetype"):
        ret = ret[:-1]
    return MethodRef(class_name(m.group("cls")), unquote(m.group("name")), tuple(split_params(m.group("params"))),
                     " ".join(ret), instance)


def const_operand(code: str, arg: str) -> int:
    """The constant an ldc.i4 form pushes."""
    if code == "ldc.i4.m1" or code == "ldc.i4.M1":
        return -1
    if code in ("ldc.i4", "ldc.i4.s"):
        return int(arg, 0)
    return int(code.rsplit(".", 1)[1])


def index_operand(code: str, arg: str) -> int:
    """The local or argument an ldloc/stloc/ldarg/starg names (``.0``, ``.s 4``, ``V_4``)."""
    tail = code.rsplit(".", 1)[1]
    if tail.isdigit():
        return int(tail)
    arg = arg.strip()
    if arg.startswith("V_"):
        return int(arg[2:])
    return int(arg, 0)
