"""A partial execution of the graph machine and its next step's choices, drawn (docs/explorer.md).

The picture has one box per execution graph: the partial execution reached along the
machine's first path just before the last read of the program is added, then one box
per choice of that read (each write it may read from), marked enabled or blocked by
the axiom the extended graph fails. Events not added yet are grey and dashed; po is
drawn in the style's program-order colour, rf and co in theirs.
"""

from __future__ import annotations

from ..core.program import Program
from ..lang.ir import Model
from .dot_text import dot_string as _plain, html_text
from .styles import Style


def extension_source(program: Program, model: Model, style: Style) -> str:
    """DOT of the first partial execution before a read with two or more writes to choose from."""
    machine, state = _state_before_a_choice(program, model)
    steps = machine.candidates(state)
    kind = machine.s.events[steps[0].eid].kind
    boxes = [("now", "the partial execution", state, "black")]
    for k, step in enumerate(steps):
        after = machine.apply(state, step)
        failed = machine.failure(after, kind)
        text = machine.describe(state, step)
        verdict = f"blocked: fails {failed}" if failed else "enabled"
        boxes.append((f"c{k}", f"{text}: {verdict}", after, "#b2182b" if failed else "#1a9850"))
    lines = [f"digraph {dot_string(f'{program.name}-{model.name}-extension')} {{",
             f'  graph [fontname={dot_string(style.font)}, rankdir=TB, newrank=true, '
             f'label=<{html_text(f"{program.name} under {model.name}: the next read chooses its write")}>, '
             'labelloc=t];',
             f"  node [fontname={dot_string(style.font)}, shape=box, fontsize=11];",
             f"  edge [fontname={dot_string(style.font)}, fontsize=10];"]
    for name, title, st, colour in boxes:
        lines += _box(machine, name, title, st, colour, style)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _state_before_a_choice(program: Program, model: Model):
    """The graph machine of the first path combination, and the state on its first path
    where the next event is a read with at least two writes to choose from."""
    from ..axiomatic.candidates import Enumerator
    from ..axiomatic.checker import program_paths
    from ..axiomatic.structure import Structure
    from ..explorer.machines.graph.axioms import AxiomPlan
    from ..explorer.machines.graph.machine import GraphMachine

    checked, locations, traces, _ = program_paths(program, model)
    structure = Structure(program, [paths[0] for paths in traces], locations)
    prepared = structure.prepare(checked)
    machine = GraphMachine(structure, prepared, Enumerator(structure, prepared), AxiomPlan(checked, prepared))
    state = machine.initial_state()
    best = None
    while not machine.is_complete(state):
        steps = machine.candidates(state)
        if machine.s.events[steps[0].eid].kind == "R" and len(steps) > 1:
            best = state
        enabled = machine.enabled(state)
        if not enabled:
            break
        state = machine.apply(state, enabled[-1])
    if best is None:
        raise ValueError(f"{program.name}: no read chooses among two writes")
    return machine, best


def _box(machine, name: str, title: str, state, colour: str, style: Style) -> list[str]:
    s = machine.s
    added = set(machine.schedule[:state[0]])
    lines = [f"  subgraph cluster_{name} {{",
             f"    label=<{html_text(title)}>; color={dot_string(colour)}; fontcolor={dot_string(colour)};"]
    shown = [e for e in s.events if not e.init or any(w == e.eid for _, w in state[1])
             or any(e.eid in order for order in state[2])]
    for e in shown:
        value = "" if e.value is None else f"={e.value}"
        label = f"{e.label}: {e.kind} {e.loc}{value}" if e.kind in ("R", "W") else f"{e.label}: {e.kind}"
        if e.init:
            label = f"init {e.loc}={e.value}"
        attrs = "" if e.init or e.eid in added else ", style=dashed, color=grey60, fontcolor=grey60"
        lines.append(f"    {name}_{e.eid} [label={dot_string(label)}{attrs}];")
    lines.append("  }")
    po_style = style.lines["po"].attrs()
    for ids in s.thread_events:
        for a, b in zip(ids, ids[1:]):
            lines.append(f"  {name}_{a} -> {name}_{b} [{_attrs(po_style)}, label=po];")
    for r, w in state[1]:
        lines.append(f"  {name}_{w} -> {name}_{r} [{_attrs(style.lines['rf'].attrs())}, label=rf, constraint=false];")
    for order in state[2]:
        for a, b in zip(order, order[1:]):
            lines.append(f"  {name}_{a} -> {name}_{b} [{_attrs(style.lines['co'].attrs())}, label=co, "
                         "constraint=false];")
    return lines


def dot_string(text: object) -> str:
    """``text`` as a quoted DOT attribute value or graph name (escaped by ``dot_text``)."""
    from graphviz import quoting

    return quoting.quote(_plain(text))


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}={dot_string(v)}" for k, v in attrs.items())
