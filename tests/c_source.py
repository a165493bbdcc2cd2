"""Building small C litmus tests in the tests of the C dialect."""

from __future__ import annotations

from mmdsl.core.program import Instr, Program
from mmdsl.litmus import parse_litmus


def c_test(body: str, cond: str = "exists (x=0)", init: str = "", name: str = "t") -> str:
    return f"C {name}\n{{ {init} }}\n{body}\n{cond}\n"


def lower(body: str, cond: str = "exists (x=0)", init: str = "") -> Program:
    return parse_litmus(c_test(body, cond, init), "t.litmus")


def shape(ins: Instr) -> tuple:
    """An instruction without its position, text and herd-reading mark (Rmw.one_event, which
    == leaves out too), for comparing with hand-written IR."""
    return (type(ins).__name__, *(v for k, v in ins.__dict__.items() if k not in ("pos", "text", "one_event")))
