"""Lowering of C statements and conditions to core control flow: blocks, if, loops,
break/continue and short-circuit branches (the statement half of ``c_lower.ThreadLowering``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.program import BinOp, Nop, UnOp
from . import c_atomic, c_data
from .c_data import fold
from . import c_grammar as g

NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "gt": "le", "le": "gt"}


class Label:
    """A jump target: the index of the next instruction when placed; branches to it are fixed up at the end."""

    def __init__(self) -> None:
        self.index: int | None = None
        self.used = False


@dataclass
class Boundary:
    """A place between statements where a fence statement can be written back into the source."""

    index: int  # instruction index the inserted fence would come before
    depth: int  # block nesting depth (0 = the function body)
    offset: int  # offset in the body text: a statement's start, or a block's closing '}'
    at_end: bool  # True: the end of a block (insert before its '}')
    prev: int | None = None  # for at_end: offset of the block's last statement (for its indentation)
    wrap_end: int | None = None  # an unbraced body statement ending there: insert with braces around it


@dataclass
class _Loop:
    brk: Label
    cont: Label



class StatementLowering:
    """Statements and conditions of one thread function; ``c_lower.ThreadLowering`` adds the
    names, expressions and accesses these methods call (``emit``, ``value``, ``effect`` ...)."""

    # ---- statements -----------------------------------------------------------------------
    def _block(self, block: g.Block, depth: int) -> None:
        if depth:  # the function body shares the parameters' scope
            self._open_scope()
        prev = None
        for stmt in block.stmts:
            self.boundaries.append(Boundary(len(self.instrs), depth, stmt.at, False))
            self._stmt(stmt, depth)
            prev = stmt.at
        self.boundaries.append(Boundary(len(self.instrs), depth, block.end - 1, True, prev))
        if depth:
            self._close_scope()

    def _body(self, stmt: g.Stmt, depth: int) -> None:
        if isinstance(stmt, g.Block):
            self._block(stmt, depth + 1)
        else:
            self.boundaries.append(Boundary(len(self.instrs), depth + 1, stmt.at, False, wrap_end=stmt.end))
            self._stmt(stmt, depth + 1)

    def _stmt(self, stmt: g.Stmt, depth: int) -> None:
        if isinstance(stmt, g.Block):
            self._block(stmt, depth + 1)
            return
        if isinstance(stmt, g.Unsupported):
            raise self.unsupported(f"'{stmt.what}'" if stmt.what not in ("a label",) and " " not in stmt.what
                                   else stmt.what, stmt.at)
        if isinstance(stmt, g.Return):
            c_data.return_stmt(self, stmt)
            return
        if isinstance(stmt, (g.Decl, g.ExprStmt, g.Jump, g.Empty)):
            self.at_statement(stmt)
        if isinstance(stmt, g.Decl):
            self._decl(stmt)
        elif isinstance(stmt, g.ExprStmt):
            self.effect(stmt.expr)
        elif isinstance(stmt, g.Jump):
            if not self.loops:
                raise self.malformed(f"'{stmt.kind}' outside a loop", stmt.at)
            loop = self.loops[-1]
            self.jump(None, loop.brk if stmt.kind == "break" else loop.cont)
        elif isinstance(stmt, g.If):
            self._if(stmt, depth)
        elif isinstance(stmt, g.While):
            self._while(stmt, depth)
        elif isinstance(stmt, g.DoWhile):
            self._do(stmt, depth)
        elif isinstance(stmt, g.For):
            self._for(stmt, depth)
        elif isinstance(stmt, g.Atomic):
            c_atomic.atomic_stmt(self, stmt, depth)

    def _decl(self, stmt: g.Decl) -> None:
        for d in stmt.items:
            local = self._declare(stmt.ctype, d)
            if d.init is not None:
                self.into(local.reg, d.init)

    def _if(self, stmt: g.If, depth: int) -> None:
        jump = _single_jump(stmt.then)
        if stmt.other is None and jump is not None and self.loops:
            # `if (c) break;` is one conditional branch (no separate jump instruction)
            self.at_statement(stmt)
            loop = self.loops[-1]
            self.branch(stmt.cond, True, loop.brk if jump.kind == "break" else loop.cont)
            return
        self.at_statement(stmt, self.source(stmt.at, stmt.then.at))
        other, end = Label(), Label()
        self.branch(stmt.cond, False, other)
        self._body(stmt.then, depth)
        if stmt.other is not None:
            self.at_statement(stmt, "else")
            self.cur_pos = self.pos(self.text.index("else", stmt.then.end, stmt.other.at))  # the jump over it
            self.jump(None, end)
            self.place(other)
            self._body(stmt.other, depth)
            self.place(end)
        else:
            self.place(other)

    def _loop(self, stmt: g.Stmt, header: str, cond: g.Node | None, body: g.Stmt, depth: int,
              step: g.Node | None = None, test_first: bool = True) -> None:
        """while / for / do-while: a Nop marks the entry, the body starts right after it."""
        if self.ctx.unroll is not None:
            c_data.unrolled_loop(self, stmt, header, cond, body, depth, step, test_first)
            return
        self.at_statement(stmt, header)
        self.emit(Nop())
        top, brk = Label(), Label()
        cont = top if test_first and step is None else Label()  # `continue` in a while loop: test again
        self.place(top)
        if test_first and cond is not None:
            self.branch(cond, False, brk)
        # a `continue` jumps to the step or the test: then the end of the body is not one place
        self.loop_body(body, depth, brk, cont, step is not None or not test_first)
        if cont is not top:
            self.place(cont)
        self.at_statement(stmt, header)
        if step is not None:
            self.effect(step)
        if not test_first and cond is not None:
            self.branch(cond, True, top)
        else:
            self.jump(None, top)
        self.place(brk)

    def loop_body(self, body: g.Stmt, depth: int, brk: Label, cont: Label, continue_leaves_end: bool) -> None:
        """A loop body, its `break` going to ``brk`` and `continue` to ``cont``; when a `continue`
        jumps somewhere other than the body's end (``continue_leaves_end``) and one is used, the
        end of the body is no single place in the source, so no fence place is offered there."""
        self.loops.append(_Loop(brk, cont))
        nb = len(self.boundaries)
        self._body(body, depth)
        self.loops.pop()
        if cont.used and continue_leaves_end:
            self.boundaries[nb:] = [b for b in self.boundaries[nb:] if b.index != len(self.instrs)]

    def _while(self, stmt: g.While, depth: int) -> None:
        self._loop(stmt, self.source(stmt.at, stmt.body.at), stmt.cond, stmt.body, depth)

    def _do(self, stmt: g.DoWhile, depth: int) -> None:
        header = "do ... " + self.source(stmt.body.end, stmt.end)
        self._loop(stmt, header, stmt.cond, stmt.body, depth, test_first=False)

    def _for(self, stmt: g.For, depth: int) -> None:
        header = self.source(stmt.at, stmt.body.at)
        self.at_statement(stmt, header)
        self._open_scope()  # a declaration in the header is visible in the loop only
        if isinstance(stmt.init, g.Decl):
            self._decl(stmt.init)
        elif isinstance(stmt.init, g.ExprStmt):
            self.effect(stmt.init.expr)
        self._loop(stmt, header, stmt.cond, stmt.body, depth, step=stmt.step)
        self._close_scope()

    # ---- conditions as jumps ------------------------------------------------------------------
    def branch(self, e: g.Node, when: bool, label: Label) -> None:
        """Jump to ``label`` when ``e`` evaluates to ``when`` (C's short-circuit order)."""
        if isinstance(e, g.Unary) and e.op == "!":
            self.branch(e.arg, not when, label)
            return
        if isinstance(e, g.Binary) and e.op in ("&&", "||"):
            if (e.op == "&&") != when:  # && jumping on false, || jumping on true: either side decides
                self.branch(e.left, when, label)
                self.branch(e.right, when, label)
            else:
                skip = Label()
                self.branch(e.left, not when, skip)
                self.branch(e.right, when, label)
                self.place(skip)
            return
        v = self.value(e)
        if isinstance(v, BinOp) and v.op in NEGATED and not when:
            v = BinOp(NEGATED[v.op], v.left, v.right)
        elif not when:

            v = fold(UnOp("not", v))
        self.jump(v, label)


def _single_jump(stmt: g.Stmt) -> g.Jump | None:
    if isinstance(stmt, g.Block) and len(stmt.stmts) == 1:
        stmt = stmt.stmts[0]
    return stmt if isinstance(stmt, g.Jump) else None
