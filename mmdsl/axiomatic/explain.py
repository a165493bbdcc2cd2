"""Why an execution is forbidden: the violated axiom, a witnessing cycle, and each edge's relation."""

from __future__ import annotations

from ..core.events import Event
from ..core.outcome import Violation
from ..lang.evaluate import Dynamic, Prepared, witness_of
from ..lang.ir import Axiom, Expr


def _parts(expr: Expr, lets: list, depth: int = 0) -> list[Expr]:
    """The top-level union members of an expression, unfolding let-bound unions (of ``lets``).

    Through ``R \\ S`` (its pairs are R's) and ``L? ; R ; M?`` (R's pairs are among its
    pairs) the members of R are named, so a cycle of RVWMO's global order
    (``amo-pair? ; ((co | rfe | fr | rvppo) \\ ...) ; amo-pair?``) names the ppo rule of each
    edge (``r4``, ``r9`` ...), not the whole order.
    """
    if expr.op == "union":
        out = []
        for a in expr.args:
            out.extend(_parts(a, lets, depth))
        return out
    if expr.op == "diff":
        return _parts(expr.args[0], lets, depth)
    if expr.op == "seq":
        inner = [a for a in expr.args if a.op != "opt"]
        if len(inner) == 1:
            return _parts(inner[0], lets, depth)
    if expr.op == "name" and depth < 3:
        for k in range(len(lets) - 1, -1, -1):
            group = lets[k]
            for b in group.bindings:
                if b.name == expr.name and not group.recursive and b.expr.op in ("union", "name", "diff", "seq"):
                    found = _parts(b.expr, lets[:k], depth + 1)
                    return found if len(found) > 1 else [expr]
    return [expr]


def edge_names(prepared: Prepared, ax: Axiom, d: Dynamic, cycle: list[int]) -> list[str]:
    """For each edge of the cycle (a -> next), the first union member that contains it."""
    lets = prepared.model.lets
    parts = _parts(ax.expr, lets if ax.scope is None else lets[:ax.scope])
    env, _ = prepared.scope_of(ax)
    values = [(str(p), prepared.value(prepared._compile(p, env), d)) for p in parts]
    names = []
    for i, a in enumerate(cycle):
        b = cycle[(i + 1) % len(cycle)]
        label = ax.name
        for text, v in values:
            if not isinstance(v, int) and (a, b) in v:
                label = text
                break
        names.append(label)
    return names


def explain(prepared: Prepared, d: Dynamic) -> list[Violation]:
    """Every axiom the candidate violates, each with a shortest witnessing cycle."""
    out = []
    for ax, value in prepared.failures(d):
        cyc = witness_of(ax, value)
        edges = edge_names(prepared, ax, d, cyc) if ax.test == "acyclic" and cyc else []
        out.append(Violation(ax.name, ax.test, cyc, edges))
    return out


def violation_text(v: Violation, events: list[Event]) -> str:
    """``tso: acyclic: a:Wx=1 -ppo-> b:Ry=0 -fr-> c:Wy=1 -ppo-> d:Rx=0 -fr-> a``."""
    if not v.cycle:
        return f"{v.axiom}: {v.test} fails"
    if v.test == "acyclic":
        parts = []
        for i, e in enumerate(v.cycle):
            parts.append(_ev(events[e]))
            parts.append(f"-{v.edges[i] if i < len(v.edges) else '?'}->")
        parts.append(events[v.cycle[0]].label or _ev(events[v.cycle[0]]))
        return f"{v.axiom} ({v.test}): cycle " + " ".join(parts)
    return f"{v.axiom} ({v.test}): fails at " + ", ".join(_ev(events[e]) for e in v.cycle)


def _ev(e: Event) -> str:
    return f"{e.label}:{e.short()}" if e.label else e.short()
