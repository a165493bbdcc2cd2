"""Lowering herd's cat models to the core IR: files and statements (lets, checks, includes, with).

A cat model is run statement by statement, herd's way (``stdlib.cat`` first, then the
model, includes where they stand), but every value it computes is an IR expression: a
`let` of a set or relation becomes an IR binding, a function (``let f(x) = ...``,
``fun``) is a closure applied by substitution, and each check becomes an IR axiom. The
axiomatic checker then evaluates the result like any .mm model. A `let` is lowered when
it is first used, so a library definition that needs something mmdsl lacks (``FW``,
``match``...) is refused only if the model reaches it. What is refused is named, at
its file:line:col.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ModelError, SourcePos, UnsupportedError
from ..core.files import read_input
from . import cat_aarch64 as A64
from . import cat_builtins as B
from . import cat_linux as L
from . import cat_registers as R
from . import cat_static as S
from .cat_choice import group_choices
from .cat_parse import Node, Stmt, parse_cat
from .cat_rmw import C11_RMW, merge_rmw_halves, one_event_reading
from .cat_orders import CatOrders
from .cat_own_co import co0_with_finals, computes_co_itself
from .herd_options import HerdOptions, skips
from .cat_values import _RESERVED, CO0, MAX_INCLUDE_DEPTH, CatExpressions, Closure, Proc, Tags, Thunk
from .ir import REL, SET, Axiom, Binding, Expr, FenceDecl, LetGroup, Model


def _only_positive(e: Expr, names: set, positive: bool = True) -> bool:
    """True when the names occur in ``e`` only where growing them grows ``e``."""
    if e.op == "name":
        return positive or e.name not in names
    if e.op == "compl":
        return _only_positive(e.args[0], names, not positive)
    if e.op == "diff":
        return (_only_positive(e.args[0], names, positive)
                and all(_only_positive(a, names, not positive) for a in e.args[1:]))
    return all(_only_positive(a, names, positive) for a in e.args)


@dataclass
class CatLowerer(CatExpressions, CatOrders):
    """Runs a cat model's files and statements; expressions are CatExpressions'."""

    search_dirs: list[Path]
    variants: frozenset = frozenset()
    options: HerdOptions = HerdOptions()  # -skipcheck / -through (herd_options)
    model: Model | None = None
    loading: list[Path] = field(default_factory=list)
    used: set = field(default_factory=lambda: set(_RESERVED))
    depth: int = 0
    has_stdlib: bool = False
    one_event_amos: bool = False  # the model uses herd's RISC-V sets: AMOs are one event
    c_model: bool = False  # the model uses herd's C sets: read over one-event RMWs (cat_rmw)
    lkmm: bool = False  # a bell declared herd's Linux-kernel tags: see cat_linux
    rec_names: set = field(default_factory=set)  # IR names of the let rec groups being lowered
    shown_texts: set = field(default_factory=set)  # the cat names `show` has shown
    parsed: dict = field(default_factory=dict)  # resolved path -> its statements
    generated: set = field(default_factory=set)  # names bound by `with x from generate_orders(...)`
    choices: list = field(default_factory=list)  # (IR name, first check after it, pos) per linearisations
    own_co_at: SourcePos | None = None  # where a model that computes co itself binds it (cat_own_co)
    catdep: bool = False  # the model's header declares herd's `catdep` option: see cat_aarch64
    catdep_run: set = field(default_factory=set)  # the model's files (as positions name them)

    # ----- files --------------------------------------------------------------
    def load(self, path: Path) -> Model:
        path = Path(path)
        text = read_input(path, "cat model", ModelError)
        title, stmts = parse_cat(text, str(path))
        # herd reads model options from the model's own header only, not its includes'
        self.catdep = title.split()[-1:] == ["catdep"]
        self.model = Model(name=path.stem, title=title or path.stem, doc="", path=str(path), generated_orders=[])
        for tag_set, tags in B.FENCE_SETS.items():
            self.model.fences[tag_set] = FenceDecl(tag_set, list(tags), [], 0, "herd fence set")
        env: dict = {}
        self.own_co_at = computes_co_itself(stmts, path.parent, self._statements_of)
        self.model.own_co = self.own_co_at is not None
        self.lkmm = L.names_spinlock_sets(stmts, path.parent, self._statements_of)  # or its bell's tags
        stdlib = self._find("stdlib.cat", path.parent)
        if stdlib is not None and stdlib.resolve() != path.resolve():
            self.has_stdlib = True
            env = self._run_file(stdlib, env, SourcePos(str(path), 1, 1))
        elif stdlib is not None:
            self.has_stdlib = True
        bell = self._find(path.stem + ".bell", path.parent) if path.suffix == ".cat" else None
        if bell is not None:  # herd's linux-kernel.cfg: `bell linux-kernel.bell` with `model linux-kernel.cat`
            env = self._run_file(bell, env, SourcePos(str(path), 1, 1))
        self.loading.append(path.resolve())
        self._catdep_from(path)  # the model's files, not stdlib.cat nor the bell run before them
        self._exec(stmts, env, path.parent)  # a model without checks allows every candidate
        self.loading.pop()
        R.resolve(self.model)  # herd's register relations where they are exact, else refused
        group_choices(self.model, self.choices)  # `with x from linearisations(...)`: see cat_choice
        if self.choices or (self.c_model and not self.lkmm):
            # flags are reported over plain models only: not over chosen orders nor merged RMWs
            self.model.flags_skipped.extend(f.name for f in self.model.flags)
            self.model.flags.clear()
        if self.c_model and not self.lkmm:  # herd's C RMWs are one event (its kernel RMWs two, as mmdsl's)
            merge_rmw_halves(self.model, {B.HERD_RMW: "RMW"}, pairs=C11_RMW)
            self.model.c_rmw_refusal = ""
        elif self.model.own_co:  # see cat_own_co
            self.model.c_rmw_refusal = "computes co itself"
        elif self.lkmm:
            # herd's C makes a C11 RMW one event under linux-kernel.cat too, and lock.cat's
            # `fr = rf^-1 ; co` (no `\ id`) then relates it to itself: coherence fails on every
            # execution (herd7: States 0). Its locks stay lock.cat's events (cat_linux)
            self.model.one_event_rmw_model = one_event_reading(self.model)
            self.model.kernel_locks = True
        elif not self.model.c_rmw_refusal:
            # any other model (sc.cat, uniproc.cat ...) on a C test: herd's C11 RMWs are one
            # event there too (its kernel RMWs, x86 xchg, RISC-V AMOs two: left as they are);
            # the checker runs this reading on a C test with such an RMW, the model as it is elsewhere
            self.model.one_event_rmw_model = one_event_reading(self.model)
        if not self.c_model or self.lkmm:
            for g in self.model.lets:
                for b in g.bindings:
                    b.expr = B.resolve_rmw(b.expr)
            for ax in self.model.axioms + self.model.flags + self.model.undefined:
                ax.expr = B.resolve_rmw(ax.expr)
        if self.one_event_amos:
            for ax in self.model.axioms:
                if ax.test == "acyclic":
                    ax.expr = B.merge_amo_halves(ax.expr)
        return self.model

    def _find(self, name: str, here: Path) -> Path | None:
        for d in [here, *self.search_dirs]:
            p = Path(d) / name
            if p.exists() and not p.is_dir():  # a FIFO or device: read_input says what it is
                return p
        return None

    def _statements_of(self, name: str, here: Path):
        """(statements, folder, resolved path) of an included file, read once; None when not found."""
        path = self._find(name, here)
        if path is None:
            return None
        key = path.resolve()
        if key not in self.parsed:
            self.parsed[key] = parse_cat(read_input(path, "cat model", ModelError), str(path))[1]
        return self.parsed[key], path.parent, key

    def _catdep_from(self, path: Path) -> None:
        """In a model declaring ``catdep``, the files run from the model's own on read
        herd's catdep names (a let is lowered lazily: its file, not the moment, decides)."""
        if self.catdep and self.loading and self.loading[0] == Path(self.model.path).resolve():
            self.catdep_run.add(str(path))

    def catdep_at(self, pos: SourcePos | None) -> bool:
        """Whether the name at ``pos`` is read the catdep way (cat_aarch64)."""
        return pos is not None and str(pos.file) in self.catdep_run

    def _run_file(self, path: Path, env: dict, pos: SourcePos) -> dict:
        key = path.resolve()
        if key in self.loading:
            chain = " -> ".join(p.name for p in [*self.loading, key])
            raise ModelError(f"include cycle: {chain}", pos, hint="a cat file may not include itself")
        if len(self.loading) >= MAX_INCLUDE_DEPTH:
            raise ModelError(f"includes nested more than {MAX_INCLUDE_DEPTH} deep", pos)
        stmts = self.parsed.get(key)
        if stmts is None:  # a file included again (x86fences.cat twice) is read once
            text = read_input(path, "cat model", ModelError)
            _, stmts = parse_cat(text, str(path))
            self.parsed[key] = stmts
        if str(key) not in self.model.includes:
            self.model.includes.append(str(key))
        self.loading.append(key)
        self._catdep_from(path)
        try:
            return self._exec(stmts, env, path.parent)
        finally:
            self.loading.pop()

    # ----- statements ---------------------------------------------------------
    def _exec(self, stmts: list[Stmt], env: dict, here: Path) -> dict:
        for st in stmts:
            env = self._stmt(st, env, here)
        return env

    def _stmt(self, st: Stmt, env: dict, here: Path) -> dict:
        k, d = st.kind, st.data
        if k == "let":
            if d.get("when") is None:
                return self._let(d["rec"], d["binds"], env)
            return self._let_when(st, env)
        if k == "check":
            self._check(st, env)
            return env
        if k == "show":
            for item in d["items"]:
                if item.kind == "var" and not d["un"]:
                    label = d["alias"] or item.text
                    shown = None if label in self.shown_texts else self._shown_name(item, env)
                    if shown is not None:  # a file included twice shows its names once
                        self.shown_texts.add(label)
                        self.model.shows.append(d["alias"] or shown)
            return env
        if k == "include":
            target = self._find(d["file"], here)
            if target is None:
                dirs = ", ".join(str(x) for x in [here, *self.search_dirs])
                raise ModelError(f"included cat file '{d['file']}' not found", d["pos"],
                                 hint=f"searched {dirs}; add a folder with --cat-path")
            return self._run_file(target, env, d["pos"])
        if k == "if":
            branch = d["then"] if self._variant(d["cond"]) else d["else"]
            return self._exec(branch, env, here)
        if k == "with":
            return self._with(st, env)
        if k == "procedure":
            env = dict(env)
            proc = Proc(d["params"], d["body"], env, d["name"])
            env[d["name"]] = proc
            return env
        if k == "call":
            self._call(st, env, here)
            return env
        if k == "enum":  # bell: the enum's name is its set of tags
            env = dict(env)
            env[d["name"]] = Tags(frozenset(d["tags"]))
            if set(d["tags"]) & L.LKMM_TAGS and not set(d["tags"]) - L.LKMM_TAGS:
                self.lkmm = True  # herd's Linux-kernel tags: each one's set, named as herd names it
                for tag in d["tags"]:
                    env.setdefault(L.set_name(tag), L.tag_set(tag, self.model, st.pos))
            return env
        if k == "instructions":  # bell: which tags an event may carry; herd checks the test, mmdsl's
            if not isinstance(self._value(d["expr"], env), Tags):  # dialects make only their own
                raise ModelError(f"instructions {d['kind']}[...] expects tags, as in {d['kind']}[{{'a, 'b}}]",
                                 d["expr"].pos)
            return env
        raise UnsupportedError(f"cat statement '{d['what']}' is not supported by mmdsl", st.pos,
                               hint="see docs/cat.md for what the cat loader supports")

    def _shown_name(self, item: Node, env: dict) -> str | None:
        """The IR name of a shown set or relation; None for one with no value here (herd shows
        nothing for it: aarch64fences.cat shows ``sb.st``, defined nowhere) or no name."""
        try:
            v = self._lookup(item.text, item.pos, env)
        except (ModelError, UnsupportedError):
            return None
        if isinstance(v, Expr) and R.reaches(self.model, v):
            return None  # register edges (deps.cat's show rf-reg): mmdsl has no register events
        return v.name if isinstance(v, Expr) and v.op == "name" else None

    def _let(self, rec: bool, binds: list[dict], env: dict) -> dict:
        for b in binds:
            if (b["name"] == "co" or (b["name"] is None and "co" in b["names"])) and not self.generated \
                    and self.own_co_at is None:
                # a model that computes co itself binds it among its top-level statements
                # (cat_own_co); one bound elsewhere would not be found before co0 is lowered
                raise UnsupportedError("'let co = ...' inside an expression, a function or a procedure "
                                       "is not supported by mmdsl (a model that computes co itself binds "
                                       "it with a top-level 'let', as herd's uniproccat.cat does)", b["pos"])
        new = dict(env)
        if not rec:
            for b in binds:
                if b["name"] is None:  # let (a, b) = e
                    value = self._value(b["expr"], env)
                    names = b["names"] if isinstance(b["names"], list) else [b["names"]]
                    if not isinstance(value, tuple) or len(value) != len(names):
                        raise ModelError(f"'{b['expr']}' is not a tuple of {len(names)}", b["pos"])
                    new.update(zip(names, value))
                elif b["params"] is not None:
                    new[b["name"]] = Closure(b["params"], b["expr"], env, b["name"])
                elif b["name"] == "co0" and str(b["pos"].file).endswith("stdlib.cat"):
                    # herd's co0 with no final writes fixed (see CO0), or in full when the
                    # candidate's co only picks final writes (cat_own_co)
                    new["co0"] = co0_with_finals() if self.own_co_at is not None else CO0
                elif (dep := A64.catdep_definition(b["name"], b["pos"], self.catdep_at(b["pos"]), b["expr"])) is not None:
                    new[b["name"]] = dep  # see cat_aarch64
                else:
                    new[b["name"]] = Thunk(b["expr"], env, b["name"], b["pos"])
            return new
        if any(b["params"] is not None or b["expr"].kind == "fun" for b in binds):
            if not all(b["params"] is not None or b["expr"].kind == "fun" for b in binds):
                raise UnsupportedError("'let rec' mixing functions and relations", binds[0]["pos"])
            for b in binds:  # recursive functions: each sees the others (and itself)
                if b["params"] is not None:
                    new[b["name"]] = Closure(b["params"], b["expr"], new, b["name"])
                else:
                    f = b["expr"]
                    new[b["name"]] = Closure(f.args[0], f.args[1], new, b["name"])
            return new
        return self._let_rec_relations(binds, env)

    def _let_when(self, st: Stmt, env: dict) -> dict:
        """`let rec ... when CHECK`: herd iterates the group and rejects the execution when
        CHECK fails on the way. The group's values only grow (the rec names occur only
        positively), and acyclic/irreflexive/empty only get worse as a relation grows, so
        CHECK fails during the iteration exactly when it fails on the fixpoint: the
        fixpoint plus CHECK as an axiom. Anything else is refused."""
        d, when = st.data, st.data["when"]
        if not d["rec"]:
            raise UnsupportedError("'let ... when' without rec", when.pos)
        if when.data["neg"]:
            raise UnsupportedError("'let rec ... when ~check' (a negated check) is not supported by mmdsl",
                                   when.pos)
        before = len(self.model.lets)
        new = self._let(True, d["binds"], env)
        group = self.model.lets[-1] if len(self.model.lets) > before else None
        if group is None or not group.recursive:
            raise UnsupportedError("'let rec ... when' over functions is not supported by mmdsl", when.pos)
        names = {b.name for b in group.bindings}
        if not all(_only_positive(b.expr, names) for b in group.bindings):
            raise UnsupportedError("'let rec ... when' whose definitions are not monotone (a recursive name "
                                   "under ~ or after \\\\) is not supported by mmdsl", when.pos)
        self._check(when, new)
        return new

    def _let_rec_relations(self, binds: list[dict], env: dict) -> dict:
        """`let rec r1 = ... and r2 = ...`: an IR recursive group (a least fixpoint)."""
        for b in binds:
            if b["name"] is None:
                raise UnsupportedError("'let rec' with a tuple pattern", b["pos"])
        types = self._rec_types(binds, env)
        for _attempt in range(2):
            names = {b["name"]: self._ir_name(b["name"]) for b in binds}
            new = dict(env)
            for b in binds:
                new[b["name"]] = Expr("name", name=names[b["name"]], type=types[b["name"]], pos=b["pos"])
            self.rec_names |= set(names.values())
            try:
                exprs = {b["name"]: self._typed(self._expr(b["expr"], new), b["pos"], types[b["name"]])
                         for b in binds}
            finally:
                self.rec_names -= set(names.values())
            found = {nm: (e.type or types[nm]) for nm, e in exprs.items()}
            if found == types:
                break
            types = found
        else:
            raise ModelError("'let rec' whose bindings are neither sets nor relations throughout", binds[0]["pos"])
        group = LetGroup([Binding(names[nm], exprs[nm], b["pos"]) for nm, b in zip(exprs, binds)], recursive=True)
        self.model.lets.append(group)
        return new

    def _rec_types(self, binds: list[dict], env: dict) -> dict:
        """Each binding's type in a `let rec` group: found by evaluating the bindings with the
        names not yet typed as the untyped empty value, until nothing changes (a set in
        linux-kernel.bell's ``unmatched-locks = Rcu-lock \\ domain(matched)``); relations
        where nothing says."""
        types: dict = {b["name"]: None for b in binds}
        before = len(self.model.lets)
        defined = {x.name for g in self.model.lets for x in g.bindings}
        probes = set(types) - defined
        for _round in range(len(binds) + 1):
            changed = False
            for b in binds:
                if types[b["name"]] is not None:
                    continue
                probe = dict(env)
                for nm, t in types.items():
                    probe[nm] = Expr("name", name=nm, type=t) if t else Expr("empty", type=None)
                try:
                    t = self._expr(b["expr"], probe).type
                except (ModelError, UnsupportedError):
                    t = None
                if t is not None:
                    types[b["name"]], changed = t, True
            if not changed:
                break
        # drop what the probes bound (function arguments naming a probe), keep the rest
        self.model.lets[before:] = [g for g in self.model.lets[before:]
                                    if not any(x.expr.names() & probes for x in g.bindings)]
        return {nm: t or REL for nm, t in types.items()}

    def _check(self, st: Stmt, env: dict) -> None:
        d = st.data
        if d["flag"] == "assert":  # decided here or refused: see cat_static.check_assert
            e = self._typed(self._expr(d["expr"], env), st.pos, SET if d["test"] == "empty" else REL)
            S.check_assert(e, d["test"], d["neg"], self.model, st.pos)
            return
        if d["flag"]:
            # `flag` and `undefined_unless` mark executions in herd's output (herd's
            # interpreter adds a flag and goes on); neither ever forbids one. A `flag` is
            # kept to be reported (herd's `Flag NAME` line); one mmdsl cannot lower is
            # listed in the model's flags_skipped (docs/cat.md)
            if d["flag"] == "flag":
                self._flag(st, env)
            elif d["flag"] == "undefined_unless":
                self._flag(st, env, self.model.undefined)
            return
        if skips(self.options, d["name"]):  # herd's -skipcheck NAME, -through all: the check holds
            return
        e = self._expr(d["expr"], env)
        test = d["test"]
        e = self._typed(e, st.pos, SET if test == "empty" else REL)
        if e.type == SET and test != "empty":
            raise ModelError(f"{test} expects a relation, but '{e}' is a set", d["expr"].pos)
        name = d["name"] or f"{'~' if d['neg'] else ''}{test} {e}"[:60]
        base, k = name, 2
        while any(a.name == name for a in self.model.axioms):
            name = f"{base}#{k}"
            k += 1
        self.model.axioms.append(Axiom(name, test, e, negated=d["neg"], pos=st.pos))

    def _flag(self, st: Stmt, env: dict, into: list | None = None) -> None:
        d = st.data
        into = self.model.flags if into is None else into
        name = d["name"] or f"{'~' if d['neg'] else ''}{d['test']}"
        if _reads_builtin(d["expr"], env, "FW", set()):
            # herd's FW holds the final writes of the locations the test observes only (its
            # condition and `locations`), mmdsl's of every location: lock.cat's lock-final
            self.model.flags_skipped.append(name)
            return
        try:
            e = self._typed(self._expr(d["expr"], env), st.pos, SET if d["test"] == "empty" else REL)
        except (ModelError, UnsupportedError):
            self.model.flags_skipped.append(name)
            return
        into.append(Axiom(name, d["test"], e, negated=d["neg"], pos=st.pos))

    def _call(self, st: Stmt, env: dict, here: Path) -> None:
        d = st.data
        proc = env.get(d["name"])
        if not isinstance(proc, Proc):
            raise ModelError(f"'{d['name']}' is not a procedure", st.pos)
        arg = self._value(d["arg"], env)
        inner = self._bind_params(proc.params, arg, dict(proc.env), st.pos, proc.name)
        before = len(self.model.axioms)
        self._enter(st.pos)
        try:
            self._exec(proc.body, inner, here)
        finally:
            self.depth -= 1
        if d["alias"]:
            for k, ax in enumerate(self.model.axioms[before:]):
                ax.name = d["alias"] if k == 0 else f"{d['alias']}#{k + 1}"

def _reads_builtin(node, env: dict, name: str, seen: set) -> bool:
    """Whether the expression ``node`` reads the built-in ``name``, directly or through the
    lets it names (a name bound by the model is the model's)."""
    if isinstance(node, dict):
        return any(_reads_builtin(v, env, name, seen) for v in node.values())
    if isinstance(node, (list, tuple)):
        return any(_reads_builtin(v, env, name, seen) for v in node)
    if not isinstance(node, Node):
        return False
    if node.kind == "var":
        if node.text == name and name not in env:
            return True
        bound = env.get(node.text)
        if isinstance(bound, Thunk) and id(bound) not in seen:
            seen.add(id(bound))
            return _reads_builtin(bound.node, bound.env, name, seen)
        return False
    return any(_reads_builtin(a, env, name, seen) for a in node.args)


CAT_PATH_ENV = "MMDSL_CAT_PATH"


def cat_path() -> list[Path]:
    """The folders where a cat model's includes (and herd's stdlib.cat) are searched after
    the model's own folder: ``--cat-path`` (which sets MMDSL_CAT_PATH, so worker processes
    see it too), like herd's ``-I``."""
    raw = os.environ.get(CAT_PATH_ENV, "")
    return [Path(p) for p in raw.split(os.pathsep) if p]


def include_cat(path: Path, model: Model, search_dirs: list[Path], pos: SourcePos) -> None:
    """``include "x.cat"`` in a .mm model: the cat file's checks become axioms of ``model``.

    The cat's definitions are lowered under names the model does not use, and its checks
    see only them (and the built-ins), never a later definition of the .mm file.
    """
    low = CatLowerer([*cat_path(), *search_dirs])
    low.used |= {b.name for g in model.lets for b in g.bindings} | set(model.classes) | set(model.fences)
    cat = low.load(path)
    model.lets.extend(cat.lets)
    spelled = {s for f in model.fences.values() for s in f.spellings}
    used = set()
    for g in cat.lets:
        for b in g.bindings:
            used |= b.expr.names()
    for ax in cat.axioms:
        used |= ax.expr.names()
    for name, decl in cat.fences.items():
        if name in used and name not in spelled:
            model.fences[name] = decl
    for ax in cat.axioms:
        if any(a.name == ax.name for a in model.axioms):
            raise ModelError(f"axiom '{ax.name}' of {path.name} is already defined in the model", pos)
        ax.scope = len(model.lets)
        model.axioms.append(ax)
    model.includes.extend(i for i in cat.includes if i not in model.includes)


def lower_cat_file(path: str | Path, search_dirs: list[Path] | None = None,
                   variants: frozenset = frozenset(), options: HerdOptions | None = None) -> Model:
    """Run a herd cat model (with stdlib.cat and its includes) into a core IR Model; ``options``:
    herd's -variant, -skipcheck, -through (herd_options; its variants join ``variants``)."""
    import gc

    options = options or HerdOptions()
    lowerer = CatLowerer([Path(d) for d in (search_dirs or [])], frozenset(variants) | options.variants, options)
    collecting = gc.isenabled()
    gc.disable()  # lowering builds many small trees and frees few: the collector's passes over
    try:          # them made a 40,000-term union four times slower (and time grow with its square)
        return lowerer.load(Path(path))
    except RecursionError:
        depth, outer = getattr(lowerer, "deepest", (0, None))
        if outer is None:
            raise ModelError("the model is nested too deeply to lower", SourcePos(str(path), 1, 1)) from None
        raise ModelError(f"definitions chained too deeply to lower: '{outer.name}' reads a chain of more than "
                         f"{depth - 1} definitions, each built on the next", outer.pos,
                         hint="fewer lets, each doing more") from None
    finally:
        if collecting:
            gc.enable()


__all__ = ["lower_cat_file"]
