"""herd-shaped text output (Test / States / Ok / Witnesses / Condition / Observation) and --why."""

from __future__ import annotations

from ..core.condition import FinalState
from ..core.outcome import TestResult


def herd_block(result: TestResult, show_time: bool = True) -> str:
    """One result the way herd7 prints it, so users can diff against .expected files."""
    lines = [f"Test {result.test} {result.condition.kind_word}"]
    states = sorted(result.states, key=_state_sort)
    lines.append(f"States {len(states)}")
    lines.extend(s.text() for s in states)
    lines.append("Ok" if result.ok else "No")
    lines.append("Witnesses")
    positive, negative = result.positive, result.negative
    if result.condition.quantifier == "~exists":  # herd counts the executions that validate it
        positive, negative = negative, positive
    lines.append(f"Positive: {positive} Negative: {negative}")
    lines.extend(f"Flag {name}" for name in result.flags)  # herd's line for a cat `flag` that fired
    lines.append(f"Condition {result.condition.text()}")
    lines.append(f"Observation {result.test} {result.observation} {result.positive} {result.negative}")
    if show_time:
        lines.append(f"Time {result.test} {result.time:.2f}")
    return "\n".join(lines) + "\n"


def reached_no_final_state(result: TestResult) -> bool:
    """Whether no execution (axiomatic) or path (explorer) ended in a final state.

    herd prints such a test as ``States 0`` with ``No`` (exists) or ``Ok`` (forall,
    ~exists) and ``Never 0 0``: a verdict about nothing. A property of every state
    (``at=`` labels) counts the states it holds in and is never empty this way.
    """
    return not result.states and result.positive == 0 and result.negative == 0


def no_final_state_line(result: TestResult, filtered: bool = False) -> str | None:
    """One line saying why ``result`` has no final state (None when it has some).

    ``filtered``: the test has a ``filter``, which may be what excluded them.
    """
    if not reached_no_final_state(result):
        return None
    head = f"no final state: {result.test} under {result.model} reached none, so its verdict says nothing: "
    st = result.stats
    if result.engine == "explorer" and "deadlocks" in st:
        deadlocks = st["deadlocks"]
        if deadlocks:
            cause = " (a thread waiting forever: a lock never freed, an assume that never holds)"
        else:
            cause = "" if filtered else " (a loop that never exits)"
        end = ", or its filter excludes every final state" if filtered else ""
        return head + (f"{st.get('states', 0)} states explored, {deadlocks} deadlocked, "
                       f"no path finishing every thread{cause}{end}")
    passes = " and passes its filter" if filtered else ""
    return head + (f"no execution both finishes every thread and is allowed by {result.model}{passes} "
                   f"({result.candidates} complete candidates; a lock never freed, an assume that never "
                   "holds, or axioms that forbid them all)")


def _state_sort(state: FinalState):
    return tuple((str(k), _value_key(v)) for k, v in state)


def _value_key(v):
    return (0, v, "") if isinstance(v, int) else (1, 0, str(v))


def why_text(result: TestResult) -> str:
    """Why the condition's outcome is forbidden (or that it is allowed, with a witness)."""
    from ..axiomatic.explain import violation_text

    head = f"Why {result.test} under {result.model}:"
    if result.positive > 0:
        lines = [head, f"  the outcome is allowed ({result.positive} execution(s) satisfy the condition)."]
        w = result.witness
        if w is not None:
            lines.append("  a witness: " + execution_summary(w))
        return "\n".join(lines) + "\n"
    if not result.why:
        return head + "\n  no candidate execution satisfies the condition at all, whatever the model.\n"
    lines = [head, "  every execution that satisfies the condition is forbidden:"]
    for i, ex in enumerate(result.why, 1):
        lines.append(f"  execution {i} ({execution_summary(ex.execution)})")
        for v in ex.violations:
            lines.append("    " + violation_text(v, ex.execution.events))
    return "\n".join(lines) + "\n"


def execution_summary(execution) -> str:
    """``rf: iy->b, a->d; co: ix<a`` -- compact, for terminals."""
    ev = execution.events
    rf = ", ".join(f"{_name(ev[w])}->{_name(ev[r])}" for w, r in execution.rf.pairs())
    co_parts = []
    for w, w2 in execution.co.pairs():
        if not any((w, m) in execution.co and (m, w2) in execution.co for m in range(execution.n)):
            co_parts.append(f"{_name(ev[w])}<{_name(ev[w2])}")
    text = f"rf: {rf or '-'}"
    if co_parts:
        text += f"; co: {', '.join(co_parts)}"
    return text


def _name(e) -> str:
    return e.label if e.label else e.short()
