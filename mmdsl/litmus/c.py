"""herd's C litmus dialect: thread functions ``P0(int *x) { ... }`` lowered to the core program, and back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pyparsing as pp

from ..core.errors import LitmusError, SourcePos, UnsupportedError
from ..core.program import Program
from . import c_grammar as g
from .c_data import ERR_REG, MAX_UNROLL, build_context
from .c_grammar import grammar
from .c_lower import ThreadLowering
from .c_statements import Boundary
from .finals import fatal_message, parse_final, parse_init
from .layout import Layout

_PROC = re.compile(r"P([0-9]+)")

# fence kinds (a model's fence names and their usual aliases) and how C spells them
FENCE_STATEMENTS = {
    "mb": "smp_mb();", "full": "smp_mb();", "mfence": "smp_mb();", "membar": "smp_mb();", "sync": "smp_mb();",
    "MemoryBarrier": "MemoryBarrier();",
    "rmb": "smp_rmb();", "ll": "smp_rmb();", "lfence": "smp_rmb();",
    "wmb": "smp_wmb();", "ss": "smp_wmb();", "stbar": "smp_wmb();", "sfence": "smp_wmb();",
    "sl": "store_load_fence();", "ls": "load_store_fence();",  # no Linux macro orders just these pairs
}


@dataclass
class CSourceMap:
    """What the writer needs to put statements back into the source: per thread, the statement boundaries."""

    body_offset: int
    boundaries: list[list[Boundary]]
    functions: list[str]
    # the functions inlined at their calls: (name, start, end) of each definition in the body text; a
    # fence written in one runs at every call (c_writer.shared_fence_notes says where)
    inlined: list[tuple[str, int, int]] = field(default_factory=list)
    unrolled: list[tuple[int, int]] = field(default_factory=list)  # (start, end) of each loop copied by unroll=N
    unroll: int | None = None
    unroll_pos: SourcePos | None = None  # where the header says unroll=N (a state limit points there)


def _identity(name: str) -> str:
    return name


class CDialect:
    name = "C"
    archs = ("C",)

    def norm_reg(self, name: str) -> str:
        return name

    def lower(self, layout: Layout) -> Program:
        body = layout.body
        try:
            functions = grammar().parse_string(body.text, parse_all=True)
        except pp.ParseBaseException as err:
            raise _syntax_error(layout, err) from None
        if not functions:
            raise LitmusError("no thread functions", layout.pos(body.offset + len(body.text)),
                              expected="'P0(int *x) { ... }'")

        def pos(at: int):
            return layout.pos(body.offset + at)

        ctx = build_context(list(functions), pos, _unroll(layout))
        functions = [f for f in functions if isinstance(f, g.Function) and f.name not in ctx.functions]
        if not functions:
            raise LitmusError("no thread functions", layout.pos(body.offset + len(body.text)),
                              expected="'P0(int *x) { ... }'")
        threads, boundaries, locals_, faults = [], [], [], []
        for tid, fn in enumerate(functions):
            m = _PROC.fullmatch(fn.name)
            if not m:
                raise UnsupportedError(f"function '{fn.name}' is not supported in the C dialect", pos(fn.at),
                                       hint=f"only the thread functions P0, P1, ... (this one would be P{tid})")
            if int(m.group(1)) != tid:
                raise LitmusError(f"thread function {tid} is named '{fn.name}'", pos(fn.at), expected=f"'P{tid}'")
            code = ThreadLowering(fn, tid, body.text, pos, ctx).lower()
            faults.append(code.faults)
            threads.append(code.thread)
            boundaries.append(code.boundaries)
            locals_.append(code.locals)
        mem_init, reg_init = parse_init(layout, _identity)
        mem_init = {**ctx.init, **mem_init}  # the init block may set what the top level declares
        for (t, r), v in reg_init.items():
            if t >= len(threads):
                raise LitmusError(f"init gives register {r} to thread {t}, and there are {len(threads)} threads",
                                  layout.pos(layout.init.offset))
            threads[t].reg_init[r] = v
        condition, observed, filt = parse_final(layout, _identity)
        for key in [*condition.keys(), *observed]:
            if key[0] != "reg":
                continue
            tid, reg = key[1], key[2]
            if tid >= len(threads):
                raise LitmusError(f"the condition names {tid}:{reg}, and there are {len(threads)} threads",
                                  layout.pos(layout.final.offset))
            if reg not in locals_[tid] and reg not in threads[tid].reg_init:
                raise LitmusError(f"the condition names {tid}:{reg}, and P{tid} has no local '{reg}'",
                                  layout.pos(layout.final.offset),
                                  expected=f"a local of P{tid}: {', '.join(sorted(locals_[tid])) or 'none'}")
        observed = list(observed) + [("reg", t, ERR_REG) for t, f in enumerate(faults)
                                     if f and ("reg", t, ERR_REG) not in observed]
        inlined = [(f.name, f.at, f.body.end) for f in ctx.functions.values()]
        return Program(
            name=layout.name, arch=layout.arch, threads=threads, init=mem_init, condition=condition,
            path=layout.path, doc=layout.doc, info=layout.info, observed=observed, filter=filt,
            source=layout.original, layout=CSourceMap(body.offset, boundaries, [f.name for f in functions], inlined,
                                                  sorted(ctx.unrolled), ctx.unroll, _unroll_pos(layout)),
        )

    def fence_text(self, kind: str) -> str:
        text = FENCE_STATEMENTS.get(kind)
        if text is None:
            raise UnsupportedError(f"the C dialect cannot spell a fence of kind '{kind}'",
                                   hint="C fences: " + ", ".join(sorted(FENCE_STATEMENTS)))
        return text

    def write_with_fences(self, program: Program, insertions) -> str:
        from .c_writer import write_with_fences

        return write_with_fences(self, program, insertions)

    def shared_fence_notes(self, program: Program, insertions) -> list[str]:
        from .c_writer import shared_fence_notes

        return shared_fence_notes(self, program, insertions)

    def fence_points(self, program: Program, tid: int) -> list[int]:
        """The instruction indices of thread ``tid`` before which ``write_with_fences`` can write a fence."""
        smap = program.layout
        if not isinstance(smap, CSourceMap):
            raise UnsupportedError(f"test '{program.name}' was not read from C source")
        return sorted({b.index for b in smap.boundaries[tid]})


def _unroll(layout: Layout) -> int | None:
    """The header's ``unroll=N``: every loop is unrolled N times (None: loops stay loops)."""
    text = layout.info.get("unroll")
    if text is None:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_UNROLL:
        raise LitmusError(f"unroll={text}", layout.pos(layout.source.find("unroll")),
                          expected=f"a number of iterations from 1 to {MAX_UNROLL}")
    return int(text)


def _unroll_pos(layout: Layout) -> SourcePos | None:
    at = layout.source.find("unroll=")
    return layout.pos(at) if at >= 0 and "unroll" in layout.info else None


def _syntax_error(layout: Layout, err: pp.ParseBaseException) -> LitmusError:
    text = layout.body.text
    if fatal_message(err):
        return LitmusError(fatal_message(err), layout.pos(layout.body.offset + err.loc))
    found = text[err.loc:err.loc + 20].split("\n")[0].strip() or "end of input"
    expected = err.msg[len("Expected "):] if err.msg.startswith("Expected ") else err.msg
    expected = re.sub(r", found .*$", "", expected)
    if len(expected) > 80:  # an unnamed compound element: say what the dialect wants instead
        expected = "a C statement of the supported subset (see docs/litmus-c.md)"
    return LitmusError(f"malformed C code at '{found}'", layout.pos(layout.body.offset + err.loc), expected=expected)


DIALECT = CDialect()
