"""Plain-text description of a checked model (what `mmdsl check-model` prints)."""

from __future__ import annotations

from ..lang.ir import CELL_MEANING, Model, render_expr


def model_text(model: Model) -> str:
    out = [f"model {model.name}: {model.title}" if model.title else f"model {model.name}"]
    if model.path:
        out.append(f"  file: {model.path}")
    for inc in model.includes:
        out.append(f"  includes: {inc}")
    if model.doc:
        out.append("")
        out.extend("  " + line for line in model.doc.splitlines())
    if model.annotations:
        out.append("")
        out.append("annotations declared: " + ", ".join(sorted(model.annotations)))
    if model.classes:
        out.append("")
        out.append("classes:")
        width = max(len(n) for n in model.classes)
        for name, expr in model.classes.items():
            doc = model.class_docs.get(name)
            out.append(f"  {name:<{width}} = {render_expr(expr)}" + (f"    # {doc}" if doc else ""))
    if model.table is not None:
        out.append("")
        out.append("reorder table (row: earlier access, column: later access; may the later go first?):")
        out.extend("  " + line for line in table_lines(model))
        used = sorted({c.value for c in model.table.cells.values()})
        for v in used:
            out.append(f"    {v:<2}  {CELL_MEANING[v]}")
    uses_deps = model.table is not None and any(c.value in ("i", "di") for c in model.table.cells.values())
    if uses_deps or model.dependencies_pos is not None:
        out.append("")
        out.extend(dependency_lines(model))
    out.append("")
    out.append("forwarding: " + ("own writes (a read may take its value from its thread's pending write)"
                                 if model.forwarding else "none (one shared memory)"))
    if model.fences:
        out.append("")
        out.append("fences:")
        for f in model.fences.values():
            orders = " | ".join(f"{render_expr(a)} * {render_expr(b)}" for a, b in f.orders)
            aka = f" (aka {', '.join(f.aliases)})" if f.aliases else ""
            out.append(f"  {f.name}{aka}: orders {orders}, cost {f.cost}" + (f" -- {f.doc}" if f.doc else ""))
    if model.lets:
        out.append("")
        out.append("definitions:")
        for g in model.lets:
            for i, b in enumerate(g.bindings):
                kw = ("let rec" if i == 0 else "    and") if g.recursive else "let"
                out.append(f"  {kw} {b.name} = {render_expr(b.expr)}")
    out.append("")
    out.append("axioms:")
    for a in model.axioms:
        tag = "  (default)" if a.default else ""
        out.append(f"  {a.name}: {a.text()}{tag}" + (f"    # {a.doc}" if a.doc else ""))
    return "\n".join(out) + "\n"


def dependency_lines(model: Model) -> list[str]:
    """Which dependencies the model honours (what the table's i / di cells test)."""
    head = "dependencies (what keeps a pair of an i / di cell in order)"
    if model.dependencies_pos is None:
        head += ", the default"
    out = [head + ":"]
    if not model.dependencies:
        out.append("  none: i is Y and di is d")
    for rule in model.dependencies:
        pairs = " | ".join(f"{render_expr(a)} * {render_expr(b)}" for a, b in rule.pairs)
        doc = f"    # {rule.doc}" if rule.doc and rule.doc != "default" else ""
        cost = f", cost {rule.cost}" if rule.cost is not None else ""
        out.append(f"  {rule.name}: {pairs}{cost}{doc}")
    return out


def table_lines(model: Model) -> list[str]:
    t = model.table
    w0 = max(len(r) for r in t.rows)
    widths = [max(len(c), 2) for c in t.cols]
    lines = [" " * w0 + "  " + "  ".join(f"{c:<{w}}" for c, w in zip(t.cols, widths))]
    for r in t.rows:
        cells = "  ".join(f"{t.cells[(r, c)].value:<{w}}" for c, w in zip(t.cols, widths))
        lines.append(f"{r:<{w0}}  {cells}")
    return [line.rstrip() for line in lines]
