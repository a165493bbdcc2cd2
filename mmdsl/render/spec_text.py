"""Text and JSON of a ``--spec serial`` check, in herd's shape (a block per test and model)."""

from __future__ import annotations

from ..core.condition import key_text


def spec_text(res, trace: bool = True) -> str:
    """``Test NAME Serial``, the serial observations, the model's, those not serial, the verdict."""
    keys = " ".join(key_text(k) for k in res.serial.keys)
    lines = [f"Test {res.test} Serial",
             f"Observed {keys}",
             f"Serial {len(res.serial.states)}"]
    lines += [s.text() for s in sorted(res.serial.states)]
    states = sorted(res.result.states)
    lines.append(f"States {len(states)}")
    extra = set(res.extra)
    lines += [s.text() + (" (not serial)" if s in extra else "") for s in states]
    lines.append(res.verdict)
    if res.extra:
        lines.append("Counterexample " + res.extra[0].text())
    bound = res.bound_reached
    if bound:
        lines.append(f"Unwinding bound reached (unroll={res.unroll}) in {len(bound)} observation(s): "
                     "raise unroll to decide them")
    lines.append(f"Observation {res.test} {res.verdict} {len(res.extra)} {len(states) - len(res.extra)}")
    lines.append(f"Time {res.test} {res.time:.2f}")
    text = "\n".join(lines) + "\n"
    if trace and res.trace:
        from .explore_text import trace_text

        late = sum(1 for s in res.trace if s.out_of_order)
        text += (f"Trace to the counterexample (shortest, {len(res.trace)} steps, {late} performed out of order, "
                 "marked *):\n" + trace_text(res.trace, res.trace_final))
    return text


def spec_dict(res) -> dict:
    return {
        "test": res.test, "model": res.model, "engine": res.engine, "path": res.path, "spec": "serial",
        "verdict": res.verdict,
        "keys": [key_text(k) for k in res.serial.keys],
        "serial": [s.text() for s in sorted(res.serial.states)],
        "states": [s.text() for s in sorted(res.result.states)],
        "not_serial": [s.text() for s in res.extra],
        "bound_reached": [s.text() for s in res.bound_reached],
        "time": round(res.time, 4),
    }
