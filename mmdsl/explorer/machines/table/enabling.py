"""Enabling predicates: a model's reordering table and fences compiled into per-pair rules.

``ModelRules`` is built once per model: boolean tables indexed by (row class, column
class) saying whether a later access may be performed before an earlier one, at
different locations and at the same location. ``ThreadRules`` specialises them to the
operations of one thread: every memory instruction gets one *descriptor* per event it
performs (two for a read-modify-write: its read half and its write half), and every
pair of descriptors gets a code -- never, only to different locations, always -- plus
the fences' masks. The search then only indexes lists.
"""

from __future__ import annotations

from ....core.errors import UnsupportedError
from ....core.events import EventShape
from ....core.program import Assign, Branch, Fence, Load, Rmw, Store, StoreCond, Thread, in_atomic_block
from ....lang.ir import ADDR_PO_CTRL, Model, ctrl_fence_of
from ....lang.table import compiled_dependencies, compiled_fences, compiled_table

# guards: a branch (ctrl) or an address (addr;po) issued on a guessed value of pending reads;
# G_DATA: a write performed on a guessed value (or a CAS on a guessed comparison), checked later
G_CTRL, G_ADDR, G_DATA = 0, 1, 2
GUARD_RELATION = {G_CTRL: "ctrl", G_ADDR: "addr;po"}

NEVER = 0  # the later operation waits for the earlier one
DIFFERENT = 1  # it may go first when the two locations differ
ALWAYS = 2  # it may go first, whatever the locations


def require_explorable(model: Model) -> None:
    """Raise when the model is not given by a reordering table and the standard axioms."""
    own = [a for a in model.axioms if not a.default]
    if own:
        names = ", ".join(a.name for a in own)
        raise UnsupportedError(
            f"model '{model.name}' is not supported by the explorer: it defines its own axioms ({names}); "
            "the explorer runs models given by a reordering table",
            own[0].pos,
            hint="explore and run --engine explorer run it on the execution-graph machine (docs/explorer.md)",
        )
    if model.table is None:
        raise UnsupportedError(
            f"model '{model.name}' is not supported by the explorer: it has no reordering table; "
            "the explorer runs models given by a reordering table")


class ModelRules:
    """The table of one model as class-pair booleans, plus its fences and forwarding."""

    def __init__(self, model: Model):
        require_explorable(model)
        self.model = model
        self.table = compiled_table(model)
        self.fences = compiled_fences(model)
        self.forwarding = model.forwarding
        self.deps = compiled_dependencies(model)
        cells = self.table.cells
        # may the later (column) access be performed before the earlier (row) one?
        self.diff_ok = [[not c.keeps(False, False) for c in row] for row in cells]
        self.same_ok = [[not c.keeps(True, False) for c in row] for row in cells]
        if model.per_thread:  # a thread performs its accesses to one location in program order:
            # its reads see its own view, so this is how SC per location holds (explorer/machines/propagation/propagation.py)
            self.same_ok = [[False] * len(row) for row in cells]

    def overtake(self, earlier: EventShape, later: EventShape) -> int:
        """NEVER, DIFFERENT or ALWAYS: may ``later`` be performed before a pending ``earlier``?

        At one location the pair must also be free for per-location coherence
        (``kept_at_same_location``); a read after a same-location write under
        forwarding is served by ``forward_past`` instead.
        """
        r, c = self.table.row_of(earlier), self.table.col_of(later)
        if not self.diff_ok[r][c]:
            return NEVER
        if self.same_ok[r][c] and not self.table.kept_at_same_location(earlier, later, False):
            return ALWAYS
        return DIFFERENT

    def forward_past(self, write: EventShape, read: EventShape) -> bool:
        """May ``read`` take its value from the pending same-location ``write`` (and so go first)?"""
        if not self.forwarding:
            return False
        return self.same_ok[self.table.row_of(write)][self.table.col_of(read)]

    def dependency_holds(self, relation: str, read: EventShape, later: EventShape) -> bool:
        """Does a ``relation`` dependency of ``later`` on ``read`` keep an order the table alone does not?

        True for an ``i`` / ``di`` cell whose pair the model's dependencies name for ``relation``.
        """
        cell = self.table.cell(read, later)
        return cell.value in ("i", "di") and self.deps.keeps(relation, read, later)

    def dependency_kept(self, relation: str, read: EventShape, later: EventShape) -> str | None:
        """None when ``later`` stays after ``read`` at every location if it depends on it by ``relation``.

        Otherwise the words for why not: the cell, and whether the model honours ``relation`` there.
        """
        cell = self.table.cell(read, later)
        dependent = self.deps.keeps(relation, read, later)
        if cell.keeps(False, dependent) and cell.keeps(True, dependent):
            return None
        r, c = self.table.row_of(read), self.table.col_of(later)
        words = f"{self.table.rows[r]} -> {self.table.cols[c]} is '{cell.value}'"
        if cell.value in ("i", "di"):
            words += f" and the model does not honour {relation} for the pair"
        return words

    def fence_orders(self, kind: str, earlier: EventShape, later: EventShape) -> bool:
        return self.fences.orders_pair(kind, earlier, later)

    def thread_rules(self, thread: Thread) -> "ThreadRules":
        return ThreadRules(self, thread)


def _build_rules(model: Model) -> ModelRules:
    return ModelRules(model)


def model_rules(model: Model) -> ModelRules:
    """The compiled rules of ``model``, built once per model object."""
    return model.compiled("explorer-rules", _build_rules)


def instruction_shapes(ins, atomic: bool = False) -> tuple[EventShape, ...]:
    """The shapes of the events a memory instruction performs (both halves of an RMW);
    ``atomic``: the instruction is inside an atomic block, whose accesses are RMW events."""
    if isinstance(ins, Load):
        return (EventShape("R", atomic, False, ins.annots),)
    if isinstance(ins, (Store, StoreCond)):  # a store-conditional's write (when it succeeds)
        return (EventShape("W", atomic, False, ins.annots),)
    if isinstance(ins, Rmw):
        return (EventShape("R", True, False, ins.annots), EventShape("W", True, False, ins.annots))
    if isinstance(ins, Fence):
        return (EventShape("F", False, False, ins.annots, ins.kind),)
    return ()


class ThreadRules:
    """Descriptor-pair codes for the memory instructions of one thread under one model."""

    def __init__(self, rules: ModelRules, thread: Thread):
        self.rules = rules
        # instruction pairs of one C expression evaluated unsequenced: either may be performed
        # first (an RMW's read half unsequenced with its arguments needs nothing: its write,
        # performed with it, follows them)
        self.unsequenced = frozenset((i, j) for i, j, reads_only in thread.unsequenced if not reads_only)
        if self.unsequenced and rules.model.per_thread:
            i, j = min(self.unsequenced)
            raise UnsupportedError(
                f"operands of one C expression evaluated unsequenced ({thread.name}: '{thread.instrs[j].text}') "
                f"are not supported by the explorer under {rules.model.name}", thread.instrs[j].pos,
                hint="use the axiomatic engine, or read one operand into a local first")
        self.shapes: list[EventShape] = []
        self.halves: dict[int, tuple[int, ...]] = {}  # instruction index -> descriptor ids
        self.instr_of: list[int] = []
        inside = in_atomic_block(thread.instrs)
        for k, ins in enumerate(thread.instrs):
            ids = []
            for shape in instruction_shapes(ins, k in inside):
                ids.append(len(self.shapes))
                self.shapes.append(shape)
                self.instr_of.append(k)
            if ids:
                self.halves[k] = tuple(ids)
        n = len(self.shapes)
        shapes = self.shapes
        self.is_fence = [s.kind == "F" for s in shapes]
        self.is_write = [s.kind == "W" for s in shapes]
        self.is_read = [s.kind == "R" for s in shapes]
        access = [d for d in range(n) if not self.is_fence[d]]
        self.overtake = [[NEVER] * n for _ in range(n)]
        self.forward = [[False] * n for _ in range(n)]
        for j in access:
            for k in access:
                self.overtake[j][k] = rules.overtake(shapes[j], shapes[k])
                if self.is_write[j] and self.is_read[k]:
                    self.forward[j][k] = rules.forward_past(shapes[j], shapes[k])
        # fences: mask of the descriptors each orders as the earlier access of a pair
        self.fence_a = [0] * n
        for f in range(n):
            if not self.is_fence[f]:
                continue
            kind = shapes[f].fence
            for d in access:
                if any(rules.fence_orders(kind, shapes[d], shapes[k]) for k in access):
                    self.fence_a[f] |= 1 << d
        # per fence and later descriptor: mask of the earlier descriptors it keeps before it
        self.fence_before = [[0] * n for _ in range(n)]
        for f in range(n):
            if self.is_fence[f]:
                kind = shapes[f].fence
                for k in access:
                    for j in access:
                        if rules.fence_orders(kind, shapes[j], shapes[k]):
                            self.fence_before[f][k] |= 1 << j
        reads = [j for j in access if self.is_read[j]]
        read_set, access_set = set(reads), set(access)
        # per guard kind: hold[g][j][k] -- a later access k waits for a pending read j the guard's
        # value depends on (the model honours that dependency for the pair, in an i / di cell)
        self.hold = {g: [[rules.dependency_holds(rel, shapes[j], shapes[k]) if j in read_set and k in access_set
                          else False for k in range(n)] for j in range(n)]
                     for g, rel in GUARD_RELATION.items()}
        # per dependency: value_hold[rel][j][k] -- an access k whose address (addr) or written value
        # (data) comes from a pending read j waits for it; otherwise it is performed on a guessed
        # value, checked once j is performed (value speculation, transitions.py)
        # (per-thread propagation keeps its own rules for guessed addresses: they wait)
        exact = rules.model.per_thread
        self.speculate_values = not exact
        self.value_hold = {rel: [[exact or rules.dependency_kept(rel, shapes[j], shapes[k]) is None
                                  if j in read_set and k in access_set else False for k in range(n)]
                                 for j in range(n)]
                           for rel in ("addr", "data")}
        # waiting (not issuing past a branch / an unknown address) is exact when the model keeps
        # every dependent pair; otherwise the explorer issues past them on a guessed value
        self.speculates = {g: self._relaxed(rel, reads, access) for g, rel in GUARD_RELATION.items()}
        # value speculation (an access before the read its address or stored value comes from)
        # (a data dependency only ever makes a write wait)
        self.value_speculation = {"addr": self._relaxed("addr", reads, access),
                                  "data": self._relaxed("data", reads, [k for k in access if self.is_write[k]])}
        self.atomic = {k: self._indistinguishable(ids, thread.instrs[k])
                       for k, ids in self.halves.items() if len(ids) == 2}
        if inside:
            self._check_atomic_blocks(thread, inside)
        model = rules.model
        # a per-thread model's cumulative fences stay pending until performed (explorer/machines/propagation/propagation.py)
        self.cumulative = {}
        if model.per_thread:
            for f in range(n):
                if self.is_fence[f]:
                    kinds = {d.cumulativity for d in model.fences_for(shapes[f].fence) if d.cumulativity}
                    if kinds:
                        self.cumulative[f] = "strong" if "strong" in kinds else "light"
        # fences that complete a ctrl+FENCE dependency (isync, isb): issued only once the branches
        # before them are resolved, so every later access waits for the reads those branch on
        self.ctrl_fences = set()
        # addr;po;ctrl+FENCE: such a fence also waits for a guessed address (a G_ADDR guard) before
        # the pc here -- the latest read a branch before the fence branches on
        self.addr_ctrl_wait: dict[int, int] = {}
        for rule in model.dependencies:
            fence = ctrl_fence_of(rule.name)
            if fence is None:
                continue
            decl = model.fence_for(fence)
            fences = {f for f in range(n) if self.is_fence[f] and decl in model.fences_for(shapes[f].fence)}
            if rule.name.startswith(ADDR_PO_CTRL):
                late = _latest_branch_reads(thread)
                self.addr_ctrl_wait.update({f: late[self.instr_of[f]] for f in fences
                                            if late[self.instr_of[f]] >= 0})
                self._check_ctrl_fence(rule.name, reads, access, "addr;po")
            else:
                self.ctrl_fences |= fences
                self._check_ctrl_fence(rule.name, reads, access)
        if set(self.addr_ctrl_wait) - self.ctrl_fences:
            raise UnsupportedError(
                f"model '{model.name}' honours addr;po;ctrl+FENCE without ctrl+FENCE for the same fence; the "
                "explorer runs addr;po;ctrl+FENCE only beside its ctrl+FENCE")

    def _check_ctrl_fence(self, relation: str, reads: list[int], access: list[int], base: str = "ctrl") -> None:
        """Holding every later access after a ctrl+FENCE fence is exact only when the model keeps
        each (read, access) pair by ctrl or by that relation (or the cell keeps it anyway); for
        addr;po;ctrl+FENCE (the fence waits for a guessed address), by addr;po or that relation."""
        for j in reads:
            for k in access:
                if self.rules.dependency_kept(base, self.shapes[j], self.shapes[k]) is None:
                    continue
                why = self.rules.dependency_kept(relation, self.shapes[j], self.shapes[k])
                if why is not None:
                    model = self.rules.model.name
                    raise UnsupportedError(
                        f"model '{model}' keeps some accesses after a branch and a fence by {relation} and "
                        f"not others ({why}); the explorer holds every access after that fence until the "
                        "branch is resolved, so it cannot run this model exactly")

    def _indistinguishable(self, ids: tuple[int, int], ins: Rmw) -> bool:
        """May this read-modify-write be performed in one step (its two halves never told apart)?

        True when every other operation of the thread relates to the read half exactly as
        to the write half, no fence orders one half without the other, nothing may be
        performed between them (a later operation depending on the value read would
        otherwise fit there), the read cannot be served by forwarding, when the written
        value uses registers the read cannot overtake an earlier read, and no guess on a
        read's value holds back one half and not the other.
        """
        r, w = ids
        uses_regs = bool((ins.new.regs() | (ins.cond.regs() if ins.cond is not None else frozenset()))
                         - {"%old"})
        for d in range(len(self.shapes)):
            if self.is_fence[d]:
                before = self.fence_before[d]
                if before[r] != before[w]:  # the halves as the later access of a fenced pair
                    return False
                if any(((row >> r) & 1) != ((row >> w) & 1) for row in before):  # as the earlier one
                    return False
                continue
            if self.overtake[d][r] != self.overtake[d][w]:
                return False
            if self.overtake[r][d] != NEVER or self.overtake[w][d] != NEVER:
                return False
            if self.is_write[d] and self.forward[d][r]:
                return False
            if uses_regs and self.is_read[d] and self.overtake[d][r] != NEVER:
                return False
            if any(h[d][r] != h[d][w] for h in self.hold.values()):  # a guess holds back one half only
                return False
        return True

    def _check_atomic_blocks(self, thread: Thread, inside: set[int]) -> None:
        """An atomic block is performed when it is issued (``transitions``), so no later access
        of the thread may go before it: refuse a model whose table lets one."""
        block = [d for d in range(len(self.shapes)) if self.instr_of[d] in inside]
        loops = thread.has_loops()  # then any access may come after a block
        for d in block:
            for k in range(len(self.shapes)):
                earlier = not loops and self.instr_of[k] < self.instr_of[d]
                if self.is_fence[k] or self.instr_of[k] in inside or earlier:
                    continue
                if self.overtake[d][k] != NEVER:
                    ins = thread.instrs[self.instr_of[k]]
                    raise UnsupportedError(
                        f"model '{self.rules.model.name}' lets an access be performed before an earlier "
                        f"atomic block ({thread.name}: '{ins.text}' after a {self.shapes[d].kind} of the block); "
                        "the explorer performs an atomic block when it is issued, so it cannot run this "
                        "model exactly", ins.pos,
                        hint="atomic blocks run under models whose table keeps every later access after "
                             "an RMW (tso, pso, pso-cas, sc)")

    def _relaxed(self, relation: str, reads: list[int], access: list[int]) -> str | None:
        """Why an access may overtake a read it depends on by ``relation`` (words), or None."""
        for j in reads:
            for k in access:
                why = self.rules.dependency_kept(relation, self.shapes[j], self.shapes[k])
                if why is not None:
                    return why
        return None

    def fence_blocks(self, f: int, j: int, k: int) -> bool:
        """Does fence descriptor ``f``, between ``j`` and ``k``, keep ``k`` after ``j``?"""
        return bool((self.fence_before[f][k] >> j) & 1)


def _latest_branch_reads(thread: Thread) -> list[int]:
    """Per instruction index: the latest load a branch before it branches on (-1: none).

    A forward pass over the registers a load's value reaches through assignments, kept as a
    union over every path (a register is never cleared): for straight-line code with forward
    branches, as litmus tests are, it is exact; otherwise it can only make a fence wait longer.
    """
    sources: dict[str, set[int]] = {}
    latest = -1
    out = []
    for k, ins in enumerate(thread.instrs):
        if isinstance(ins, Branch) and ins.cond is not None:
            for r in ins.cond.regs():
                latest = max(latest, *sources.get(r, ()), -1)
        out.append(latest)
        if isinstance(ins, (Load, Rmw)) and ins.dst:
            sources.setdefault(ins.dst, set()).add(k)
        elif isinstance(ins, Assign):
            got = set().union(*(sources.get(r, set()) for r in ins.expr.regs()))
            sources.setdefault(ins.dst, set()).update(got)
    return out
