"""Lowering herd's cat models to the core IR: an interpreter that inlines functions at load time.

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
from . import cat_static as S
from .cat_parse import Node, Stmt, parse_cat
from .ir import (BASE_SETS, DERIVED_RELATIONS, DYNAMIC_RELATIONS, KNOWN_ANNOTATIONS, REL, SET,
                 STATIC_RELATIONS, Axiom, Binding, Expr, FenceDecl, LetGroup, Model)

MAX_CALL_DEPTH = 100  # nested function applications (a recursive function is refused past it)
MAX_INCLUDE_DEPTH = 40
_RESERVED = (set(BASE_SETS) | set(STATIC_RELATIONS) | set(DERIVED_RELATIONS) | set(DYNAMIC_RELATIONS)
             | set(KNOWN_ANNOTATIONS) | set(B.SETS) | set(B.RELATIONS) | set(B.FENCE_SETS) | set(B.ANNOTATION_SETS)
             | {"sm", "X"} | A64.RESERVED)


def _n(name: str, typ: str) -> Expr:
    return Expr("name", name=name, type=typ)


# stdlib's co0 is loc & ((IW * (W\IW)) | ((W\FW) * FW)). mmdsl fixes no final writes (FW
# empty, as herd does for the tests of mmdsl's suites: the x86 corpus gives herd's verdicts
# with it), so co0 is the initial write of each location before its other writes.
_W_BUT_IW = Expr("diff", (_n("W", SET), _n("IW", SET)), type=SET)
CO0 = Expr("inter", (_n("loc", REL), Expr("product", (_n("IW", SET), _W_BUT_IW), type=REL)), type=REL)


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


class Thunk:
    """A `let` not yet lowered: lowered on first use, then kept."""

    __slots__ = ("node", "env", "name", "pos", "value", "busy")

    def __init__(self, node: Node, env: dict, name: str, pos: SourcePos):
        self.node, self.env, self.name, self.pos = node, env, name, pos
        self.value = None
        self.busy = False


@dataclass
class Closure:
    params: list | str
    body: Node
    env: dict
    name: str = "fun"


@dataclass
class Builtin:
    name: str


@dataclass
class Proc:
    params: list | str
    body: list
    env: dict
    name: str


@dataclass
class CatLowerer:
    search_dirs: list[Path]
    variants: frozenset = frozenset()
    model: Model | None = None
    loading: list[Path] = field(default_factory=list)
    used: set = field(default_factory=lambda: set(_RESERVED))
    depth: int = 0
    has_stdlib: bool = False
    one_event_amos: bool = False  # the model uses herd's RISC-V sets: AMOs are one event
    rec_names: set = field(default_factory=set)
    parsed: dict = field(default_factory=dict)  # resolved path -> its statements  # IR names of the let rec groups being lowered

    # ----- files --------------------------------------------------------------
    def load(self, path: Path) -> Model:
        path = Path(path)
        text = read_input(path, "cat model", ModelError)
        title, stmts = parse_cat(text, str(path))
        self.model = Model(name=path.stem, title=title or path.stem, doc="", path=str(path))
        for tag_set, tags in B.FENCE_SETS.items():
            self.model.fences[tag_set] = FenceDecl(tag_set, list(tags), [], 0, "herd fence set")
        env: dict = {}
        stdlib = self._find("stdlib.cat", path.parent)
        if stdlib is not None and stdlib.resolve() != path.resolve():
            self.has_stdlib = True
            env = self._run_file(stdlib, env, SourcePos(str(path), 1, 1))
        elif stdlib is not None:
            self.has_stdlib = True
        self.loading.append(path.resolve())
        self._exec(stmts, env, path.parent)  # a model without checks allows every candidate
        self.loading.pop()
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
                    self.model.shows.append(d["alias"] or item.text)
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
        raise UnsupportedError(f"cat statement '{d['what']}' is not supported by mmdsl", st.pos,
                               hint="see docs/cat.md for what the cat loader supports")

    def _let(self, rec: bool, binds: list[dict], env: dict) -> dict:
        for b in binds:
            if b["name"] == "co" or (b["name"] is None and "co" in b["names"]):
                # herd then takes the final state from this co, a run that enumerates no co;
                # mmdsl's candidates enumerate co, so the verdicts would silently differ
                raise UnsupportedError("a model that computes co itself ('let co = ...', herd's models "
                                       "without generated co) is not supported by mmdsl: its candidates "
                                       "enumerate co (use 'with co from generate_cos(co0)')", b["pos"])
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
                    new["co0"] = CO0  # herd's co0 with no final writes fixed: see CO0
                elif A64.catdep_definition(b["name"], b["pos"]) is not None:
                    new[b["name"]] = A64.catdep_definition(b["name"], b["pos"])  # see cat_aarch64
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
        types = {b["name"]: REL for b in binds}
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

    def _typed(self, e: Expr, pos: SourcePos, want: str | None = None) -> Expr:
        if e.type is None:  # the empty set or relation: takes the type wanted
            return Expr("empty", type=want or REL, pos=pos)
        return e

    def _check(self, st: Stmt, env: dict) -> None:
        d = st.data
        if d["flag"] == "assert":  # decided here or refused: see cat_static.check_assert
            e = self._typed(self._expr(d["expr"], env), st.pos, SET if d["test"] == "empty" else REL)
            S.check_assert(e, d["test"], d["neg"], self.model, st.pos)
            return
        if d["flag"]:
            # `flag` and `undefined_unless` mark executions in herd's output (herd's
            # interpreter adds a flag and goes on); neither ever forbids one
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

    def _with(self, st: Stmt, env: dict) -> dict:
        """`with co from generate_cos(base)`: co ranges over the checker's coherence orders
        (each location's writes in a total order, its initial write first) that contain
        ``base``. For co0 that is every one of them; for a larger base (herd's cos-opt.cat) an
        axiom ``empty base \\ co`` named co-generation keeps only those."""
        d = st.data
        e = d["expr"]
        if d["var"] == "co" and e.kind == "app" and e.args[0].kind == "var" and e.args[0].text == "generate_cos":
            new = dict(env)
            co = Expr("name", name="co", type=REL, pos=st.pos)
            if not self._is_co0(e.args[1], env):
                base = self._typed(self._expr(e.args[1], env), st.pos, REL)
                if base.type != REL:
                    raise ModelError("generate_cos expects a relation", e.args[1].pos)
                k = sum(1 for a in self.model.axioms if a.name.startswith("co-generation"))
                name = "co-generation" if not k else f"co-generation#{k + 1}"
                self.model.axioms.append(Axiom(name, "empty", Expr("diff", (base, co), type=REL, pos=st.pos),
                                               pos=st.pos, doc="co contains the base it is generated from"))
            new["co"] = co
            return new
        if e.kind != "app" or e.args[0].kind != "var" or e.args[0].text != "generate_cos":
            try:  # a set of one relation (aarch64.cat's enumerations): see cat_static
                value = self._value(e, env)
            except (UnsupportedError, ModelError):
                value = None  # refused below as a choice mmdsl does not make
            new = dict(env)
            new[d["var"]] = S.with_from(value, d["var"], st.pos)
            return new
        raise UnsupportedError(f"'with {d['var']} from ...' is not supported by mmdsl (only "
                               "'with co from generate_cos(...)', the checker's own coherence orders)", st.pos)

    def _is_co0(self, node: Node, env: dict, hops: int = 0) -> bool:
        if node.kind != "var" or hops > 20:
            return False
        if node.text == "co0":
            return True
        v = env.get(node.text)
        return isinstance(v, Thunk) and self._is_co0(v.node, v.env, hops + 1)

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

    def _variant(self, c: Node) -> bool:
        if c.kind == "variant":
            return c.text in self.variants
        if c.kind == "vnot":
            return not self._variant(c.args[0])
        if c.kind == "vand":
            return self._variant(c.args[0]) and self._variant(c.args[1])
        return self._variant(c.args[0]) or self._variant(c.args[1])

    # ----- expressions --------------------------------------------------------
    def _enter(self, pos: SourcePos) -> None:
        self.depth += 1
        if self.depth > MAX_CALL_DEPTH:
            self.depth -= 1
            raise UnsupportedError(f"functions applied more than {MAX_CALL_DEPTH} deep (a recursive "
                                   "function over sets or relations is not supported by mmdsl)", pos)

    def _ir_name(self, name: str) -> str:
        """The IR name of a cat binding: its own, primed when a built-in or an earlier
        binding has it (x86tso's ``ppo`` is ``ppo'``; a third ``A`` is ``A''``)."""
        out = name
        while out in self.used:
            out += "'"
        self.used.add(out)
        return out

    def _force(self, v, pos: SourcePos):
        if isinstance(v, Thunk):
            if v.value is None:
                if v.busy:
                    raise ModelError(f"'{v.name}' is defined in terms of itself (use let rec)", v.pos)
                v.busy = True
                try:
                    value = self._value(v.node, v.env)
                finally:
                    v.busy = False
                if isinstance(value, Expr) and value.op not in ("name", "empty"):
                    ir = self._ir_name(v.name)
                    self.model.lets.append(LetGroup([Binding(ir, value, v.pos)]))
                    value = Expr("name", name=ir, type=value.type, pos=v.pos)
                v.value = value
            return v.value
        return v

    def _lookup(self, name: str, pos: SourcePos, env: dict):
        if name in env:
            return self._force(env[name], pos)
        if name in B.SETS:
            return Expr("name", name=B.SETS[name], type=SET, pos=pos)
        if name == "X":  # herd's locked or exclusive accesses: see cat_builtins.X_PARTS
            return Expr("union", tuple(_n(x, SET) for x in B.X_PARTS), type=SET, pos=pos)
        if name in B.ANNOTATION_SETS:
            self.one_event_amos = self.one_event_amos or name in B.ONE_EVENT_AMO_NAMES
            return Expr("name", name=B.ANNOTATION_SETS[name], type=SET, pos=pos)
        if name == "amo":  # herd: the rmw pairs of one instruction (an AMO, xchg), not LR/SC pairs
            return Expr("inter", (_n("rmw", REL), _n("sm", REL)), type=REL, pos=pos)
        a64 = A64.lookup(name, pos)
        if a64 is not None:
            return a64
        if name in A64.EMPTY_FUNCTIONS:  # applied to empty page-table sets only: see cat_aarch64
            return Closure("x", Node("empty", pos), {}, name)
        if name == "RMW":
            # herd's RMW: events that are both a read and a write (C's one-event RMWs);
            # mmdsl splits every RMW into a read and a write related by rmw, so none is
            return Expr("inter", (_n("R", SET), _n("W", SET)), type=SET, pos=pos)
        if name in B.FENCE_SETS:
            return Expr("name", name=name, type=SET, pos=pos)
        if name in B.RELATIONS:
            return Expr("name", name=B.RELATIONS[name], type=REL, pos=pos)
        if name in B.FUNCTIONS:
            return Builtin(name)
        if name in B.UNSUPPORTED:
            raise UnsupportedError(f"herd's built-in '{name}' ({B.UNSUPPORTED[name]}) is not supported by mmdsl",
                                   pos)
        hint = None if self.has_stdlib else ("herd's stdlib.cat was not found next to the model or on "
                                             "--cat-path; it defines fencerel, po-loc, rfe, co0 ...")
        raise ModelError(f"unknown name '{name}'", pos, hint=hint)

    def _value(self, node: Node, env: dict):
        """The value of an expression: an IR Expr, a function, or a tuple of values."""
        k = node.kind
        if k == "var":
            return self._lookup(node.text, node.pos, env)
        if k == "empty":
            return Expr("empty", type=None, pos=node.pos)
        if k == "universe":
            return Expr("universe", type=SET, pos=node.pos)
        if k == "tuple":
            return tuple(self._value(a, env) for a in node.args)
        if k == "fun":
            return Closure(node.args[0], node.args[1], env)
        if k == "app":
            return self._apply(node, env)
        if k == "op":
            return self._op(node, env)
        if k == "letin":
            rec, binds, body = node.args
            inner = self._let(rec, binds, env)
            return self._value(body, inner)
        if k == "try":
            # herd falls back on an error of the model (an unbound name, a type error); a
            # construct or built-in mmdsl lacks is no such error: herd would have a value
            # there, so it stays a refusal instead of a silent fallback
            try:
                return self._value(node.args[0], env)
            except UnsupportedError:
                raise
            except ModelError:
                return self._value(node.args[1], env)
        if k == "setlit":
            if not node.args:
                return Expr("empty", type=None, pos=node.pos)
            return S.set_literal(self, node, env)
        if k == "match":
            return S.match_value(self, node, env)
        if k == "ifexpr":
            cond, a, b = node.args
            return self._value(a if self._variant(cond) else b, env)
        what = {"match": "'match ... with'", "tag": f"tags ('{node.text})",
                "string": f"strings (\"{node.text}\")"}.get(k, k)
        raise UnsupportedError(f"cat {what} is not supported by mmdsl", node.pos)

    def _expr(self, node: Node, env: dict) -> Expr:
        v = self._value(node, env)
        if not isinstance(v, Expr):
            what = "a tuple" if isinstance(v, tuple) else "a function"
            raise ModelError(f"{what} where a set or relation is expected", node.pos)
        return v

    def _shared(self, arg, fname: str, pos: SourcePos):
        """An argument as a name: a compound expression becomes an IR binding first, so a
        body that uses its parameter twice (``let f(x) = x | x``, applied 40 deep) shares
        it instead of copying it (copies would grow exponentially). Not inside a `let rec`
        group that the argument depends on: there it stays inline."""
        if isinstance(arg, tuple):
            return tuple(self._shared(a, fname, pos) for a in arg)
        if not isinstance(arg, Expr) or arg.op in ("name", "empty", "universe") or (arg.names() & self.rec_names):
            return arg
        ir = self._ir_name(f"{fname}.arg")
        self.model.lets.append(LetGroup([Binding(ir, arg, pos)]))
        return Expr("name", name=ir, type=arg.type, pos=pos)

    def _bind_params(self, params, arg, env: dict, pos: SourcePos, fname: str) -> dict:
        if isinstance(params, str):
            env[params] = arg
            return env
        if len(params) == 1 and not isinstance(arg, tuple):
            env[params[0]] = arg
            return env
        args = arg if isinstance(arg, tuple) else (arg,)
        if len(args) != len(params):
            raise ModelError(f"'{fname}' takes {len(params)} argument(s), given {len(args)}", pos)
        env.update(zip(params, args))
        return env

    def _apply(self, node: Node, env: dict):
        fnode, anode = node.args
        f = self._value(fnode, env)
        arg = self._value(anode, env)
        if isinstance(f, Builtin):
            op, typ = B.FUNCTIONS[f.name]
            e = arg if isinstance(arg, Expr) else None
            if e is None or e.type == SET:
                raise ModelError(f"{f.name} expects a relation", anode.pos)
            if e.type is None or e.op == "empty":  # stdlib's emptyset = domain 0: an empty set
                return Expr("empty", type=typ, pos=node.pos)
            return Expr(op, (e,), type=typ, pos=node.pos)
        if not isinstance(f, Closure):
            raise ModelError("applying something that is not a function", node.pos)
        arg = self._shared(arg, f.name, node.pos)
        inner = self._bind_params(f.params, arg, dict(f.env), node.pos, f.name)
        self._enter(node.pos)
        try:
            return self._value(f.body, inner)
        finally:
            self.depth -= 1

    def _op(self, node: Node, env: dict) -> Expr:
        op, pos = node.text, node.pos
        if op == "add":
            raise UnsupportedError("cat '++' (adding an element to a set) is not supported by mmdsl", pos)
        args = [self._expr(a, env) for a in node.args]
        if len(args) > 2:  # a flat chain a | b | c ...: one operator at a time
            acc = args[0]
            for b in args[1:]:
                acc = self._binary(op, acc, b, pos)
            return acc
        if len(args) == 2:
            return self._binary(op, args[0], args[1], pos)
        return self._unary(op, args[0], pos)

    def _binary(self, op: str, a: Expr, b: Expr, pos: SourcePos) -> Expr:
        args = [a, b]
        if op in ("union", "inter", "diff"):
            if a.type is None and b.type is None:
                return a
            if a.type is None:
                return b if op == "union" else a
            if b.type is None:
                return b if op == "inter" else a
            if a.type != b.type:
                sym = {"union": "|", "inter": "&", "diff": "\\"}[op]
                raise ModelError(f"'{sym}' between a set and a relation", pos)
            if a.op == "empty" or b.op == "empty":  # typed empty sets (aarch64.cat's many): fold
                if op == "union":
                    return b if a.op == "empty" else a
                return b if op == "inter" and b.op == "empty" else a
            if op == "union":
                parts = [*(a.args if a.op == "union" else (a,)), *(b.args if b.op == "union" else (b,))]
                return Expr("union", tuple(parts), type=a.type, pos=pos)
            return Expr(op, (a, b), type=a.type, pos=pos)
        if op == "seq":
            for x in args:
                if x.type == SET:
                    raise ModelError(f"';' needs relations, but '{x}' is a set (write [{x}])", x.pos or pos)
            if any(x.type is None or x.op == "empty" for x in args):
                return Expr("empty", type=REL, pos=pos)
            a, b = args
            parts = [*(a.args if a.op == "seq" else (a,)), *(b.args if b.op == "seq" else (b,))]
            return Expr("seq", tuple(parts), type=REL, pos=pos)
        if op == "product":
            for x in args:
                if x.type == REL:
                    raise ModelError(f"'*' (product) needs sets, but '{x}' is a relation", x.pos or pos)
            if any(x.type is None or x.op == "empty" for x in args):
                return Expr("empty", type=REL, pos=pos)
            return Expr("product", tuple(args), type=REL, pos=pos)
        raise ModelError(f"unknown operator {op}", pos)

    def _unary(self, op: str, a: Expr, pos: SourcePos) -> Expr:
        if op == "toid":
            if a.type == REL:
                raise ModelError(f"[...] needs a set, but '{a}' is a relation", pos)
            if a.type is None or a.op == "empty":
                return Expr("empty", type=REL, pos=pos)
            return Expr("id", (a,), type=REL, pos=pos)
        if op == "compl":
            if a.type is None:
                raise ModelError("'~' of the empty set or relation: write _ or _ * _", pos)
            return Expr("compl", (a,), type=a.type, pos=pos)
        # postfix: inv, plus, star, opt
        if a.type == SET:
            raise ModelError(f"'{a}' is a set: closures and inverse need a relation", pos)
        if a.type is None or a.op == "empty":
            if op in ("star", "opt"):
                return Expr("name", name="id", type=REL, pos=pos)
            return a
        return Expr(op, (a,), type=REL, pos=pos)


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
                   variants: frozenset = frozenset()) -> Model:
    """Run a herd cat model (with stdlib.cat and its includes) into a core IR Model."""
    try:
        return CatLowerer([Path(d) for d in (search_dirs or [])], variants).load(Path(path))
    except RecursionError:
        raise ModelError("definitions chained too deeply to lower (each let built on the one before, "
                         "thousands deep)", SourcePos(str(path), 1, 1)) from None


__all__ = ["lower_cat_file"]
