"""Semantic checks on one parsed model file: every problem found is returned, none stops the others."""

from __future__ import annotations

import difflib

from ..core.errors import ModelError, SourcePos
from .ir import DYNAMIC_DEPENDENCIES, Model, ctrl_fence_of

RESERVED_CLASS_NAMES = {"Y", "d", "i", "di"}
CELL_VALUES = ("-", "Y", "d", "i", "di")
MAX_COST = 10 ** 9


def location(obj) -> SourcePos:
    """The source position of a textX object."""
    from textx import get_location

    loc = get_location(obj)
    return SourcePos(_short(loc.get("filename")), loc.get("line") or 1, loc.get("col") or 1)


def _short(filename: str | None) -> str | None:
    """textX reports absolute file names; show them relative to the working directory."""
    if not filename:
        return filename
    import os

    rel = os.path.relpath(filename)
    return filename if rel.startswith("..") else rel


def _error(obj, message: str) -> ModelError:
    return ModelError(message, location(obj))


def mark_broken(obj) -> None:
    """Lowering skips a statement a check found broken (its errors are already reported)."""
    obj.mm_broken = True


def is_broken(obj) -> bool:
    return getattr(obj, "mm_broken", False)


def check_reorder(table) -> list[ModelError]:
    """Every row has one cell per column; no class appears twice as a row or a column; cells are valid."""
    errors: list[ModelError] = []
    body = table.body
    ncols = len(body.cols)
    seen: set[str] = set()
    for col in body.cols:
        if col.name in seen:
            errors.append(_error(col, f"column '{col.name}' appears twice in the reorder table"))
        seen.add(col.name)
    seen = set()
    for row in body.rows:
        if row.name in seen:
            errors.append(_error(row, f"row '{row.name}' appears twice in the reorder table"))
        seen.add(row.name)
        if len(row.cells) != ncols:
            errors.append(_error(
                row,
                f"row '{row.name}' has {len(row.cells)} cells but the table has {ncols} columns "
                f"({', '.join(c.name for c in body.cols)})",
            ))
        for cell in row.cells:
            if cell.value not in CELL_VALUES:
                errors.append(_error(cell, f"'{cell.value}' is not a table cell; cells are - (keep order), "
                                           "Y (may reorder), d (only different locations), i (only independent), "
                                           "di (both)"))
    if errors:
        mark_broken(table)
    return errors


def check_class_name(decl) -> list[ModelError]:
    """Class names must not look like table cells."""
    if decl.name in RESERVED_CLASS_NAMES:
        return [_error(decl, f"'{decl.name}' cannot name a class: it is a table cell value")]
    return []


def check_fence(decl) -> list[ModelError]:
    """A fence costs at least 1 (and less than a billion) and does not repeat a spelling."""
    errors: list[ModelError] = []
    cost = decl.cost
    if isinstance(cost, str):
        digits = cost.lstrip("+-").lstrip("0")
        if len(digits) > len(str(MAX_COST)) or int(cost) >= MAX_COST:
            errors.append(_error(decl, f"fence '{decl.name}' has cost {cost[:12]}{'...' if len(cost) > 12 else ''}; "
                                       f"costs are positive integers below {MAX_COST:,}"))
        elif int(cost) < 1:
            errors.append(_error(decl, f"fence '{decl.name}' has cost {int(cost)}; costs are positive integers"))
        else:
            decl.cost = int(cost)
    names = [decl.name, *decl.aliases]
    if len(set(n.lower() for n in names)) != len(names):
        errors.append(_error(decl, f"fence '{decl.name}' lists the same name twice"))
    if errors:
        mark_broken(decl)
    return errors


def check_dependencies(block) -> list[ModelError]:
    """A `dependencies` line names a dependency relation (addr, data, ctrl, addr;po), each at most once."""
    from .ir import DEPENDENCY_RELATIONS, dependency_known

    errors: list[ModelError] = []
    seen: dict[str, object] = {}
    for entry in block.entries:
        name = "".join(entry.relation.split())
        if not dependency_known(name):
            errors.append(_error(entry, f"'{entry.relation}' is not a dependency relation; a `dependencies` "
                                        f"block names {', '.join(DEPENDENCY_RELATIONS)}"))
        elif name in seen:
            prev = location(seen[name])
            errors.append(_error(entry, f"dependency '{name}' is already listed at line {prev.line}; "
                                        "join its pairs with |"))
        else:
            seen[name] = entry
        entry.relation = name
    if errors:
        mark_broken(block)
    return errors


def check_propagation(st) -> list[ModelError]:
    """`propagation MODE`: MODE is multi-copy-atomic or per-thread."""
    from .ir import PROPAGATION_MODES

    if st.mode in PROPAGATION_MODES:
        return []
    import difflib

    close = difflib.get_close_matches(st.mode, list(PROPAGATION_MODES), n=1)
    return [ModelError(f"'{st.mode}' is not a propagation mode; a model says `propagation "
                       f"{' or `propagation '.join(m + '`' for m in PROPAGATION_MODES)}",
                       location(st), hint=f"did you mean '{close[0]}'?" if close else None)]


def check_cumulativity(decl) -> list[ModelError]:
    """`fence ... cumulative KIND`: KIND is strong or light."""
    from .ir import CUMULATIVITY

    kind = getattr(decl, "cumulativity", None)
    if not kind or kind in CUMULATIVITY:
        return []
    return [ModelError(f"fence '{decl.name}': '{kind}' is not a cumulativity; a fence is "
                       f"`cumulative {'` or `cumulative '.join(CUMULATIVITY)}`", location(decl),
                       hint="strong: sync, dmb (every pair, every thread); light: lwsync (write-to-write pairs)")]


# Semantic checks run by textX as object processors, one per rule, by name. Each records
# the errors it finds on the object (``mm_errors``) instead of raising, so that every error
# of a file is reported in one run (check_file collects them, in source order).
OBJECT_PROCESSORS = {
    "Propagation": check_propagation,
    "FenceDecl": check_cumulativity,
}


def _recording(check):
    def processor(obj):
        errors = check(obj)
        if errors:
            obj.mm_errors = [*getattr(obj, "mm_errors", []), *errors]
            mark_broken(obj)
    processor.__name__ = f"record_{check.__name__}"
    return processor


def object_processors() -> dict:
    """The textX object processors of the model language (registered on the metamodel)."""
    return {rule: _recording(check) for rule, check in OBJECT_PROCESSORS.items()}


SINGLE_STATEMENTS = {"Reorder": "reorder table", "Forwarding": "forwarding statement",
                     "Dependencies": "dependencies block", "Propagation": "propagation statement"}


def check_file(raw) -> list[ModelError]:
    """Every check of one file's statements: shapes, names, costs, duplicates (one error each)."""
    errors: list[ModelError] = []
    axioms: dict[str, object] = {}
    firsts: dict[str, object] = {}
    for st in raw.statements:
        kind = type(st).__name__
        errors += getattr(st, "mm_errors", [])  # found by the object processors while parsing
        if kind == "Reorder":
            errors += check_reorder(st)
        elif kind == "ClassDecl":
            errors += check_class_name(st)
        elif kind == "FenceDecl":
            errors += check_fence(st)
        elif kind == "Dependencies":
            errors += check_dependencies(st)
        if kind in SINGLE_STATEMENTS:
            if kind in firsts:
                errors.append(_error(st, f"a model has at most one {SINGLE_STATEMENTS[kind]}"))
                mark_broken(st)
            else:
                firsts[kind] = st
        if kind in ("AxiomDecl", "CatTest") and st.name:
            if st.name in axioms:
                prev = location(axioms[st.name])
                errors.append(_error(st, f"axiom '{st.name}' is already defined at line {prev.line}"))
                mark_broken(st)
            else:
                axioms[st.name] = st
    return errors


def dependency_cost(text: str | None, pos) -> int | None:
    """A dependency line's ``cost N`` (what fence selection pays to insert it), bounded as a fence's."""
    if not text:
        return None
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_COST)) or not 1 <= int(text) < MAX_COST:
        raise ModelError(f"dependency cost {text[:12]}: costs are positive integers below {MAX_COST:,}", pos)
    return int(text)


def propagation_errors(model: Model) -> list[ModelError]:
    """Cumulativity, rdw, rfi and detour belong to per-thread models; a ctrl+FENCE dependency names a declared fence."""
    errors = []
    if not model.per_thread:
        for f in model.fences.values():
            if f.cumulativity:
                errors.append(ModelError(
                    f"fence '{f.name}' is cumulative {f.cumulativity}, but model '{model.name}' is multi-copy "
                    "atomic: every write reaches all threads at once, so cumulativity says nothing", f.pos,
                    hint="add `propagation per-thread`, or drop `cumulative ...`"))
    for rule in model.dependencies:
        fence = ctrl_fence_of(rule.name)
        if fence is not None and model.fence_for(fence) is None:
            close = difflib.get_close_matches(fence, [s for f in model.fences.values() for s in f.spellings], n=1)
            errors.append(ModelError(
                f"dependency '{rule.name}' names fence '{fence}', which the model does not declare", rule.pos,
                hint=f"did you mean '{rule.name[:-len(fence)]}{close[0]}'?" if close
                else "declare it: fence NAME orders ... cost N"))
        if rule.name in DYNAMIC_DEPENDENCIES and not model.per_thread:
            errors.append(ModelError(
                f"dependency '{rule.name}' is for a per-thread model, and model '{model.name}' is multi-copy "
                "atomic: its global order already has rf, co and fr", rule.pos,
                hint=f"add `propagation per-thread`, or drop the {rule.name} line"))
    return errors
