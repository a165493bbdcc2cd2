"""Candidate fences: the model's fence kinds with their costs, and the places of each thread."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import MmdslError, UnsupportedError
from ..core.program import Assume, AtomicBegin, Branch, Instr, Load, Program, Rmw, Store, Thread
from ..lang.ir import Model

# The largest cost a fence kind may have: CP-SAT sums costs in 64-bit integers.
MAX_COST = 10**9

# Instructions a fence cannot be moved across without changing what it orders.
_BARRIERS = (Load, Store, Rmw, Branch, Assume)


@dataclass(frozen=True)
class FenceKind:
    """One fence declaration of the model, as selection sees it."""

    name: str  # the declaration's name (what the model calls it)
    cost: int
    spellings: tuple[str, ...]  # the name then its aliases
    doc: str = ""
    dependency: bool = False  # a dependency of the model's `dependencies` block (addr, ctrl+isync ...)


@dataclass(frozen=True)
class Place:
    """Where a fence may go: before instruction ``index`` of thread ``tid``.

    A fence placed here runs whenever control reaches that instruction, by falling
    through or by a jump (branches to the instruction are re-targeted to the fence).
    """

    tid: int
    index: int
    thread: str
    line: int | None  # the source line of the instruction the fence goes before
    before: str  # source text of the instruction just before ("" at a thread's start)
    after: str  # source text of the instruction the fence goes before ("" at the end)

    def text(self) -> str:
        """``between 'MOV [x],$1' and 'MOV EAX,[y]'``."""
        if not self.before:
            return f"before '{self.after}'"
        if not self.after:
            return f"after '{self.before}'"
        return f"between '{self.before}' and '{self.after}'"


@dataclass
class ThreadPlaces:
    """The candidate places of one thread and, for every instruction index, its representative."""

    tid: int
    places: list[Place]
    # IR position (0..len) -> index into ``places`` of the place equivalent to it, if any
    rep: dict[int, int] = field(default_factory=dict)


def fence_kinds(model: Model, kinds: list[str] | None = None,
                costs: dict[str, int] | None = None) -> list[FenceKind]:
    """The kinds selection may use: the model's fences, restricted by ``kinds``, costs overridden."""
    if not model.fences:
        raise UnsupportedError(f"model '{model.name}' declares no fences, so there is nothing to place",
                               hint="declare one with 'fence NAME orders M * M cost 3'")
    known = ", ".join(model.fences)
    chosen = list(model.fences.values())
    if kinds:
        chosen = []
        for k in kinds:
            decl = model.fence_for(k.strip())
            if decl is None:
                raise UnsupportedError(f"model '{model.name}' has no fence '{k.strip()}'",
                                       hint=f"fences of this model: {known}")
            if decl not in chosen:
                chosen.append(decl)
    override: dict[str, int] = {}
    for k, n in (costs or {}).items():
        decl = model.fence_for(k)
        if decl is None:
            raise UnsupportedError(f"--cost names fence '{k}', which model '{model.name}' does not declare",
                                   hint=f"fences of this model: {known}")
        if not 1 <= n <= MAX_COST:
            raise UnsupportedError(f"--cost {k}={n}: fence costs are positive integers up to {MAX_COST}")
        override[decl.name] = n
    out = [FenceKind(d.name, override.get(d.name, d.cost), (d.name, *d.aliases), d.doc) for d in chosen]
    for kind, decl in zip(out, chosen):
        if kind.cost > MAX_COST:
            raise UnsupportedError(f"fence '{kind.name}' of model '{model.name}' costs {kind.cost}; "
                                   f"fence selection takes costs up to {MAX_COST}", decl.pos)
    return out


def parse_costs(items: list[str]) -> dict[str, int]:
    """``["mfence=5", "ss=1"]`` -> ``{"mfence": 5, "ss": 1}`` (for ``--cost KIND=N``)."""
    out: dict[str, int] = {}
    for item in items:
        kind, eq, num = item.partition("=")
        if not eq or not kind.strip() or not num.strip().lstrip("-").isdigit():
            raise UnsupportedError(f"--cost '{item}' is malformed", expected="KIND=N, e.g. --cost mfence=5")
        out[kind.strip()] = int(num)
    return out


def _is_boundary(instrs: list[Instr], i: int) -> bool:
    """Does position ``i`` lie between two source instructions (not inside one)?"""
    if i == 0 or i == len(instrs):
        return True
    a, b = instrs[i - 1].pos, instrs[i].pos
    return a is None or b is None or a != b


def _branch_targets(thread: Thread) -> set[int]:
    return {ins.target for ins in thread.instrs if isinstance(ins, Branch)}


def thread_places(thread: Thread, writable: set[int] | None = None) -> ThreadPlaces:
    """The candidate places of a thread, one per class of equivalent positions.

    Positions ``i`` and ``i+1`` are equivalent when instruction ``i`` is neither a memory
    access nor a branch and nothing jumps to ``i+1``: a fence at either runs at the same
    moments between the same accesses. Each class keeps its last position that lies
    between two source instructions (one source instruction may lower to several IR
    instructions; a fence cannot go inside it) and, when the dialect says where it can
    write a fence (``writable``), where it can. Position 0 counts only when a loop jumps
    back to it; the end of the thread orders nothing.
    """
    instrs = thread.instrs
    n = len(instrs)
    targets = _branch_targets(thread)
    out = ThreadPlaces(thread.tid, [])
    chain: list[int] = []

    def close(chain: list[int]) -> None:
        reps = [i for i in chain if _is_boundary(instrs, i) and i < n and (i > 0 or 0 in targets)
                and (writable is None or i in writable)]
        if not reps:
            return
        r = reps[-1]
        place = Place(thread.tid, r, thread.name, instrs[r].pos.line if instrs[r].pos else None,
                      _text(instrs[r - 1]) if r > 0 else "", _text(instrs[r]))
        out.places.append(place)
        for i in chain:
            out.rep[i] = len(out.places) - 1

    for i in range(n + 1):
        if chain and (i in targets or isinstance(instrs[i - 1], _BARRIERS)):
            close(chain)
            chain = []
        chain.append(i)
    close(chain)
    return out


def _text(ins: Instr) -> str:
    return ins.text or type(ins).__name__.lower()


def program_places(program: Program) -> list[ThreadPlaces]:
    """The places of every thread, limited to where the test's dialect can write a fence back."""
    from ..litmus import dialect_for

    for t in program.threads:
        block = next((ins for ins in t.instrs if isinstance(ins, AtomicBegin)), None)
        if block is not None:
            raise UnsupportedError(f"fence selection does not support atomic blocks yet ({t.name}: '{block.text}')",
                                   block.pos, hint="run the test with mmdsl run or mmdsl explore")
    points = None
    try:
        points = getattr(dialect_for(program.arch), "fence_points", None)
    except MmdslError:
        pass
    out = []
    for t in program.threads:
        writable = None
        if points is not None:
            try:
                writable = set(points(program, t.tid))
            except MmdslError:
                writable = None
        out.append(thread_places(t, writable))
    return out
