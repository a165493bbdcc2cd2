"""The verdict of a C program under an axiomatic model (a herd cat file such as ``rc11.cat``, a model
with axioms of its own): the program's executions built on the explorer's execution-graph machine
with its C11 orders as the model's own annotations, read as an assertion violation or a data race
(an allowed execution failing the model's ``undefined_unless`` check, or firing a race flag)."""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import UnsupportedError
from ..core.program import Const, Fence, Load, Nop, Rmw, Store
from ..explorer.machines.graph.search import explore_graph
from ..lang.ir import Model
from ..litmus.cprog import CProgram
from .result import CheckResult, shared_values, step_text, waits_for

ONCE = frozenset({"once"})
GRAPH_UNROLL = 2  # the graph machine's default bound (herd's -unroll): spin iterations are blocked, not cut


def race_checks(prepared) -> list[tuple[object, tuple, bool]]:
    """(check, compiled value, fires when the value is non-empty) of every check of the model
    that marks an execution undefined: ``undefined_unless`` (rc11.cat's ``Dr``) and the
    ``flag ~empty`` checks named as races (linux-kernel.cat's ``data-race``)."""
    out = getattr(prepared, "_race_checks", None)
    if out is None:  # compiled once per structure, not per execution
        out = [(u, v, u.test == "empty" and not u.negated) for u, v in prepared.undefined()]
        for f, _test in prepared.flag_tests:
            if "race" in f.name.lower() and f.test == "empty" and f.negated:
                out.append((f, prepared._compile(f.expr, prepared.env), True))
        prepared._race_checks = out
    return out


def _pairs(value, d) -> list[tuple[int, int]]:
    """The pairs of a relation value (or the elements of a set, as (e, e))."""
    kind, v = value
    got = v if kind == "c" else v(d)
    rows = getattr(got, "rows", None)
    if rows is None:  # a set: a bit mask
        mask = int(got.mask if hasattr(got, "mask") else got)
        return [(e, e) for e in range(mask.bit_length()) if mask >> e & 1]
    return [(a, b) for a, row in enumerate(rows) for b in range(row.bit_length()) if row >> b & 1]


def check_on_graph(cp: CProgram, model: Model, *, max_states: int, unroll: int | None) -> CheckResult:
    """Explore ``cp`` under the axiomatic ``model``; stop at the first execution it allows that
    fails an assertion or has a data race."""
    program = _handshakes(cp.program, model)
    program.blocked_paths = _may_block(program)  # paths ending at a lock or join that waits forever
    tids = [t.tid for t in program.threads]
    hit: dict = {}
    reg = cp.assert_reg  # each thread's register holding the number of its failed check

    def judge(structure, prepared, leaf) -> bool | None:
        waiting = _waiting(structure, leaf)
        if waiting is None:
            return None  # a thread waits at a lock or join it would pass: no execution of the program
        if waiting:
            hit.update(kind="deadlock", final=leaf.final, blocked=_blocked(cp, program, structure, leaf, waiting))
            return True
        number = next((leaf.final.get(("reg", t, reg)) for t in tids if leaf.final.get(("reg", t, reg))), None)
        if not number:  # every thread ended: Main's checks after the joins (C#)
            number = next((n for p, n in cp.final if p.holds(leaf.final)), None)
        if number:
            hit.update(kind="violation", number=number, final=leaf.final)
            return True
        for check, value, nonempty in race_checks(prepared):
            pairs = _pairs(value, leaf.dynamic)
            if bool(pairs) == nonempty and pairs:
                hit.update(kind="race", check=check.name, final=leaf.final,
                           accesses=_accesses(program, structure, leaf, pairs[0]))
                return True
        return False

    try:
        result = explore_graph(program, model, max_states=max_states, judge=judge,
                               unroll=GRAPH_UNROLL if unroll is None else unroll)
    except UnsupportedError as err:
        raise _located(err, program)
    st = result.stats
    stats = {"executions": st["complete"], "explored": st["explored"], "blocked": st["blocked"],
             "time": st["time"], "states": st["explored"], "transitions": st["transitions"],
             "final_states": st["complete"]}
    cut = st.get("unroll_cut", 0)
    verdict = "bounded" if cut else "safe"
    out = CheckResult(program.name, model.name, verdict, st.get("unroll") if cut else unroll, stats=stats)
    out.warnings = list(result.warnings)
    if not st["complete"] and cut:
        out.warnings.append(f"warning: {program.name}: no execution of the program ends within the unroll bound "
                            f"{st.get('unroll')} (safe holds vacuously; raise --unroll)")
    elif not st["complete"]:
        out.warnings.append(f"warning: {program.name}: {model.name} allows no complete execution of the program "
                            "(safe holds vacuously: every execution was blocked or inconsistent)")
    if not hit:
        return out
    out.steps = [_step(program, s) for s in result.trace or ()]
    out.trace = [step_text(s) for s in out.steps]
    out.values = shared_values(hit["final"])
    if hit["kind"] == "violation":
        pos, text, fn = cp.asserts[hit["number"]]
        out.verdict = "violation"
        out.failed = {"at": str(pos), "text": text, "function": fn}
    elif hit["kind"] == "deadlock":
        out.verdict = "deadlock"
        out.blocked = hit["blocked"]
    else:
        out.verdict = "race"
        out.race = {"check": hit["check"], "accesses": hit["accesses"]}
    return out


def _handshakes(program, model: Model):
    """``pthread_create``/``join`` are lowered to a seq_cst store read by a seq_cst read-modify-write
    (of ``__start<t>``/``__done<t>``) between full fences ``mb``. A C11 model has no fence ``mb``:
    the store and RMW synchronise by themselves, and the fences with no order of their own (unlike
    ``atomic_thread_fence``'s) become no-ops. A model with ``mb`` (linux-kernel.cat) keeps the
    fences (its ``smp_mb``) and sees the handshake accesses as marked ones (``READ_ONCE``/``WRITE_ONCE``)."""
    if model.fence_for("mb") is None:
        def fix(ins):
            return Nop(pos=ins.pos, text=ins.text) if isinstance(ins, Fence) and ins.kind == "mb" and not ins.annots \
                else ins
    else:
        def fix(ins):
            handshake = isinstance(ins, (Load, Store, Rmw)) and isinstance(ins.addr, Const) \
                and str(ins.addr.value).startswith(("__start", "__done", "__arg"))
            return replace(ins, annots=ONCE) if handshake else ins
    threads = [replace(t, instrs=[fix(ins) for ins in t.instrs]) for t in program.threads]
    return replace(program, threads=threads)


def _located(err, program):
    """``err`` located at the first write of the location it names when it has no place."""
    loc = getattr(err, "location", None)
    if err.pos is None and loc is not None:
        for t in program.threads:
            for ins in t.instrs:
                if isinstance(ins, (Store, Rmw)) and ins.addr == Const(loc) and ins.pos is not None:
                    return err.locate(ins.pos, ins.text)
    return err


def _may_block(program) -> frozenset:
    """The locations a thread may wait at forever: a mutex; with one, a join (of a thread stuck at
    one) and the start of a thread ``main`` may fail to create (it can wait at a lock or join
    before). Without a mutex every thread ends: no path needs to stop blocked."""
    blocking = [(t.tid, k, ins) for t in program.threads for k, ins in enumerate(t.instrs)
                if isinstance(ins, Rmw) and ins.blocking]
    if not any("lock" in ins.annots for _, _, ins in blocking):
        return frozenset()
    out = {loc for loc in program.locations if not str(loc).startswith("__start")}  # a lock's address may be computed
    main = program.threads[0].instrs
    first_wait = min((k for tid, k, _ in blocking if tid == 0), default=len(main))
    for k, ins in enumerate(main):  # a thread created after main may have waited
        if isinstance(ins, Store) and isinstance(ins.addr, Const) and str(ins.addr.value).startswith("__start") \
                and k > first_wait:
            out.add(ins.addr.value)
    return frozenset(out)


def _waiting(structure, leaf) -> list[int] | None:
    """The threads of a complete execution stopped at a blocking read-modify-write (a lock, a
    join, a thread's start) that waits forever: it read the last write of its location (nothing
    will change it). None when one read an older write: it would read again and go on, so the
    execution is none of the program's."""
    out = []
    for tid, tr in enumerate(structure.traces):
        if not getattr(tr, "blocked", False):
            continue
        eid = structure.thread_events[tid][-1]
        loc = structure.events[eid].loc
        if leaf.rf_src.get(eid) != leaf.co_orders[loc][-1]:
            return None
        out.append(tid)
    return out


def _blocked(cp, program, structure, leaf, waiting: list[int]) -> list:
    """Where each thread of a deadlock waits and on whom (as ``result.waits_for``)."""
    names = {t.tid: t.name for t in program.threads}
    values = {("mem", loc): leaf.values.get(order[-1]) for loc, order in leaf.co_orders.items()}
    out = []
    for tid in waiting:
        ev = structure.events[structure.thread_events[tid][-1]]
        thread = program.threads[tid]
        out.append(waits_for(thread.name, thread.instrs[ev.instr], ev.loc, values, names))
    return out


def _accesses(program, structure, leaf, pair: tuple[int, int]) -> list[dict]:
    """The two events of a racing pair: thread, access, location, value, file:line:col, source."""
    out = []
    for eid in pair:
        ev = structure.events[eid]
        thread = program.threads[ev.tid]
        ins = thread.instrs[ev.instr] if ev.instr is not None and ev.instr >= 0 else None
        value = leaf.values.get(eid, ev.value)
        out.append({"thread": thread.name, "access": "write" if ev.kind == "W" else "read",
                    "location": ev.loc, "value": value, "annotations": sorted(getattr(ev, "annots", ()) or ()),
                    "at": str(ins.pos) if ins is not None and ins.pos is not None else None,
                    "source": ins.text if ins is not None else ""})
    return out


def _step(program, step) -> dict:
    thread = program.threads[step.tid]
    ins = thread.instrs[step.instr] if step.instr is not None and 0 <= step.instr < len(thread.instrs) else None
    action = step.label.split(": ", 1)[-1]
    return {"thread": thread.name, "action": f"{thread.name}: {action}",
            "at": str(ins.pos) if ins is not None and ins.pos is not None else None,
            "source": ins.text if ins is not None else ""}
