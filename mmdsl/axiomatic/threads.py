"""Thread-local semantics: every path of a loop-free thread as a list of event templates.

Read values stay symbolic; where control flow, an address or a compare-and-swap needs a
concrete value, the read is *pinned* to each value its location may hold (the value
domains are computed as a fixpoint over all threads). A path on which a value cannot be
computed (an address that is not a location, arithmetic on an address) ends there with
the error: the checker reports it only if an allowed execution takes that path, since
the domains over-approximate and many pinned paths are taken by no execution.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..core.errors import MmdslError, UnsupportedError
from ..core.program import (
    OLD, Assign, Assume, AtomicBegin, AtomicEnd, BinOp, Branch, Const, Fence, Load, Nop, Program, Rmw, Store,
    StoreCond, Thread, UnOp, Value,
)
from .loops import LoopBound, dead_registers, spins
from .pick import PICK_ANY, after_access, after_branch, fence_pick, pick_of, read_pick, set_pick, write_picks
from .symbolic import is_concrete, substitute, symbolic_eval, taint, value_of, variables
from .thin_air import SeedOverflow

MAX_DOMAIN = 64
RESERVATION = "%reserved"  # the read index of the load-reserved a thread holds, -1 for none
BLOCK = "%block"  # inside an atomic block: the path's event count where it began (its id), else absent
_SUPPORTED = (Nop, Assign, Fence, Load, Store, Rmw, StoreCond, Branch, Assume, AtomicBegin, AtomicEnd)


@dataclass
class Template:
    """An event of one thread's path, before reads-from is known."""

    kind: str  # R W F
    instr: int
    loc: str | None = None
    value: object = None  # symbolic: ("v", k) for reads
    read: int = -1  # read index (for R)
    annots: frozenset = frozenset()
    fence: str | None = None
    rmw: bool = False
    addr_dep: int = 0  # bitmask of read indices
    data_dep: int = 0
    ctrl_dep: int = 0
    pair: int = -1  # a store-conditional's write: the read index of its load-reserved
    source: int = -1  # a store-conditional's write: the index its status register's taint names
    raw: object = None  # a write: its value with no read pinned (None: ``value``), see thin_air_traces
    pick: int = 0  # a write: the reads its address or value depend on by pick (axiomatic.pick)
    block: int = -1  # an access of an atomic block: the block's id on its path (relation atomic-block)



@dataclass
class Trace:
    events: list[Template]
    pins: dict[int, Value]  # read index -> the value this path assumes it reads
    regs: dict  # final symbolic registers
    nreads: int
    error: MmdslError | None = None  # the path stops here: an unsupported value (see above)
    beyond: tuple = ()  # (location, value) of each read pinned out of thin air (thin_air_traces)
    cut: bool = False  # stopped at the unrolling bound: its writes feed the value domains, it is no path
    # stopped at a blocking read-modify-write (a lock, a join) reading a value it waits past: its
    # writes feed the value domains; a path only where a program's ``blocked_paths`` (a set of
    # locations, ``mmdsl check``) names its location
    blocked: bool = False


def _loc_of(addr, instr, thread: Thread, k: int) -> str:
    if isinstance(addr, str):
        return addr
    raise UnsupportedError(
        f"{thread.name} instruction {k + 1} ('{instr.text}') accesses address {addr!r}, which is not a location",
        instr.pos,
    )


class _PathWalker:
    """Every path of one thread, forking where a read's value must be known."""

    def __init__(self, thread: Thread, domains: dict[str, set], loops: LoopBound | None = None):
        self.thread = thread
        self.domains = domains
        self.traces: list[Trace] = []
        self.used_domains = False  # did a path fork on a value domain? (else they change nothing)
        self.loops = loops  # None: a loop is refused; else unrolled to its bound (axiomatic/loops.py)
        self.heads = {i.target for k, i in enumerate(thread.instrs) if isinstance(i, Branch) and i.target <= k}
        # a loop whose body has no branch but its back edges: every iteration runs the same
        # instructions, so the last one writes again every register a spin iteration wrote
        self.straight = {h: not any(isinstance(i, (Branch, Assume)) and not (i.target == h and i.target <= k)
                                    for k, i in enumerate(thread.instrs)
                                    if h <= k <= max(j for j, b in enumerate(thread.instrs)
                                                     if isinstance(b, Branch) and b.target == h))
                         for h in self.heads}
        # per straight loop, the registers each iteration writes before it reads them: a
        # spin iteration may leave any value in them (loops.dead_registers)
        self.dead = {h: dead_registers(thread.instrs, h, (BLOCK, RESERVATION))
                     for h in self.heads if self.straight[h]}
        self._loops: dict = {}  # the current path's loop heads: pc -> (back edges taken, events, regs, reads)

    def run(self) -> list[Trace]:
        if self.thread.has_loops() and self.loops is None:
            k = next(k for k, i in enumerate(self.thread.instrs) if isinstance(i, Branch) and i.target <= k)
            raise UnsupportedError(
                f"{self.thread.name} has a loop (the branch at '{self.thread.instrs[k].text}' jumps backwards); "
                "the axiomatic checker runs loop-free tests, use --engine explorer, or --unroll N to unroll "
                "its loops as herd does",
                self.thread.instrs[k].pos,
            )
        for ins in self.thread.instrs:
            if not isinstance(ins, _SUPPORTED):
                raise UnsupportedError(f"instruction {type(ins).__name__} is not supported by the axiomatic checker",
                                       ins.pos)
        regs = dict(self.thread.reg_init)
        # Paths fork at pinned reads; each fork is a pending walk on an explicit stack (a long
        # thread would otherwise recurse once per access). The stack holds pending walks and
        # finished traces in the order the depth-first walk produces them.
        todo: list = [(0, regs, {}, [], {}, 0, 0, {})]
        while todo:
            job = todo.pop()
            if isinstance(job, Trace):
                self.traces.append(job)
                continue
            self._next = []
            self._loops = job[-1]
            self._step(*job[:-1])
            todo.extend(reversed(self._next))
        return self.traces

    def _walk(self, pc, regs, taints, events, pins, nreads, ctrl, loops=None) -> None:
        """Continue a path from ``pc`` (after the current step, in order)."""
        self._next.append((pc, regs, taints, events, pins, nreads, ctrl, self._loops if loops is None else loops))

    def _back_edge(self, head: int, regs, events, pins, nreads):
        """The loop state after following the back edge to ``head``, or None when the path
        stops there: a spin iteration (blocked) or the unrolling bound (axiomatic/loops.py)."""
        entry = self._loops.get(head)
        if entry is None:  # the loop was entered past its head (a jump into the body): no iteration to judge
            entry = (0, len(events), None, nreads)
        taken, start, head_regs, head_reads = entry
        if head_regs is not None and self.straight[head] and \
                spins(head_regs, head_reads, regs, events[start:], self.dead[head]):
            self.loops.spins += 1
            return None
        if taken >= self.loops.unroll:  # herd's -unroll N: the back edge followed N times at most
            self.loops.cut += 1
            self._done(Trace(events, pins, regs, nreads, cut=True))  # its writes still feed the domains
            return None
        return {**self._loops, head: (taken + 1, start, head_regs, head_reads)}

    def _done(self, trace: Trace) -> None:
        self._next.append(trace)

    # ---- forking on read values -------------------------------------------------
    def _choices(self, sym, pins, events):
        """Pin the reads ``sym`` depends on: yields (concrete value, new pins, None), or
        (None, new pins, error) for pins under which the value cannot be computed.

        A read's location is taken from this path's ``events``: the same read index may be
        of another location on another path (an address that depends on a read)."""
        sym = substitute(sym, pins)
        if is_concrete(sym):
            yield sym, pins, None
            return
        vs = sorted(variables(sym))
        self.used_domains = True
        locs = {e.read: e.loc for e in events if e.read >= 0}
        doms = [sorted(self.domains.get(locs[v], {0}), key=str) for v in vs]
        for combo in product(*doms):
            new = dict(pins)
            new.update(zip(vs, combo))
            try:
                value = value_of(substitute(sym, new), new)
            except UnsupportedError as err:
                yield None, new, err
                continue
            yield value, new, None

    def _stop(self, err: MmdslError, ins, events, pins, regs, nreads) -> None:
        """End this path at ``ins``, which computes something unsupported under ``pins``."""
        self._done(Trace(events, pins, regs, nreads, err.locate(ins.pos, ins.text)))

    def _step(self, pc, regs, taints, events, pins, nreads, ctrl):
        instrs = self.thread.instrs
        while pc < len(instrs):
            ins = instrs[pc]
            if pc in self.heads:  # a loop head: where an iteration starts (see _back_edge)
                taken = self._loops.get(pc, (0,))[0]
                self._loops = {**self._loops, pc: (taken, len(events), regs, nreads)}
            try:
                if isinstance(ins, Nop):
                    pc += 1
                elif isinstance(ins, (AtomicBegin, AtomicEnd)):  # its accesses are marked (_in_block)
                    regs = dict(regs)
                    if isinstance(ins, AtomicBegin):
                        regs[BLOCK] = len(events)
                    else:
                        regs.pop(BLOCK, None)
                    pc += 1
                elif isinstance(ins, Assign):
                    regs = dict(regs)
                    taints = dict(taints)
                    regs[ins.dst] = symbolic_eval(ins.expr, regs, pins)
                    taints[ins.dst] = taint(ins.expr, taints)
                    set_pick(taints, ins.dst, pick_of(ins.expr, taints))
                    pc += 1
                elif isinstance(ins, Fence):
                    events = events + [Template("F", pc, fence=ins.kind, annots=ins.annots,
                                                ctrl_dep=ctrl | fence_pick(taints))]
                    pc += 1
                elif isinstance(ins, (Load, Store, Rmw, StoreCond)):
                    addr = symbolic_eval(ins.addr, regs, pins)
                    if not is_concrete(addr):
                        for a, new_pins, err in self._choices(addr, pins, events):
                            if err is not None:
                                self._stop(err, ins, events, new_pins, regs, nreads)
                            else:
                                self._walk_access(pc, ins, a, regs, taints, events, new_pins, nreads, ctrl)
                        return
                    self._walk_access(pc, ins, addr, regs, taints, events, pins, nreads, ctrl)
                    return
                elif isinstance(ins, (Branch, Assume)):
                    if isinstance(ins, Branch) and ins.cond is None:
                        if ins.target <= pc:
                            loops = self._back_edge(ins.target, regs, events, pins, nreads)
                            if loops is None:
                                return
                            self._loops = loops
                        pc = ins.target
                        continue
                    cond = symbolic_eval(ins.cond, regs, pins)
                    t = taint(ins.cond, taints)
                    taints = after_branch(taints, ins.cond)
                    for v, new_pins, err in self._choices(cond, pins, events):
                        if err is not None:
                            self._stop(err, ins, events, new_pins, regs, nreads)
                        elif isinstance(ins, Assume):
                            if v:
                                self._walk(pc + 1, regs, taints, events, new_pins, nreads, ctrl | t)
                        elif v and ins.target <= pc:  # a back edge taken
                            loops = self._back_edge(ins.target, regs, events, new_pins, nreads)
                            if loops is not None:
                                self._walk(ins.target, regs, taints, events, new_pins, nreads, ctrl | t, loops)
                        else:
                            nxt = ins.target if v else pc + 1
                            self._walk(nxt, regs, taints, events, new_pins, nreads, ctrl | t)
                    return
            except UnsupportedError as err:
                self._stop(err, ins, events, pins, regs, nreads)
                return
        self._done(Trace(events, pins, regs, nreads))

    def _walk_access(self, pc, ins, addr, regs, taints, events, pins, nreads, ctrl):
        try:
            self._access(pc, ins, addr, regs, taints, events, pins, nreads, ctrl)
        except UnsupportedError as err:
            self._stop(err, ins, events, pins, regs, nreads)

    def _access(self, pc, ins, addr, regs, taints, events, pins, nreads, ctrl):
        loc = _loc_of(addr, ins, self.thread, pc)
        adep = taint(ins.addr, taints)
        if isinstance(ins, Store):
            val = symbolic_eval(ins.value, regs, pins)
            wpick, own = write_picks(taints, ins.addr, ins.value)
            ev = Template("W", pc, loc, val, annots=ins.annots, addr_dep=adep,
                          data_dep=taint(ins.value, taints), ctrl_dep=ctrl | wpick,
                          raw=symbolic_eval(ins.value, regs, {}) if pins else None, pick=own,
                          rmw=BLOCK in regs, block=regs.get(BLOCK, -1))
            self._walk(pc + 1, regs, after_access(taints, ins.addr), events + [ev], pins, nreads, ctrl)
            return
        if isinstance(ins, StoreCond):
            self._store_cond(pc, ins, loc, adep, regs, taints, events, pins, nreads, ctrl)
            return
        k = nreads
        rsym = pins.get(k, ("v", k))
        is_rmw = isinstance(ins, Rmw)
        read = Template("R", pc, loc, ("v", k), read=k, annots=ins.annots, rmw=is_rmw or BLOCK in regs,
                        addr_dep=adep, ctrl_dep=ctrl, block=regs.get(BLOCK, -1))
        regs = dict(regs)
        rpick = read_pick(taints, ins.addr, loc, events)
        taints = dict(after_access(taints, ins.addr))
        if is_rmw and ins.compared is not None:
            self._cas(pc, ins, loc, read, rpick, adep, regs, taints, events, pins, nreads, ctrl)
            return
        if not is_rmw:
            if ins.dst:
                regs[ins.dst] = rsym
                taints[ins.dst] = 1 << k
                set_pick(taints, ins.dst, rpick)
            if "lr" in ins.annots and isinstance(ins, Load):  # a load-reserved holds a reservation
                regs[RESERVATION] = k
                taints[RESERVATION] = adep  # herd: the reservation is written from the address
            self._walk(pc + 1, regs, taints, events + [read], pins, nreads + 1, ctrl)
            return
        inner = dict(regs)
        inner[OLD] = rsym
        itaints = dict(taints)
        itaints[OLD] = 1 << k
        set_pick(itaints, OLD, rpick)
        wpick, own = write_picks(itaints, ins.addr, ins.new)
        if ins.dst:
            regs[ins.dst] = rsym
            taints[ins.dst] = 1 << k
            set_pick(taints, ins.dst, rpick)
        new = symbolic_eval(ins.new, inner, pins)
        write = Template("W", pc, loc, new, annots=ins.annots, rmw=True, addr_dep=adep,
                         data_dep=taint(ins.new, itaints), ctrl_dep=ctrl | wpick, pick=own)
        if ins.cond is None:
            self._walk(pc + 1, regs, taints, events + [read, write], pins, nreads + 1, ctrl)
            return
        cond = symbolic_eval(ins.cond, inner, pins)
        for v, new_pins, err in self._choices(cond, pins, events + [read]):
            try:
                if err is not None:
                    raise err
                if v:
                    w = write if new_pins is pins else Template(
                        "W", pc, loc, substitute(new, new_pins), annots=ins.annots, rmw=True,
                        addr_dep=adep, data_dep=write.data_dep, ctrl_dep=write.ctrl_dep, pick=own)
                    self._walk(pc + 1, _subst_regs(regs, new_pins), taints, events + [read, w], new_pins,
                               nreads + 1, ctrl)
                elif ins.blocking:  # waits for another value: its writes so far feed the value
                    # domains (a thread create/join handshake would otherwise starve them)
                    self._done(Trace(events + [read], new_pins, regs, nreads + 1, blocked=True))
                else:  # a failed compare-and-swap only reads (with its failure order)
                    failed = read if ins.fail_annots is None else Template(
                        "R", pc, loc, ("v", k), read=k, annots=ins.fail_annots, rmw=True, addr_dep=adep,
                        ctrl_dep=ctrl)
                    self._walk(pc + 1, _subst_regs(regs, new_pins), taints, events + [failed],
                               new_pins, nreads + 1, ctrl)
            except UnsupportedError as err:
                self._stop(err, ins, events, new_pins, regs, nreads)

    def _cas(self, pc, ins, loc, read, rpick, adep, regs, taints, events, pins, nreads, ctrl):
        """herd's AArch64 CAS (``Rmw.compared``), every way herd has: on success, the
        result register takes its value (and dependencies) from the compared register
        (herd's DataFromRRs: a pick dependency on the read too) or from the read
        (DataFromRx); on failure, the write-back of the value read, or no write. The write
        depends by pick on the compared register (through the comparison)."""
        k = read.read
        rsym = ("v", k)
        cmp_pick = taint(ins.compared, taints) | pick_of(ins.compared, taints)
        wpick, own = write_picks(taints, ins.addr, ins.new)
        wctrl = ctrl | wpick | cmp_pick
        inner = dict(regs)
        inner[OLD] = rsym
        new = symbolic_eval(ins.new, inner, pins)
        cond = symbolic_eval(ins.cond, inner, pins)
        compared = symbolic_eval(ins.compared, regs, pins)
        for v, new_pins, err in self._choices(cond, pins, events + [read]):
            try:
                if err is not None:
                    raise err
                if v:
                    w = Template("W", pc, loc, substitute(new, new_pins), annots=ins.annots, rmw=True,
                                 addr_dep=adep, data_dep=taint(ins.new, taints), ctrl_dep=wctrl,
                                 pick=own | cmp_pick)
                    ways = [(rsym, 1 << k, rpick),  # DataFromRx
                            (compared, taint(ins.compared, taints), (1 << k) | rpick | pick_of(ins.compared, taints))]
                    writes = [[read, w]] * 2
                else:
                    back = Template("W", pc, loc, rsym, annots=ins.annots, rmw=True, addr_dep=adep,
                                    data_dep=1 << k, ctrl_dep=wctrl, pick=rpick | own | cmp_pick)
                    ways = [(rsym, 1 << k, rpick)] * 2
                    writes = [[read], [read, back]]
                for (value, real, pick), evs in zip(ways, writes):
                    regs2 = dict(regs)
                    taints2 = dict(taints)
                    taints2[PICK_ANY] = 1  # the write may carry pick dependencies to later reads (lrs)
                    if ins.dst:
                        regs2[ins.dst] = value
                        taints2[ins.dst] = real
                        set_pick(taints2, ins.dst, pick)
                    self._walk(pc + 1, _subst_regs(regs2, new_pins), taints2, events + evs, new_pins,
                               nreads + 1, ctrl)
            except UnsupportedError as err:
                self._stop(err, ins, events, new_pins, regs, nreads)

    def _store_cond(self, pc, ins, loc, adep, regs, taints, events, pins, nreads, ctrl):
        """Fork a store-conditional: it fails (no write, ``dst`` = 1), or, when the
        thread holds a reservation on ``loc`` (its latest load-reserved, of ``loc``, with
        no sc since), it succeeds: a write paired with that load in ``rmw``, and ``dst`` =
        0, which depends on the write (as in herd, where the status comes from the store).
        Either way the reservation ends (RISC-V: every sc invalidates it)."""
        lr = regs.get(RESERVATION, -1)
        regs = dict(regs)
        regs[RESERVATION] = -1  # an sc ends the reservation, whether it succeeds or fails
        data_dep = taint(ins.value, taints)
        status = 0  # RISC-V: a failed sc's status depends on nothing, a successful one's on its write
        if ins.reservation_dep is not None:  # PPC, ARM: on every register read, the reservation too
            res = taints.get(RESERVATION, 0)
            status = data_dep | adep | res
            if ins.reservation_dep == "data":
                data_dep |= res
            else:
                adep |= res
            taints = dict(taints)
            taints[RESERVATION] = status  # herd rewrites the reservation after those reads
        regs2 = dict(regs)
        taints2 = dict(taints)
        if ins.dst:
            regs2[ins.dst] = 1
            taints2[ins.dst] = status
        self._walk(pc + 1, regs2, taints2, events, pins, nreads, ctrl)
        if lr < 0 or next((e.loc for e in events if e.read == lr), None) != loc:
            return
        regs2 = dict(regs)
        taints2 = dict(taints)
        if ins.dst:
            regs2[ins.dst] = 0
            taints2[ins.dst] = status if ins.reservation_dep is not None else 1 << nreads
        val = symbolic_eval(ins.value, regs, pins)
        wpick, own = write_picks(taints, ins.addr, ins.value)
        ev = Template("W", pc, loc, val, annots=ins.annots, addr_dep=adep,
                      data_dep=data_dep, ctrl_dep=ctrl | wpick, pair=lr, source=nreads, pick=own)
        self._walk(pc + 1, regs2, taints2, events + [ev], pins, nreads + 1, ctrl)


def _subst_regs(regs, pins):
    return {r: (substitute(v, pins) if isinstance(v, tuple) else v) for r, v in regs.items()}


def thread_traces(program: Program, locations: list[str] | None = None,
                  loops: LoopBound | None = None) -> list[list[Trace]]:
    """Every path of every thread, with value domains computed to a fixpoint (``locations``:
    ``program.locations`` when the caller has it; ``loops``: unroll loops, see loops.py)."""
    return _grounded(program, locations, loops)[0]


def _grounded(program: Program, locations: list[str] | None = None, loops: LoopBound | None = None):
    """The paths of every thread, the domains they were walked with, and whether any path
    forked on a domain."""
    if locations is None:
        locations = program.locations
    domains: dict[str, set] = {loc: {program.init.get(loc, 0)} for loc in locations}
    return _fixpoint(program, domains, loops)


def _fixpoint(program: Program, domains: dict[str, set], loops: LoopBound | None = None):
    """The paths of every thread walked with ``domains`` grown to a fixpoint, the domains,
    and whether a path forked on them; paths cut at an unrolling bound are left out."""
    all_traces, walked, forked = _fixpoint_all(program, domains, loops)
    keep = getattr(program, "blocked_paths", None) or ()  # the locations a path may stop blocked at

    def path(tr) -> bool:
        return not tr.cut and (not tr.blocked or tr.events[-1].loc in keep)
    return [[tr for tr in traces if path(tr)] for traces in all_traces], walked, forked


def _fixpoint_all(program: Program, domains: dict[str, set], loops: LoopBound | None = None):
    # In a loop-free program a value reaches a read through a chain of distinct writes
    # (a chain through one write twice would be thin air), so after one round per write
    # instruction every value an execution can produce is in the domains: stop there even
    # if the over-approximation (every value of the domain feeds every write) still grows.
    rounds = 1 + sum(isinstance(i, (Store, Rmw, StoreCond)) for t in program.threads for i in t.instrs)
    if loops is not None:  # a write instruction in a loop is that many writes
        rounds *= loops.unroll + 1
    fixed = None  # the traces, when no path forks on a domain: the walks do not depend on them
    for round_no in range(rounds + 1):
        if fixed is not None:
            all_traces = fixed  # the same walks again would give the same traces
        else:
            walkers = [_PathWalker(t, domains, loops) for t in program.threads]
            all_traces = [w.run() for w in walkers]
            if not any(w.used_domains for w in walkers):
                fixed = all_traces
        walked = {loc: frozenset(vs) for loc, vs in domains.items()}
        if round_no == rounds:
            return all_traces, walked, fixed is None
        changed = False
        # each round extends the chains of writes by one: values come from the domains as the
        # round began (values added during the round would feed each other, and six
        # store-conditionals of one thread, with their 64 paths, overflowed the domains)
        before = walked
        for traces in all_traces:
            for tr in traces:
                for ev in tr.events:
                    if ev.kind != "W":
                        continue
                    dom = domains.setdefault(ev.loc, {program.init.get(ev.loc, 0)})
                    for v in _possible_values(ev.value, tr, before):
                        if v not in dom:
                            dom.add(v)
                            changed = True
                    if len(dom) > MAX_DOMAIN:
                        err = UnsupportedError(
                            f"location '{ev.loc}' may hold more than {MAX_DOMAIN} values; "
                            "the axiomatic checker needs small value domains")
                        err.location = ev.loc
                        raise err
        if not changed:
            return all_traces, walked, fixed is None
    return all_traces, walked, fixed is None


def thin_air_traces(program: Program, locations: list[str] | None = None, loops: LoopBound | None = None):
    """Every path of every thread, and apart, the paths only a value out of thin air takes.

    Returns ``(traces, extra)``: ``traces`` as ``thread_traces`` gives them; ``extra[t]``
    the paths of thread ``t`` that fork on a value no chain of writes from the initial
    state produces, but a cycle of reads-from and dependencies may justify (cyc: ``r0 = x;
    if (r0) y = 1;`` against its mirror, both reading 1). Such values are looked for among
    the program's integer constants, closed under what the writes compute from them; every
    execution with one of these paths has such a cycle, so a model with a no-thin-air
    axiom forbids them all. ``extra`` is None when no path forks on a value, and a
    ``thin_air.SeedOverflow`` when the seeded domains would exceed MAX_DOMAIN values."""
    if locations is None:
        locations = program.locations
    traces, grounded, forked = _grounded(program, locations, loops)
    if not forked:
        return traces, None
    seeds = _int_constants(program)
    domains = {loc: set(vs) | (seeds if all(isinstance(v, int) for v in vs) else set())
               for loc, vs in grounded.items()}
    if all(domains[loc] == set(grounded[loc]) for loc in grounded):
        return traces, None
    try:
        wide = _fixpoint(program, domains, loops)[0]
    except UnsupportedError as err:
        if getattr(err, "location", None) is None:  # a path the seeds make unsupported: grounded values only
            return traces, None
        # too many values: the checker refuses, unless the model forbids thin air (see thin_air.py)
        return traces, SeedOverflow(err.location, MAX_DOMAIN)
    extra = []
    for paths in wide:
        extra.append([])
        for tr in paths:
            tr.beyond = _beyond(tr, grounded)
            if tr.beyond:
                extra[-1].append(tr)
    return traces, (extra if any(extra) else None)


def _beyond(trace: Trace, grounded) -> tuple:
    """The (location, value) of each read ``trace`` pins to a value outside the grounded domains."""
    locs = {ev.read: ev.loc for ev in trace.events if ev.kind == "R"}
    return tuple((locs[k], v) for k, v in sorted(trace.pins.items())
                 if k in locs and v not in grounded.get(locs[k], ()))


def supplied(combo) -> bool:
    """Can every value out of thin air that the paths ``combo`` assume be read from one of
    their writes? (A write of that value, or of a value computed from reads; else the
    combination has no candidate and is not built.)"""
    writes = [ev for tr in combo for ev in tr.events if ev.kind == "W"]
    return all(any(w.loc == loc and (w.value == v or isinstance(w.value, tuple)) for w in writes)
               for tr in combo for loc, v in tr.beyond)


def _int_constants(program: Program) -> set:
    """The integer constants of the program's instructions and initial state."""
    out: set = {v for v in program.init.values() if isinstance(v, int)}

    def walk(e) -> None:
        if isinstance(e, Const):
            if isinstance(e.value, int) and not isinstance(e.value, bool):
                out.add(e.value)
        elif isinstance(e, BinOp):
            walk(e.left)
            walk(e.right)
        elif isinstance(e, UnOp):
            walk(e.arg)

    for t in program.threads:
        for ins in t.instrs:
            for name in ("value", "new", "cond", "expr"):
                e = getattr(ins, name, None)
                if e is not None:
                    walk(e)
    return out


def _possible_values(sym, trace: Trace, domains) -> set:
    if is_concrete(sym):
        return {sym}
    vs = sorted(variables(sym))
    locs = {ev.read: ev.loc for ev in trace.events if ev.kind == "R"}
    doms = [sorted(domains.get(locs[v], {0}), key=str) for v in vs]
    out = set()
    for combo in product(*doms):
        try:
            out.add(value_of(sym, dict(zip(vs, combo))))
        except UnsupportedError:
            pass
    return out
