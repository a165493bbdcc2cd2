"""What one explored state space says about each step and location: who accesses what, under
which locks, and so which accesses are race-free (thread-local, read-only or lock-protected)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...explorer.machines.table.state import FENCE, GUARD, HALF, READ, RMW, WRITE
from ...explorer.machines.table.transitions import PERFORM, RMW_FAIL
from ...core.program import INDEX
from ...litmus.cprog.atomic_blocks import LOCATION
from ...litmus.cprog.lower import ASSERT_REG

LOCAL, ACQUIRE, RELEASE, ACCESS, MARKER = "local", "acquire", "release", "access", "marker"


@dataclass(frozen=True)
class Step:
    """One transition read for the atomicity check (``kind`` one of the names above)."""

    tid: int
    kind: str
    loc: str | None = None
    reads: tuple = ()  # values it read (empty: none, or forwarded from its own write)
    writes: bool = False
    value: object = None  # the value it leaves at ``loc`` (writes), the block number (markers)
    instr: int | None = None


@dataclass
class LocationFacts:
    """One location's accesses while another thread was alive (Eraser's lock-set, after Savage et al.)."""

    threads: set = field(default_factory=set)
    written: bool = False
    lockset: frozenset | None = None  # locks held at every such access (None: no access yet)

    def note(self, tid: int, writes: bool, held: frozenset) -> None:
        self.threads.add(tid)
        self.written |= writes
        self.lockset = held if self.lockset is None else self.lockset & held

    def why_race_free(self) -> str | None:
        """"thread-local", "read-only", "protected by m" — or None when two threads may race on it."""
        if len(self.threads) <= 1:
            return "thread-local"
        if not self.written:
            return "read-only"
        if self.lockset:
            return "protected by " + ", ".join(sorted(self.lockset))
        return None


class SpaceFacts:
    """The steps of every edge of a state space and the facts of every location, from one pass."""

    def __init__(self, machine, found):
        self.m = machine
        self.found = found
        self.locs = machine.locations
        self.lock_locs = self._lock_locations()
        self.marker_locs = {i: int(name[len(LOCATION):]) for i, name in enumerate(self.locs)
                            if name.startswith(LOCATION) and name[len(LOCATION):].isdigit()}
        self.starts = {int(name[7:]): i for i, name in enumerate(self.locs)
                       if name.startswith("__start") and name[7:].isdigit()}
        self.assert_reg = [th.reg_names.index(ASSERT_REG) if ASSERT_REG in th.reg_names else None
                           for th in machine.threads]
        self.locations: dict[str, LocationFacts] = {}
        self._scan()

    # ---- per state -------------------------------------------------------------------------
    def _lock_locations(self) -> set:
        out = set()
        for th in self.m.threads:
            for ins in th.thread.instrs:
                if "lock" in getattr(ins, "annots", ()) or "unlock" in getattr(ins, "annots", ()):
                    addr = getattr(ins, "addr", None)
                    name = getattr(addr, "value", None)
                    op = getattr(addr, "op", "")
                    if isinstance(name, str) and name in self.m.loc_index:
                        out.add(self.m.loc_index[name])
                    elif isinstance(op, str) and op.startswith(INDEX):  # an element of an array of mutexes
                        base = op.split(":")[1]
                        out |= {i for i, n in enumerate(self.locs) if n.startswith(base + "[")}
        return out

    def held(self, state, tid: int) -> frozenset:
        """The mutexes ``tid`` holds in ``state`` (a mutex holds its owner's number + 1)."""
        mem = state[0]
        return frozenset(self.locs[i] for i in self.lock_locs if mem[i] == tid + 1)

    def region(self, state, tid: int) -> int:
        """The atomic blocks ``tid`` is in, as a bit mask (0: none; ``open_blocks`` lists them)."""
        for i, t in self.marker_locs.items():
            if t == tid:
                return state[0][i]
        return 0

    def failed(self, state, tid: int) -> bool:
        """Whether ``tid`` has failed an assertion (and so left for its end)."""
        k = self.assert_reg[tid]
        return k is not None and state[1][tid][1][k] != 0

    def alive(self, state, tid: int) -> bool:
        """Started and not yet at its end with nothing pending."""
        pc, _, pending = state[1][tid]
        if pc >= self.m.threads[tid].length and not pending:
            return False
        return tid == 0 or tid not in self.starts or state[0][self.starts[tid]] == 1

    # ---- per edge --------------------------------------------------------------------------
    def step(self, src, dst, tr) -> Step:
        t = tr.tid
        if tr.action != PERFORM:
            return Step(t, LOCAL)  # an issue changes only the thread's own registers and pending list
        op = src[1][t][2][tr.pos]
        kind = op[0]
        if kind in (FENCE, GUARD) or op[2] is None:
            return Step(t, LOCAL, instr=op[3])
        li = op[2]
        name = self.locs[li]
        if li in self.marker_locs:
            return Step(t, MARKER, name, value=dst[0][li], instr=op[3])
        ins = self.m.threads[t].thread.instrs[op[3]]
        annots = getattr(ins, "annots", ())
        if kind == RMW and "lock" in annots:
            return Step(t, ACQUIRE, name, reads=(src[0][li],), writes=True, value=dst[0][li], instr=op[3])
        if kind in (WRITE, HALF) and "unlock" in annots:
            return Step(t, RELEASE, name, writes=True, value=dst[0][li], instr=op[3])
        if kind == READ:
            reads = (src[0][li],) if tr.source < 0 else ()
            return Step(t, ACCESS, name, reads=reads, instr=op[3])
        if kind == RMW:  # a .rmm 'read: x = e' waits as one step writing back what it read: a read
            reads = (src[0][li],) if tr.source < 0 else ()
            return Step(t, ACCESS, name, reads=reads, writes=tr.outcome != RMW_FAIL and "await" not in annots,
                        value=dst[0][li], instr=op[3])
        return Step(t, ACCESS, name, writes=True, value=dst[0][li], instr=op[3])

    def _scan(self) -> None:
        states = self.found.state_list
        self.steps: dict[tuple, Step] = {}
        for src_id, dst_id, tr in self.found.edges:
            src, dst = states[src_id], states[dst_id]
            st = self.step(src, dst, tr)
            self.steps[(src_id, dst_id, tr)] = st
            if st.kind in (LOCAL, MARKER) or st.loc.startswith("__"):
                continue
            if not any(self.alive(src, u) for u in range(len(self.m.threads)) if u != st.tid):
                continue  # nobody else runs (before the first pthread_create, after the last join)
            held = self.held(src, st.tid) - {st.loc}
            self.locations.setdefault(st.loc, LocationFacts()).note(st.tid, st.writes, held)

    def race_free(self, loc: str) -> str | None:
        facts = self.locations.get(loc)
        return "never shared" if facts is None else facts.why_race_free()
