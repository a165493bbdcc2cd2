"""Register values that wait for pending reads: compiled expressions, partial evaluation, substitution.

A value is concrete (an ``int`` or a location name) or *deferred*: a small tuple tree
over placeholders. ``("?", p)`` stands for the value the pending operation at position
``p`` of the thread's pending list will read; ``("o",)`` for the value an
read-modify-write reads (``%old``); ``("b", op, l, r)`` and ``("u", op, a)`` combine
them. Expressions of the program are compiled once to ``("c", v)``, ``("r", index)``,
``("o",)``, ``("b", ...)``, ``("u", ...)`` over register indices.
"""

from __future__ import annotations

from ....core.program import EXTENSIONS, OLD, BinOp, Const, Expr, Reg, UnOp, apply_op, apply_unop

OLD_VALUE = ("o",)


def compile_expr(e: Expr, reg_index: dict[str, int]):
    """The program expression ``e`` with registers replaced by their indices."""
    if isinstance(e, Const):
        return ("c", e.value)
    if isinstance(e, Reg):
        if e.name == OLD:
            return OLD_VALUE
        return ("r", reg_index[e.name])
    if isinstance(e, BinOp):
        return ("b", e.op, compile_expr(e.left, reg_index), compile_expr(e.right, reg_index))
    if isinstance(e, UnOp):
        return ("u", e.op, compile_expr(e.arg, reg_index))
    raise TypeError(e)


def is_deferred(v) -> bool:
    return isinstance(v, tuple)


def evaluate(code, regs: tuple):
    """Evaluate compiled code over register values; deferred where an input is deferred."""
    tag = code[0]
    if tag == "c":
        return code[1]
    if tag == "r":
        return regs[code[1]]
    if tag == "o":
        return OLD_VALUE
    if tag == "b":
        return combine(code[1], evaluate(code[2], regs), evaluate(code[3], regs))
    return combine_unary(code[1], evaluate(code[2], regs))


def combine(op: str, a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return ("b", op, a, b)
    if op == AFTER:
        return b
    return apply_op(op, a, b)


AFTER = "after"  # ("b", AFTER, d, v): the value v, known once d is (a dependency without arithmetic)


def after(deps, value):
    """``value``, deferred until every value of ``deps`` is known (those that wait for reads)."""
    for d in deps:
        if isinstance(d, tuple) and waits_for_reads(d):
            value = ("b", AFTER, d, value)
    return value


def combine_unary(op: str, a):
    if isinstance(a, tuple):
        return ("u", op, a)
    return apply_unop(op, a)


def resolve(v, pos: int, value, removed: bool):
    """Replace placeholder ``pos`` by ``value``; when the operation is ``removed``, shift later ones down."""
    if not isinstance(v, tuple):
        return v
    tag = v[0]
    if tag == "?":
        p = v[1]
        if p == pos:
            return value
        if removed and p > pos:
            return ("?", p - 1)
        return v
    if tag == "o":
        return v
    if tag == "b":
        return combine(v[1], resolve(v[2], pos, value, removed), resolve(v[3], pos, value, removed))
    return combine_unary(v[1], resolve(v[2], pos, value, removed))


def with_old(v, old):
    """Replace ``%old`` (the value a read-modify-write read) by ``old``."""
    if not isinstance(v, tuple):
        return v
    tag = v[0]
    if tag == "o":
        return old
    if tag == "?":
        return v
    if tag == "b":
        return combine(v[1], with_old(v[2], old), with_old(v[3], old))
    return combine_unary(v[1], with_old(v[2], old))


def rmw_check(new, cond, old, guess):
    """What a read-modify-write performed on ``guess`` (its comparison's outcome, the value
    written or None) needs to prove true once the reads it waits for are performed."""
    ok, value = guess
    check = 1
    if cond is not None:
        c = with_old(cond, old)
        if is_deferred(c):
            check = c if ok else combine("eq", c, 0)
    if value is not None:
        eq = combine("eq", with_old(new, old), value)
        check = eq if check == 1 else combine("land", check, eq)
    return check


def waits_for_reads(v) -> bool:
    """Does ``v`` still wait for a pending read (not counting ``%old``)?"""
    if not isinstance(v, tuple):
        return False
    tag = v[0]
    if tag == "?":
        return True
    if tag == "o":
        return False
    if tag == "b":
        return waits_for_reads(v[2]) or waits_for_reads(v[3])
    return waits_for_reads(v[2])


def placeholders(v) -> list[int]:
    """The pending-list positions of the reads ``v`` waits for."""
    out: list[int] = []
    stack = [v]
    while stack:
        x = stack.pop()
        if x.__class__ is not tuple:
            continue
        tag = x[0]
        if tag == "?":
            out.append(x[1])
        elif tag == "b":
            stack.append(x[2])
            stack.append(x[3])
        elif tag == "u":
            stack.append(x[2])
    return out


def deferred_text(v, names: dict[int, str] | None = None) -> str:
    """``(r0 ^ r0)``-style text of a value; placeholders by the read they wait for."""
    if not isinstance(v, tuple):
        return str(v)
    tag = v[0]
    if tag == "?":
        return (names or {}).get(v[1], f"?{v[1]}")
    if tag == "o":
        return "old"
    if tag == "b":
        return f"({deferred_text(v[2], names)} {_SYM.get(v[1], v[1])} {deferred_text(v[3], names)})"
    if v[1] in EXTENSIONS:
        return f"{v[1]}({deferred_text(v[2], names)})"
    return f"{'!' if v[1] == 'not' else '-'}{deferred_text(v[2], names)}"


_SYM = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "div0": "/", "rem0": "%", "divrv": "/",
    "remrv": "%", "xor": "^", "and": "&", "or": "|", "after": "then", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "land": "&&", "lor": "||",
    "ult": "<u", "ugt": ">u",
}
