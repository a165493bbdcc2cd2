"""The verdict of a C program under a table model: the explorer's states read as assertion
violations, deadlocks (every live thread blocked: where, and who holds the mutex) and cut loops."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.program import Assume, Nop, Rmw, evaluate
from ..explorer import DEFAULT_MAX_STATES, explore_space
from ..explorer.search import path_to
from ..explorer.trace import Describer
from ..lang.ir import Model
from ..litmus.c_data import ERR_BOUND, ERR_REG
from ..litmus.cprog import CProgram
from ..litmus.cprog.lower import ASSERT_REG
from .mapping import compile_orders


@dataclass
class Blocked:
    """Where one thread of a deadlock waits."""

    thread: str
    where: str  # file:line:col
    waits_for: str  # "mutex 'm' held by philo#2", "thread worker#1 to end" ...

    def as_json(self) -> dict:
        return {"thread": self.thread, "at": self.where, "waits_for": self.waits_for}


@dataclass
class CheckResult:
    """``verdict``: "violation", "deadlock", "safe" or "bounded" (safe up to the unroll bound)."""

    program: str
    model: str
    verdict: str
    unroll: int | None
    trace: list[str] = field(default_factory=list)
    failed: dict | None = None  # the failing assertion: at, text, thread
    values: dict = field(default_factory=dict)  # shared locations at the end of the failing execution
    blocked: list[Blocked] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    @property
    def error(self) -> bool:
        return self.verdict in ("violation", "deadlock")

    def as_json(self) -> dict:
        return {"program": self.program, "model": self.model, "verdict": self.verdict, "unroll": self.unroll,
                "error": self.error, "assertion": self.failed, "trace": self.trace, "values": self.values,
                "blocked": [b.as_json() for b in self.blocked], "stats": self.stats}


def check_program(cp: CProgram, model: Model, *, max_states: int = DEFAULT_MAX_STATES) -> CheckResult:
    """Explore ``cp`` under ``model`` (breadth-first: the trace is a shortest one) and judge it."""
    program = compile_orders(cp.program, model)
    tids = [t.tid for t in program.threads]

    def failed(values) -> bool:
        return any(values.get(("reg", t, ASSERT_REG)) for t in tids)

    space = explore_space(program, model, target=failed, order="bfs", max_states=max_states)
    found, machine = space.found, space.machine
    stats = {"states": found.states, "transitions": found.transitions, "final_states": len(found.final_ids),
             "dead_states": found.deadlocks, "time": round(found.time, 4)}
    result = CheckResult(program.name, model.name, "safe", cp.unroll, stats=stats)
    bounded = any(_values(machine, found.state_list[s]).get(("reg", t, ERR_REG), 0) & ERR_BOUND
                  for s in found.final_ids for t in tids)
    deadlock = None
    for sid in found.deadlock_ids:
        state = found.state_list[sid]
        values = _values(machine, state)
        if failed(values):
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
        number = next(values[("reg", t, ASSERT_REG)] for t in tids if values.get(("reg", t, ASSERT_REG)))
        pos, text, fn = cp.asserts[number]
        result.verdict = "violation"
        result.failed = {"at": str(pos), "text": text, "function": fn}
        result.trace = _trace(machine, found, sid)
        result.values = _shared(values)
    elif deadlock is not None:
        sid, blocked = deadlock
        result.verdict = "deadlock"
        result.blocked = blocked
        result.trace = _trace(machine, found, sid)
        result.values = _shared(_values(machine, found.state_list[sid]))
    elif bounded:
        result.verdict = "bounded"
    return result


def _values(machine, state) -> dict:
    try:
        return machine.final_values(state)
    except Exception:  # noqa: BLE001 - a machine whose states keep memory per thread: no values to show
        return {}


def _shared(values: dict) -> dict:
    return {k[1]: v for k, v in values.items() if k[0] == "mem" and not k[1].startswith("__")}


def _trace(machine, found, sid: int) -> list[str]:
    describer = Describer(machine)
    out = []
    for state, tr in path_to(found, sid):
        step = describer.step(state, tr)
        ins = machine.threads[step.tid].thread.instrs[step.instr] if step.instr is not None else None
        where = f"  [{ins.pos}: {ins.text}]" if ins is not None and ins.pos is not None and ins.text else ""
        out.append(step.text() + where)
    return out


def _dead_state(cp: CProgram, machine, state, values) -> tuple[str, list[Blocked]]:
    """"infeasible" (an assume failed), "bound" (a loop ran past --unroll) or "deadlock", with who waits where."""
    blocked = []
    names = {t.tid: t.name for t in cp.program.threads}
    for t, ts in zip(machine.threads, state[1]):
        instrs = t.thread.instrs
        pc = ts[0]
        while pc < len(instrs) and isinstance(instrs[pc], Nop):
            pc += 1
        if pc >= len(instrs):
            continue
        ins = instrs[pc]
        regs = {k[2]: v for k, v in values.items() if k[0] == "reg" and k[1] == t.tid}
        if isinstance(ins, Assume):
            if values.get(("reg", t.tid, ERR_REG), 0) & ERR_BOUND:
                return "bound", []
            return "infeasible", []
        if not (isinstance(ins, Rmw) and ins.blocking):
            blocked.append(Blocked(t.thread.name, str(ins.pos), f"cannot go on at '{ins.text}'"))
            continue
        try:
            loc = evaluate(ins.addr, regs)
        except Exception:  # noqa: BLE001 - an address from a pending read
            loc = str(ins.addr)
        blocked.append(Blocked(t.thread.name, str(ins.pos), _waits_for(loc, values, names)))
    return ("deadlock" if blocked else "infeasible"), blocked


def _waits_for(loc, values: dict, names: dict) -> str:
    if isinstance(loc, str) and loc.startswith("__done"):
        return f"thread {names.get(int(loc[6:]), loc[6:])} to end (pthread_join)"
    if isinstance(loc, str) and loc.startswith("__start"):
        return "to be created"
    owner = values.get(("mem", loc))
    if isinstance(owner, int) and owner > 0:
        return f"mutex '{loc}' held by {names.get(owner - 1, f'thread {owner - 1}')}"
    return f"'{loc}' (a lock or an atomic it waits on)"
