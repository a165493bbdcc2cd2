"""An event structure: one path per thread plus initial writes, with its static relations."""

from __future__ import annotations

from ..core.events import Event, EventShape, Execution, event_label
from ..core.program import Program
from ..lang.evaluate import Prepared
from ..lang.ir import ONE_EVENT_RMW, SET, Expr, Model
from ..lang.partition import set_predicate
from ..lang.table import dependency_relation, fence_relation, po_rdw, table_relations
from ..relations import Rel
from .threads import Template, Trace


_NO_ANNOTS: frozenset = frozenset()


def _event(eid, tid, po, instr, kind, loc, value, annots, fence, rmw, init, label) -> Event:
    """``Event(...)`` with every field given, without the frozen dataclass's per-field
    ``object.__setattr__`` calls (a structure builds one per event of every test)."""
    e = object.__new__(Event)
    e.__dict__.update(eid=eid, tid=tid, po=po, instr=instr, kind=kind, loc=loc, value=value, annots=annots,
                      fence=fence, rmw=rmw, init=init, label=label)
    return e


class Structure:
    """Events of one combination of thread paths and everything that does not depend on rf/co."""

    def __init__(self, program: Program, traces: list[Trace], locations: list[str] | None = None):
        """``locations``: ``program.locations`` when the caller has it (a property that walks
        the whole program)."""
        self.program = program
        self.traces = traces
        events: list[Event] = []
        self.templates: list[Template | None] = []
        self.locations = locations if locations is not None else program.locations
        locs = sorted(self.locations)
        self.init_of: dict[str, int] = {}
        init = program.init
        for loc in locs:
            self.init_of[loc] = len(events)
            events.append(_event(len(events), -1, 0, -1, "W", loc, init.get(loc, 0), _NO_ANNOTS, None, False,
                                 True, f"i{loc}"))
            self.templates.append(None)
        self.thread_events: list[list[int]] = []
        self.read_eid: list[dict[int, int]] = []  # per thread: read index -> eid
        k = 0  # herd-style labels: thread events a, b, c... in thread order; init writes i<loc>
        for tid, tr in enumerate(traces):
            ids = []
            reads = {}
            for po, t in enumerate(tr.events):
                eid = len(events)
                value = t.value if not isinstance(t.value, tuple) else None
                events.append(_event(eid, tid, po, t.instr, t.kind, t.loc, value, t.annots, t.fence, t.rmw,
                                     False, event_label(k)))
                k += 1
                self.templates.append(t)
                ids.append(eid)
                if t.kind == "R":
                    reads[t.read] = eid
                elif t.source >= 0:  # a write whose outcome a register depends on (sc)
                    reads[t.source] = eid
            self.thread_events.append(ids)
            self.read_eid.append(reads)
        self.events = events
        self.n = len(events)
        self.shapes = [e.shape for e in events]
        self.reads = [e.eid for e in events if e.kind == "R"]
        self.writes_by_loc: dict[str, list[int]] = {}
        for e in events:
            if e.kind == "W":
                self.writes_by_loc.setdefault(e.loc, []).append(e.eid)
        self._static()

    def _static(self) -> None:
        n = self.n
        events = self.events
        po = [0] * n
        internal = [0] * n
        for ids in self.thread_events:
            m = 0
            for eid in ids:
                m |= 1 << eid
            later = m
            for eid in ids:
                later &= ~(1 << eid)
                po[eid] = later
                internal[eid] = m
        for tid, ids in enumerate(self.thread_events):
            if tid < len(self.program.threads) and self.program.threads[tid].unsequenced:
                _unsequence(po, ids, events, self.program.threads[tid].unsequenced)
        loc_rows = [0] * n
        by_loc: dict[str, int] = {}
        for e in events:
            if e.loc is not None:
                by_loc[e.loc] = by_loc.get(e.loc, 0) | (1 << e.eid)
        for e in events:
            if e.loc is not None:
                loc_rows[e.eid] = by_loc[e.loc]
        addr = [0] * n
        data = [0] * n
        ctrl = [0] * n
        rmw = [0] * n
        blocks = [0] * n  # atomic-block: distinct events of one atomic block
        one_event = [0] * n  # the rmw pairs of a C11 RMW: one event in herd (lang.cat_rmw)
        for tid, ids in enumerate(self.thread_events):
            reads = self.read_eid[tid]
            prev = None
            for eid in ids:
                t = self.templates[eid]
                for dep_mask, rows in ((t.addr_dep, addr), (t.data_dep, data), (t.ctrl_dep, ctrl)):
                    m = dep_mask
                    while m:
                        low = m & -m
                        k = low.bit_length() - 1
                        m ^= low
                        rows[reads[k]] |= 1 << eid
                if t.block >= 0:
                    for other in ids:
                        if other != eid and self.templates[other].block == t.block:
                            blocks[eid] |= 1 << other
                if t.pair >= 0:  # a store-conditional and its load-reserved
                    rmw[reads[t.pair]] |= 1 << eid
                if t.rmw and t.kind == "W" and prev is not None and self.templates[prev].rmw \
                        and self.templates[prev].kind == "R" and self.templates[prev].instr == t.instr:
                    rmw[prev] |= 1 << eid
                    if getattr(self.program.threads[tid].instrs[t.instr], "one_event", False):
                        one_event[prev] |= 1 << eid
                prev = eid
        accesses = 0
        for e in events:
            if e.kind != "F":
                accesses |= 1 << e.eid
        self.accesses = accesses
        po_r = Rel(n, po)
        loc_r = Rel(n, loc_rows)
        internal_r = Rel(n, internal)
        addr_r, data_r, ctrl_r = Rel(n, addr), Rel(n, data), Rel(n, ctrl)
        # the default dependencies (a model's `dependencies` block replaces them in
        # prepare_relations): accesses issued in program order with known locations, so an
        # address dependency also holds back everything after the access
        dep = addr_r | data_r | ctrl_r | addr_r.seq(po_r)
        full = (1 << n) - 1
        # sm: events of one instruction (herd's name; reflexive), e.g. the read and write of xchg
        same_instr = [1 << e.eid for e in events]
        for ids in self.thread_events:
            by_instr: dict[int, int] = {}
            for eid in ids:
                by_instr[events[eid].instr] = by_instr.get(events[eid].instr, 0) | (1 << eid)
            for eid in ids:
                same_instr[eid] = by_instr[events[eid].instr]
        self.internal = internal_r
        self.rels = {
            "po": po_r,
            "loc": loc_r,
            "id": Rel.identity(n),
            "int": internal_r,
            "ext": Rel(n, [full & ~r for r in internal]),
            "addr": addr_r,
            "data": data_r,
            "ctrl": ctrl_r,
            "dep": dep,
            "rmw": Rel(n, rmw),
            "po-loc": po_r & loc_r,
            "sm": Rel(n, same_instr),
            "atomic-block": Rel(n, blocks),
            ONE_EVENT_RMW: Rel(n, one_event),
        }

    def prepare(self, model: Model) -> Prepared:
        """Specialise the model's axioms to these events (ppo, fences, classes computed once)."""
        rels = dict(self.rels)
        rels["fence"] = fence_relation(model, self.shapes, rels["po"])  # undeclared kinds order nothing
        return prepare_relations(model, self.shapes, rels, self.accesses)


def _unsequence(po: list[int], ids: list[int], events: list[Event], pairs) -> None:
    """Take out of ``po`` the event pairs of one evaluation of unsequenced instructions.

    ``pairs`` are a thread's ``unsequenced`` (i, j, reads_only). The instructions of one
    expression are straight-line code, so two events belong to one evaluation when the
    instruction indices do not go back between them (a loop re-evaluating the expression
    jumps back first).
    """
    both = {(i, j) for i, j, reads_only in pairs if not reads_only}
    reads = {(i, j) for i, j, reads_only in pairs if reads_only}
    for a, e in enumerate(ids):
        i = events[e].instr
        last = i
        for f in ids[a + 1:]:
            j = events[f].instr
            if j < last:
                break
            last = j
            if (i, j) in both or ((i, j) in reads and events[f].kind == "R"):
                po[e] &= ~(1 << f)


def prepare_relations(model: Model, shapes: list[EventShape], static: dict[str, Rel],
                      accesses: int | None = None) -> Prepared:
    """A model's axioms specialised to events of these shapes with these static relations.

    Adds the table's ``ppo`` and ``kept-loc`` and (unless given) the ``fence`` relation;
    used by the checker for every event structure and by later layers to re-evaluate
    axioms on a collected execution (``prepared_for``).
    """
    if accesses is None:
        accesses = 0
        for i, s in enumerate(shapes):
            if s.kind != "F":
                accesses |= 1 << i
    rels = dict(static)
    if model.dependencies_pos is not None:  # the model says which dependencies it honours
        rels["dep"] = dependency_relation(model, shapes, rels)
    ppo, kept = table_relations(model, shapes, rels["po"], rels["loc"], rels["dep"], accesses)
    rels["ppo"] = ppo
    rels["kept-loc"] = kept
    rels["po-rdw"] = po_rdw(model, shapes, rels, ppo)
    if "fence" not in rels:
        rels["fence"] = fence_relation(model, shapes, rels["po"])
    if model.per_thread:  # which fences are cumulative, and how (lang/defaults.py: prop)
        rels["strong-fence"] = fence_relation(model, shapes, rels["po"], "strong")
        rels["light-fence"] = fence_relation(model, shapes, rels["po"], "light")
    else:
        rels["strong-fence"] = rels["light-fence"] = Rel.empty(len(shapes))
    cache: dict[str, int] = {}

    def sets(name: str) -> int:
        m = cache.get(name)
        if m is None:
            pred = set_predicate(Expr("name", name=name, type=SET), model)
            m = 0
            for i, s in enumerate(shapes):
                if pred(s):
                    m |= 1 << i
            cache[name] = m
        return m

    return Prepared(model, len(shapes), sets, rels)


def prepared_for(execution: Execution, model: Model) -> Prepared:
    """The model's axioms specialised to a collected execution's events (for re-evaluation)."""
    return prepare_relations(model, [e.shape for e in execution.events], execution.static)
