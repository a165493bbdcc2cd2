"""Semantic checks on the parsed model, registered as named textX object processors."""

from __future__ import annotations

from textx import TextXSemanticError, get_location

RESERVED_CLASS_NAMES = {"Y", "d", "i", "di"}


def _error(obj, message: str) -> TextXSemanticError:
    loc = get_location(obj)
    return TextXSemanticError(message, line=loc["line"], col=loc["col"], filename=loc["filename"])


def check_reorder_shape(table) -> None:
    """Every row has one cell per column; no class appears twice as a row or a column."""
    table = table.body
    ncols = len(table.cols)
    seen: set[str] = set()
    for col in table.cols:
        if col.name in seen:
            raise _error(col, f"column '{col.name}' appears twice in the reorder table")
        seen.add(col.name)
    seen = set()
    for row in table.rows:
        if row.name in seen:
            raise _error(row, f"row '{row.name}' appears twice in the reorder table")
        seen.add(row.name)
        if len(row.cells) != ncols:
            raise _error(
                row,
                f"row '{row.name}' has {len(row.cells)} cells but the table has {ncols} columns "
                f"({', '.join(c.name for c in table.cols)})",
            )


CELL_VALUES = ("-", "Y", "d", "i", "di")


def check_cell(cell) -> None:
    """A table cell is one of -, Y, d, i, di."""
    if cell.value not in CELL_VALUES:
        raise _error(cell, f"'{cell.value}' is not a table cell; cells are - (keep order), Y (may reorder), "
                           "d (only different locations), i (only independent), di (both)")


def check_class_name(decl) -> None:
    """Class names must not look like table cells."""
    if decl.name in RESERVED_CLASS_NAMES:
        raise _error(decl, f"'{decl.name}' cannot name a class: it is a table cell value")


MAX_COST = 10 ** 9


def check_fence(decl) -> None:
    """A fence costs at least 1 (and less than a billion) and does not repeat a spelling."""
    digits = decl.cost.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_COST)) or int(decl.cost) >= MAX_COST:
        raise _error(decl, f"fence '{decl.name}' has cost {decl.cost[:12]}{'...' if len(decl.cost) > 12 else ''}; "
                           f"costs are positive integers below {MAX_COST:,}")
    decl.cost = int(decl.cost)
    if decl.cost < 1:
        raise _error(decl, f"fence '{decl.name}' has cost {decl.cost}; costs are positive integers")
    names = [decl.name, *decl.aliases]
    if len(set(n.lower() for n in names)) != len(names):
        raise _error(decl, f"fence '{decl.name}' lists the same name twice")


def check_dependency_entry(entry) -> None:
    """A `dependencies` line names one of the dependency relations (addr, data, ctrl, addr;po)."""
    from .ir import DEPENDENCY_RELATIONS

    name = "".join(entry.relation.split())
    if name not in DEPENDENCY_RELATIONS:
        raise _error(entry, f"'{entry.relation}' is not a dependency relation; a `dependencies` block "
                            f"names {', '.join(DEPENDENCY_RELATIONS)}")
    entry.relation = name


def check_dependencies(block) -> None:
    """A dependency relation is listed at most once per block (join its pairs with |)."""
    seen: dict[str, object] = {}
    for entry in block.entries:
        name = "".join(entry.relation.split())
        if name in seen:
            prev = get_location(seen[name])
            raise _error(entry, f"dependency '{name}' is already listed at line {prev['line']}; "
                                "join its pairs with |")
        seen[name] = entry


def check_axiom_names(model) -> None:
    """Axiom names are unique within one file."""
    seen: dict[str, object] = {}
    for st in model.statements:
        kind = type(st).__name__
        if kind in ("AxiomDecl", "CatTest") and st.name:
            if st.name in seen:
                prev = get_location(seen[st.name])
                raise _error(st, f"axiom '{st.name}' is already defined at line {prev['line']}")
            seen[st.name] = st


def check_single_table(model) -> None:
    """At most one reorder table, dependencies block and forwarding statement per file."""
    for kind, what in (("Reorder", "reorder table"), ("Forwarding", "forwarding statement"),
                       ("Dependencies", "dependencies block")):
        items = [s for s in model.statements if type(s).__name__ == kind]
        if len(items) > 1:
            raise _error(items[1], f"a model has at most one {what}")


OBJECT_PROCESSORS = {
    "Reorder": check_reorder_shape,
    "ClassDecl": check_class_name,
    "Cell": check_cell,
    "FenceDecl": check_fence,
    "DepEntry": check_dependency_entry,
    "Dependencies": check_dependencies,
}

MODEL_PROCESSORS = [check_axiom_names, check_single_table]
