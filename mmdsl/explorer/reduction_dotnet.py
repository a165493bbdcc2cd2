"""The .NET checker's ample sets: one forever-local transition alone, else the persistent thread sets.

Huynh and Roychoudhury (*Memory Model Sensitive Bytecode Verification*, section 6) call a
transition *forever-local* when it can only affect its thread's own state: scheduling an
incomplete action (mmdsl: *issuing* an instruction, which appends it to the thread's pending
list or computes into registers), or completing an action on data no other thread can
reach (mmdsl: *performing* an access to a location no other thread's code can address).
Their Algorithm 1 takes such a transition as the whole ample set, ``ample(s) = {a}``;
otherwise a whole thread whose transitions touch nothing the others can reach (their
C1-C3), otherwise everything. The second and third steps are mmdsl's own persistent thread
sets (``reduction.Reduction``), which are at least as small.

A single transition is persistent when it commutes with every other transition and none
disables it (Godefroid, LNCS 1032, def. 4.1). Here that holds for:

* an issue, when it is the thread's only issue transition (no guessed branch or address,
  no nondeterministic choice, no store-conditional outcome) and the thread has no
  load-reserved (whose reservations an issue may end): a later instruction's issue
  neither enables nor disables the thread's performs (they look only at earlier pending
  operations), and it reads registers whose placeholders resolve to the same values
  whichever goes first;
* a perform of a plain read or write at a location only this thread's code can address
  (no compare-and-swap committed to fail, no RVWMO binding): other threads never touch it,
  and among the thread's own steps it commutes (coherence keeps same-location pairs in
  order; a read served by forwarding reads the value memory would hold).

The set of final states is preserved, as with ``Reduction`` (deadlocks of the full graph,
thm. 4.3). A state property (an ``assert`` on where the threads are) sees the pcs an
issue moves, so for such programs only the thread sets are used (the paper applies its
rule there too, relying on its invariants not reading the issuing thread's pc).
"""

from __future__ import annotations

from .machines.table.state import GUARD, I_BRANCH, I_SC, READ, WRITE, Machine
from .machines.table.transitions import ISSUE, PERFORM, R_PLAIN, Semantics
from .reduction import Reduction


class DotnetReduction(Reduction):
    """``Reduction`` with the .NET checker's first step: a forever-local transition alone."""

    name = "dotnet"

    def __init__(self, machine: Machine, semantics: Semantics):
        super().__init__(machine, semantics)
        masks = [fr | fw for fr, fw in (f[0] for f in self.future)]
        # per thread: the locations no other thread's code can address
        self.private = [masks[t] & ~_others(masks, t) for t in range(len(masks))]
        self.issue_only = not machine.program.state_property
        self.stable = [not th.lr_desc and not any(c[0] == I_SC or (c[0] == I_BRANCH and len(c) > 3)
                                                  for c in th.code)
                       for th in machine.threads]

    def choose(self, state, enabled: list[list]) -> list:
        for t, trs in enumerate(enabled):
            single = self._forever_local(state, t, trs)
            if single is not None:
                return [single]
        return super().choose(state, enabled)

    def _forever_local(self, state, t: int, trs: list):
        issues = [tr for tr in trs if tr[1] == ISSUE]
        if self.issue_only and self.stable[t] and len(issues) == 1 and issues[0].guess is None:
            return issues[0]
        private = self.private[t]
        if not private:
            return None
        pending = state[1][t][2]
        if any(o[0] == GUARD for o in pending):  # a guess still open: leave it to the thread sets
            return None
        for tr in trs:
            if (tr[1] == PERFORM and not tr.commits and tr.guess is None
                    and tr.outcome == R_PLAIN and pending[tr.pos][0] in (READ, WRITE)
                    and len(pending[tr.pos]) == 5 and (private >> tr.loc) & 1):
                return tr
        return None


def _others(masks: list[int], t: int) -> int:
    out = 0
    for u, m in enumerate(masks):
        if u != t:
            out |= m
    return out


def reduction_for(name, machine: Machine, semantics: Semantics):
    """The reduction ``name`` names: True or "threads" (persistent thread sets), "dotnet", or none."""
    if not name or name == "none":
        return None
    if name == "dotnet":
        return DotnetReduction(machine, semantics)
    return Reduction(machine, semantics)
