"""Reductions of the per-thread propagation machine that keep every final state (explorer/propagation.py).

The multi-copy-atomic reduction (``reduction.py``) does not apply here: propagation steps
change what other threads read and what fences wait for. Two reductions that are exact
for this machine take its place when the reduction is on (``explore(por=True)``):

* **Settling at once.** Once every thread is done, the machine only propagates the events
  left until each location has one coherence-last write; nothing of the threads changes,
  and of the storage only the final values are observed. The many orders of those
  propagations (and the states that differ only in which thread saw what) are collapsed:
  the values every order can end with are computed by a search over the storage alone
  (memoised on the storage, shared by every state with that storage) and the state goes
  in one *finish* step to a storage holding just those values (a state whose locations
  each have one last write already is final as it is). The final states are
  exactly those of the full machine: the same propagation steps, from the same storage.
* **Constant assignments first.** Issuing an assignment whose value is already known
  (``li r3,1``, not a register waiting on a read) changes only its thread's pc and that
  register (neither its old value nor its new one waits on a read): it reads no memory,
  adds nothing to the pending list, and no other step reads the register's old value or
  is enabled or disabled by it -- performing a pending access or fence resolves only the
  registers still waiting, and which fences are dropped depends on the pending list alone
  -- provided the thread holds no reservation (an issue may end it) and stays running
  after it (propagations go only to running threads). It is
  then independent of every other step, and stays enabled until taken, so on its own it
  is a persistent set (Godefroid, LNCS 1032, def. 4.1): exploring only it keeps every
  deadlock, and final states are deadlocks.

Both are pinned by the agreement of the explorer with and without reduction (and with the
axiomatic checker) in tests/explorer/test_propagation_reduction.py.
"""

from __future__ import annotations

from .state import I_ASSIGN, I_STORE, RESV
from .deferred import evaluate, is_deferred
from .storage import coverage, final_memory, maximal_writes
from .transitions import ISSUE, MEMO_LIMIT, Transition

FINISH = 5  # a Transition action beyond propagation.py's PROPAGATE, FENCE_DONE and SETTLE


def finish_steps(sem, storage, n: int, step) -> list:
    """Once every thread is done: one finish step per set of final values the remaining
    propagations can end with (none when coherence is settled already: then the state is final)."""

    if not storage[1] or not any(len(maximal_writes(storage, loc)) > 1 for loc in range(len(storage[0]))):
        return [[] for _ in range(n)]  # settled already (a final state as it is) or collapsed
    ends = settled_values(sem, storage, n, step)
    return [[Transition(0, FINISH, 0, guess=values) for values in sorted(ends, key=repr)]] + [[] for _ in range(n - 1)]


def settled_values(sem, storage, n: int, step) -> frozenset:
    """The final memories reachable from ``storage`` by the machine's end-of-run propagations
    (``sem._final_propagations``), each step applied by ``step(storage, transition)``."""
    memo = sem.__dict__.setdefault("settled_memo", {})  # per search
    got = memo.get(storage)
    if got is not None:
        return got

    moves = [tr for trs in sem._final_propagations(storage, n, [coverage(storage, t) for t in range(n)])
             for tr in trs]
    if not moves:
        got = frozenset((final_memory(storage),))
    else:
        ends: set = set()
        for tr in moves:
            ends |= settled_values(sem, step(storage, tr), n, step)
        got = frozenset(ends)
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    memo[storage] = got
    return got


def finished(storage, tr: Transition, n: int) -> tuple:
    """The collapsed storage after a finish step: the final values, no events."""
    return (tr.guess, (), (0,) * n, ()) + tuple(storage[4:])  # any later parts of the storage kept


def constant_assignment_first(machine, threads, out: list) -> list:
    """``out`` (per thread, its enabled steps) cut to one constant assignment when a thread has
    one that is independent of every other step (see the module docstring); else ``out``."""
    for t, ts in enumerate(threads):
        pc, regs, pending = ts
        th = machine.threads[t]
        if pc >= th.length or len(out[t]) == 0:
            continue
        code = th.code[pc]
        if code[0] == I_ASSIGN:
            if is_deferred(regs[code[1]]) or is_deferred(evaluate(code[2], regs)):
                continue
        elif code[0] == I_STORE:
            if is_deferred(evaluate(code[1], regs)) or is_deferred(evaluate(code[2], regs)):
                continue
        else:
            continue
        if th.skip_nops(pc + 1) >= th.length and not pending:  # the thread would finish
            continue
        if any(o[0] == RESV for o in pending):  # issuing may end a reservation
            continue
        mine = [tr for tr in out[t] if tr.action == ISSUE]
        if len(mine) == 1:
            return [mine if u == t else [] for u in range(len(out))]
    return out
