"""Every counterexample trace, grouped by the reorderings that cause it (the .NET checker's report).

Huynh and Roychoudhury's checker "returns all the counter-example traces, that is, all
possible ways" of violating the property. Paths through a state graph are exponentially
many, so mmdsl reports one trace per *violating final state of the explored graph* (a
machine state: memory, registers, what is pending; shortest under breadth-first search),
and groups the traces by their *reordering*: the set of (earlier, later) instruction pairs
of a thread whose later one was performed while the earlier was pending along the trace
-- which is what a barrier between them would forbid. Each group lists its traces up to a
cap; the counts are always complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .trace import Describer, Step, trace_text


@dataclass
class TraceGroup:
    """The traces that share one reordering."""

    reordering: tuple[str, ...]  # "P0: line 5 'x = 1;' overtaken by line 6 'r0 = y;'", sorted
    count: int = 0
    traces: list = field(default_factory=list)  # (steps, final state text), up to the cap


@dataclass
class AllTraces:
    """Every violating final state's trace, grouped; ``shown`` of ``total`` are kept."""

    total: int
    shown: int
    cap: int
    groups: list[TraceGroup]

    def as_dict(self) -> dict:
        return {"total": self.total, "shown": self.shown, "cap": self.cap,
                "groups": [{"reordering": list(g.reordering), "count": g.count,
                            "traces": [{"steps": [s.text() for s in steps], "final": final}
                                       for steps, final in g.traces]} for g in self.groups]}


def _pair_text(machine, ov) -> str:
    th = machine.threads[ov.tid].thread
    a, b = th.instrs[ov.earlier], th.instrs[ov.later]

    def where(ins) -> str:
        line = f"line {ins.pos.line} " if ins.pos is not None else ""
        return f"{line}'{ins.text}'"

    return f"{th.name}: {where(b)} before {where(a)}"


def all_traces(space, final_text, cap: int) -> AllTraces:
    """The traces to every target state of ``space`` (an ``explore.StateSpace``), grouped.

    ``final_text(state)`` is the text a trace ends with; at most ``cap`` traces are kept in all.
    """
    from .search import path_to

    machine, found = space.machine, space.found
    describer = Describer(machine)
    groups: dict[tuple, TraceGroup] = {}
    shown = 0
    targets = space.targets
    for sid in targets:
        steps = path_to(found, sid)
        last = found.state_list[sid]
        overtakings = space.trace_overtakings(sid)
        key = tuple(sorted({_pair_text(machine, ov) for ov in overtakings}))
        group = groups.get(key)
        if group is None:
            group = groups[key] = TraceGroup(key)
        group.count += 1
        if shown < cap:
            trace: list[Step] = [describer.step(state, tr) for state, tr in steps]
            group.traces.append((trace, final_text(last)))
            shown += 1
    ordered = sorted(groups.values(), key=lambda g: (-g.count, g.reordering))
    return AllTraces(len(targets), shown, cap, ordered)


def all_traces_text(report: AllTraces) -> str:
    """The groups as text: each reordering, its count, its traces."""
    lines = [f"All traces: {report.total} violating final state(s) in {len(report.groups)} group(s) by "
             f"reordering; {report.shown} shown (cap {report.cap})"]
    for n, g in enumerate(report.groups, 1):
        what = "; ".join(g.reordering) if g.reordering else "no reordering (reachable in program order)"
        lines.append(f"Group {n} ({g.count} trace(s)): {what}")
        for steps, final in g.traces:
            lines.append(trace_text(steps, final).rstrip("\n"))
    return "\n".join(lines) + "\n"
