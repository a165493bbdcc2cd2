"""Stepping the explorer by hand: server-side sessions over the explorer's own machine and semantics.

A session holds one program compiled for one model (``explorer.machines.table.state.Machine``), its
``Semantics`` (the enabled transitions of a state, and their effect) and a history of
states with back/forward. Each enabled transition is described in the explorer's words
(``trace.Describer``) with what enables it: the next instruction in program order, or,
for an operation performed before earlier pending ones, the table cell of each pair it
overtakes (and forwarding for a read served by its own write). "Run to the outcome" is
the explorer's breadth-first search; its path to the first state reaching the outcome
becomes the history. Sessions are bounded in number and age.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict

from ..core.errors import MmdslError

MAX_SESSIONS = 16
MAX_AGE = 15 * 60.0  # seconds a session lives unused
MAX_HISTORY = 10_000  # states kept per session
MAX_STATES = 200_000  # states "run to the outcome" may visit


class SessionGone(MmdslError):
    """An exploration session that expired or never existed (HTTP 404)."""

    kind = "not found"


class Stepper:
    """One program under one model, stepped by hand."""

    def __init__(self, program, model):
        from ..explorer.machines.table.enabling import model_rules
        from ..explorer.explore import pending_bound
        from ..explorer.machines.table.state import Machine
        from ..explorer.trace import Describer
        from ..explorer.machines.table.transitions import Semantics

        self.program, self.model = program, model
        self.machine = Machine(program, model_rules(model))
        self.semantics = Semantics(self.machine, pending_bound(program, None), bounded=program.state_property)
        self.describer = Describer(self.machine)
        roots = self.machine.initial_states()
        self.initial_count = len(roots)
        self.states = [roots[0]]
        self.labels = [""]  # the step that led to each state
        self.pos = 0
        self.note = ""

    # ---- moving ---------------------------------------------------------------------
    def step(self, index: int) -> None:
        transitions = self._enabled(self.states[self.pos])
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(transitions):
            raise MmdslError(f"there is no enabled transition {index}", expected=f"0 to {len(transitions) - 1}"
                             if transitions else "nothing: no transition is enabled")
        if self.pos + 1 >= MAX_HISTORY:
            raise MmdslError(f"a session keeps at most {MAX_HISTORY} steps", hint="start again")
        state = self.states[self.pos]
        tr = transitions[index]
        label = self.describer.step(state, tr).text()
        del self.states[self.pos + 1:], self.labels[self.pos + 1:]
        self.states.append(self.semantics.apply(state, tr))
        self.labels.append(label)
        self.pos += 1
        self.note = ""

    def back(self) -> None:
        self.pos = max(0, self.pos - 1)

    def forward(self) -> None:
        self.pos = min(len(self.states) - 1, self.pos + 1)

    def run_to_outcome(self) -> None:
        """Replace the history with the explorer's shortest path (breadth-first) to the outcome."""
        from ..explorer.explore import explore_space
        from ..explorer.search import path_to

        space = explore_space(self.program, self.model, order="bfs", max_states=MAX_STATES)
        found = space.found
        verdict = space.result().verdict
        if found.target is None:
            self.note = (f"no reachable state reaches the outcome ({verdict}, "
                         f"{found.states} states explored)")
            return
        path = path_to(found, found.target)
        self.states = [s for s, _ in path] + [found.state_list[found.target]]
        self.labels = [""] + [self.describer.step(s, tr).text() for s, tr in path]
        self.pos = len(self.states) - 1
        self.note = f"the shortest trace to the outcome: {len(path)} steps ({verdict}, {found.states} states explored)"

    # ---- describing -----------------------------------------------------------------
    def _enabled(self, state) -> list:
        from ..explorer.machines.table.transitions import MISSPECULATED

        enabled = self.semantics.enabled(state)
        if enabled is None or enabled is MISSPECULATED:
            return []
        return [tr for trs in enabled for tr in trs]

    def view(self) -> dict:
        """The current state, its enabled transitions with what enables each, and the history."""
        from ..explorer.machines.table.transitions import MISSPECULATED

        state = self.states[self.pos]
        enabled = self.semantics.enabled(state)
        transitions = [] if enabled is None or enabled is MISSPECULATED else [t for ts in enabled for t in ts]
        status = "running"
        final = None
        if enabled is None:
            status = "blocked"  # an assume failed or a lock is never freed
        elif enabled is MISSPECULATED:
            status = "misspeculated"
        elif not transitions:
            if self.machine.is_final(state):
                from ..axiomatic.checker import observed_keys

                status = "final"
                values = self.machine.final_values(state)
                cond = self.program.condition
                final = {"state": self.machine.final_state(state, observed_keys(self.program)).text(),
                         "satisfies": bool(cond.prop.holds(values)), "condition": cond.text()}
            else:
                status = "blocked"
        return {
            "test": self.program.name, "model": self.model.name, "status": status, "final": final,
            "state": self._state(state),
            "transitions": [self._transition(i, state, tr) for i, tr in enumerate(transitions)],
            "history": self.labels[1:], "position": self.pos, "length": len(self.states) - 1,
            "note": self.note, "initial_states": self.initial_count,
        }

    def _state(self, state) -> dict:
        from ..explorer.trace import instr_text

        d, m = self.describer, self.machine
        mem, threads = state
        out = {"memory": [{"location": loc, "value": str(v)} for loc, v in zip(m.locations, mem)], "threads": []}
        for th, (pc, regs, pending) in zip(m.threads, threads):
            shown = [(n, v) for n, v in zip(th.reg_names, regs) if not n.startswith("%")]
            out["threads"].append({
                "name": th.name,
                "at": "done" if pc >= th.length else f"{pc}: {instr_text(th.thread.instrs[pc])}",
                "registers": [{"name": n, "value": d.value_text(th.tid, v, pending)} for n, v in shown],
                "pending": [d.op_text(th.tid, o, pending) for o in pending],
            })
        return out

    def _transition(self, index: int, state, tr) -> dict:
        step = self.describer.step(state, tr)
        return {"index": index, "thread": self.machine.threads[tr.tid].name, "action": step.action,
                "label": step.label, "out_of_order": step.out_of_order, "enabled_by": self._why(state, tr)}

    def _why(self, state, tr) -> list[str]:
        """What lets ``tr`` be taken: program order, or the table cell / forwarding per overtaken operation."""
        from ..explorer.machines.table.state import FENCE, GUARD, READ, RMW
        from ..explorer.machines.table.transitions import ISSUE
        from ..lang.ir import CELL_MEANING

        if tr.action == ISSUE:
            return ["program order: the thread's next instruction"]
        th = self.machine.threads[tr.tid]
        rules = self.machine.rules
        pending = state[1][tr.tid][2]
        op = pending[tr.pos]
        shapes = th.rules.shapes
        out = []
        if op[0] in (READ, RMW) and tr.source >= 0:
            out.append(f"forwarding: takes its value from its own pending "
                       f"{self.describer.op_text(tr.tid, pending[tr.source], pending)}")
        for p, o in enumerate(pending[:tr.pos]):
            if p == tr.source and op[0] in (READ, RMW):
                continue  # the write it forwards from: said above
            text = self.describer.op_text(tr.tid, o, pending)
            if o[0] == FENCE:
                out.append(f"{text} is pending but does not order this pair")
                continue
            if o[0] == GUARD:
                out.append(f"{text}: the model does not keep it waiting for that guess")
                continue
            table = rules.table
            earlier, later = shapes[o[1]], shapes[op[1]]
            r, c = table.row_of(earlier), table.col_of(later)
            cell = table.cells[r][c]
            where = "same location" if o[2] == op[2] else "different locations"
            out.append(f"overtakes {text}: table cell {table.rows[r]} -> {table.cols[c]} is "
                       f"'{cell.value}' ({CELL_MEANING.get(cell.value, '')}; {where})")
        return out or ["in program order: nothing earlier is pending"]


class Sessions:
    """At most MAX_SESSIONS steppers, each dropped after MAX_AGE seconds unused (oldest first when full)."""

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_age: float = MAX_AGE):
        self.max_sessions, self.max_age = max_sessions, max_age
        self._items: OrderedDict[str, tuple[float, Stepper]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, stepper: Stepper) -> str:
        sid = secrets.token_urlsafe(12)
        with self._lock:
            self._expire()
            while len(self._items) >= self.max_sessions:
                self._items.popitem(last=False)
            self._items[sid] = (time.monotonic(), stepper)
        return sid

    def get(self, sid: str) -> Stepper:
        with self._lock:
            self._expire()
            hit = self._items.pop(sid, None) if isinstance(sid, str) else None
            if hit is None:
                raise SessionGone("no such exploration session (sessions end after "
                                  f"{self.max_age / 60:g} minutes unused)", hint="start the exploration again")
            self._items[sid] = (time.monotonic(), hit[1])
            return hit[1]

    def __len__(self) -> int:
        return len(self._items)

    def _expire(self) -> None:
        now = time.monotonic()
        for sid in [s for s, (t, _) in self._items.items() if now - t > self.max_age]:
            del self._items[sid]
