"""The serial observations of a program: every interleaving of whole operations, each run atomically.

CheckFence's correctness condition: a concurrent data type is correct on a harness when
every observation (the observed registers -- the operations' return values -- and
locations) under the memory model is also an observation of some *serial* execution, in
which each operation runs alone from its first instruction to its last. The operations
of a thread are its ``Thread.operations`` (a C harness: each call of a function from a
thread function); code between them, and every thread without operations, runs as a
unit of its own. Units are run by a plain sequential interpreter of the core IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from .condition import FinalState
from .errors import MmdslError, UnsupportedError
from .program import (
    OLD, Assign, Assume, Branch, Fence, Load, Nop, Program, Rmw, Store, evaluate,
)

MAX_UNIT_STEPS = 100_000  # instructions one unit may run alone (a loop that never ends otherwise)
MAX_SERIAL_STATES = 1_000_000
ERR_REG = "%err"  # set by the C dialect: bit 1 a null dereference, bit 2 an unwinding bound reached


@dataclass
class SerialSet:
    """The observations of the serial executions, over ``keys``."""

    keys: list
    states: frozenset
    units: list[int]  # per thread, how many units it runs in


def observed_keys(program: Program) -> list:
    keys = list(program.condition.keys())
    for k in program.observed:
        if k not in keys:
            keys.append(k)
    return keys


def _boundaries(program: Program) -> list[frozenset[int]]:
    out = []
    for t in program.threads:
        cuts = set()
        for start, end, _name in t.operations:
            cuts.add(start)
            cuts.add(end)
        out.append(frozenset(cuts))
    return out


def serial_observations(program: Program) -> SerialSet:
    """Every observation of an interleaving of whole operations (each atomic) of ``program``."""
    if program.state_property:
        raise UnsupportedError(f"--spec serial compares final observations, and {program.name}'s property is "
                               "on every state (a Memorax 'forbidden' tuple)")
    keys = observed_keys(program)
    cuts = _boundaries(program)
    results: set = set()
    seen: set = set()
    for mem, regs in program.initial_choices():
        start = (tuple(0 for _ in program.threads),
                 tuple(tuple(sorted(regs[t.tid].items(), key=str)) for t in program.threads),
                 tuple(sorted(mem.items())))
        stack = [start]
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if len(seen) > MAX_SERIAL_STATES:
                raise MmdslError(f"{program.name}: more than {MAX_SERIAL_STATES} serial states")
            pcs, regs_t, mem_t = state
            done = True
            for t in program.threads:
                if pcs[t.tid] >= len(t.instrs):
                    continue
                done = False
                for pc, r, m in _run_unit(program, t, pcs[t.tid], dict(regs_t[t.tid]), dict(mem_t), cuts[t.tid]):
                    new_pcs = pcs[:t.tid] + (pc,) + pcs[t.tid + 1:]
                    new_regs = regs_t[:t.tid] + (tuple(sorted(r.items(), key=str)),) + regs_t[t.tid + 1:]
                    stack.append((new_pcs, new_regs, tuple(sorted(m.items()))))
            if done:
                values = {("mem", loc): v for loc, v in mem_t}
                for t in program.threads:
                    for name, v in regs_t[t.tid]:
                        values[("reg", t.tid, name)] = v
                results.add(FinalState.of(values, keys))
    _refuse_faults(program, results)
    units = [len(c - {0}) + (0 if (len(t.instrs) in c) else 1) for t, c in zip(program.threads, cuts)]
    return SerialSet(keys, frozenset(results), units)


def _refuse_faults(program: Program, results: set) -> None:
    for state in results:
        for key, v in state:
            if key[0] == "reg" and key[2] == ERR_REG and v:
                name = program.threads[key[1]].name
                if v & 2 and not v & 1:
                    raise MmdslError(f"{program.name}: a loop of {name} reaches its unwinding bound even when every "
                                     "operation runs alone; raise 'unroll' in the header")
                raise MmdslError(f"{program.name}: {name} dereferences a null pointer even when every operation "
                                 "runs alone (the harness or the data type is wrong)")


def _run_unit(program: Program, t, pc: int, regs: dict, mem: dict, cuts: frozenset):
    """Run thread ``t`` from ``pc`` to the next unit boundary; yield each (pc, regs, memory) it may end in."""
    todo = [(pc, regs, mem, 0)]
    n = len(t.instrs)
    while todo:
        pc, regs, mem, steps = todo.pop()
        while True:
            if pc >= n or (steps and pc in cuts):
                yield pc, regs, mem
                break
            if steps > MAX_UNIT_STEPS:
                ins = t.instrs[pc]
                raise MmdslError(f"{program.name}: {t.name} runs more than {MAX_UNIT_STEPS} instructions in one "
                                 "operation run alone (a loop that never ends?)", ins.pos)
            ins = t.instrs[pc]
            steps += 1
            try:
                nxt = _step(ins, pc, regs, mem)
            except UnsupportedError as err:
                raise UnsupportedError(f"{program.name}, {t.name} run serially: {err.message}",
                                       ins.pos or err.pos) from None
            if nxt is None:  # blocked, or an assume that fails: no serial execution goes this way
                break
            if isinstance(nxt, tuple):  # a nondeterministic branch: both ways
                todo.append((nxt[1], dict(regs), dict(mem), steps))
                pc = nxt[0]
                continue
            pc = nxt


def _addr(e, regs) -> str:
    a = evaluate(e, regs)
    if not isinstance(a, str):
        raise UnsupportedError(f"address {a} is not a location")
    return a


def _step(ins, pc: int, regs: dict, mem: dict):
    """Execute one instruction in place; the next pc, (pc, pc) for a choice, or None when it cannot run."""
    if isinstance(ins, Load):
        v = mem.get(_addr(ins.addr, regs), 0)
        if ins.dst:
            regs[ins.dst] = v
    elif isinstance(ins, Store):
        mem[_addr(ins.addr, regs)] = evaluate(ins.value, regs)
    elif isinstance(ins, Rmw):
        a = _addr(ins.addr, regs)
        old = mem.get(a, 0)
        scope = dict(regs)
        scope[OLD] = old
        if ins.cond is None or evaluate(ins.cond, scope):
            mem[a] = evaluate(ins.new, scope)
        elif ins.blocking:
            return None
        if ins.dst:
            regs[ins.dst] = old
    elif isinstance(ins, Assign):
        regs[ins.dst] = evaluate(ins.expr, regs)
    elif isinstance(ins, Branch):
        if ins.choice:
            return (ins.target, pc + 1)
        if ins.cond is None or evaluate(ins.cond, regs):
            return ins.target
    elif isinstance(ins, Assume):
        if not evaluate(ins.cond, regs):
            return None
    elif isinstance(ins, (Fence, Nop)):
        pass
    else:
        raise UnsupportedError(f"instruction {type(ins).__name__} ('{ins.text}')")
    return pc + 1


def compare(serial: SerialSet, states) -> list:
    """The observations in ``states`` that no serial execution has, in the order of their keys."""
    keys = serial.keys
    out = []
    for s in states:
        projected = FinalState.of(dict(s), keys)
        if projected not in serial.states:
            out.append(s)
    return sorted(out)
