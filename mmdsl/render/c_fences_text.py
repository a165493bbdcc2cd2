"""Text and JSON forms of the fences chosen for a whole C program (``check/c_fences.py``'s CFences)."""

from __future__ import annotations

from ..fences.solver import FEASIBLE, INFEASIBLE, OPTIMAL
from .fences_text import choice_dict, fence_line


def c_fences_text(found, path: str) -> str:
    """What ``mmdsl fences X.c`` prints: the C fences at source lines, the proof status, the re-check."""
    sel = found.selection
    lines = [f"Fences {sel.test} under {sel.model}: every assertion holds (the program as compiled "
             f"under {sel.model})"]
    if not sel.needed:
        lines.append(f"Nothing to do: no execution fails an assertion under {sel.model}; no fence is needed")
        return "\n".join(lines) + "\n"
    lines.append(f"Failing executions without fences: {sel.unwanted}")
    if sel.status == INFEASIBLE:
        lines.append("No fence can help: with every fence kind at every place an assertion still fails")
        return "\n".join(lines) + "\n"
    if sel.status not in (OPTIMAL, FEASIBLE):
        lines.append("No fence set found within the time limit")
        return "\n".join(lines) + "\n"
    for f in found.fences:
        where = f"{path}:{f.line}" if f.line else path
        lines.append(f"  {where}: insert {f.text} in {f.function}, before '{f.after}' (after '{f.before}')")
        lines.append(f"      stands for {', '.join(f.kinds)} in {', '.join(f.threads)}")
    model_fences = len(sel.fences)
    lines.append(f"Total {len(found.fences)} fence statement(s) in C; {model_fences} fence(s) of {sel.model} "
                 f"(one per thread running the code), cost {sel.cost}")
    lines.append("Status OPTIMAL (proved minimum)" if sel.status == OPTIMAL
                 else f"Status FEASIBLE (stopped by the time limit; the minimum cost is at least {sel.bound})")
    if found.recheck is not None:
        r = found.recheck
        verdict = {"safe": "safe", "bounded": f"safe up to unroll bound {r.unroll}"}.get(r.verdict, r.verdict)
        lines.append(f"Re-check of the fenced program: {verdict} (states {r.stats['states']})")
    else:
        lines.append(f"Fenced program not written: {found.why_not_written}; the model fences chosen:")
        lines.extend(f"  {fence_line(c)}" for c in sel.fences)
    lines.append(f"Time {sel.test} {sel.time:.2f}")
    return "\n".join(lines) + "\n"


def c_fences_dict(found) -> dict:
    sel = found.selection
    d = {"program": sel.test, "path": sel.path, "model": sel.model, "needed": sel.needed, "status": sel.status,
         "unwanted": sel.unwanted, "fences": [f.as_json() for f in found.fences],
         "model_fences": [choice_dict(c) for c in sel.fences],
         "cost": sel.cost if sel.status in (OPTIMAL, FEASIBLE) else None, "ok": found.ok,
         "time": round(sel.time, 4)}
    if found.recheck is not None:
        d["recheck"] = {"verdict": found.recheck.verdict, "error": found.recheck.error,
                        "states": found.recheck.stats.get("states")}
    if found.why_not_written:
        d["not_written"] = found.why_not_written
    return d
