"""Lower parsed model files (with their includes) to the typed core IR, resolving every name."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..core.errors import ModelError, SourcePos, raise_all
from ..core.files import read_input
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
from .checks import check_file, dependency_cost, is_broken, propagation_errors
from .checks import location
from .metamodel import parse_model_text

# How deeply an expression may nest, counting the definitions of the classes and set lets
# it names: engines walk expressions recursively (a few frames a level). Relation lets do
# not count: the evaluator computes each once per candidate, in order (evaluate.Prepared).
MAX_EXPR_DEPTH = 150
POISON = "?"  # the type of an expression with an error (already reported): checks pass it by

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
        for n in (*STATIC_RELATIONS, *DYNAMIC_RELATIONS, "fence", "kept-loc", "strong-fence", "light-fence",
                  "po-rdw"):
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
    """Lowers one model (its file and every file it includes), collecting every error found."""

    def __init__(self, search_dirs: list[Path]):
        self.search_dirs = search_dirs
        self.loading: list[Path] = []  # the chain of files being lowered (for include cycles)
        self.done: set[Path] = set()  # every file reached so far: a second include is skipped
        self.errors: list[ModelError] = []
        self.table_broken = False  # a table with errors: no partition check, no "no table" error
        self.classes_broken = False
        self.depths: dict[str, int] = {}  # how deep a name's definition nests (see _checked)
        self.unread: list[str] = []  # includes that could not be read: their names are unknown
        self.fence_spellings: dict[str, str] = {}  # every fence's names, lower-case -> the fence

    def report(self, err: ModelError) -> None:
        self.errors.append(err)

    # ----- files and includes -------------------------------------------------
    def load(self, path: Path) -> Model:
        raw = self._parse(path)  # a syntax error stops the parse: it is the only error
        model = Model(
            name=raw.name,
            title=(raw.title or "").strip(),
            doc=_strip_doc(raw.doc),
            path=str(path),
        )
        self.scope = _Scope(model)
        self.done.add(path.resolve())
        self._lower_file(raw, model, path)
        self._finish(model, raw)
        raise_all(self.errors)
        return model

    def _parse(self, path: Path):
        # a byte-order mark is not part of the text; a FIFO, a device or a huge file is refused
        text = read_input(path, "model file", ModelError, encoding="utf-8-sig")
        return parse_model_text(text, str(path))

    def _resolve_include(self, name: str, base: Path, pos: SourcePos) -> Path:
        candidates = [base.parent / name, *(d / name for d in self.search_dirs)]
        if name.endswith(".cat"):  # a herd model: also on --cat-path
            from .cat_lower import cat_path

            candidates += [d / name for d in cat_path()]
        elif not name.endswith(".mm"):
            candidates += [c.with_name(c.name + ".mm") for c in candidates]
        for c in candidates:
            if c.is_file():
                return c.resolve()
        raise ModelError(f"included model '{name}' not found", pos,
                         hint=f"looked in {base.parent} and the bundled models")

    def _include(self, st, model: Model, path: Path, pos: SourcePos) -> None:
        try:
            self._include_file(st, model, path, pos)
        except ModelError:
            self.unread.append(st.path)
            raise

    def _include_file(self, st, model: Model, path: Path, pos: SourcePos) -> None:
        target = self._resolve_include(st.path, path, pos)
        if target in self.loading:
            chain = self.loading[self.loading.index(target):]
            names = " -> ".join(p.name for p in [*chain, target])
            raise ModelError(f"include cycle: {names}", pos, hint="a file may not include itself, directly or not")
        if target in self.done:  # reached before (a diamond): its definitions are already in
            return
        self.done.add(target)
        model.includes.append(str(target))
        if target.suffix == ".cat":  # a herd cat model: its checks join this model's axioms
            from .cat_lower import include_cat

            include_cat(target, model, self.search_dirs, pos)
            return
        self._lower_file(self._parse(target), model, target)

    def _lower_file(self, raw, model: Model, path: Path) -> None:
        self.loading.append(path.resolve())
        for err in check_file(raw):
            self.report(err)
        for st in raw.statements:
            if is_broken(st):
                self._poison(st)
                continue
            try:
                self._statement(st, model, path)
            except _Reported:
                self._poison(st)
            except ModelError as err:
                self.report(err)
                self._poison(st)
        self.loading.pop()

    def _poison(self, st) -> None:
        """Names a broken statement defines are known but untyped: no error cascades from them."""
        kind = type(st).__name__
        if kind == "ClassDecl":
            self.classes_broken = True
            self.scope.declare(st.name, POISON)
        elif kind == "FenceDecl":
            for n in (st.name, *st.aliases):
                self.scope.declare(n, POISON)
        elif kind in ("Let", "LetRec"):
            self.classes_broken = True  # a class may be a let-bound set
            for b in st.bindings:
                self.scope.declare(b.name, POISON)
        elif kind == "Reorder":
            self.table_broken = True

    def _statement(self, st, model: Model, path: Path) -> None:
        kind = type(st).__name__
        pos = location(st)
        if kind == "Include":
            self._include(st, model, path, pos)
        elif kind == "Annotation":
            for n in st.names:
                model.annotations[n] = st.doc or ""
                self.scope.declare(n, SET)
        elif kind == "ClassDecl":
            expr = self._checked(st.expr, st.name)
            if expr.type == REL:
                raise ModelError(f"class '{st.name}' must be a set of events, not a relation", pos)
            if expr.type == POISON:
                raise _Reported()
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
        elif kind == "Propagation":
            if model.propagation_pos is not None:  # e.g. one from an included file
                raise ModelError(f"a second propagation statement (the first is at {model.propagation_pos})", pos)
            model.propagation = st.mode
            model.propagation_pos = pos
        elif kind == "FenceDecl":
            self._fence(st, model, pos)
        elif kind in ("Let", "LetRec"):
            model.lets.append(self._let(st, kind == "LetRec"))
        elif kind in ("AxiomDecl", "CatTest"):
            self._axiom(st, model, pos)
        elif kind == "Show":
            for n in st.names:
                self._lookup(n, pos)
                if n not in model.shows:
                    model.shows.append(n)

    # ----- statements -----------------------------------------------------------
    def _table(self, st, pos: SourcePos) -> Table:
        st = st.body
        rows = [r.name for r in st.rows]
        cols = [c.name for c in st.cols]
        broken = False
        for obj, name in [*((c, c.name) for c in st.cols), *((r, r.name) for r in st.rows)]:
            p = location(obj)
            typ = self._lookup(name, p)
            if typ == REL:
                self.report(ModelError(f"table class '{name}' is a relation; rows and columns are sets of events", p))
            broken = broken or typ != SET
        if broken:
            raise _Reported()
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
                                        entry.doc or "", pos, dependency_cost(entry.cost, pos)))
        return rules

    def _pairs(self, orders, pos: SourcePos, what: str = "a dependency keeps") -> list:
        """The SET * SET pairs of a fence or a dependency line (each relation among them reported)."""
        out = []
        broken = False
        for o in orders:
            left, right = self._checked(o.left), self._checked(o.right)
            for side in (left, right):
                if side.type == REL:
                    self.report(ModelError(f"{what} pairs of event sets: write SET * SET", side.pos or pos))
                broken = broken or side.type != SET
            out.append((left, right))
        if broken:
            raise _Reported()
        return out

    def _fence(self, st, model: Model, pos: SourcePos) -> None:
        for n in (st.name, *st.aliases):
            self.scope.declare(n, SET)
        spelled = {st.name.lower(), *(a.lower() for a in st.aliases)}
        clash = sorted(s for s in spelled if s in self.fence_spellings)
        if clash:
            other = self.fence_spellings[clash[0]]
            raise ModelError(f"fence name '{clash[0]}' is already used by fence '{other}'", pos)
        self.fence_spellings.update(dict.fromkeys(spelled, st.name))
        orders = self._pairs(st.orders, pos, "a fence orders")
        model.fences[st.name] = FenceDecl(st.name, list(st.aliases), orders, st.cost, st.doc or "", pos,
                                          cumulativity=st.cumulativity or None)

    def _let(self, st, recursive: bool) -> LetGroup:
        bindings = []
        if recursive:
            for b in st.bindings:
                self.scope.declare(b.name, REL)
                self.depths[b.name] = 1  # a fixpoint reads the previous approximation: no nesting
            rec_names = {b.name for b in st.bindings}
            broken = False
            for b in st.bindings:
                try:
                    expr = self._checked(b.expr)
                    if expr.type == SET:
                        raise ModelError(f"'let rec {b.name}' must define a relation", location(b))
                    if expr.type == POISON:
                        raise _Reported()
                    _check_monotone(expr, rec_names, positive=True)
                except _Reported:
                    broken = True
                    continue
                except ModelError as err:
                    self.report(err)
                    broken = True
                    continue
                bindings.append(Binding(b.name, expr, location(b)))
            if broken:
                raise _Reported()
        else:
            for b in st.bindings:
                expr = self._checked(b.expr, b.name)
                bindings.append(Binding(b.name, expr, location(b)))
            for b in bindings:
                self.scope.declare(b.name, b.expr.type)
            if any(b.expr.type == POISON for b in bindings):
                self.classes_broken = True
                raise _Reported()
        return LetGroup(bindings, recursive)

    def _axiom(self, st, model: Model, pos: SourcePos) -> None:
        expr = self._checked(st.expr)
        test = st.test
        if test in ("acyclic", "irreflexive") and expr.type == SET:
            raise ModelError(f"'{test}' needs a relation, and this expression is a set", expr.pos or pos)
        name = st.name or f"{test}@{pos.line}"
        if not st.name and len(self.loading) > 1:  # an unnamed test of an included file
            name = f"{test}@{self.loading[-1].name}:{pos.line}"
        if any(a.name == name for a in model.axioms):
            raise ModelError(f"axiom '{name}' is already defined (names must be unique, includes too)", pos)
        if expr.type == POISON:
            raise _Reported()
        model.axioms.append(Axiom(name, test, expr, bool(st.negated), st.doc or "", False, pos,
                                  scope=len(model.lets)))

    # ----- expressions ---------------------------------------------------------------
    def _lookup(self, name: str, pos: SourcePos) -> str:
        try:
            return self.scope.lookup(name, pos)
        except ModelError as err:
            if not self.unread:  # else the name may well come from the unread file
                self.report(err)
            return POISON

    def _checked(self, node, defines: str | None = None) -> Expr:
        """Lower a whole expression and check how deeply it nests, its definitions included.

        Every engine walks expressions recursively; a bounded depth keeps them on the stack.
        """
        expr = self._expr(node)
        if expr.type == POISON:  # its errors are reported; it goes no further
            return expr
        depth = self._depth(expr)
        if depth > MAX_EXPR_DEPTH:
            raise ModelError(f"expression nested too deeply ({depth} levels, counting the definitions "
                             f"of the names it uses; at most {MAX_EXPR_DEPTH})", expr.pos or location(node),
                             hint="name parts of it with `let`, or flatten the nesting")
        if defines is not None:
            # a relation let is evaluated once per candidate, in order, and then read
            # (evaluate.Prepared): only sets and classes nest into what names them
            self.depths[defines] = depth if expr.type == SET else 1
        return expr

    def _depth(self, expr: Expr) -> int:
        best = 0
        stack = [(expr, 1)]
        while stack:
            e, d = stack.pop()
            if e.op == "name":
                d += self.depths.get(e.name, 0)
            best = max(best, d)
            stack.extend((a, d + 1) for a in e.args)
        return best

    def _expr(self, node) -> Expr:
        """Lower an expression node; errors are reported and give an expression of type POISON.

        Parentheses and one-operand levels are stepped over in a loop and chains of one
        operator are flattened, so that only real nesting recurses.
        """
        node = _unwrap(node)
        kind = type(node).__name__
        pos = location(node)
        if kind in _BINARY:
            items = [self._expr(o) for o in node.ops]
            op = _BINARY[kind]
            if op == "seq":
                for it in items:
                    self._need(it, REL, ";", pos)
                return Expr("seq", tuple(items), _type_of(items, REL), pos=pos)
            typ = next((it.type for it in items if it.type != POISON), POISON)
            for it in items:
                if it.type not in (typ, POISON):
                    self.report(ModelError(
                        f"'{_SYMBOL[op]}' mixes a {_TYPE_WORD[typ]} and a {_TYPE_WORD[it.type]} "
                        f"({items[0]} and {it})", pos,
                    ))
                    typ = POISON
                    break
            if any(it.type == POISON for it in items):  # an error inside: no cascade from here on
                typ = POISON
            # a \ b \ c (left associative) stays one node: a less each of b, c (ir.Expr)
            return Expr(op, tuple(items), typ, pos=pos)
        if kind == "Product":
            left = self._expr(node.left)
            right = self._expr(node.right)
            ok = self._need(left, SET, "*", pos) & self._need(right, SET, "*", pos)
            typ = REL if ok and POISON not in (left.type, right.type) else POISON
            return Expr("product", (left, right), typ, pos=pos)
        if kind == "Compl":
            negations = 0
            while type(node).__name__ == "Compl":  # ~~x is x
                negations += 1
                node = _unwrap(node.arg)
            arg = self._expr(node)
            return Expr("compl", (arg,), arg.type, pos=pos) if negations % 2 else arg
        if kind == "Postfix":
            e = self._expr(node.base)
            ops = [o.op for o in node.ops]
            for op in ops:
                if not self._need(e, REL, op, pos):
                    return Expr(e.op, e.args, POISON, e.name, e.pos)
            if len(ops) > 2:
                ops = _normal_postfix(ops)
            for op in ops:
                e = Expr(_POSTFIX[op], (e,), e.type, pos=pos)
            return e
        if kind == "Bracket":
            inner = self._expr(node.expr)
            ok = self._need(inner, SET, "[...]", pos)
            return Expr("id", (inner,), REL if ok and inner.type != POISON else POISON, pos=pos)
        if kind == "EmptyRel":
            return Expr("empty", (), REL, pos=pos)
        if kind == "Universe":
            return Expr("universe", (), SET, pos=pos)
        if kind == "Name":
            return Expr("name", (), self._lookup(node.name, pos), name=node.name, pos=pos)
        raise ModelError(f"unsupported expression '{kind}'", pos)

    def _need(self, e: Expr, typ: str, op: str, pos: SourcePos) -> bool:
        if e.type in (typ, POISON):
            return True
        self.report(ModelError(f"'{op}' needs a {_TYPE_WORD[typ]}, and '{e}' is a {_TYPE_WORD[e.type]}",
                               e.pos or pos))
        return False

    # ----- whole-model checks ----------------------------------------------------------
    def _finish(self, model: Model, raw) -> None:
        from .defaults import default_axioms, default_propagation_lets
        from .partition import partition_errors

        pos = location(raw)
        if model.table is None and self.scope.ppo_use is not None and not self.table_broken:
            self.report(ModelError(
                "'ppo' comes from the reorder table, and this model has no table", self.scope.ppo_use,
                hint="add a `reorder { ... }` table, or define ppo with `let ppo = ...`",
            ))
        if model.table is not None and not self.classes_broken:
            for err in partition_errors(model):
                self.report(err)
        for err in propagation_errors(model):
            self.report(err)
        if not model.axioms:
            if model.table is None and not self.table_broken and not self.errors:
                self.report(ModelError(
                    f"model '{model.name}' has neither a reorder table nor axioms", pos,
                    hint="write a `reorder { ... }` table, or `axiom NAME : acyclic ...`",
                ))
            elif model.table is not None:
                if model.per_thread:
                    model.lets.extend(default_propagation_lets(model))
                model.axioms.extend(default_axioms(model))


class _Reported(ModelError):
    """A statement whose errors are already reported: it is skipped, nothing more is said."""

    def __init__(self):
        super().__init__("(reported)")


def _unwrap(node):
    """Step over parentheses and levels of the grammar that hold a single operand."""
    while True:
        kind = type(node).__name__
        if kind in _BINARY and len(node.ops) == 1:
            node = node.ops[0]
        elif kind == "Product" and node.right is None:
            node = node.left
        elif kind == "Postfix" and not node.ops:
            node = node.base
        elif kind == "Paren":
            node = node.expr
        else:
            return node


def _normal_postfix(ops: list[str]) -> list[str]:
    """A chain of postfix operators as at most a closure then an inverse: ^-1 twice cancels,
    and closures absorb each other (r?? = r?, r++ = r+, any other pair = r*)."""
    closure = None
    inverse = False
    for op in ops:
        if op == "^-1":
            inverse = not inverse
        elif closure is None or closure == op:
            closure = op
        else:
            closure = "*"
    return [*([closure] if closure else []), *(["^-1"] if inverse else [])]


def _type_of(items: list[Expr], typ: str) -> str:
    return POISON if any(it.type != typ for it in items) else typ


_SYMBOL = {"union": "|", "inter": "&", "diff": "\\"}
_TYPE_WORD = {SET: "set", REL: "relation", POISON: "expression with an error"}


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
        for a in e.args[1:]:
            _check_monotone(a, names, not positive)
        return
    for a in e.args:
        _check_monotone(a, names, positive)


def lower_model_file(path: str | Path, search_dirs: list[Path] | None = None) -> Model:
    """Parse, check and lower one model file (and its includes) into the core IR."""
    return _Lowerer(list(search_dirs or [])).load(Path(path))


class _TextLowerer(_Lowerer):
    """Lowers a model given as text (the web page's editor), with includes confined to
    ``search_dirs`` by bare name: no path the text names is ever opened."""

    def __init__(self, text: str, filename: str, search_dirs: list[Path]):
        super().__init__(search_dirs)
        self.text = text
        self.filename = filename

    def _parse(self, path: Path):
        if str(path) == self.filename:
            return parse_model_text(self.text.removeprefix("\ufeff"), self.filename)
        return super()._parse(path)

    def _resolve_include(self, name: str, base: Path, pos: SourcePos) -> Path:
        stem = name[:-3] if name.endswith(".mm") else name
        if stem and stem.replace("-", "").replace("_", "").isalnum():
            for d in self.search_dirs:
                c = d / f"{stem}.mm"
                if c.is_file():
                    return c.resolve()
        raise ModelError(f"included model '{name}' not found", pos,
                         hint="a model typed in the page may include bundled models by name only")


def lower_model_text(text: str, filename: str, search_dirs: list[Path]) -> Model:
    """Parse, check and lower a model given as text, named ``filename`` in its errors; an
    ``include`` may only name a ``.mm`` model of ``search_dirs`` (no paths, no ``.cat``)."""
    return _TextLowerer(text, filename, list(search_dirs)).load(Path(filename))


__all__ = ["lower_model_file", "lower_model_text"]
