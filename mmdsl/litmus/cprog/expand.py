"""main's thread-creating loops expanded at lowering time: ``for (i = 0; i < N; i++) pthread_create(...)``
becomes N copies of the body with ``i`` a constant, so each thread's handle and argument are known."""

from __future__ import annotations

import copy

from pycparser import c_ast

from ...core.errors import UnsupportedError

MAX_COPIES = 256
THREAD_CALLS = {"pthread_create", "pthread_join"}


class _Calls(c_ast.NodeVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_FuncCall(self, node):  # noqa: N802 - pycparser's visitor naming
        if isinstance(node.name, c_ast.ID) and node.name.name in THREAD_CALLS:
            self.found = True
        self.generic_visit(node)


def _has_thread_calls(node) -> bool:
    v = _Calls()
    v.visit(node)
    return v.found


class _Subst(c_ast.NodeVisitor):
    def __init__(self, name: str, value: int):
        self.name, self.value = name, value

    def generic_visit(self, node):
        for attr in node.__slots__:
            child = getattr(node, attr, None)
            if isinstance(child, c_ast.ID) and child.name == self.name:
                setattr(node, attr, c_ast.Constant("int", str(self.value), coord=child.coord))
            elif isinstance(child, list):
                for k, item in enumerate(child):
                    if isinstance(item, c_ast.ID) and item.name == self.name:
                        child[k] = c_ast.Constant("int", str(self.value), coord=item.coord)
                    elif isinstance(item, c_ast.Node):
                        self.visit(item)
            elif isinstance(child, c_ast.Node):
                self.visit(child)


def _const(node) -> int | None:
    if isinstance(node, c_ast.Constant) and node.type == "int":
        try:
            return int(node.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        v = _const(node.expr)
        return None if v is None else -v
    if isinstance(node, c_ast.BinaryOp):
        a, b = _const(node.left), _const(node.right)
        if a is None or b is None:
            return None
        ops = {"+": a + b, "-": a - b, "*": a * b}
        return ops.get(node.op)
    return None


def _iterations(loop: c_ast.For, where) -> tuple[str, list[int]]:
    """The loop variable and its values, for a loop of constant bounds; refused otherwise."""
    init, cond, step = loop.init, loop.cond, loop.next
    name = start = None
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        name, start = init.decls[0].name, _const(init.decls[0].init)
    elif isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        name, start = init.lvalue.name, _const(init.rvalue)
    if name is None or start is None or not isinstance(cond, c_ast.BinaryOp) \
            or not (isinstance(cond.left, c_ast.ID) and cond.left.name == name) or _const(cond.right) is None:
        raise where("a loop creating or joining threads whose bounds are not constants", loop,
                    hint="write for (int i = 0; i < N; i++) with N a constant")
    bound = _const(cond.right)
    delta = None
    if isinstance(step, c_ast.UnaryOp) and isinstance(step.expr, c_ast.ID) and step.expr.name == name:
        delta = {"p++": 1, "++": 1, "p--": -1, "--": -1}.get(step.op)
    elif isinstance(step, c_ast.Assignment) and isinstance(step.lvalue, c_ast.ID) and step.lvalue.name == name:
        k = _const(step.rvalue)
        delta = None if k is None else {"+=": k, "-=": -k}.get(step.op)
    if not delta:
        raise where("a loop creating or joining threads with this step", loop, hint="i++, i--, i += c")
    test = {"<": lambda v: v < bound, "<=": lambda v: v <= bound, ">": lambda v: v > bound,
            ">=": lambda v: v >= bound, "!=": lambda v: v != bound}.get(cond.op)
    if test is None:
        raise where(f"a thread loop tested with '{cond.op}'", loop)
    values, v = [], start
    while test(v):
        values.append(v)
        if len(values) > MAX_COPIES:
            raise where(f"a loop creating or joining more than {MAX_COPIES} threads", loop)
        v += delta
    return name, values


def expand_thread_loops(body: c_ast.Compound, where) -> None:
    """Replace, in place, each loop of ``body`` that creates or joins threads by its copies."""
    items = body.block_items or []
    out = []
    for item in items:
        if isinstance(item, c_ast.For) and _has_thread_calls(item):
            name, values = _iterations(item, where)
            for v in values:
                copy_ = copy.deepcopy(item.stmt)
                if isinstance(copy_, c_ast.Compound):
                    expand_thread_loops(copy_, where)
                holder = c_ast.Compound([copy_], coord=item.coord)
                _Subst(name, v).visit(holder)
                out.append(holder.block_items[0])
        elif isinstance(item, (c_ast.While, c_ast.DoWhile)) and _has_thread_calls(item):
            raise where("a while loop creating or joining threads", item, hint="use a for loop with constant bounds")
        else:
            if isinstance(item, c_ast.Compound):
                expand_thread_loops(item, where)
            out.append(item)
    body.block_items = out


def unsupported(translator):
    def where(what: str, node, hint: str | None = None) -> UnsupportedError:
        return translator.unsupported(what, node, hint)
    return where
