"""Explorer states and the program compiled for one model: locations, registers, instructions.

A state is ``(memory, threads)``: ``memory`` a tuple of values indexed by location,
``threads`` a tuple of ``(pc, registers, pending)`` per thread, where ``registers`` is a
tuple of values (see ``deferred``) and ``pending`` the issued but not yet performed
memory operations in program order. Everything is a tuple, so a state is its own
canonical hashable key. Pending operations are tuples whose first field is their kind:

* ``(READ, d, loc, instr, flags)``               a load; its value goes to placeholder ``("?", pos)``;
  ``flags``: CONSUMED (a load-reserved an sc, or a newer lr, has ended), PAIRED (its sc will succeed)
* ``(WRITE, d, loc, instr, value)``              a store (value possibly deferred); a succeeding
  store-conditional has a sixth field, True: its status register waits for it and reads 0
* ``(RMW, dR, loc, instr, dW, new, cond, must_fail, may_fail)``  a read-modify-write not yet read
  (``may_fail``: a non-blocking compare-and-swap, which a later operation may commit to fail)
* ``(HALF, dW, loc, instr, value, forwarded)``   the write half of a split read-modify-write
  (``forwarded``: its read took the value of a pending own write)
* ``(FENCE, d, None, instr)``                    a fence that still holds something back
* ``(RESV, d, loc, instr, paired)``             the reservation of a performed load-reserved
  (``lr``): no other thread writes ``loc`` until a store-conditional ends it (``paired``: the
  sc was issued to succeed and ends it when performed)
* ``(GUARD, g, None, instr, value, expected)``    a guess the thread went on with: the branch at
  ``instr`` goes the ``expected`` way (``g`` = G_CTRL) or the access after the guard is at
  location ``expected`` (G_ADDR), while ``value`` still waits for pending reads. It holds back
  the later accesses the model keeps after those reads (``ThreadRules.hold``); once the reads
  are performed it is dropped if the guess was right, and the path is discarded if not.
  When the model does not honour ``addr``, the access itself is performed at the guessed
  location before those reads (value speculation). ``g`` = G_DATA: a write (or a CAS) already
  performed on a guessed value or comparison outcome; ``value`` must prove true.
"""

from __future__ import annotations

from ....axiomatic.checker import observed_keys
from ....core.condition import FinalState
from ....core.errors import UnsupportedError
from ....core.program import (
    Assign, Assume, AtomicBegin, AtomicEnd, Branch, Fence, Load, Nop, Program, Rmw, Store, StoreCond,
)
from .deferred import compile_expr
from .enabling import G_CTRL, ModelRules, ThreadRules

READ, WRITE, RMW, HALF, FENCE, GUARD, RESV = range(7)
KIND_TEXT = {READ: "R", WRITE: "W", RMW: "RMW", HALF: "W*", FENCE: "F", GUARD: "?", RESV: "res"}
CONSUMED, PAIRED = 2, 4  # flags of a pending READ

# compiled instructions: (opcode, ...)
I_NOP, I_LOAD, I_STORE, I_RMW, I_FENCE, I_ASSIGN, I_BRANCH, I_ASSUME, I_SC, I_ATOMIC = range(10)


class CompiledThread:
    """One thread's instructions over register indices, with its enabling rules."""

    def __init__(self, thread, rules: ThreadRules):
        self.thread = thread
        self.tid = thread.tid
        self.name = thread.name
        self.rules = rules
        regs: dict[str, None] = dict.fromkeys(sorted(thread.registers()))
        for ins in thread.instrs:
            for r in sorted(registers_read(ins)):
                if r != "%old":
                    regs.setdefault(r, None)
        self.reg_names = list(regs)
        self.reg_index = {r: i for i, r in enumerate(self.reg_names)}
        self.init_regs = tuple(thread.reg_init.get(r, 0) for r in self.reg_names)
        self.code = [self._compile(k, ins) for k, ins in enumerate(thread.instrs)]
        self.length = len(self.code)
        self.uses_rmw = any(c[0] in (I_RMW, I_SC, I_ATOMIC) for c in self.code)
        # load-reserved descriptors, and per pc (and the end): may a store-conditional still be issued?
        self.lr_desc = frozenset(rules.halves[k][0] for k, ins in enumerate(thread.instrs)
                                 if isinstance(ins, Load) and "lr" in ins.annots)
        self.sc_ahead = _sc_ahead(thread)
        self.keep: list[tuple[bool, ...] | None] = []  # per pc: which registers are live, None = all
        self.spin_edges: dict[int, bool] = {}  # spin loops' deciding branches: the way out (spin_loops)

    def set_observed(self, observed: set[str]) -> None:
        """Compute register liveness; ``observed`` are the registers the final state shows."""
        live = register_liveness(self.thread, self.reg_index, observed)
        self.keep = [None if all(k) else k for k in live]

    def canonical(self, pc: int, regs: tuple) -> tuple:
        """Registers dead at ``pc`` (never read again before written, not observed) read as 0."""
        keep = self.keep[pc]
        if keep is None:
            return regs
        return tuple(v if k else 0 for v, k in zip(regs, keep))

    def _compile(self, k: int, ins):
        ri = self.reg_index

        def c(e):
            return compile_expr(e, ri) if e is not None else None

        if isinstance(ins, Load):
            return (I_LOAD, ri[ins.dst] if ins.dst else None, c(ins.addr), self.rules.halves[k][0])
        if isinstance(ins, Store):
            return (I_STORE, c(ins.addr), c(ins.value), self.rules.halves[k][0])
        if isinstance(ins, Rmw):
            d_r, d_w = self.rules.halves[k]
            return (I_RMW, ri[ins.dst] if ins.dst else None, c(ins.addr), c(ins.new), c(ins.cond),
                    ins.blocking, d_r, d_w, self.rules.atomic[k])
        if isinstance(ins, StoreCond):
            # reservation_dep (PPC stwcx., ARM STREX): herd makes the status depend on every register
            # the instruction reads, its reservation's address included (reservations.store_conditional)
            return (I_SC, ri[ins.dst] if ins.dst else None, c(ins.addr), c(ins.value), self.rules.halves[k][0],
                    ins.reservation_dep is not None)
        if isinstance(ins, Fence):
            return (I_FENCE, self.rules.halves[k][0])
        if isinstance(ins, Assign):
            return (I_ASSIGN, ri[ins.dst], c(ins.expr))
        if isinstance(ins, Branch):
            if ins.choice:  # either way, nondeterministically
                return (I_BRANCH, c(ins.cond), ins.target, True)
            return (I_BRANCH, c(ins.cond), ins.target)
        if isinstance(ins, Assume):
            return (I_ASSUME, c(ins.cond))
        if isinstance(ins, (Nop, AtomicEnd)):  # an atomic block's end is reached inside its step
            return (I_NOP,)
        if isinstance(ins, AtomicBegin):
            return (I_ATOMIC, ins.end)
        raise UnsupportedError(f"instruction {type(ins).__name__} is not supported by the explorer", ins.pos)

    def skip_nops(self, pc: int) -> int:
        code = self.code
        while pc < self.length and code[pc][0] == I_NOP:
            pc += 1
        return pc


class Machine:
    """A program compiled for one model: what the transition relation and the search read."""

    def __init__(self, program: Program, rules: ModelRules):
        self.program = program
        self.rules = rules
        self.locations = sorted(program.locations)
        self.loc_index = {loc: i for i, loc in enumerate(self.locations)}
        self.threads = [CompiledThread(t, rules.thread_rules(t)) for t in program.threads]
        if not program.state_property:  # the argument of spin_loops is about final states
            for t in self.threads:
                t.spin_edges = spin_back_edges(t.thread)
        # reservations (RMW halves, lr) block other threads' writes
        self.uses_rmw = any(t.uses_rmw for t in self.threads)
        self._check_dependencies()
        observed = {k for k in observed_keys(program) if k[0] == "reg"}
        if program.filter is not None:
            observed |= {k for k in program.filter.keys() if k[0] == "reg"}
        for t in self.threads:
            t.set_observed({k[2] for k in observed if k[1] == t.tid})

    def initial_state(self):
        return self.initial_states()[0]

    def initial_states(self) -> list:
        """One initial state per choice of the program's `*` initial values (one when none)."""
        program = self.program
        if not program.init_choices and not any(t.reg_choices for t in program.threads):
            choices = [(program.init, {t.tid: t.reg_init for t in program.threads})]
        else:
            choices = program.initial_choices()
        out: dict = {}
        for init, reg_init in choices:
            mem = tuple(init.get(loc, 0) for loc in self.locations)
            threads = []
            for t in self.threads:
                pc = t.skip_nops(0)
                regs = tuple(reg_init[t.tid].get(r, 0) for r in t.reg_names)
                threads.append((pc, t.canonical(pc, regs), ()))
            out[(mem, tuple(threads))] = None
        return list(out)

    def at_values(self, state) -> dict | None:
        """Where each thread is (keys ("at", tid): the label of its pc, else "#pc"), or None while
        some thread goes on from a guess not yet confirmed (the state may never happen)."""
        values = {}
        for t, (pc, _, pending) in zip(self.threads, state[1]):
            for o in pending:
                if o[0] == GUARD:
                    return None
            values[("at", t.tid)] = t.thread.pc_labels.get(waiting_pc(t, pc, pending), f"#{pc}")
        return values

    def location(self, value, thread: CompiledThread, pc: int) -> int:
        """The index of the location an address evaluates to (it must name one)."""
        idx = self.loc_index.get(value) if isinstance(value, str) else None
        if idx is None:
            ins = thread.thread.instrs[pc]
            raise UnsupportedError(
                f"{thread.name} instruction {pc + 1} ('{ins.text}') accesses address {value!r}, "
                "which is not a location", ins.pos)
        return idx

    def memory_values(self, mem) -> tuple:
        """The value of each location (a per-thread machine's storage: its coherence-latest writes)."""
        return mem

    def read_value(self, state, t: int, loc: int):
        """The value thread ``t`` reads at ``loc`` from memory now."""
        return state[0][loc]

    def memory_text(self, mem) -> str:
        return " ".join(f"{loc}={v}" for loc, v in zip(self.locations, mem))

    def is_final(self, state) -> bool:
        return all(pc == t.length and not pending for t, (pc, _, pending) in zip(self.threads, state[1]))

    def final_values(self, state) -> dict:
        """Every location and register of a final state, keyed like the axiomatic checker's."""
        mem, threads = state
        values: dict = {("mem", loc): mem[i] for i, loc in enumerate(self.locations)}
        for t, (_, regs, _) in zip(self.threads, threads):
            for name, v in zip(t.reg_names, regs):
                values[("reg", t.tid, name)] = v
        return values

    def final_state(self, state, keys) -> FinalState:
        return FinalState.of(self.final_values(state), keys)

    def _check_dependencies(self) -> None:
        """Refuse what the explorer cannot speculate on, by name; prepare value speculation.

        Under a model that does not honour addr or data, an access is performed at a guessed
        address, or a write with a guessed value (among the value ranges, ``ranges.py``), and
        the guess is checked once the reads are performed. Branches are guessed forward only:
        a loop whose back edge tests a pending read would be unrolled without bound.
        """
        name = self.rules.model.name
        self.ranges = None
        for t in self.threads:
            refuse_cas_dependencies(t.thread)
            if self.rules.model.per_thread:  # its own rules: no value speculation
                for relation in ("addr", "data"):
                    why = t.rules.value_speculation[relation]
                    ins = _dependent_instruction(t.thread, relation) if why else None
                    if ins is not None:
                        raise UnsupportedError(
                            f"model '{name}' lets an access be performed before a read it depends on by "
                            f"{relation} ({why}); the explorer performs an access after the reads its address "
                            f"and stored value come from, and {t.name} has such a dependency at '{ins.text}'",
                            ins.pos)
            # addr: an access at a guessed location (every location its address may name);
            # data: a write of a guessed value, among every value it may write (ranges.py)
            elif self.ranges is None and t.rules.value_speculation["data"] and \
                    _dependent_instruction(t.thread, "data"):
                from .ranges import ValueRanges

                self.ranges = ValueRanges(self.program, self.locations)
            why = t.rules.speculates[G_CTRL]
            ins = _dependent_instruction(t.thread, "loop", t.spin_edges) if why else None
            if ins is not None:
                raise UnsupportedError(
                    f"model '{name}' lets an access be performed before a read it is control dependent on "
                    f"(ctrl: {why}); the explorer speculates past branches in loop-free code only, and "
                    f"{t.name} has a loop and branches at '{ins.text}' on a value it loads", ins.pos,
                    hint="run the loop-free form of the test, or use a model that honours ctrl for every pair")


def refuse_cas_dependencies(thread) -> None:
    """Refuse, by name, a compare-and-swap whose dependencies herd splits in ways the
    explorer's one-step read-modify-write cannot (``Rmw.compared``, the AArch64 CAS): a
    compared register that may hold a loaded value (herd orders only the write after it,
    the explorer would make the read wait too), or a result register a later instruction
    reads other than as a branch condition (herd takes its dependencies from the read or
    from the compared register, either way; a branch on it orders the same later writes
    either way). The axiomatic checker runs both, as herd does."""
    instrs = thread.instrs
    if not any(isinstance(ins, Rmw) and ins.compared is not None for ins in instrs):
        return
    loaded = _loaded_at(instrs)
    for pc, ins in enumerate(instrs):
        if not isinstance(ins, Rmw) or ins.compared is None:
            continue
        if ins.compared.regs() & loaded[pc]:
            raise UnsupportedError(
                f"{thread.name}: the compared register of '{ins.text}' holds a loaded value; herd orders only "
                "the CAS's write after that load, which the explorer's one-step CAS cannot", ins.pos,
                hint="use the axiomatic checker (--engine axiomatic)")
        if ins.dst is not None and any(ins.dst in _used_registers(later) for later in instrs[pc + 1:]
                                       if not isinstance(later, (Branch, Assume))):
            raise UnsupportedError(
                f"{thread.name}: a later instruction reads the result register of '{ins.text}', whose "
                "dependencies herd takes from the read or from the compared register (both ways); the "
                "explorer has only the first", ins.pos, hint="use the axiomatic checker (--engine axiomatic)")


def _loaded_at(instrs) -> list[set[str]]:
    """For each instruction, the registers that may hold a loaded value (or one computed
    from it) when it runs, over every path (a forward fixpoint over the control flow)."""
    at: list[set[str]] = [set() for _ in range(len(instrs) + 1)]
    changed = True
    while changed:
        changed = False
        for pc, ins in enumerate(instrs):
            out = set(at[pc])
            dst = getattr(ins, "dst", None)
            if dst is not None and isinstance(ins, (Load, Rmw, StoreCond)):
                out.add(dst)
            elif dst is not None and isinstance(ins, Assign):
                (out.add if ins.expr.regs() & at[pc] else out.discard)(dst)
            nexts = [ins.target] if isinstance(ins, Branch) and ins.cond is None else \
                [ins.target, pc + 1] if isinstance(ins, Branch) else [pc + 1]
            for n in nexts:
                if not out <= at[n]:
                    at[n] |= out
                    changed = True
    return at


def _used_registers(ins) -> frozenset:
    out: frozenset = frozenset()
    for attr in ("addr", "value", "new", "cond", "expr", "compared"):
        e = getattr(ins, attr, None)
        if e is not None and hasattr(e, "regs"):
            out |= e.regs()
    return out


def _loaded_registers(thread) -> set[str]:
    """The registers that (transitively) hold a loaded value."""
    tainted: set[str] = set()
    changed = True
    while changed:
        changed = False
        for ins in thread.instrs:
            dst = getattr(ins, "dst", None)
            if dst is None or dst in tainted:
                continue
            if isinstance(ins, (Load, Rmw, StoreCond)) or (isinstance(ins, Assign) and ins.expr.regs() & tainted):
                tainted.add(dst)
                changed = True
    return tainted


def _dependent_instruction(thread, relation: str, spin_edges=()):
    """The first instruction that uses a loaded register by ``relation``.

    ``addr``: as an address; ``data``: as a stored value (or a read-modify-write's new value
    or condition); ``loop``: in the condition of a branch, in a thread that has a loop (a
    backward branch), where guessing branches could issue without end -- except the branches
    that decide spin loops (``spin_edges``), which are guessed only to leave the loop.
    """
    loops = any(isinstance(ins, Branch) and ins.target <= pc for pc, ins in enumerate(thread.instrs))
    tainted = _loaded_registers(thread)
    for pc, ins in enumerate(thread.instrs):
        used: frozenset = frozenset()
        if relation == "addr" and isinstance(ins, (Load, Store, Rmw, StoreCond)):
            used = ins.addr.regs()
        if relation == "data" and isinstance(ins, (Store, StoreCond)):
            used |= ins.value.regs()
        if relation == "data" and isinstance(ins, Rmw):
            used |= ins.new.regs() | (ins.cond.regs() if ins.cond is not None else frozenset())
        if (relation == "loop" and isinstance(ins, (Branch, Assume)) and ins.cond is not None and loops
                and pc not in spin_edges):
            used |= ins.cond.regs()
        if used & tainted:
            return ins
    return None


def spin_loops(thread) -> list[tuple[int, int, int, bool]]:
    """The thread's spin loops as (top, back edge, the branch to guess, the way that leaves).

    A spin loop is a backward branch whose body (its target up to it) holds only plain
    loads, register assignments, fences, no-ops and the one conditional branch that
    decides it -- the back edge itself (``Loop: lwz; cmpwi; beq Loop``), or, before an
    unconditional back edge, a branch out of the loop (C's ``while (*flag == 0) {}``) --
    that carries no register from one iteration to the next (each register the body reads
    it writes first, or never writes), and that is entered only at its top. Guessing that
    branch to stay in the loop would issue without end; guessing it only to leave loses no
    final state. In a run that speculated into later iterations, drop every iteration but
    the last: the dropped ones wrote nothing to memory and only registers the last one
    writes again, and dropping a read or a fence step only removes what later steps
    waited for, so the rest is a run that left the loop on its first guess, with the same
    final state. (The argument is about final states; a state property also sees the pcs.)
    """
    out = []
    instrs = thread.instrs
    for b, ins in enumerate(instrs):
        if not (isinstance(ins, Branch) and not ins.choice and ins.target <= b):
            continue
        h = ins.target
        body = instrs[h:b]
        deciders = [k for k in range(h, b) if isinstance(instrs[k], Branch)]
        if ins.cond is not None:
            guard, leave = b, False
            if deciders:
                continue
        else:
            if len(deciders) != 1:
                continue
            guard = deciders[0]
            e = instrs[guard]
            if e.cond is None or e.choice or h <= e.target <= b:
                continue
            leave = True
        if not all(isinstance(i, (Load, Assign, Fence, Nop, Branch)) and not (isinstance(i, Load) and "lr" in i.annots)
                   for i in body):
            continue
        written = {i.dst for i in body if getattr(i, "dst", None)}
        defined: set[str] = set()
        carried = False
        for i in list(body) + [ins]:
            if (registers_read(i) - defined) & written:
                carried = True
                break
            if getattr(i, "dst", None):
                defined.add(i.dst)
        entered = any(isinstance(j, Branch) and h < j.target <= b for k, j in enumerate(instrs) if k != b)
        if not carried and not entered:
            out.append((h, b, guard, leave))
    return out


def spin_back_edges(thread) -> dict[int, bool]:
    """Per pc of a branch that decides a spin loop (``spin_loops``), the way a guess on it takes: out."""
    return {guard: leave for _, _, guard, leave in spin_loops(thread)}


def _sc_ahead(thread) -> list[bool]:
    """Per pc (and the end): can the thread still issue a store-conditional from there?"""
    n = len(thread.instrs)
    succs = control_successors(thread)
    ahead = [isinstance(ins, StoreCond) for ins in thread.instrs] + [False]
    changed = True
    while changed:
        changed = False
        for pc in range(n - 1, -1, -1):
            if not ahead[pc] and any(ahead[q] for q in succs[pc]):
                ahead[pc] = changed = True
    return ahead


def control_successors(thread) -> list[tuple[int, ...]]:
    """Per instruction, the positions control may go to next (``len(instrs)`` is the end)."""
    n = len(thread.instrs)
    out = []
    for pc, ins in enumerate(thread.instrs):
        if isinstance(ins, Branch):
            succ = (ins.target,) if ins.cond is None else (ins.target, pc + 1)
        else:
            succ = (pc + 1,)
        out.append(tuple(min(q, n) for q in succ))
    return out


def registers_read(ins) -> frozenset[str]:
    """The registers an instruction reads (its address, value, new value, condition or expression)."""
    used: frozenset[str] = frozenset()
    for attr in ("addr", "value", "new", "cond", "expr"):
        e = getattr(ins, attr, None)
        if e is not None:
            used |= e.regs()
    return used


def register_liveness(thread, reg_index: dict[str, int], observed: set[str]) -> list[tuple[bool, ...]]:
    """Per pc (and the end), which registers may still be read: a backward fixpoint over the CFG."""
    n = len(thread.instrs)
    nregs = len(reg_index)

    def mask(names) -> int:
        m = 0
        for r in names:
            if r in reg_index:
                m |= 1 << reg_index[r]
        return m

    uses, defs = [], []
    for ins in thread.instrs:
        dst = getattr(ins, "dst", None)
        uses.append(mask(registers_read(ins)))
        defs.append(mask([dst]) if dst else 0)
    succs = control_successors(thread)
    live = [0] * n + [mask(observed)]
    changed = True
    while changed:
        changed = False
        for pc in range(n - 1, -1, -1):
            out = 0
            for s in succs[pc]:
                out |= live[s]
            new = uses[pc] | (out & ~defs[pc])
            if new != live[pc]:
                live[pc] = new
                changed = True
    return [tuple(bool((m >> i) & 1) for i in range(nregs)) for m in live]


def waiting_pc(t: CompiledThread, pc: int, pending) -> int:
    """Where thread ``t`` is for a state property: its pc, or the instruction of its oldest pending
    blocking read-modify-write (a lock, Memorax's ``cas``), which it has issued but may wait at
    forever: it is not past that instruction until the operation is performed."""
    for o in pending:
        if o[0] == RMW and t.code[o[3]][5]:
            return o[3]
    return pc
