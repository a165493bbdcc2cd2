"""Lower parsed model files (with their includes) to the typed core IR, resolving every name."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..core.errors import ModelError, SourcePos, too_deep
from .ir import (
    BASE_SETS,
    DYNAMIC_RELATIONS,
    KNOWN_ANNOTATIONS,
    REL,
    SET,
    STATIC_RELATIONS,
    Axiom,
    Binding,
    Cell,
    DependencyRule,
    Expr,
    FenceDecl,
    LetGroup,
    Model,
    Table,
)
from .metamodel import location, parse_model_text

_BINARY = {"Union": "union", "Seq": "seq", "Diff": "diff", "Inter": "inter"}
_POSTFIX = {"*": "star", "+": "plus", "?": "opt", "^-1": "inv"}


def _strip_doc(doc: str | None) -> str:
    if not doc:
        return ""
    if doc.startswith('"""') and doc.endswith('"""'):
        doc = doc[3:-3]
    lines = [ln.rstrip() for ln in doc.strip("\n").splitlines()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    return "\n".join(ln[indent:] for ln in lines).strip()


class _Scope:
    """Names visible at a point of the model: sets and relations with their types."""

    def __init__(self, model: Model):
        self.model = model
        self.types: dict[str, str] = {}
        for n in BASE_SETS:
            self.types[n] = SET
        for n in KNOWN_ANNOTATIONS:
            self.types[n] = SET
        for n in (*STATIC_RELATIONS, *DYNAMIC_RELATIONS, "fence", "kept-loc"):
            self.types[n] = REL
        self.ppo_use: SourcePos | None = None

    def declare(self, name: str, typ: str) -> None:
        self.types[name] = typ

    def lookup(self, name: str, pos: SourcePos) -> str:
        if name in self.types:
            return self.types[name]
        if name == "ppo":  # derived from the table; checked once the whole model is read
            if self.ppo_use is None:
                self.ppo_use = pos
            return REL
        close = difflib.get_close_matches(name, list(self.types) + ["ppo"], n=3)
        hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else None
        raise ModelError(f"unknown name '{name}'", pos, expected="a set, a relation or a let-bound name", hint=hint)


class _Lowerer:
    def __init__(self, search_dirs: list[Path]):
        self.search_dirs = search_dirs
        self.loading: list[Path] = []

    # ----- files and includes -------------------------------------------------
    def load(self, path: Path) -> Model:
        raw = self._parse(path)
        model = Model(
            name=raw.name,
            title=(raw.title or "").strip(),
            doc=_strip_doc(raw.doc),
            path=str(path),
        )
        self.scope = _Scope(model)
        self._lower_file(raw, model, path)
        self._finish(model, raw)
        return model

    def _parse(self, path: Path):
        try:
            text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the text
        except UnicodeDecodeError:
            raise ModelError("the model file is not UTF-8 text", SourcePos(str(path), 1, 1)) from None
        except OSError as err:
            raise ModelError(f"cannot read model file: {err.strerror}", SourcePos(str(path), 1, 1)) from None
        try:
            return parse_model_text(text, str(path))
        except RecursionError:  # textX follows nesting on the stack
            raise too_deep(ModelError, text, str(path)) from None

    def _resolve_include(self, name: str, base: Path, pos: SourcePos) -> Path:
        candidates = [base.parent / name, *(d / name for d in self.search_dirs)]
        if not name.endswith(".mm"):
            candidates += [c.with_name(c.name + ".mm") for c in candidates]
        for c in candidates:
            if c.is_file():
                return c.resolve()
        raise ModelError(f"included model '{name}' not found", pos,
                         hint=f"looked in {base.parent} and the bundled models")

    def _lower_file(self, raw, model: Model, path: Path) -> None:
        self.loading.append(path.resolve())
        for st in raw.statements:
            kind = type(st).__name__
            pos = location(st)
            if kind == "Include":
                target = self._resolve_include(st.path, path, pos)
                if target in self.loading:
                    raise ModelError(f"include cycle: '{st.path}' includes itself", pos)
                model.includes.append(str(target))
                self._lower_file(self._parse(target), model, target)
            elif kind == "Annotation":
                for n in st.names:
                    model.annotations[n] = st.doc or ""
                    self.scope.declare(n, SET)
            elif kind == "ClassDecl":
                expr = self._expr(st.expr)
                if expr.type != SET:
                    raise ModelError(f"class '{st.name}' must be a set of events, not a relation", pos)
                model.classes[st.name] = expr
                model.class_docs[st.name] = st.doc or ""
                self.scope.declare(st.name, SET)
            elif kind == "Reorder":
                if model.table is not None:  # e.g. one from an included file
                    raise ModelError(f"a second reorder table (the first is at {model.table.pos}); "
                                     "a model has one table", pos,
                                     hint="keep the table in one file and include the other parts")
                model.table = self._table(st, pos)
            elif kind == "Dependencies":
                if model.dependencies_pos is not None:  # e.g. one from an included file
                    raise ModelError(f"a second dependencies block (the first is at {model.dependencies_pos}); "
                                     "a model says once which dependencies it honours", pos)
                model.dependencies = self._dependencies(st)
                model.dependencies_pos = pos
            elif kind == "Forwarding":
                model.forwarding = st.mode == "own-writes"
            elif kind == "FenceDecl":
                self._fence(st, model, pos)
            elif kind in ("Let", "LetRec"):
                model.lets.append(self._let(st, kind == "LetRec"))
            elif kind in ("AxiomDecl", "CatTest"):
                self._axiom(st, model, pos)
            elif kind == "Show":
                for n in st.names:
                    self.scope.lookup(n, pos)
                    if n not in model.shows:
                        model.shows.append(n)
        self.loading.pop()

    # ----- statements -----------------------------------------------------------
    def _table(self, st, pos: SourcePos) -> Table:
        st = st.body
        rows = [r.name for r in st.rows]
        cols = [c.name for c in st.cols]
        for obj, name in [*((c, c.name) for c in st.cols), *((r, r.name) for r in st.rows)]:
            p = location(obj)
            if self.scope.lookup(name, p) != SET:
                raise ModelError(f"table class '{name}' is a relation; rows and columns are sets of events", p)
        cells = {}
        for r in st.rows:
            for c, cell in zip(cols, r.cells):
                cells[(r.name, c)] = Cell(cell.value, location(cell))
        return Table(rows, cols, cells, pos)

    def _dependencies(self, st) -> list[DependencyRule]:
        rules = []
        for entry in st.entries:
            pos = location(entry)
            rules.append(DependencyRule("".join(entry.relation.split()), self._pairs(entry.pairs, pos),
                                        entry.doc or "", pos))
        return rules

    def _pairs(self, orders, pos: SourcePos, what: str = "a dependency keeps") -> list:
        out = []
        for o in orders:
            left, right = self._expr(o.left), self._expr(o.right)
            for side in (left, right):
                if side.type != SET:
                    raise ModelError(f"{what} pairs of event sets: write SET * SET", side.pos or pos)
            out.append((left, right))
        return out

    def _fence(self, st, model: Model, pos: SourcePos) -> None:
        for other in model.fences.values():
            clash = {s.lower() for s in other.spellings} & {st.name.lower(), *(a.lower() for a in st.aliases)}
            if clash:
                raise ModelError(f"fence name '{sorted(clash)[0]}' is already used by fence '{other.name}'", pos)
        orders = self._pairs(st.orders, pos, "a fence orders")
        model.fences[st.name] = FenceDecl(st.name, list(st.aliases), orders, st.cost, st.doc or "", pos)
        for n in (st.name, *st.aliases):
            self.scope.declare(n, SET)

    def _let(self, st, recursive: bool) -> LetGroup:
        bindings = []
        if recursive:
            for b in st.bindings:
                self.scope.declare(b.name, REL)
            rec_names = {b.name for b in st.bindings}
            for b in st.bindings:
                expr = self._expr(b.expr)
                if expr.type != REL:
                    raise ModelError(f"'let rec {b.name}' must define a relation", location(b))
                _check_monotone(expr, rec_names, positive=True)
                bindings.append(Binding(b.name, expr, location(b)))
        else:
            for b in st.bindings:
                expr = self._expr(b.expr)
                bindings.append(Binding(b.name, expr, location(b)))
            for b in bindings:
                self.scope.declare(b.name, b.expr.type)
        return LetGroup(bindings, recursive)

    def _axiom(self, st, model: Model, pos: SourcePos) -> None:
        expr = self._expr(st.expr)
        test = st.test
        if test in ("acyclic", "irreflexive") and expr.type != REL:
            raise ModelError(f"'{test}' needs a relation, and this expression is a set", expr.pos or pos)
        name = st.name or f"{test}@{pos.line}"
        if not st.name and len(self.loading) > 1:  # an unnamed test of an included file
            name = f"{test}@{self.loading[-1].name}:{pos.line}"
        if any(a.name == name for a in model.axioms):
            raise ModelError(f"axiom '{name}' is already defined (names must be unique, includes too)", pos)
        model.axioms.append(Axiom(name, test, expr, bool(st.negated), st.doc or "", False, pos,
                                  scope=len(model.lets)))

    # ----- expressions ---------------------------------------------------------------
    def _expr(self, node) -> Expr:
        kind = type(node).__name__
        pos = location(node)
        if kind in _BINARY:
            items = [self._expr(o) for o in node.ops]
            if len(items) == 1:
                return items[0]
            op = _BINARY[kind]
            if op == "seq":
                for it in items:
                    self._need(it, REL, ";", pos)
                return Expr("seq", tuple(items), REL, pos=pos)
            typ = items[0].type
            for it in items[1:]:
                if it.type != typ:
                    raise ModelError(
                        f"'{_SYMBOL[op]}' mixes a {_TYPE_WORD[typ]} and a {_TYPE_WORD[it.type]} "
                        f"({items[0]} and {it})", pos,
                    )
            if op == "diff":  # left associative
                acc = items[0]
                for it in items[1:]:
                    acc = Expr("diff", (acc, it), typ, pos=pos)
                return acc
            return Expr(op, tuple(items), typ, pos=pos)
        if kind == "Product":
            left = self._expr(node.left)
            if node.right is None:
                return left
            right = self._expr(node.right)
            self._need(left, SET, "*", pos)
            self._need(right, SET, "*", pos)
            return Expr("product", (left, right), REL, pos=pos)
        if kind == "Compl":
            arg = self._expr(node.arg)
            return Expr("compl", (arg,), arg.type, pos=pos)
        if kind == "Postfix":
            e = self._expr(node.base)
            for op in node.ops:
                self._need(e, REL, op.op, pos)
                e = Expr(_POSTFIX[op.op], (e,), REL, pos=pos)
            return e
        if kind == "Paren":
            return self._expr(node.expr)
        if kind == "Bracket":
            inner = self._expr(node.expr)
            self._need(inner, SET, "[...]", pos)
            return Expr("id", (inner,), REL, pos=pos)
        if kind == "EmptyRel":
            return Expr("empty", (), REL, pos=pos)
        if kind == "Universe":
            return Expr("universe", (), SET, pos=pos)
        if kind == "Name":
            return Expr("name", (), self.scope.lookup(node.name, pos), name=node.name, pos=pos)
        raise ModelError(f"unsupported expression '{kind}'", pos)

    @staticmethod
    def _need(e: Expr, typ: str, op: str, pos: SourcePos) -> None:
        if e.type != typ:
            raise ModelError(f"'{op}' needs a {_TYPE_WORD[typ]}, and '{e}' is a {_TYPE_WORD[e.type]}", e.pos or pos)

    # ----- whole-model checks ----------------------------------------------------------
    def _finish(self, model: Model, raw) -> None:
        from .defaults import default_axioms
        from .partition import check_partition

        pos = location(raw)
        if model.table is None and self.scope.ppo_use is not None:
            raise ModelError(
                "'ppo' comes from the reorder table, and this model has no table", self.scope.ppo_use,
                hint="add a `reorder { ... }` table, or define ppo with `let ppo = ...`",
            )
        if model.table is not None:
            check_partition(model)
        if not model.axioms:
            if model.table is None:
                raise ModelError(
                    f"model '{model.name}' has neither a reorder table nor axioms", pos,
                    hint="write a `reorder { ... }` table, or `axiom NAME : acyclic ...`",
                )
            model.axioms.extend(default_axioms(model))


_SYMBOL = {"union": "|", "inter": "&", "diff": "\\"}
_TYPE_WORD = {SET: "set", REL: "relation"}


def _check_monotone(e: Expr, names: set[str], positive: bool) -> None:
    """Recursive names may occur only positively (not under ~, not right of \\)."""
    if e.op == "name":
        if e.name in names and not positive:
            raise ModelError(
                f"recursion through '{e.name}' is not monotone (it occurs under ~ or on the right of \\), "
                "so the fixpoint may not exist", e.pos,
            )
        return
    if e.op == "compl":
        _check_monotone(e.args[0], names, not positive)
        return
    if e.op == "diff":
        _check_monotone(e.args[0], names, positive)
        _check_monotone(e.args[1], names, not positive)
        return
    for a in e.args:
        _check_monotone(a, names, positive)


def lower_model_file(path: str | Path, search_dirs: list[Path] | None = None) -> Model:
    """Parse, check and lower one model file (and its includes) into the core IR."""
    return _Lowerer(list(search_dirs or [])).load(Path(path))


__all__ = ["lower_model_file"]
