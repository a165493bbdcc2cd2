"""What `mmdsl explore` prints after herd's block: the outcome, the trace, the stats (text and JSON)."""

from __future__ import annotations

from ..explorer import Exploration
from ..explorer.trace import trace_text


def outcome_line(result: Exploration) -> str:
    """Whether the condition's outcome is reachable (or where a forall fails), in distinct final states."""
    total = len(result.states)
    cond = result.condition
    head = f"Outcome {result.test} under {result.model}: "
    if result.stats.get("stopped_at_first"):  # --first: the counts are of what was visited until then
        prop = cond.text().split(" ", 1)[1]
        what = "state" if result.stats.get("buffer_bound") is not None else "outcome"
        return head + (f"the {what} {prop} is reachable (the search stopped at the first, after "
                       f"{result.stats.get('states', 0)} states; the counts above are partial)")
    bound = result.stats.get("buffer_bound")
    if bound is not None:  # a property of every state (Memorax's forbidden labels)
        prop = cond.text().split(" ", 1)[1]
        states = result.stats.get("states", 0)
        limit = f"pending lists bounded at {bound} operations per thread"
        if result.positive:
            return head + f"the state {prop} is reachable ({result.positive} of {states} states; {limit})"
        return head + f"the state {prop} is unreachable (0 of {states} states; {limit})"
    if not result.states and not result.positive and not result.negative:
        return head + "no final state reached, the verdict above says nothing (why: the line on stderr)"
    if cond.quantifier == "forall":
        if result.negative == 0:
            return head + f"{cond.text()} holds in all {total} final states"
        return head + f"{cond.text()} fails in {result.negative} of {total} final states"
    prop = cond.text().split(" ", 1)[1]
    if result.positive:
        return head + f"the outcome {prop} is reachable ({result.positive} of {total} final states)"
    return head + f"the outcome {prop} is unreachable (0 of {total} final states)"


def trace_block(result: Exploration) -> str:
    """The trace to the first final state reaching the outcome, or nothing."""
    if result.trace is None:
        return ""
    steps = result.trace
    if result.stats.get("machine") == "graph":  # steps add events to an execution: nothing is pending
        return (f"Trace (depth-first, {len(steps)} steps, each adding one event to the execution: a read "
                "with the write it reads from, a write with its place in coherence):\n"
                + trace_text(steps, result.trace_final))
    late = sum(1 for s in steps if s.out_of_order)
    kind = "shortest" if result.stats.get("search") == "bfs" else "depth-first, not necessarily shortest"
    head = (f"Trace ({kind}, {len(steps)} steps, {late} performed out of order, marked *; "
            f"'before' lists the pending operations overtaken):")
    return head + "\n" + trace_text(steps, result.trace_final)


def stats_text(result: Exploration) -> str:
    """Two lines: the counts, then (a line herd's doc tests ignore) the times."""
    st = result.stats
    if st.get("machine") == "graph":  # the execution-graph machine (explorer/machines/graph)
        return (f"Stats {result.test} under {result.model}: executions explored {st['explored']}, "
                f"complete {st['complete']}, blocked {st['blocked']}, duplicates {st['duplicates']} "
                f"(graph machine: {st['structures']} path combinations, {st['pruned']} steps pruned by an axiom, "
                + (f"{st['bounded']} of them by the bounds of one not monotone, " if st.get("bounded") else "")
                + f"{st['checks']} partial checks)\n"
                f"Time {result.test}: search {st['search_time']:.2f} s\n")
    text = (f"Stats {result.test} under {result.model}: states {st['states']}, transitions {st['transitions']}, "
            f"final machine states {st['final_states']}, deadlocks {st['deadlocks']}, "
            + (f"wrong guesses {st['misspeculated']}, " if st.get("misspeculated") else "")
            + f"max pending {st['max_pending']}")
    if "sc_states" in st and result.model != "sc":
        sc = "n/a (a fence sc does not know)" if st["sc_states"] is None else \
            f"states {st['sc_states']}, transitions {st['sc_transitions']}"
        text += f"; under sc: {sc}"
    por = st['por']
    text += f"; reduction {por if isinstance(por, str) else 'on' if por else 'off'}, {st['search']}\n"
    first = st["first_violation_time"]
    text += f"Time {result.test}: search {st['search_time']:.2f} s, first outcome " + \
        ("none" if first is None else f"{first:.2f} s") + "\n"
    return text


def exploration_extras(result: Exploration) -> dict:
    """The JSON fields the explorer adds to a result: the trace and its final state."""
    if result.trace is None:
        return {"trace": None}
    return {
        "trace": [
            {"thread": s.tid, "action": s.action, "instr": s.instr, "label": s.label,
             "out_of_order": s.out_of_order, "overtaken": list(s.overtaken)}
            for s in result.trace
        ],
        "trace_final": result.trace_final,
    }
