"""What an execution diagram shows: thread columns of events, relation edges, the forbidding cycle.

Pure data, no graphviz: `execution_view` decides which nodes and edges a diagram has, in
a fixed order (events by id, edges by family then endpoints), so the DOT text built from
it is the same byte for byte on every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..axiomatic.structure import prepared_for
from ..core.condition import FinalState
from ..core.events import Event, Execution
from ..core.outcome import Violation
from ..lang.evaluate import Dynamic
from ..lang.ir import REL, SET, Expr, Model
from ..lang.table import compiled_fences
from ..relations import Rel, bits
from .styles import RELATIONS

COM_FAMILY = {"rf": "rf", "rfe": "rf", "rfi": "rf", "co": "co", "coe": "co", "coi": "co",
              "fr": "fr", "fre": "fr", "fri": "fr"}
# relations every diagram draws anyway (a model's `show` of them adds nothing)
ALWAYS_DRAWN = frozenset({"po", "ppo", "fence", "rmw", "addr", "data", "ctrl", *COM_FAMILY})
FAMILY_RANK = {"order": 0, "inserted": 1, "dependency": 1, "rf": 2, "co": 3, "fr": 4, "show": 5, "other": 6}

# A fence insertion: (thread id, index of the instruction it goes before, fence kind).
Insertion = tuple[int, int, str]
# An inserted dependency: (thread id, index of the load, index of the access it reaches, kind).
DependencyInsertion = tuple[int, int, int, str]


@dataclass(frozen=True)
class NodeView:
    """One box of the diagram: an event, an initial write, or an inserted fence."""

    name: str  # DOT node name
    label: str  # ``a: Wx=1``
    tid: int  # -1 for initial writes
    row: int  # position in its column, top to bottom (-1: the initial-write row)
    classes: tuple[str, ...]
    highlight: bool = False
    tooltip: str = ""


@dataclass(frozen=True)
class EdgeView:
    """One arrow: its relation key (for the style), its label, and whether it is on the cycle."""

    src: str
    dst: str
    rel: str  # po ppo fence rf co fr other inserted show:K
    label: str
    highlight: bool = False
    classes: tuple[str, ...] = ()


@dataclass
class ExecutionView:
    test: str
    model: str
    status: str  # witness | allowed | forbidden
    headline: str  # second title line: what the execution is
    outcome: str  # the final values of the condition's keys
    columns: list[tuple[str, list[NodeView]]]  # (thread name, nodes top to bottom)
    init: list[NodeView]
    edges: list[EdgeView]
    legend: list[tuple[str, str, str]]  # (relation key, short name, description)
    axiom: str | None = None  # the violated axiom whose witness is highlighted
    notes: list[str] = field(default_factory=list)


@dataclass
class _Edge:
    family: str
    src: int | str
    dst: int | str
    tags: list[str] = field(default_factory=list)
    highlight: bool = False
    fence: bool = False  # some tag is a fence kind
    inserted: bool = False  # ordered by an inserted fence
    continued: bool = False  # a later segment of a path through fences: styled, not labelled


def execution_view(execution: Execution, model: Model, *, test: str, status: str,
                   thread_names: list[str], condition=None, violations: list[Violation] = (),
                   show_init: bool = False, fences: list[Insertion] = (),
                   dependencies: list[DependencyInsertion] = ()) -> ExecutionView:
    """Decide what a diagram of ``execution`` under ``model`` shows.

    ``violations`` (for a forbidden execution) come from the checker; the first one with a
    witness is highlighted. ``fences`` are insertions drawn as fence nodes in place,
    ``dependencies`` (addr, data, ctrl, ctrl+isb the selection inserts) as edges from the
    load's event to the access's, labelled with the kind.
    """
    ev = execution.events
    prepared = prepared_for(execution, model)
    static = prepared.rels
    dyn = Dynamic(execution.rf, execution.co, static["int"])
    shown = next((v for v in violations if v.cycle), violations[0] if violations else None)
    cycle = _cycle_edges(shown)
    hot_events = set(shown.cycle) if shown is not None and shown.test != "acyclic" else set()
    touched = {e for a, b, _ in cycle for e in (a, b)} | hot_events
    with_init = show_init or any(ev[e].init for e in touched)
    visible = [e.eid for e in ev if with_init or not e.init]
    vis_mask = sum(1 << i for i in visible)

    columns, inserted = _columns(execution, thread_names, fences)
    edges = _EdgeSet()
    _order_edges(edges, execution, model, static, columns)
    _communication_edges(edges, execution)
    set_shows = _shown_edges(edges, prepared, dyn, model)
    _mark_cycle(edges, cycle, execution, model, static["po"])
    for a, b, kind in _inserted_orders(execution, model, static, inserted):
        edges.add("inserted", a, b, kind)
    for a, b, kind in _inserted_dependencies(execution, dependencies):
        edges.add("dependency", a, b, kind)

    _route_through_fences(edges.edges, columns, ev)
    names = _node_names(ev, inserted)
    out_edges = []
    for e in sorted(edges.edges.values(), key=_edge_key):
        if any(isinstance(x, int) and not (vis_mask >> x) & 1 for x in (e.src, e.dst)):
            continue
        out_edges.append(_edge_view(e, names))
    nodes = _node_views(ev, columns, inserted, names, hot_events, set_shows)
    init = [_event_node(ev[i], names, -1, hot_events, set_shows) for i in visible if ev[i].init]
    return ExecutionView(
        test=test, model=model.name, status=status,
        headline=_headline(status, shown, model, condition),
        outcome=_outcome(execution, condition),
        columns=nodes, init=init, edges=out_edges,
        legend=_legend(out_edges, model, shown, bool(inserted)),
        axiom=shown.axiom if shown is not None else None,
        notes=[f"also violates {v.axiom}" for v in violations if v is not shown],
    )


# ----- relations ------------------------------------------------------------------
class _EdgeSet:
    """Edges keyed by (family, source, target); relations on one pair merge their tags."""

    def __init__(self):
        self.edges: dict[tuple, _Edge] = {}

    def add(self, family: str, a, b, tag: str, highlight: bool = False, fence: bool = False) -> None:
        e = self.edges.setdefault((family, a, b), _Edge(family, a, b))
        if tag not in e.tags:
            e.tags.append(tag)
        e.highlight = e.highlight or highlight
        e.fence = e.fence or fence


def _order_edges(edges: _EdgeSet, execution: Execution, model: Model, static: dict, columns: list) -> None:
    """Program order between the boxes of a column (its Hasse diagram); ppo, fences and dependencies."""
    ppo, po = static["ppo"], static["po"]
    for _, items in columns:
        for x, y in _column_order(items, po):
            kept = isinstance(x, int) and isinstance(y, int) and (x, y) in ppo
            edges.add("order", x, y, "ppo" if kept else "po")
    for a, b in _reduce(ppo).pairs():
        edges.add("order", a, b, "ppo")
    for a, b in _reduce(static["fence"]).pairs():
        for kind in _fence_kinds(execution.events, model, a, b, po):
            edges.add("order", a, b, kind, fence=True)
    for tag in ("rmw", "addr", "data", "ctrl"):
        for a, b in static[tag].pairs():
            edges.add("order", a, b, tag)


def _communication_edges(edges: _EdgeSet, execution: Execution) -> None:
    """rf, co (immediate successors) and fr (to the write right after the one read from)."""
    for a, b in execution.rf.pairs():
        edges.add("rf", a, b, "rf")
    for a, b in _reduce(execution.co).pairs():
        edges.add("co", a, b, "co")
    fr = execution.fr()
    for a, b in (fr - fr.seq(execution.co)).pairs():
        edges.add("fr", a, b, "fr")


def _shown_edges(edges: _EdgeSet, prepared, dyn: Dynamic, model: Model) -> dict[str, int]:
    """The relations the model names in `show` (beyond those always drawn); returns shown sets."""
    sets = {}
    for k, name in enumerate(model.shows):
        if name in ALWAYS_DRAWN:
            continue
        kind, value = _shown_value(prepared, dyn, model, name)
        if kind == SET:
            sets[name] = value
            continue
        for a, b in value.pairs():
            edges.add(f"show:{k}", a, b, name)
    return sets


def _mark_cycle(edges: _EdgeSet, cycle: list, execution: Execution, model: Model, po: Rel) -> None:
    """Highlight the violated axiom's cycle, each edge in the family of the relation it names."""
    for a, b, name in cycle:
        family = COM_FAMILY.get(name)
        if family is not None:
            edges.add(family, a, b, family, True)
        elif name in model.shows and name not in ALWAYS_DRAWN:
            edges.add(f"show:{model.shows.index(name)}", a, b, name, True)
        elif (a, b) in po and name == "fence":
            for kind in _fence_kinds(execution.events, model, a, b, po) or [name]:
                edges.add("order", a, b, kind, True, fence=True)
        elif (a, b) in po:
            edges.add("order", a, b, name, True)
        else:
            edges.add(f"other:{name}", a, b, name, True)


def _column_order(items: list, po: Rel) -> list[tuple]:
    """The pairs of a column's boxes drawn as program order: the checker's ``po`` reduced.

    A column is a chain (consecutive boxes) unless some consecutive events are not in po
    (the operands of one C expression, unsequenced): then its transitive reduction, so no
    edge joins unsequenced events and each keeps its edges to the boxes sequenced around
    it. Inserted fences are ordered with every box around them.
    """
    def ordered(x, y) -> bool:
        return not (isinstance(x, int) and isinstance(y, int)) or (x, y) in po

    pairs = list(zip(items, items[1:]))
    if all(ordered(x, y) for x, y in pairs):
        return pairs
    later = [sum(1 << m for m in range(k + 1, len(items)) if ordered(items[k], items[m]))
             for k in range(len(items))]
    out = []
    for k, row in enumerate(later):
        implied = 0
        for m in bits(row):
            implied |= later[m]
        out.extend((items[k], items[m]) for m in bits(row & ~implied))
    return out


def _reduce(rel: Rel) -> Rel:
    """Drop the pairs implied by composing two others (the Hasse diagram of an order)."""
    return rel - rel.seq(rel)


def _cycle_edges(v: Violation | None) -> list[tuple[int, int, str]]:
    if v is None or v.test != "acyclic" or not v.cycle:
        return []
    out = []
    for i, a in enumerate(v.cycle):
        b = v.cycle[(i + 1) % len(v.cycle)]
        out.append((a, b, v.edges[i] if i < len(v.edges) else v.axiom))
    return out


def _fence_kinds(ev: list[Event], model: Model, a: int, b: int, po: Rel) -> list[str]:
    """The kinds of the fences between a and b that order them (``mfence``)."""
    fences = compiled_fences(model)
    kinds = []
    for f in bits(po.rows[a] & ~po.rows[b] & ~(1 << b)):
        e = ev[f]
        if e.kind == "F" and fences.orders_pair(e.fence, ev[a].shape, ev[b].shape) and e.fence not in kinds:
            kinds.append(e.fence)
    return kinds


def _shown_value(prepared, dyn: Dynamic, model: Model, name: str):
    """A relation or set the model asks to show, evaluated on this execution."""
    kind = SET if name in model.classes else REL
    for group in model.lets:
        for b in group.bindings:
            if b.name == name:
                kind = b.expr.type
    value = prepared.value(prepared._compile(Expr("name", name=name, type=kind)), dyn)
    return (SET, value) if isinstance(value, int) else (REL, value)


def _inserted_orders(execution: Execution, model: Model, static: dict, inserted: dict) -> list:
    """Pairs a fence insertion newly orders (not already kept by the table or a fence)."""
    if not inserted:
        return []
    ev = execution.events
    fences = compiled_fences(model)
    n = execution.n
    new: dict[tuple[int, int], list[str]] = {}
    for (tid, position), kinds in sorted(inserted.items()):
        thread = [e for e in ev if e.tid == tid and e.is_access]
        before = [e for e in thread if e.po < position]
        after = [e for e in thread if e.po >= position]
        for kind in kinds:
            for a in before:
                for b in after:
                    if fences.orders_pair(kind, a.shape, b.shape) and (a.eid, b.eid) not in static["ppo"] \
                            and (a.eid, b.eid) not in static["fence"]:
                        tags = new.setdefault((a.eid, b.eid), [])
                        if kind not in tags:
                            tags.append(kind)
    rel = Rel.from_pairs(n, new)
    total = rel | static["ppo"] | static["fence"]
    keep = rel - total.seq(total)
    return [(a, b, kind) for a, b in keep.pairs() for kind in new[(a, b)]]


def _inserted_dependencies(execution: Execution, dependencies: list[DependencyInsertion]) -> list:
    """(load event, access event, kind) of each inserted dependency whose two instructions ran."""
    out = []
    for tid, source, target, kind in dependencies:
        events = [e for e in execution.events if e.tid == tid and not e.init and e.is_access]
        a = next((e for e in events if e.instr == source and e.kind == "R"), None)
        b = next((e for e in events if e.instr == target), None)
        if a is not None and b is not None:
            out.append((a.eid, b.eid, kind))
    return sorted(out)


def _route_through_fences(edges: dict, columns: list, ev: list[Event]) -> None:
    """Draw an ordering edge that only skips fence boxes along the column, through them.

    ``a: Wx=1 -> b: F[mfence] -> c: Wy=1``: the fence pair (a, c) colours the two
    column segments (label on the first) instead of an arc beside the fence.
    """
    where = {}
    for _, items in columns:
        for k, item in enumerate(items):
            where[item] = (items, k)
    for key in sorted((k for k, e in edges.items() if e.family in ("order", "inserted")), key=_key_order):
        e = edges[key]
        (items, i), (other, j) = where[e.src], where[e.dst]
        if other is not items or j <= i + 1:
            continue
        if not all(not isinstance(x, int) or ev[x].kind == "F" for x in items[i + 1:j]):
            continue
        del edges[key]
        path = items[i:j + 1]
        for k, (x, y) in enumerate(zip(path, path[1:])):
            seg = edges.setdefault(("order", x, y), _Edge("order", x, y, ["po"]))
            if k == 0:
                seg.tags.extend(t for t in e.tags if t not in seg.tags)
            else:
                seg.continued = True
            seg.highlight = seg.highlight or e.highlight
            seg.fence = seg.fence or e.fence
            seg.inserted = seg.inserted or e.family == "inserted"


def _key_order(key: tuple):
    family, a, b = key
    return (family, _sort_id(a), _sort_id(b))


# ----- nodes ------------------------------------------------------------------------
def _columns(execution: Execution, thread_names: list[str], fences: list[Insertion]):
    """Per thread: its events and inserted fences, top to bottom.

    Returns the columns as (name, [eid or ("fence", tid, position, k)]) and the insertions
    keyed by (tid, event position they precede) -> [kinds].
    """
    inserted: dict[tuple[int, int], list[str]] = {}
    by_tid: dict[int, list[Event]] = {}
    for e in execution.events:
        if not e.init:
            by_tid.setdefault(e.tid, []).append(e)
    for tid, before, kind in sorted(fences, key=lambda f: (f[0], f[1])):
        events = by_tid.get(tid, [])
        position = next((e.po for e in events if e.instr >= before), len(events))
        inserted.setdefault((tid, position), []).append(kind)
    columns = []
    for tid, name in enumerate(thread_names):
        items: list = []
        events = by_tid.get(tid, [])
        for e in events:
            for k, _ in enumerate(inserted.get((tid, e.po), [])):
                items.append(("fence", tid, e.po, k))
            items.append(e.eid)
        for k, _ in enumerate(inserted.get((tid, len(events)), [])):
            items.append(("fence", tid, len(events), k))
        columns.append((name, items))
    return columns, inserted


def _node_names(ev: list[Event], inserted: dict) -> dict:
    names: dict = {}
    for e in ev:
        names[e.eid] = f"init_{e.loc}" if e.init else e.label
    for (tid, position), kinds in inserted.items():
        for k, _ in enumerate(kinds):
            names[("fence", tid, position, k)] = f"fence_{tid}_{position}_{k}"
    return names


def _node_views(ev, columns, inserted, names, hot: set[int], set_shows: dict) -> list:
    out = []
    for name, items in columns:
        nodes = []
        for row, item in enumerate(items):
            if isinstance(item, int):
                nodes.append(_event_node(ev[item], names, row, hot, set_shows))
            else:
                _, tid, position, k = item
                kind = inserted[(tid, position)][k]
                nodes.append(NodeView(names[item], f"+F[{kind}]", tid, row, ("inserted", "F"),
                                      tooltip=f"fence {kind} inserted by the fence selection"))
        out.append((name, nodes))
    return out


def _event_node(e: Event, names: dict, row: int, hot: set[int], set_shows: dict) -> NodeView:
    label = e.text()
    member = [n for n, m in set_shows.items() if (m >> e.eid) & 1]
    if member:
        label += " {" + ", ".join(member) + "}"
    classes = ("init", "W") if e.init else ("event", e.kind)
    if e.eid in hot:
        classes += ("cycle",)
    return NodeView(names[e.eid], label, e.tid, row, classes, highlight=e.eid in hot)


# ----- edges --------------------------------------------------------------------------
def _edge_key(e: _Edge):
    family = e.family.split(":")[0]
    return (FAMILY_RANK[family], e.family, _sort_id(e.src), _sort_id(e.dst))


def _sort_id(x) -> tuple:
    """Events by id, then inserted fences by (thread, position, index)."""
    return (0, x, 0, 0) if isinstance(x, int) else (1, x[1], x[2], x[3])


def _edge_view(e: _Edge, names: dict) -> EdgeView:
    family = e.family.split(":")[0]
    tags = list(e.tags)
    if family == "order":
        if "po" in tags and (len(tags) > 1 or e.continued):
            tags.remove("po")  # a column edge is program order anyway: name what else it is
        rel = "inserted" if e.inserted else "fence" if e.fence else "ppo" if "ppo" in tags else "po"
    elif family == "show":
        rel = e.family
    else:
        rel = family
    classes = tuple(dict.fromkeys([rel.split(":")[0], *tags])) + (("cycle",) if e.highlight else ())
    return EdgeView(names[e.src], names[e.dst], rel, ", ".join(tags), e.highlight, classes)


# ----- titles and legend --------------------------------------------------------------
def _headline(status: str, shown: Violation | None, model: Model, condition) -> str:
    if status == "forbidden":
        if shown is None:
            return "forbidden"
        ax = next((a for a in model.axioms if a.name == shown.axiom), None)
        what = f"{shown.axiom}: {ax.text()}" if ax is not None else shown.axiom
        return f"forbidden: violates {what}"
    if condition is None:
        return "allowed"
    if status == "witness":
        return f"allowed; satisfies {condition.text()}"
    return f"allowed; does not satisfy {condition.text()}"


def _outcome(execution: Execution, condition) -> str:
    if condition is None:
        return ""
    return FinalState.of(execution.final, condition.keys()).text()


def _legend(edges: list[EdgeView], model: Model, shown: Violation | None, inserted: bool) -> list:
    used = {e.rel for e in edges}
    out = []
    for rel, text in RELATIONS.items():
        if rel in used and rel != "other":
            if rel == "po" and model.table is None:  # no table, no ppo: axioms alone say what is kept
                text = "program order"
            out.append((rel, rel, text))
    for k, name in enumerate(model.shows):
        key = f"show:{k}"
        if key in used:
            out.append((key, name, _binding_text(model, name)))
    others = sorted({e.label for e in edges if e.rel == "other"})
    for name in others:
        out.append(("other", name, RELATIONS["other"]))
    if inserted:
        out.append(("inserted-node", "+F", "fence inserted by the fence selection"))
    if shown is not None and any(e.highlight for e in edges):
        out.append(("cycle", "thick", f"cycle that violates {shown.axiom}"))
    elif shown is not None:
        out.append(("cycle-node", "shaded", f"events that violate {shown.axiom}"))
    return out


def _binding_text(model: Model, name: str) -> str:
    for group in model.lets:
        for b in group.bindings:
            if b.name == name:
                return str(b.expr)
    return model.class_docs.get(name, "shown by the model")
