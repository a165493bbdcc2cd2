"""The transition relation: issue the next instruction of a thread, or perform a pending operation.

Issue (program order): local computation completes at once; a load, store,
read-modify-write or fence is appended to the thread's pending list. An instruction
whose address, or a branch (or ``assume``) whose condition, waits for a pending read is
not issued yet -- unless the model lets later accesses overtake that read (it does not
honour ``ctrl``, or ``addr;po``, for some pair): then the thread goes on with a guess
(the branch taken or not, the address each location), recorded as a *guard* in the
pending list; a stored value may stay deferred.

Perform (any order the model allows): a pending operation may be performed when, for
every earlier pending operation of its thread, the pair's code allows it (``enabling``),
no fence between them orders the pair, and its own value is known. A read takes its
value then: from the newest earlier pending own write to the location when the model
forwards, else from memory. A read-modify-write is performed in one step when its two
halves cannot be told apart by the model (``ThreadRules.atomic``); otherwise its read is
performed first (the location is then reserved: no other thread writes it until the
write half is performed, which is RMW atomicity, ``empty rmw & (fre ; coe)``). A blocking
RMW (a lock) is performed only when its condition holds. A later operation may pass a
pending compare-and-swap whose read it may pass but not its write only by committing the
CAS to fail.
"""

from __future__ import annotations

from typing import NamedTuple

from ....core.errors import MmdslError, UnsupportedError
from ....core.program import CELL, cell_location
from .atomic_block import block_may_go, run_block
from .deferred import combine, evaluate, rmw_check, is_deferred, placeholders, resolve, waits_for_reads, with_old
from .enabling import G_ADDR, G_CTRL, G_DATA
from .passing import drop_dead_fences, holds, issued_for_sure, may_pass
from .reservations import (
    drop_reservations, end_reservations, latest_lr, remove_entry, reservations, resolve_op, store_conditional,
)
from .state import (
    CONSUMED, FENCE, GUARD, HALF, I_ASSIGN, I_ASSUME, I_ATOMIC, I_BRANCH, I_FENCE, I_LOAD, I_RMW, I_SC,
    I_STORE,
    PAIRED, READ, RESV, RMW, WRITE, Machine,
)


ISSUE, PERFORM = 0, 1
LOCAL, READS, WRITES = 0, 1, 2  # what a transition does to shared memory (for the reduction)

MEMO_LIMIT = 200_000  # memoised thread steps kept before the memo is cleared

# outcomes of performing a read-modify-write (and a load-reserved that takes its reservation);
# issuing a store-conditional: R_PLAIN fails, SC_SUCCEEDS succeeds
R_PLAIN, RMW_WHOLE, RMW_FAIL, RMW_READ, LR_RESERVES = range(5)
SC_SUCCEEDS = 1

# what enabled() returns for a state whose thread went on with a guess that proved wrong:
# the path never happened (it is dropped, neither a final state nor a deadlock)
MISSPECULATED = "misspeculated"


class Transition(NamedTuple):
    tid: int
    action: int  # ISSUE or PERFORM
    pos: int  # the pc (issue) or the position in the pending list (perform)
    source: int = -1  # perform of a read: position of the own write it forwards from, -1 = memory
    commits: tuple = ()  # positions of pending compare-and-swaps that commit to fail
    access: int = LOCAL
    loc: int = -1
    outcome: int = R_PLAIN
    guess: object = None  # issue on a guess: the branch taken (bool) or the address (location name)


class PendingLimit(MmdslError):
    """A thread's pending list outgrew --max-pending."""

    kind = "limit"


class Semantics:
    """Enabled transitions of a state and their effect, for one compiled program."""

    def __init__(self, machine: Machine, max_pending: int, bounded: bool = False):
        self.m = machine
        self.max_pending = max_pending
        # bounded: a thread whose pending list is full waits (a bound on buffers, for programs
        # that loop forever) instead of raising PendingLimit
        self.bounded = bounded
        self.forwarding = machine.rules.forwarding
        self.max_seen = 0
        self.uses_rmw = machine.uses_rmw
        # A thread's enabled transitions depend on its own state, on memory only through
        # its pending read-modify-writes (a lock's condition), and on the locations other
        # threads hold reserved; the effect of a transition on the thread depends on the
        # thread's state and the value read. Both are memoised on exactly that.
        self._enabled_memo: dict = {}
        self._apply_memo: dict = {}
        self.keys: list = []  # per thread of the state last given to enabled(): its memo key
        # per thread of that state: its memo record, [enabled transitions, what the reduction
        # derives from them or None], so the reduction need not hash the thread's state again
        self.records: list = []
        self.others: list = []  # per thread: mask of the locations other threads hold reserved

    # ---- enabledness ---------------------------------------------------------------
    def enabled(self, state) -> list[list[Transition]] | None:
        """Per thread, its enabled transitions; None when the state can never finish (assume failed),
        MISSPECULATED when a thread's guess proved wrong."""
        out = []
        memo = self._enabled_memo
        mem, threads = state
        if self.uses_rmw:
            held = [reservations(ts[2]) for ts in threads]
            anyheld = 0
            for h in held:
                anyheld |= h
            self.others = others = [0 if not anyheld else _others(held, t) for t in range(len(threads))]
            keys = [(t, ts, mem if any(o[0] == RMW for o in ts[2]) or self._at_block(t, ts) else None, others[t])
                    for t, ts in enumerate(threads)]
        else:
            keys = list(enumerate(threads))
            self.others = others = [0] * len(threads)
        self.keys = keys
        self.records = records = []
        for t, ts in enumerate(threads):
            rec = memo.get(keys[t])
            if rec is None:
                rec = [self._thread_enabled(mem, t, ts, others[t]), None]
                if len(memo) > MEMO_LIMIT:
                    memo.clear()
                memo[keys[t]] = rec
            records.append(rec)
            trs = rec[0]
            if trs is False:
                return None
            if trs is MISSPECULATED:
                return MISSPECULATED
            out.append(trs)
        return out

    def _thread_enabled(self, mem, t: int, ts, reserved: int):
        pending = ts[2]
        for o in pending:
            if o[0] == GUARD and o[4].__class__ is not tuple:  # resolved and still here: wrong
                return MISSPECULATED
        try:
            issue = self._issue(t, ts, mem, reserved)
        except UnsupportedError as err:
            raise located(err, self.m.threads[t], ts[0]) from None
        if issue is False:
            return False
        trs: list[Transition] = list(issue) if issue else []
        for p in range(len(pending)):
            if pending[p][0] < FENCE:
                try:
                    tr = self._perform(mem, t, ts, p, reserved)
                except UnsupportedError as err:
                    raise located(err, self.m.threads[t], pending[p][3]) from None
                if tr is not None:
                    if tr.__class__ is list:
                        trs.extend(tr)
                    else:
                        trs.append(tr)
        return trs

    def _at_block(self, t: int, ts) -> bool:
        """Is thread ``t`` about to issue an atomic block (whose step reads memory)?"""
        th = self.m.threads[t]
        return ts[0] < th.length and th.code[ts[0]][0] == I_ATOMIC

    def _issue(self, t: int, ts, mem=None, reserved: int = 0):
        """The issue transitions of thread ``t`` (several when it guesses), None when it must wait,
        False when its assume failed."""
        pc, regs, pending = ts
        th = self.m.threads[t]
        if pc >= th.length:
            return None
        if self.bounded and len(pending) >= self.max_pending:
            return None
        c = th.code[pc]
        op = c[0]
        speculates = th.rules.speculates
        if op in (I_LOAD, I_RMW, I_STORE, I_SC):
            addr = evaluate(c[1] if op == I_STORE else c[2], regs)
            if is_deferred(addr):
                if op == I_SC:  # failing, it has no address (no event): only a success waits for it
                    fails = [Transition(t, ISSUE, pc)]
                    if not speculates[G_ADDR]:
                        return fails
                    guesses = [Transition(t, ISSUE, pc, guess=loc) for loc in self._address_guesses(addr)]
                    return fails + self._sc_outcomes(t, pending, guesses)[len(guesses):]
                if not speculates[G_ADDR]:
                    return None
                return [Transition(t, ISSUE, pc, guess=loc) for loc in self._address_guesses(addr)]
            if op == I_SC:
                return self._sc_outcomes(t, pending, [Transition(t, ISSUE, pc)], addr)
        elif op == I_BRANCH:
            if len(c) > 3:  # a nondeterministic choice: one transition each way
                return [Transition(t, ISSUE, pc, guess=True), Transition(t, ISSUE, pc, guess=False)]
            if c[1] is not None and is_deferred(evaluate(c[1], regs)):
                if not speculates[G_CTRL]:
                    return None
                leave = th.spin_edges.get(pc)
                if leave is not None:  # a spin loop's deciding branch: guessed only to leave (spin_loops)
                    return [Transition(t, ISSUE, pc, guess=leave)]
                return [Transition(t, ISSUE, pc, guess=True), Transition(t, ISSUE, pc, guess=False)]
        elif op == I_FENCE and c[1] in th.rules.ctrl_fences:
            late = th.rules.addr_ctrl_wait.get(c[1], -1)  # wait for guessed branches (ctrl+FENCE), and for
            # addresses guessed before the latest read a branch before it uses (addr;po;ctrl+FENCE)
            if any(o[0] == GUARD and o[1] != G_DATA and (o[1] == G_CTRL or o[3] < late) for o in pending):
                return None
        elif op == I_ATOMIC:  # performed as it is issued (atomic_block)
            done = run_block(self.m, th, pc, regs, mem)
            if done is None or not block_may_go(th, pending, pc, done[2], done[1], reserved):
                return None
            return [Transition(t, ISSUE, pc, access=WRITES if done[1] else READS)]
        elif op == I_ASSUME:
            v = evaluate(c[1], regs)
            if is_deferred(v):
                if not speculates[G_CTRL]:
                    return None
                return [Transition(t, ISSUE, pc, guess=True)]
            if not v:
                return False
        return [Transition(t, ISSUE, pc)]

    def _sc_outcomes(self, t: int, pending, issues: list, addr=None) -> list:
        """A store-conditional fails, or succeeds when the thread's latest load-reserved is of its location."""
        out = list(issues)
        i = latest_lr(self.m.threads[t], pending)
        if i >= 0:
            for tr in issues:
                where = tr.guess if tr.guess is not None else addr
                if self.m.loc_index.get(where) == pending[i][2]:
                    out.append(tr._replace(outcome=SC_SUCCEEDS))
        return out

    def _address_guesses(self, addr) -> list:
        """The locations an address waiting for pending reads may turn out to be.

        Only ``+0`` arithmetic on addresses is supported (``core.program.apply_op``), so
        ``x + (r0 ^ r0)`` can only be ``x`` (anything else is an error once the reads are
        performed); otherwise (a pointer loaded from memory) every location.
        """
        if addr[0] == "u" and addr[1].startswith(CELL):  # a node's field: that field of each node
            _, pool, fld, size = addr[1].split(":")
            cells = [cell_location(pool, i, fld) for i in range(int(size) + 1)]
            return [c for c in cells if c in self.m.loc_index]
        if addr[0] == "b" and addr[1] in ("add", "or", "xor", "sub"):
            for side in (addr[2],) if addr[1] == "sub" else (addr[2], addr[3]):
                if isinstance(side, str) and side in self.m.loc_index:
                    return [side]
        return self.m.locations

    def _perform(self, mem, t: int, ts, p: int, reserved: int) -> Transition | None:
        pending = ts[2]
        op = pending[p]
        kind, d, loc = op[0], op[1], op[2]
        rules = self.m.threads[t].rules
        if kind == READ:
            src = self._source(pending, p, loc)
            if src >= 0:
                # the forwarding models' dep ; rfi
                if is_deferred(pending[src][4]) or not issued_for_sure(rules, pending, src):
                    return None
            commits = may_pass(rules, pending, p, (d,), loc, src)
            if commits is None:
                return None
            tr = Transition(t, PERFORM, p, src, commits, LOCAL if src >= 0 else READS, loc)
            th = self.m.threads[t]
            if d in th.lr_desc:  # a load-reserved: take the reservation an sc will need, or not
                flags = op[4]
                if flags & PAIRED:
                    return tr._replace(outcome=LR_RESERVES)
                if not flags & CONSUMED and th.sc_ahead[ts[0]]:
                    return [tr, tr._replace(outcome=LR_RESERVES)]
            return tr
        if kind == WRITE or kind == HALF:
            guesses = (None,)
            if is_deferred(op[4]):
                if kind == WRITE and len(op) > 5 or self._data_waits(rules, pending, op[4], d):
                    return None
                guesses = self.m.ranges.guesses(t, op[3])  # performed on a guessed value (data)
            commits = may_pass(rules, pending, p, (d,), loc, -1)
            if commits is None or (reserved >> loc) & 1:
                return None
            tr = Transition(t, PERFORM, p, -1, commits, WRITES, loc)
            return tr if guesses == (None,) else [tr._replace(guess=(True, v)) for v in guesses]
        # a read-modify-write not yet read
        new, cond, must_fail = op[5], op[6], op[7]
        th = self.m.threads[t]
        blocking, atomic = th.code[op[3]][5], th.code[op[3]][8]
        guessed = cond is not None and waits_for_reads(cond)
        if guessed and self._data_waits(rules, pending, cond, d):
            return None
        if atomic and waits_for_reads(new) and self._data_waits(rules, pending, new, op[4]):
            return None
        if guessed or atomic and waits_for_reads(new):  # performed on a guess (data), checked later
            return self._guessed_rmw(mem, t, ts, p, reserved, blocking, atomic)
        if atomic:
            commits = may_pass(rules, pending, p, (d, op[4]), loc, -1)
            if commits is None:
                return None
            old, src = mem[loc], -1
        else:
            src = self._source(pending, p, loc)
            if src >= 0:
                old = pending[src][4]
                if is_deferred(old) or not issued_for_sure(rules, pending, src):
                    return None
            else:
                old = mem[loc]
            commits = may_pass(rules, pending, p, (d,), loc, src)
            if commits is None:
                return None
        ok = True if cond is None else bool(with_old(cond, old))
        if not ok:
            if blocking:
                return None
            return Transition(t, PERFORM, p, src, commits, LOCAL if src >= 0 else READS, loc, RMW_FAIL)
        if must_fail:
            return None
        if src < 0 and (reserved >> loc) & 1:
            return None
        if atomic:
            return Transition(t, PERFORM, p, -1, commits, WRITES, loc, RMW_WHOLE)
        return Transition(t, PERFORM, p, src, commits, LOCAL if src >= 0 else WRITES, loc, RMW_READ)

    def _data_waits(self, rules, pending, value, d: int) -> bool:
        """Must descriptor ``d`` wait for the pending reads ``value`` comes from (the model keeps data)?"""
        if getattr(self.m, "ranges", None) is None:  # no value speculation on this machine
            return True
        hold = rules.value_hold["data"]
        return any(hold[pending[r][1]][d] for r in placeholders(value))

    def _guessed_rmw(self, mem, t: int, ts, p: int, reserved: int, blocking: bool, atomic: bool) -> list:
        """A read-modify-write whose comparison (or, performed whole, whose new value) waits for
        pending reads the model lets it overtake: performed on a guess -- the comparison's
        outcome, and the value written -- that a G_DATA guard checks once the reads are done."""
        pending = ts[2]
        op = pending[p]
        d, loc, new, cond, must_fail = op[1], op[2], op[5], op[6], op[7]
        rules = self.m.threads[t].rules
        src = -1 if atomic else self._source(pending, p, loc)
        if src >= 0 and (is_deferred(pending[src][4]) or not issued_for_sure(rules, pending, src)):
            return []
        commits = may_pass(rules, pending, p, (d, op[4]) if atomic else (d,), loc, src)
        if commits is None:
            return []
        old = pending[src][4] if src >= 0 else mem[loc]
        outcomes = []
        if cond is None or not waits_for_reads(with_old(cond, old)):
            outcomes = [True] if cond is None or with_old(cond, old) else [False]
        else:
            outcomes = [True] if blocking else [True, False]
        out = []
        access = LOCAL if src >= 0 else READS
        for ok in outcomes:
            if not ok:
                out.append(Transition(t, PERFORM, p, src, commits, access, loc, RMW_FAIL, guess=(False, None)))
                continue
            if must_fail or (src < 0 and (reserved >> loc) & 1):
                continue
            if not atomic:
                out.append(Transition(t, PERFORM, p, src, commits, access if src >= 0 else WRITES, loc, RMW_READ,
                                      guess=(True, None)))
            elif waits_for_reads(with_old(new, old)):
                out.extend(Transition(t, PERFORM, p, -1, commits, WRITES, loc, RMW_WHOLE, guess=(True, v))
                           for v in self.m.ranges.guesses(t, op[3]))
            else:
                out.append(Transition(t, PERFORM, p, -1, commits, WRITES, loc, RMW_WHOLE, guess=(True, None)))
        return out

    def _source(self, pending, p: int, loc: int) -> int:
        """The newest earlier pending own write to ``loc`` a read forwards from, or -1."""
        if not self.forwarding:
            return -1
        for j in range(p - 1, -1, -1):
            o = pending[j]
            if o[2] == loc and (o[0] == WRITE or o[0] == HALF):
                return j
        return -1

    def watches(self, state, t: int) -> int:
        """Locations whose writes by other threads may enable a disabled operation of ``t`` (a mask).

        Reads the reservations computed by the last ``enabled(state)``.
        """
        mask = 0
        reserved = self.others[t] if self.others else 0
        for o in state[1][t][2]:
            kind = o[0]
            if kind == RMW and (o[7] or self.m.threads[t].code[o[3]][5]):
                mask |= 1 << o[2]
            elif kind in (WRITE, HALF, RMW) and (reserved >> o[2]) & 1:
                mask |= 1 << o[2]
        return mask

    # ---- effects -------------------------------------------------------------------
    def apply(self, state, tr: Transition):
        mem, threads = state
        t = tr[0]
        ts = threads[t]
        memo = self._apply_memo
        if tr[1] == ISSUE and self._at_block(t, ts):
            th = self.m.threads[t]
            regs, writes, _ = run_block(self.m, th, ts[0], ts[1], mem)
            nxt = th.skip_nops(th.code[ts[0]][1] + 1)
            for loc, value in writes.items():
                mem = mem[:loc] + (value,) + mem[loc + 1:]
            done = (nxt, th.canonical(nxt, regs), ts[2])
            return (mem, threads[:t] + (done,) + threads[t + 1:])
        if tr[1] == ISSUE:
            key = (ts, tr)
            done = memo.get(key)
            if done is None:
                pc, regs, pending = ts
                try:
                    done = self._apply_issue(self.m.threads[t], pc, regs, pending, tr.guess, tr.outcome)
                except UnsupportedError as err:
                    raise located(err, self.m.threads[t], pc) from None
                if len(done[2]) > self.max_seen:
                    self.max_seen = len(done[2])
                self._remember(key, done)
            return (mem, threads[:t] + (done,) + threads[t + 1:])
        op = ts[2][tr[2]]
        kind = op[0]
        read = mem[op[2]] if (kind == READ or kind == RMW) and tr[3] < 0 else None
        key = (ts, tr, read)
        done = memo.get(key)
        if done is None:
            try:
                done = self._apply_perform(self.m.threads[t], ts, tr, read)
            except UnsupportedError as err:
                raise located(err, self.m.threads[t], op[3]) from None
            self._remember(key, done)
        nts, write = done
        if write is not None:
            loc = op[2]
            mem = mem[:loc] + (write,) + mem[loc + 1:]
        return (mem, threads[:t] + (nts,) + threads[t + 1:])

    def _remember(self, key, value) -> None:
        memo = self._apply_memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        memo[key] = value

    def _apply_issue(self, th, pc: int, regs: tuple, pending: tuple, guess=None, outcome: int = R_PLAIN):
        c = th.code[pc]
        op = c[0]
        nxt = pc + 1
        if op == I_SC and outcome != SC_SUCCEEDS:  # a failing store-conditional: no event
            regs, pending = store_conditional(th, c, pc, -1, regs, pending, False)
        elif op == I_LOAD or op == I_STORE or op == I_RMW or op == I_SC:
            addr = evaluate(c[1] if op == I_STORE else c[2], regs)
            if guess is not None:  # the address waits for pending reads: go on at location ``guess``
                pending = pending + ((GUARD, G_ADDR, None, pc, addr, guess),)
                addr = guess
            loc = self.m.location(addr, th, pc)
            if len(pending) >= self.max_pending:
                raise PendingLimit(
                    f"the pending list of {th.name} would exceed {self.max_pending} operations at "
                    f"'{th.thread.instrs[pc].text}' (a loop that keeps issuing memory operations the model "
                    "lets it leave unperformed never fits any bound)",
                    th.thread.instrs[pc].pos, hint="raise --max-pending, or bound the loop")
            if op == I_SC:
                regs, pending = store_conditional(th, c, pc, loc, regs, pending, outcome == SC_SUCCEEDS)
            elif op == I_LOAD and c[3] in th.lr_desc:  # a newer load-reserved: older reservations end
                regs, pending = end_reservations(regs, pending, th.lr_desc)
            pos = len(pending)
            if op == I_SC:
                pass
            elif op == I_LOAD:
                pending = pending + ((READ, c[3], loc, pc, 0),)
                if c[1] is not None:
                    regs = regs[:c[1]] + (("?", pos),) + regs[c[1] + 1:]
            elif op == I_STORE:
                pending = pending + ((WRITE, c[3], loc, pc, evaluate(c[2], regs)),)
            else:
                new = evaluate(c[3], regs)
                cond = evaluate(c[4], regs) if c[4] is not None else None
                committable = cond is not None and not c[5]
                pending = pending + ((RMW, c[6], loc, pc, c[7], new, cond, False, committable),)
                if c[1] is not None:
                    regs = regs[:c[1]] + (("?", pos),) + regs[c[1] + 1:]
        elif op == I_FENCE:
            a = th.rules.fence_a[c[1]]
            cumulative = th.rules.cumulative.get(c[1])
            if cumulative:  # a per-thread model's cumulative fence: pending until performed
                pending = pending + ((FENCE, c[1], None, pc, cumulative),)
            elif any(holds(o, a) for o in pending):
                pending = pending + ((FENCE, c[1], None, pc),)
        elif op == I_ASSIGN:
            regs = regs[:c[1]] + (evaluate(c[2], regs),) + regs[c[1] + 1:]
        elif op == I_BRANCH and len(c) > 3:  # a nondeterministic choice, no guess to confirm
            if guess:
                nxt = c[2]
        elif op == I_BRANCH:
            if guess is not None:  # the condition waits for pending reads: go on as guessed
                pending = pending + ((GUARD, G_CTRL, None, pc, evaluate(c[1], regs), guess),)
                if guess:
                    nxt = c[2]
            elif c[1] is None or evaluate(c[1], regs):
                nxt = c[2]
        elif op == I_ASSUME and guess is not None:
            pending = pending + ((GUARD, G_CTRL, None, pc, evaluate(c[1], regs), True),)
        nxt = th.skip_nops(nxt)
        if not th.sc_ahead[nxt] and any(o[0] == RESV and not o[4] for o in pending):
            regs, pending = drop_reservations(regs, pending)  # no store-conditional can follow
        return (nxt, th.canonical(nxt, regs), pending)

    def _apply_perform(self, th, ts, tr: Transition, read):
        """The thread's new state after performing, and the value written to memory (or None)."""
        pc, regs, pending = ts
        p = tr.pos
        op = pending[p]
        kind, loc = op[0], op[2]
        if tr.commits:
            pending = tuple(o[:7] + (True,) + o[8:] if j in tr.commits else o for j, o in enumerate(pending))
        removed = True
        value = None  # what placeholder p resolves to
        write = None
        if kind == READ:
            value = pending[tr.source][4] if tr.source >= 0 else read
            if tr.outcome == LR_RESERVES:  # the reservation stays in the load's place
                pending = pending[:p] + ((RESV, op[1], loc, op[3], bool(op[4] & PAIRED)),) + pending[p + 1:]
                removed = False
            else:
                pending = pending[:p] + pending[p + 1:]
        elif kind == WRITE or kind == HALF:
            write = op[4]
            if tr.guess is not None:  # performed on a guessed value: a guard in its place checks it
                write = tr.guess[1]
                pending = pending[:p] + ((GUARD, G_DATA, None, op[3], combine("eq", op[4], write), True),) + \
                    pending[p + 1:]
                removed = False
            else:
                pending = pending[:p] + pending[p + 1:]
            if len(op) > 5:  # a store-conditional that succeeds: its status is 0, its reservation ends (and a write half)
                value = 0
        else:
            old = pending[tr.source][4] if tr.source >= 0 else read
            value = old
            check = None  # on a guess: what must prove true (G_DATA)
            if tr.guess is not None:
                check = rmw_check(op[5], op[6], old, tr.guess)
            if tr.outcome == RMW_WHOLE:
                write = with_old(op[5], old) if tr.guess is None or tr.guess[1] is None else tr.guess[1]
                pending = pending[:p] + pending[p + 1:]
            elif tr.outcome == RMW_FAIL:
                pending = pending[:p] + pending[p + 1:]
            else:  # RMW_READ: the write half stays pending
                half = (HALF, op[4], loc, op[3], with_old(op[5], old), tr.source >= 0)
                pending = pending[:p] + (half,) + pending[p + 1:]
                removed = False
            if check is not None:
                guard = (GUARD, G_DATA, None, op[3], check, True)
                if removed:  # the guard takes the read-modify-write's place
                    pending = pending[:p] + (guard,) + pending[p:]
                    removed = False
                else:
                    pending = pending + (guard,)
        regs = tuple(resolve(v, p, value, removed) if v.__class__ is tuple else v for v in regs)
        pending = tuple(resolve_op(o, p, value, removed) for o in pending)
        if kind == WRITE and len(op) > 5:
            for i in range(p - 1, -1, -1):
                if pending[i][0] == RESV and pending[i][4]:
                    regs, pending = remove_entry(regs, pending, i)
                    break
        if value is not None:
            regs, pending = self._settle_guards(th, regs, pending)
        regs, pending = drop_dead_fences(th.rules, regs, pending)
        return (pc, regs, pending), write

    def _settle_guards(self, th, regs: tuple, pending: tuple) -> tuple[tuple, tuple]:
        """Drop the guards whose reads are all performed and whose guess was right.

        A wrong one stays (``enabled`` then discards the state). An address that proves
        not to be a location at all is the program's error, as without the guess, unless
        an earlier guess is still open (then the path may never happen).
        """
        for i, o in enumerate(pending):
            if o[0] != GUARD or o[4].__class__ is tuple:
                continue
            if o[1] == G_CTRL or o[1] == G_DATA:
                right = bool(o[4]) == o[5]
            else:
                right = o[4] == o[5]
                if not right and not any(e[0] == GUARD for e in pending[:i]):
                    self.m.location(o[4], th, o[3])
            if not right:
                return regs, pending
            rest = tuple(resolve_op(e, i, None, True) for e in pending[:i] + pending[i + 1:])
            regs = tuple(resolve(v, i, None, True) if v.__class__ is tuple else v for v in regs)
            return self._settle_guards(th, regs, rest)
        return regs, pending


def located(err: UnsupportedError, th, instr: int) -> UnsupportedError:
    """An evaluation error (e.g. arithmetic on an address) placed at the instruction that met it."""
    if err.pos is None:
        ins = th.thread.instrs[instr]
        err.pos = ins.pos
        err.message = f"{th.name} instruction {instr + 1} ('{ins.text}'): {err.message}"
    return err


def _others(held: list[int], t: int) -> int:
    mask = 0
    for u, h in enumerate(held):
        if u != t:
            mask |= h
    return mask
