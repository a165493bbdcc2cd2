"""The verdict of a C (or C#) program under a table model: the explorer's states read as assertion
violations, deadlocks (every live thread blocked: where, and who holds the mutex) and cut loops."""

from __future__ import annotations

from ..core.program import Assign, Assume, Fence, evaluate
from ..explorer import DEFAULT_MAX_STATES, explore_space
from ..explorer.search import path_to
from ..explorer.machines.table.state import RMW
from ..explorer.trace import Describer
from ..lang.ir import Model
from ..litmus.c_data import ERR_BOUND, ERR_REG
from ..litmus.cprog import CProgram
from ..litmus.cprog.memory import is_memory_error
from .liveness import into_cycle, spinning, stuck_state
from .mapping import NONE, compile_orders, family
from .result import Blocked, CheckResult, shared_values, step_text, waits_for


def check_program(cp: CProgram, model: Model, *, max_states: int = DEFAULT_MAX_STATES,
                  unroll: int | None = None) -> CheckResult:
    """Explore ``cp`` under ``model`` (errors first: ``_search_errors_first``) and judge it; a
    model without a reordering table (a cat model, axioms of its own) on the execution-graph
    machine instead (``graph_check``; ``unroll`` bounds its loops there)."""
    from ..explorer.explore import uses_graph_machine

    if uses_graph_machine(model):
        from .graph_check import check_on_graph

        return check_on_graph(cp, model, max_states=max_states, unroll=unroll)
    program = compile_orders(cp.program, model)
    tids = [t.tid for t in program.threads]

    reg = cp.assert_reg

    def thread_failed(values) -> bool:
        return any(values.get(("reg", t, reg)) for t in tids)

    def failed(values) -> bool:  # of a final state: every thread ended, so Main's checks after the joins count
        return thread_failed(values) or any(p.holds(values) for p, _ in cp.final)

    # under sc no operation passes an earlier one: a thread issuing ahead of what it performs
    # only adds states, so each thread's pending list holds one operation (and waits when full)
    sc = family(model) == NONE

    def dead_error(machine, state) -> bool:  # a stuck state that is an error: an assertion failed, or a deadlock
        values = _values(machine, state)
        return thread_failed(values) or _dead_state(cp, machine, state, values)[0] == "deadlock"

    def explored(por: bool, order: str = "bfs", budget: int | None = None):
        return explore_space(program, model, target=failed, order=order, max_states=budget or max_states,
                             first=True, max_pending=1 if sc else None, bounded=True if sc else None, por=por,
                             graph=True, truncate=budget is not None, dead_target=dead_error)

    space = _search_errors_first(explored, max_states)
    found, machine = space.found, space.machine
    stuck = stuck_state(found) if found.target is None else None
    if stuck is not None:  # the reduction may leave a thread out of a cycle: confirm on the full graph
        space = explored(False)
        found, machine = space.found, space.machine
        stuck = stuck_state(found) if found.target is None else None
    stats = {"states": found.states, "transitions": found.transitions, "final_states": len(found.final_ids),
             "dead_states": found.deadlocks, "time": round(found.time, 4)}
    result = CheckResult(program.name, model.name, "safe", cp.unroll, stats=stats, shortest=space.order == "bfs")
    bounded = any(_values(machine, found.state_list[s]).get(("reg", t, ERR_REG), 0) & ERR_BOUND
                  for s in found.final_ids for t in tids)
    deadlock = None
    if found.target is not None and found.target in found.deadlock_ids[-1:] \
            and not thread_failed(_values(machine, found.state_list[found.target])):
        state = found.state_list[found.target]  # a deadlock ended the search (``dead_error``)
        deadlock = (found.target, _dead_state(cp, machine, state, _values(machine, state))[1])
        found.target = None
    for sid in found.deadlock_ids:
        state = found.state_list[sid]
        values = _values(machine, state)
        if thread_failed(values):
            found.target = sid if found.target is None else found.target
            continue
        kind, blocked = _dead_state(cp, machine, state, values)
        if kind == "bound":
            bounded = True
        elif kind == "deadlock" and deadlock is None:
            deadlock = (sid, blocked)
    if found.target is not None:
        sid = found.target
        values = _values(machine, found.state_list[sid])
        numbers = [values[("reg", t, reg)] for t in tids if values.get(("reg", t, reg))]
        # a memory error is undefined behaviour: what fails after it (an assertion) is its consequence
        number = min(numbers, key=lambda n: not is_memory_error(cp.asserts[n][1])) if numbers else None
        if number is None:  # a check on the final state (C#'s Main after the joins)
            number = next(n for p, n in cp.final if p.holds(values))
        pos, text, fn = cp.asserts[number]
        result.verdict = "violation"
        result.failed = {"at": str(pos), "text": text, "function": fn}
        result.steps = _trace(machine, found, sid, raw=result.raw_steps)
        result.trace = [step_text(x) for x in result.steps]
        result.values = shared_values(values)
    elif deadlock is not None:
        sid, blocked = deadlock
        result.verdict = "deadlock"
        result.blocked = blocked
        result.steps = _trace(machine, found, sid, raw=result.raw_steps)
        result.trace = [step_text(x) for x in result.steps]
        result.values = shared_values(_values(machine, found.state_list[sid]))
    elif stuck is not None:
        result.verdict = "livelock"
        state = found.state_list[stuck]
        walk = into_cycle(found, stuck)
        result.blocked = [Blocked(t, at, f"'{text}'") for t, at, text in spinning(machine, state)]
        result.steps = _trace(machine, found, stuck, walk, raw=result.raw_steps)
        result.trace = [step_text(x) for x in result.steps]
        result.values = shared_values(_values(machine, state))
    elif bounded:
        result.verdict = "bounded"
    return result


PROBE_STATES = 4_000  # the breadth-first probe visits at most this many states


def _search_errors_first(explored, max_states: int):
    """The search, ordered so that an error is found early; a "safe" answer still needs the whole space.

    Each pass stops at the first error (a failed assertion, a deadlock). First breadth-first
    over at most ``PROBE_STATES`` states: a shallow error, with a shortest trace. Then the
    whole space depth-first: an assertion is judged, and a deadlock seen, only where a
    schedule ends, and every schedule ends at about the same depth, so breadth-first
    reaches the first one only after nearly every state (peterson-broken under pso: 496,381
    states breadth-first, 5,194 depth-first). A probe that visited the whole space is the answer.
    """
    if max_states > PROBE_STATES:
        space = explored(True, "bfs", PROBE_STATES)
        if space.found.target is not None or not space.found.truncated:
            return space
    return explored(True, "dfs")


def _values(machine, state) -> dict:
    try:
        return machine.final_values(state)
    except Exception:  # noqa: BLE001 - a machine whose states keep memory per thread: no values to show
        return {}


def _trace(machine, found, sid: int, then: list | None = None, raw: list | None = None) -> list[dict]:
    """The steps leading to state ``sid`` a reader of the C program needs: every memory operation
    performed (with its values), fences and local assignments; the issue steps of memory
    operations (the performs show them) and jumps are left out. ``then``: (state id, transition)
    steps taken after ``sid``; ``raw`` receives each kept explorer Step with its dict."""
    describer = Describer(machine)
    out = []
    steps = path_to(found, sid) + [(found.state_list[s], tr) for s, tr in then or ()]
    for state, tr in steps:
        step = describer.step(state, tr)
        ins = machine.threads[step.tid].thread.instrs[step.instr] if step.instr is not None else None
        if step.action == "issue" and not isinstance(ins, (Fence, Assign)):
            continue
        out.append({"thread": machine.threads[step.tid].thread.name, "action": step.text(),
                    "at": str(ins.pos) if ins is not None and ins.pos is not None else None,
                    "source": ins.text if ins is not None else ""})
        if raw is not None:
            raw.append((step, out[-1]))
    return out


def _dead_state(cp: CProgram, machine, state, values) -> tuple[str, list[Blocked]]:
    """"infeasible" (an assume failed), "bound" (a loop ran past --unroll) or "deadlock", with who waits where.

    A thread may have issued past a lock or a join (the explorer issues ahead of what it
    performs): where it waits is its oldest pending blocking read-modify-write, not its pc.
    """
    names = {t.tid: t.name for t in cp.program.threads}
    for t, (pc, _regs, pending) in zip(machine.threads, state[1]):
        pc = t.skip_nops(pc)
        ins = t.thread.instrs[pc] if pc < t.length else None
        if isinstance(ins, Assume) and not any(_blocking(t, op) for op in pending):
            regs = {k[2]: v for k, v in values.items() if k[0] == "reg" and k[1] == t.tid}
            try:
                holds = evaluate(ins.cond, regs)
            except Exception:  # noqa: BLE001 - a condition on a pending read: not what stopped it
                holds = 1
            if not holds:
                return ("bound" if values.get(("reg", t.tid, ERR_REG), 0) & ERR_BOUND else "infeasible"), []
    blocked = []
    for t, (pc, _regs, pending) in zip(machine.threads, state[1]):
        pc = t.skip_nops(pc)
        waiting = [op for op in pending if _blocking(t, op)]
        if waiting:
            ins = t.thread.instrs[waiting[0][3]]
            blocked.append(waits_for(t.thread.name, ins, machine.locations[waiting[0][2]], values, names))
        elif pc < t.length or pending:
            ins = t.thread.instrs[min(pc, t.length - 1)]
            blocked.append(Blocked(t.thread.name, str(ins.pos), f"cannot go on at '{ins.text}'"))
    return ("deadlock" if blocked else "infeasible"), blocked


def _blocking(t, op) -> bool:
    """Whether pending operation ``op`` of thread ``t`` is a blocking read-modify-write (lock, join, start)."""
    return op[0] == RMW and t.code[op[3]][5]
