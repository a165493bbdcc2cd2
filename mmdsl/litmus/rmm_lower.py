"""Lower a parsed Memorax `.rmm` program to the core program IR, with its `forbidden` property.

Memory: global `data` locations by name; a location declared in a process's `data` is
owned by that process (one copy per process of a `process(N)`) and is named
``NAME[OWNER]``; process ``p`` addresses the copy of ``owner`` as ``NAME[my]`` when
``owner = p``, ``NAME[owner]`` when ``owner < p`` and ``NAME[owner - 1]`` when
``owner > p`` (Memorax's manual, "Memory Addressing"). A pointer ``[e]`` reaches the
global locations, numbered from 0 in declaration order; any other value blocks the
process (the manual defines ``[e]`` as a choice among ``assume: e = k``).

The property: each `forbidden` tuple names one label per process (``*`` for any); the
program's condition is ``~exists`` of the disjunction over tuples of "process i is at
label l_i", keys ``("at", tid)``, checked by the explorer on every reachable state.
"""

from __future__ import annotations

from ..core.condition import And, Atom, Condition, Or
from ..core.errors import LitmusError, SourcePos, UnsupportedError
from ..core.program import (
    OLD, Assign, Assume, AtomicBegin, AtomicEnd, BinOp, Branch, Const, Fence, Load, Nop, Program, Reg, Rmw, Store,
    Thread, UnOp, atomic_block_error,
)
from .rmm_grammar import Node, ProcessDecl, RmmFile, VarDecl

FULL_FENCE = "full"  # the alias every bundled model gives its full fence
MAX_CHOICES = 64  # most initial values a '*' may stand for
_CMP = {"=": "eq", "!=": "ne", "<": "lt", ">": "gt", "<=": "le", ">=": "ge"}
_TMP = "%rd"  # the register of a `read: x = e`


def lower_rmm(tree: RmmFile, path: str | None, source: str, name: str, origin=None, marks=None) -> Program:
    """The core program of a parsed `.rmm` file (explorer only: its property is on states).

    ``origin`` maps the tree's places to the file's (a file with macros: ``rmm_macros``).
    ``marks``: for ``mmdsl check --atomicity``, the ``/* @atomic */`` blocks (``rmm_atomic``),
    lowered with their markers, blocking reads as waits and locks recognised.
    """
    low = _Lowering(tree, path, origin or (lambda at: at))
    low.marks = marks
    return low.program(source, name)


class _Lowering:
    def __init__(self, tree: RmmFile, path: str | None, origin):
        self.tree = tree
        self.marks = None  # the atomicity marks (``rmm_atomic.Marks``), under --atomicity only
        self.path = path
        self.origin = origin
        self.globals: list[str] = []
        self.init: dict[str, int] = {}
        self.domains: dict[str, tuple[int, int]] = {}  # locations with a finite domain
        self.choices: dict[str, tuple[int, ...]] = {}
        for decl in tree.data:
            if decl.name in self.init:
                raise self.error(f"location '{decl.name}' declared twice", decl.at)
            self.globals.append(decl.name)
            self._declare(decl, decl.name)
        self.procs: list[ProcessDecl] = []  # one entry per process (a process(N) counts N)
        for proc in tree.processes:
            if proc.count < 1 or proc.count > 64:
                raise self.error(f"process({proc.count}): a count from 1 to 64 is supported", proc.at)
            self.procs.extend([proc] * proc.count)
        self.label_names: list[dict[str, str]] = []  # per process: label -> name of its pc
        self.owned: dict[str, set[int]] = {}
        for pid, proc in enumerate(self.procs):
            for decl in proc.data:
                if decl.name in self.globals:
                    raise self.error(f"'{decl.name}' is both a global and a per-process location", decl.at)
                if pid in self.owned.get(decl.name, set()):
                    raise self.error(f"location '{decl.name}' declared twice in one process", decl.at)
                self.owned.setdefault(decl.name, set()).add(pid)
                self._declare(decl, f"{decl.name}[{pid}]")

    # ----- helpers ----------------------------------------------------------------
    def error(self, message: str, at, cls=LitmusError, **kw):
        return cls(message, SourcePos(self.path, *self.origin(at)), **kw)

    def _values(self, decl: VarDecl) -> tuple[int, ...]:
        if decl.value is not None:
            return (decl.value,)
        if decl.domain is None:
            raise self.error(f"'{decl.name} = *' needs a finite domain to choose its initial value from",
                             decl.at, UnsupportedError, hint=f"write '{decl.name} = * : [0:1]' or give a value")
        lo, hi = decl.domain
        if hi - lo + 1 > MAX_CHOICES:
            raise self.error(f"'{decl.name} = *' over [{lo}:{hi}]: at most {MAX_CHOICES} initial values "
                             "are supported", decl.at, UnsupportedError)
        return tuple(range(lo, hi + 1))

    def _declare(self, decl: VarDecl, loc: str) -> None:
        values = self._values(decl)
        if decl.domain is not None:
            self.domains[loc] = decl.domain
        self.init[loc] = values[0]
        if len(values) > 1:
            self.choices[loc] = values

    # ----- the program --------------------------------------------------------------
    def program(self, source: str, name: str) -> Program:
        threads = [self._thread(pid, proc) for pid, proc in enumerate(self.procs)]
        cond = Condition("~exists", self._forbidden(threads))
        prog = Program(name=name, arch="RMM", threads=threads, init=dict(self.init), condition=cond,
                       path=self.path, source=source)
        prog.init_choices = dict(self.choices)
        return prog if self.marks is None else self.marks.finish(prog)

    def _forbidden(self, threads: list[Thread]):
        tuples = []
        for tup in self.tree.forbidden:
            if len(tup) != len(threads):
                raise self.error(f"a forbidden tuple names {len(tup)} labels for {len(threads)} processes",
                                 tup[0][1], expected="one label (or '*') per process")
            atoms = []
            for tid, (label, at) in enumerate(tup):
                if label == "*":
                    continue
                names = self.label_names[tid]
                if label not in names:
                    raise self.error(f"process {tid} has no label '{label}'", at)
                atoms.append(Atom(("at", tid), names[label]))
            tuples.append(And(tuple(atoms)))
        return tuples[0] if len(tuples) == 1 else Or(tuple(tuples))

    def _thread(self, pid: int, proc: ProcessDecl) -> Thread:
        body = _Body(self, pid, {d.name: d.domain for d in proc.registers if d.domain is not None})
        for st in proc.body:
            body.lstmt(st)
        instrs = body.finish()
        reg_init: dict[str, int] = {}
        reg_choices: dict[str, tuple[int, ...]] = {}
        unset = _read_before_written(instrs)
        for decl in proc.registers:
            if decl.name in reg_init:
                raise self.error(f"register '{decl.name}' declared twice", decl.at)
            if decl.value is None and decl.name not in unset:
                reg_init[decl.name] = 0  # its first value is always written before it is read
                continue
            values = self._values(decl)
            reg_init[decl.name] = values[0]
            if len(values) > 1:
                reg_choices[decl.name] = values
        declared = {d.name for d in proc.registers}
        for ins in instrs:
            for r in _regs_of(ins):
                if not r.startswith("%") and r not in declared:
                    raise self.error(f"register '{r}' is not declared in process {pid}'s 'registers'",
                                     (ins.pos.line, ins.pos.col))
        pc_labels: dict[int, str] = {}
        for lab, i in body.labels.items():
            pc_labels.setdefault(body.canonical(i, instrs), lab)
        # a label names the pc it rests at; two labels of one pc share the first one's name
        self.label_names.append({lab: pc_labels[body.canonical(i, instrs)] for lab, i in body.labels.items()})
        return Thread(pid, f"P{pid}", instrs, reg_init, reg_choices=reg_choices, pc_labels=pc_labels)


class _Body:
    """One process's statements lowered to instructions, gotos fixed up at the end."""

    def __init__(self, low: _Lowering, pid: int, reg_domains: dict[str, tuple[int, int]]):
        self.low = low
        self.pid = pid
        self.reg_domains = reg_domains
        self.instrs: list = []
        self.labels: dict[str, int] = {}
        self.gotos: list[tuple[int, str, tuple]] = []
        self.locked = 0  # depth of 'locked { }' around the statement being lowered
        self.atomic_open: list[int] = []  # under --atomicity: the marked blocks being lowered (rmm_atomic)
        self.atomic_ranges: list = []  # and those lowered: (first, end instruction, place of the mark)

    def pos(self, at) -> SourcePos:
        return SourcePos(self.low.path, *self.low.origin(at))

    def emit(self, ins) -> int:
        self.instrs.append(ins)
        return len(self.instrs) - 1

    def within(self, expr, domain: tuple[int, int] | None, pos: SourcePos, what: str) -> list:
        """An ``Assume`` that ``expr`` lies in ``domain`` (none when it has no bound or surely does).

        Memorax's manual enables a write, an assignment, an assigning read and a cas only
        when the value stored lies in the domain of its location or register: outside, the
        process waits (here: its path is cut), as in Memorax.
        """
        if domain is None:
            return []
        lo, hi = domain
        if isinstance(expr, Const) and isinstance(expr.value, int) and lo <= expr.value <= hi:
            return []
        test = BinOp("land", BinOp("ge", expr, Const(lo)), BinOp("le", expr, Const(hi)))
        return [Assume(test, pos=pos, text=f"{what} within [{lo}:{hi}]")]

    def canonical(self, i: int, instrs: list) -> int:
        """Where a label at ``i`` rests: the explorer's pc skips no-ops."""
        while i < len(instrs) and isinstance(instrs[i], Nop):
            i += 1
        return i

    def finish(self) -> list:
        if self.low.marks is not None:
            self.low.marks.check_gotos(self)
        for k, label, at in self.gotos:
            if label not in self.labels:
                raise self.low.error(f"goto to undefined label '{label}'", at)
            old = self.instrs[k]
            self.instrs[k] = Branch(None, self.labels[label], pos=old.pos, text=old.text)
        bad = atomic_block_error(self.instrs)
        if bad is not None:
            raise UnsupportedError(f"{bad[1]} is not supported", self.instrs[bad[0]].pos)
        return self.instrs

    def lstmt(self, node: Node) -> None:
        labels, st = node.parts
        for label, at in labels:
            if label in self.labels:
                raise self.low.error(f"label '{label}' defined twice in process {self.pid}", at)
            self.labels[label] = len(self.instrs)
        self.stmt(st)

    def stmt(self, node: Node) -> None:
        kind, parts, pos = node.kind, node.parts, self.pos(node.at)
        if kind == "nop":
            self.emit(Nop(pos=pos, text="nop"))
        elif kind == "read":
            reg = parts[0]
            self.access(parts[1], lambda a: [Load(reg, a, pos=pos, text=f"read: {reg} := ...")]
                        + self.within(Reg(reg), self.reg_domains.get(reg), pos, reg), pos)
        elif kind == "read_assume" and self.low.marks is not None and not self.locked:  # waits until it reads that value
            self.access(parts[0], lambda a: self.low.marks.await_read(a, self.expr(parts[1]), pos), pos)
        elif kind == "read_assume":
            self.access(parts[0], lambda a: Load(_TMP, a, pos=pos, text="read: ... = ..."), pos)
            self.emit(Assume(BinOp("eq", Reg(_TMP), self.expr(parts[1])), pos=pos, text="read: ... = ..."))
        elif kind == "write":
            value = self.expr(parts[1])
            self.access(parts[0], lambda a: self.within(value, self.low.domains.get(a.value), pos, a.value)
                        + [Store(a, value, pos=pos, text="write: ... := ...")], pos)
        elif kind == "locked_write":  # an atomic exchange: x86's LOCK'd write (Memorax's manual)
            value = self.expr(parts[1])
            self.access(parts[0], lambda a: self.within(value, self.low.domains.get(a.value), pos, a.value)
                        + [Rmw(None, a, value, pos=pos, text="locked write: ... := ...")], pos)
        elif kind == "cas":  # Memorax's cas waits until the location holds the expected value
            expect, new = self.expr(parts[1]), self.expr(parts[2])
            self.access(parts[0], lambda a: self.within(new, self.low.domains.get(a.value), pos, a.value)
                        + [Rmw(None, a, new, BinOp("eq", Reg(OLD), expect), blocking=True,
                               pos=pos, text="cas(...)")], pos)
        elif kind == "fence":
            self.emit(Fence(FULL_FENCE, pos=pos, text="fence"))
        elif kind == "assign":
            value = self.expr(parts[1])
            for ins in self.within(value, self.reg_domains.get(parts[0]), pos, parts[0]):
                self.emit(ins)
            self.emit(Assign(parts[0], value, pos=pos, text=f"{parts[0]} := ..."))
        elif kind == "assume":
            self.emit(Assume(self.bexpr(parts[0]), pos=pos, text="assume: ..."))
        elif kind == "if":
            k = self.emit(None)
            self.lstmt(parts[1])
            if len(parts) > 2:
                j = self.emit(None)
                self.instrs[k] = Branch(UnOp("not", self.bexpr(parts[0])), len(self.instrs), pos=pos, text="if")
                self.lstmt(parts[2])
                self.instrs[j] = Branch(None, len(self.instrs), pos=pos, text="else")
            else:
                self.instrs[k] = Branch(UnOp("not", self.bexpr(parts[0])), len(self.instrs), pos=pos, text="if")
        elif kind == "while":
            top = self.emit(None)
            self.lstmt(parts[1])
            self.emit(Branch(None, top, pos=pos, text="while"))
            self.instrs[top] = Branch(UnOp("not", self.bexpr(parts[0])), len(self.instrs), pos=pos, text="while")
        elif kind == "goto":
            self.gotos.append((self.emit(Nop(pos=pos, text=f"goto {parts[0]}")), parts[0], node.at))
        elif kind == "block" and self.low.marks is not None:
            self.low.marks.block(self, node)
        elif kind == "block":
            for st in parts[0]:
                self.lstmt(st)
        elif kind == "either":  # a choice branch to each alternative but the last, which falls in
            lists = parts
            tests, ends = [], []
            for stmts in lists[:-1]:
                tests.append(self.emit(None))
            for k, stmts in enumerate(lists):
                if k > 0:
                    j = tests[k - 1]
                    self.instrs[j] = Branch(Const(1), len(self.instrs), choice=True, pos=pos, text="either")
                for st in stmts:
                    self.lstmt(st)
                if k < len(lists) - 1:
                    ends.append(self.emit(None))
            for j in ends:
                self.instrs[j] = Branch(None, len(self.instrs), pos=pos, text="either")
        elif kind == "locked_block":  # Memorax's atomic block; 'or' alternatives: one block each, chosen
            tests, ends = [self.emit(None) for _ in parts[1:]], []
            for k, stmts in enumerate(parts):
                if k > 0:
                    self.instrs[tests[k - 1]] = Branch(Const(1), len(self.instrs), choice=True, pos=pos,
                                                       text="locked or")
                begin = self.emit(None)
                self.locked += 1
                for st in stmts:
                    self.lstmt(st)
                self.locked -= 1
                end = self.emit(AtomicEnd(pos=pos, text="locked }"))
                self.instrs[begin] = AtomicBegin(end, pos=pos, text="locked {")
                if k < len(parts) - 1:
                    ends.append(self.emit(None))
            for j in ends:
                self.instrs[j] = Branch(None, len(self.instrs), pos=pos, text="locked or")
        elif kind == "syncwr":
            raise self.low.error("'syncwr:' (a synchronised write of Memorax's VIPS model) is not supported",
                                 node.at, UnsupportedError, hint="under tso and pso write 'locked write:'")
        elif kind == "vips":
            raise self.low.error(f"'{parts[0]}' (a fence or synchronised read of Memorax's VIPS-M model, "
                                 "its --vips analyses) is not supported", node.at, UnsupportedError,
                                 hint="mmdsl's models are tso, pso and the others of 'mmdsl models'; "
                                      "VIPS-M is not one of them")
        else:  # pragma: no cover - the grammar has no other statement
            raise ValueError(kind)

    # ----- memory locations -----------------------------------------------------
    def access(self, loc: Node, make, pos: SourcePos) -> None:
        """Emit ``make(address)`` (an instruction or a list of them) for a location; a pointer
        becomes a test of each global's number."""
        def put(instrs) -> None:
            for ins in instrs if isinstance(instrs, list) else [instrs]:
                self.emit(ins)

        if loc.kind != "ptr":
            put(make(Const(self.location(loc))))
            return
        target = self.expr(loc.parts[0])
        if isinstance(target, Const):
            put(make(Const(self.pointed(target.value, loc.at))))
            return
        ends = []
        for k, name in enumerate(self.low.globals):
            test = self.emit(None)
            put(make(Const(name)))
            ends.append(self.emit(None))
            self.instrs[test] = Branch(BinOp("ne", target, Const(k)), len(self.instrs), pos=pos, text="[pointer]")
        self.emit(Assume(Const(0), pos=pos, text="[pointer] outside memory"))
        for j in ends:
            self.instrs[j] = Branch(None, len(self.instrs), pos=pos, text="[pointer]")

    def pointed(self, k: int, at) -> str:
        if not 0 <= k < len(self.low.globals):
            raise self.low.error(f"pointer [{k}] is not a global location (0 to {len(self.low.globals) - 1})", at)
        return self.low.globals[k]

    def location(self, loc: Node) -> str:
        name = loc.parts[0]
        if loc.kind == "global":
            if name in self.low.globals:
                return name
            if name in self.low.owned:
                raise self.low.error(f"'{name}' is a per-process location: write {name}[my] or {name}[k]",
                                     loc.at)
            raise self.low.error(f"undeclared location '{name}'", loc.at)
        if name not in self.low.owned:
            what = "a global location: write it without an index" if name in self.low.globals else "undeclared"
            raise self.low.error(f"'{name}[...]': '{name}' is {what}", loc.at)
        spec = loc.parts[1]
        if spec == "my":
            owner = self.pid
        else:
            owner = spec if spec < self.pid else spec + 1
        if owner not in self.low.owned[name]:
            raise self.low.error(f"'{name}[{spec}]' in process {self.pid} means the copy of process {owner}, "
                                 f"which declares no '{name}'", loc.at)
        return f"{name}[{owner}]"

    # ----- expressions ------------------------------------------------------------
    def expr(self, node: Node):
        kind, parts = node.kind, node.parts
        if kind == "reg":
            return Reg(parts[0])
        if kind == "num":
            return Const(parts[0])
        if kind == "neg":
            inner = self.expr(parts[0])
            return Const(-inner.value) if isinstance(inner, Const) else UnOp("neg", inner)
        if kind in ("add", "sub"):
            return BinOp(kind, self.expr(parts[0]), self.expr(parts[1]))
        if kind == "refused":
            raise self.low.error(f"'{' '.join(str(p) for p in parts)}' (Memorax's process-relative values) "
                                 "is not supported", node.at, UnsupportedError)
        raise ValueError(kind)  # pragma: no cover

    def bexpr(self, node: Node):
        kind, parts = node.kind, node.parts
        if kind == "true":
            return Const(1)
        if kind == "false":
            return Const(0)
        if kind == "not":
            return UnOp("not", self.bexpr(parts[0]))
        if kind in ("and", "or"):
            out = self.bexpr(parts[0])
            for p in parts[1:]:
                out = BinOp("land" if kind == "and" else "lor", out, self.bexpr(p))
            return out
        if kind == "cmp":
            return BinOp(_CMP[parts[0]], self.expr(parts[1]), self.expr(parts[2]))
        raise ValueError(kind)  # pragma: no cover


def _regs_of(ins) -> set[str]:
    out: set[str] = set()
    for attr in ("addr", "value", "new", "expr", "cond"):
        e = getattr(ins, attr, None)
        if e is not None:
            out |= e.regs()
    dst = getattr(ins, "dst", None)
    if dst:
        out.add(dst)
    return out - {OLD}


def _read_before_written(instrs: list) -> set[str]:
    """Registers some path reads before writing (their initial value matters)."""
    n = len(instrs)
    unset: list[set[str] | None] = [None] * (n + 1)
    every = set().union(*(_regs_of(i) for i in instrs)) if instrs else set()
    unset[0] = set(every)
    work = [0]
    out: set[str] = set()
    while work:
        pc = work.pop()
        if pc >= n:
            continue
        ins, here = instrs[pc], unset[pc]
        read = set()
        for attr in ("addr", "value", "new", "expr", "cond"):
            e = getattr(ins, attr, None)
            if e is not None:
                read |= e.regs()
        out |= read & here
        after = here - {getattr(ins, "dst", None)}
        succ = []
        if isinstance(ins, Branch):
            succ.append(ins.target)
            if ins.cond is not None:
                succ.append(pc + 1)
        else:
            succ.append(pc + 1)
        for s in succ:
            old = unset[s]
            new = after if old is None else old | after
            if old is None or new != old:
                unset[s] = new
                work.append(s)
    return out
