"""Symbolic values of a thread's registers: read variables, simplification, evaluation."""

from __future__ import annotations

from ..core.program import BinOp, Const, Reg, UnOp, Value, apply_op, apply_unop

# A symbolic value is a concrete Value (int or str), or a tuple:
#   ("v", k)           the value of the thread's k-th read
#   ("op", op, a, b)   a binary operation
#   ("un", op, a)      a unary operation


def is_concrete(s) -> bool:
    return not isinstance(s, tuple)


def variables(s) -> set[int]:
    if not isinstance(s, tuple):
        return set()
    if s[0] == "v":
        return {s[1]}
    if s[0] == "op":
        return variables(s[2]) | variables(s[3])
    return variables(s[2])


def simplify_op(op: str, a, b):
    """Combine two symbolic values, folding constants and diy's fake dependencies."""
    if is_concrete(a) and is_concrete(b):
        return apply_op(op, a, b)
    if a == b and op in ("xor", "sub"):
        return 0
    if a == b and op in ("eq", "le", "ge"):
        return 1
    if a == b and op in ("ne", "lt", "gt"):
        return 0
    if op in ("and", "mul", "land") and (a == 0 or b == 0):
        return 0
    if op in ("add", "or", "xor") and b == 0:
        return a
    if op in ("add", "or", "xor") and a == 0:
        return b
    return ("op", op, a, b)


def symbolic_eval(e, regs: dict, pins: dict):
    """Evaluate a core expression with symbolic registers; pinned read variables are substituted."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Reg):
        v = regs.get(e.name, 0)
        return substitute(v, pins) if pins and isinstance(v, tuple) else v
    if isinstance(e, BinOp):
        return simplify_op(e.op, symbolic_eval(e.left, regs, pins), symbolic_eval(e.right, regs, pins))
    if isinstance(e, UnOp):
        a = symbolic_eval(e.arg, regs, pins)
        return apply_unop(e.op, a) if is_concrete(a) else ("un", e.op, a)
    raise TypeError(e)


def substitute(s, pins: dict):
    if not isinstance(s, tuple):
        return s
    if s[0] == "v":
        return pins.get(s[1], s)
    if s[0] == "op":
        return simplify_op(s[1], substitute(s[2], pins), substitute(s[3], pins))
    a = substitute(s[2], pins)
    return apply_unop(s[1], a) if is_concrete(a) else ("un", s[1], a)


def value_of(s, env) -> Value:
    """Evaluate a symbolic value given the value of every read variable (env[k])."""
    if not isinstance(s, tuple):
        return s
    if s[0] == "v":
        return env[s[1]]
    if s[0] == "op":
        return apply_op(s[1], value_of(s[2], env), value_of(s[3], env))
    return apply_unop(s[1], value_of(s[2], env))


def taint(e, taints: dict) -> int:
    """The reads (bitmask of read indices) a core expression depends on."""
    m = 0
    for r in e.regs():
        m |= taints.get(r, 0)
    return m
