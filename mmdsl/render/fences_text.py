"""Text and JSON forms of a fence selection, and the table of a suite of selections."""

from __future__ import annotations

from ..core.condition import key_text
from ..core.outcome import TestResult
from ..fences.encoding import Choice
from ..fences.loop import Selection
from ..fences.solver import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN


def fence_line(c: Choice) -> str:
    """``P0 before line 11: mfence between 'MOV [x],$1' and 'MOV EAX,[y]' (cost 3)``."""
    where = f" before line {c.place.line}" if c.place.line else ""
    return f"{c.place.thread}{where}: {c.kind.name} {c.place.text()} (cost {c.cost})"


def recheck_text(sel: Selection, result: TestResult) -> str:
    """What the re-run of the fenced program shows, in the target's terms."""
    if sel.target.name in ("sc", "serial"):
        who = "SC" if sel.target.name == "sc" else "a serial execution"
        bad = sum(1 for s in result.states if sel.target.unwanted_state(s))
        if bad:
            return f"{len(result.states)} state(s), {bad} not allowed by {who}"
        return f"{len(result.states)} state(s), all allowed by {who}"
    counts = f"(Positive: {result.positive} Negative: {result.negative})"
    if result.condition.quantifier == "exists":
        return f"{result.verdict} {counts}"
    return f"{'Ok' if result.ok else 'No'} {counts}"


def _unwanted_word(sel: Selection) -> str:
    if sel.target.program.state_property:  # the states at the forbidden labels (.rmm)
        what = "reachable state(s) at the forbidden labels"
    else:
        what = "violating final state(s)" if sel.engine == "explorer" else "execution(s)"
    return f"{sel.unwanted} {what}"


def selection_text(sel: Selection, show_time: bool = True) -> str:
    """The answer the way ``mmdsl fences`` prints it."""
    lines = [f"Fences {sel.test} under {sel.model}: {sel.target.description}"]
    if not sel.needed:
        lines.append(f"Nothing to do: no allowed execution is unwanted under {sel.model}; no fence is needed")
    elif sel.status == INFEASIBLE:
        lines.append(f"Unwanted {_unwanted_word(sel)}")
        lines.append("No fence can help: with every fence kind at every place these unwanted states stay reachable:")
        lines.extend(f"  {s.text()}" for s in sel.remaining)
    elif sel.status == UNKNOWN:
        lines.append(f"Unwanted {_unwanted_word(sel)}")
        lines.append("No fence set found within the time limit")
    else:
        lines.append(f"Unwanted {_unwanted_word(sel)}")
        lines.extend(fence_line(c) for c in sel.fences)
        deps = sum(1 for c in sel.fences if c.is_dependency)
        also = f" and {deps} dependenc{'y' if deps == 1 else 'ies'}" if deps else ""
        lines.append(f"Total {len(sel.fences) - deps} fence(s){also}, cost {sel.cost}")
    if sel.needed and sel.status in (OPTIMAL, FEASIBLE):
        if sel.status == OPTIMAL:
            lines.append("Status OPTIMAL (proved minimum)")
        else:
            lines.append(f"Status FEASIBLE (stopped by the time limit; the minimum cost is at least {sel.bound})")
        lines.append(f"Rounds {sel.rounds}")
        lines.append(f"Re-check {recheck_text(sel, sel.after)}")
        if sel.alternatives:
            more = {None: "", "limit": " (stopped at the limit; there are more)",
                    "time limit": " (the time limit stopped the enumeration; there may be more)"}[
                sel.alternatives_stopped]
            word = "Minimal fence sets" if sel.alternatives_kind == "minimal" else "Optimal placements"
            lines.append(f"{word} {len(sel.alternatives)}{more}")
            for i, alt in enumerate(sel.alternatives, 1):
                lines.append(f"  #{i}: {placement_text(alt)}")
    if sel.needed:
        lines.extend(f"Note: {note}" for note in sel.notes)
    if show_time:
        lines.append(f"Time {sel.test} {sel.time:.2f}")
    return "\n".join(lines) + "\n"


def placement_text(fences: list[Choice]) -> str:
    """``P0 mfence@11; P1 mfence@11 ss@12``: per thread, each fence's kind and the line it goes before."""
    by_thread: dict[str, list[str]] = {}
    for c in fences:
        where = f"@{c.place.line}" if c.place.line else f"@i{c.place.index}"
        by_thread.setdefault(c.place.thread, []).append(c.kind.name + where)
    return "; ".join(f"{t} {' '.join(items)}" for t, items in by_thread.items())


def choice_dict(c: Choice) -> dict:
    return {
        "thread": c.place.thread,
        "tid": c.place.tid,
        "before_instruction": c.place.index,
        "line": c.place.line,
        "previous": c.place.before,
        "next": c.place.after,
        "kind": c.kind.name,
        "cost": c.cost,
        # a dependency (addr, ctrl+isync ...) from the load "previous" to the access "next"
        "dependency": c.is_dependency,
    }


def selection_dict(sel: Selection) -> dict:
    d = {
        "test": sel.test,
        "path": sel.path,
        "model": sel.model,
        "target": sel.target.name,
        "goal": sel.target.description,
        "method": sel.method,
        "engine": sel.engine,
        "unwanted": sel.unwanted,
        "needed": sel.needed,
        "status": sel.status,
        "optimal": sel.optimal,
        "fences": [choice_dict(c) for c in sel.fences],
        "cost": sel.cost if sel.status in (OPTIMAL, FEASIBLE) else None,
        "bound": sel.bound,
        "rounds": sel.rounds,
        "requirements": sel.requirements,
        "time": round(sel.time, 4),
    }
    if sel.notes:
        d["notes"] = list(sel.notes)
    if sel.after is not None and sel.status in (OPTIMAL, FEASIBLE):
        d["recheck"] = {"verdict": sel.after.verdict, "ok": sel.after.ok, "positive": sel.after.positive,
                        "negative": sel.after.negative, "states": len(sel.after.states),
                        "achieved": sel.target.achieved(sel.after)}
    if sel.status == INFEASIBLE:
        d["remaining"] = [{key_text(k): v for k, v in s} for s in sel.remaining]
    if sel.alternatives:
        key = "all_minimal" if sel.alternatives_kind == "minimal" else "all_optimal"
        d[key] = [[choice_dict(c) for c in alt] for alt in sel.alternatives]
        d["more_" + key.split("_")[1]] = sel.more_alternatives
    return d


def fences_cell(sel: Selection) -> str:
    """Short form for a table cell: ``P0:mfence P1:ssx2``, ``none needed``, ``no fence helps``."""
    if not sel.needed:
        return "none needed"
    if sel.status == INFEASIBLE:
        return "no fence helps"
    if sel.status == UNKNOWN:
        return "-"
    groups: list[list] = []  # [thread, kind, count], in order
    for c in sel.fences:
        if groups and groups[-1][:2] == [c.place.thread, c.kind.name]:
            groups[-1][2] += 1
        else:
            groups.append([c.place.thread, c.kind.name, 1])
    return " ".join(f"{t}:{k}" + (f"x{n}" if n > 1 else "") for t, k, n in groups)


def suite_table(items):
    """A rich Table: test, fences, cost, status, rounds, time (items have .label, .selection, .error)."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(show_lines=False)
    for col, just in (("test", "left"), ("fences", "left"), ("cost", "right"), ("status", "left"),
                      ("rounds", "right"), ("time", "right")):
        table.add_column(col, justify=just)
    for it in items:
        if it.error is not None:
            table.add_row(escape(it.label), "[bold yellow]error[/]", "", "", "", "")  # a folder named [ is no markup
            continue
        s = it.selection
        cost = str(s.cost) if s.status in (OPTIMAL, FEASIBLE) else "-"
        table.add_row(escape(it.label), escape(fences_cell(s)), cost, s.status, str(s.rounds), f"{s.time:.2f}")
    return table
