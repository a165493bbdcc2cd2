"""A whole C program read and lowered: main is thread 0, each pthread_create starts one more thread."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ...core.condition import Atom, Condition, Or, Truth
from ...core.errors import LitmusError, UnsupportedError
from ...core.program import Program, element_location
from .. import c_grammar as g
from ..c_data import ERR_REG, MAX_POOL, MAX_UNROLL, build_context
from .atomic_blocks import find_blocks
from .expand import expand_thread_loops, unsupported
from .memory import uninitialised_pools
from .lower import ASSERT_REG, ProgramLowering, Shared
from .preprocess import preprocess
from .translate import KEPT_TYPEDEFS, Translator

MAX_ARRAY = 256  # elements of one global array
MAX_THREADS = 96


@dataclass
class CProgram:
    """The lowered program and what the checker reports with: assertions, unroll bound, threads."""

    program: Program
    asserts: dict = field(default_factory=dict)  # number -> (pos, text, function)
    unroll: int | None = None
    functions: list[str] = field(default_factory=list)  # per thread id: the C function it runs
    atomic_blocks: list = field(default_factory=list)  # AtomicBlock per ATOMIC_BEGIN, by number
    assert_reg: str = ASSERT_REG  # each thread's register holding the number of the assertion that failed
    final: list = field(default_factory=list)  # (proposition, number): assertions judged on final states
    pools: dict = field(default_factory=dict)  # struct -> nodes of its malloc pool (the bound)


def load_c_program(path: str, unroll: int | None = None, nondet: tuple[int, ...] = (0, 1),
                   defines: dict[str, str] | None = None) -> CProgram:
    """Read, preprocess, parse and lower the C program at ``path`` (loops unrolled ``unroll`` times;
    ``defines``: macros given to the preprocessor, like ``-DN=4``)."""
    from pycparser import c_ast, c_parser
    from pycparser.c_parser import ParseError

    if unroll is not None and not 1 <= unroll <= MAX_UNROLL:
        raise LitmusError(f"--unroll {unroll}", None, expected=f"a number of iterations from 1 to {MAX_UNROLL}")
    pre = preprocess(path, defines)
    parser = c_parser.CParser()
    try:
        ast = parser.parse(pre.text, filename=path)
    except ParseError as err:
        raise _parse_error(pre, err, _next_token(parser)) from None
    except RecursionError:
        raise UnsupportedError("the program nests expressions or statements too deeply", None) from None
    tr = Translator(pre)
    mains = [e for e in ast.ext if isinstance(e, c_ast.FuncDef) and e.decl.name == "main"]
    if not mains:
        raise LitmusError(f"{path}: no function 'main'", pre.pos(len(pre.text)), expected="int main(void) { ... }")
    expand_thread_loops(mains[0].body, unsupported(tr))
    items = tr.file(ast)
    shared = Shared(nondet=tuple(nondet))
    items = _globals(items, shared, pre)
    pools = _pools(items, pre.text, unroll)
    items += pools
    ctx = build_context(items, pre.pos, unroll, int_pointers=True)
    shared.malloc_pools = {p.decl.items[0].name for p in pools}
    uninitialised_pools(ctx, shared.malloc_pools)
    functions = {f.name: f for f in items if isinstance(f, g.Function)}
    shared.atomic_blocks = find_blocks(functions, pre.pos)
    main = _drop_handles(functions["main"])
    threads = [ProgramLowering(main, 0, pre.text, pre.pos, ctx, shared, None).lower()]
    names = ["main"]
    k = 0
    while k < len(shared.spawns):  # threads are created by main only: its lowering listed them
        spawn = shared.spawns[k]
        if len(threads) > MAX_THREADS:
            raise UnsupportedError(f"more than {MAX_THREADS} threads", spawn.pos)
        fn = _drop_handles(functions[spawn.function])
        threads.append(ProgramLowering(fn, spawn.tid, pre.text, pre.pos, ctx, shared, spawn).lower())
        names.append(spawn.function)
        k += 1
    init = dict(ctx.init)
    for s in shared.spawns:
        init[f"__start{s.tid}"] = 0
        init[f"__done{s.tid}"] = 0
        if s.arg is None:
            init[f"__arg{s.tid}"] = 0
    observed = [("reg", t.tid, ASSERT_REG) for t in threads] + [("reg", t.tid, ERR_REG) for t in threads]
    atoms = tuple(Atom(("reg", t.tid, ASSERT_REG), 0, negated=True) for t in threads)
    prop = Or(atoms) if atoms else Truth(False)
    name = re.sub(r"\.c$", "", os.path.basename(path))
    program = Program(name=name, arch="C", threads=threads, init=init, condition=Condition("~exists", prop),
                      path=path, observed=observed, source=pre.text,
                      info={"unroll": str(unroll)} if unroll else {})
    blocks = sorted(shared.atomic_blocks.values(), key=lambda b: b.number)
    pools = {p.struct: p.used for p in ctx.pools.values() if p.name in shared.malloc_pools}
    return CProgram(program, dict(shared.asserts), unroll, names, blocks, pools=pools)


def _next_token(parser):
    """The token pycparser stopped at (its recursive-descent parser keeps one), or None."""
    try:
        tok = parser._peek()
    except Exception:  # noqa: BLE001 - another pycparser version: the message alone
        return None
    return tok if tok is not None and hasattr(tok, "lineno") and hasattr(tok, "column") else None


def _parse_error(pre, err, last_token=None) -> LitmusError:
    m = re.match(r"^(.*?):(\d+):(\d+):\s*(.*)$", str(err))
    if not m:
        if last_token is None:
            return LitmusError(f"C syntax error: {err}", None)
        at = pre.offset(last_token.lineno, last_token.column)  # no place in the message: the token it stopped at
        found = pre.text[at:at + 20].split("\n")[0].strip() or "end of input"
        return LitmusError(f"C syntax error at '{found}' ({str(err).split(': ')[-1]})", pre.pos(at),
                           expected="a C expression")
    at = pre.offset(int(m.group(2)), int(m.group(3)))
    found = pre.text[at:at + 20].split("\n")[0].strip() or "end of input"
    return LitmusError(f"C syntax error at '{found}'", pre.pos(at), expected="a C statement or declaration")


def _globals(items: list, shared: Shared, pre) -> list:
    """Take int arrays and thread handles out of the top level; note each scalar's qualifiers."""
    out = []
    for item in items:
        if not isinstance(item, g.GlobalDecl):
            out.append(item)
            continue
        ctype, d = item.decl.ctype, item.decl.items[0]
        if ctype.words[:1] == ("pthread_t",):
            continue
        if d.array and ctype.words[:1] != ("struct",):
            if d.stars:
                raise UnsupportedError(f"an array of pointers ('{d.name}') is not supported in C programs",
                                       pre.pos(d.at))
            if not isinstance(d.size, g.Num) or not 1 <= d.size.value <= MAX_ARRAY:
                raise UnsupportedError(f"array '{d.name}' needs a constant size from 1 to {MAX_ARRAY}",
                                       pre.pos(d.at))
            shared.arrays[d.name] = (d.size.value, ctype.volatile, ctype.atomic)
            init_value = 0
            out.append(("array", d.name, d.size.value, init_value))
            continue
        if not d.array and not d.stars and ctype.words[:1] != ("struct",):
            shared.flags[d.name] = (ctype.volatile, ctype.atomic)
        out.append(item)
    # arrays become initialised locations
    result = []
    for item in out:
        if isinstance(item, tuple) and item[0] == "array":
            _, name, size, v = item
            for i in range(size):
                result.append(g.GlobalDecl(0, g.Decl(0, g.CType(("int",), False, False),
                                                     [g.Declarator(0, element_location(name, i), 0, False,
                                                                   False, g.Num(0, v))])))
            continue
        result.append(item)
    return result


def _pools(items: list, text: str, unroll: int | None) -> list:
    """A node pool for each struct the program mallocs and declares no pool of."""
    declared = {i.decl.ctype.words[1] for i in items if isinstance(i, g.GlobalDecl)
                and i.decl.ctype.words[:1] == ("struct",) and i.decl.items[0].array}
    out = []
    for s in dict.fromkeys(re.findall(r"malloc\s*\(\s*sizeof\s*\(\s*struct\s+(\w+)\s*\)", text)):
        if s in declared:
            continue
        sites = len(re.findall(rf"malloc\s*\(\s*sizeof\s*\(\s*struct\s+{s}\s*\)", text))
        size = min(MAX_POOL, sites * (unroll or 1) * (1 + text.count("pthread_create")))
        out.append(g.GlobalDecl(0, g.Decl(0, g.CType(("struct", s), False, False),
                                          [g.Declarator(0, f"{s}_pool", 0, False, True, None, g.Num(0, size))])))
    return out


def _drop_handles(fn: g.Function) -> g.Function:
    """Declarations of thread handles (pthread_t) are names for create/join, not variables."""
    def strip(block: g.Block) -> None:
        for k, st in enumerate(block.stmts):
            if isinstance(st, g.Decl) and st.ctype.words[:1] and st.ctype.words[0] in KEPT_TYPEDEFS:
                block.stmts[k] = g.Empty(st.at, end=st.end)
            elif isinstance(st, g.Block):
                strip(st)
    strip(fn.body)
    return fn
