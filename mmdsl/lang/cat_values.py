"""Values of cat expressions as core IR: thunks, closures, name lookup, application and operators."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.errors import ModelError, SourcePos, UnsupportedError
from . import cat_aarch64 as A64
from . import cat_registers as R
from . import cat_builtins as B
from . import cat_linux as L
from . import cat_own_co as OWN
from . import cat_static as S
from .cat_parse import Node
from .ir import (BASE_SETS, DERIVED_RELATIONS, DYNAMIC_RELATIONS, KNOWN_ANNOTATIONS, REL, SET,
                 STATIC_RELATIONS, Binding, Expr, LetGroup)

MAX_CALL_DEPTH = 100  # nested function applications (a recursive function is refused past it)
MAX_INCLUDE_DEPTH = 40
_RESERVED = (set(BASE_SETS) | set(STATIC_RELATIONS) | set(DERIVED_RELATIONS) | set(DYNAMIC_RELATIONS)
             | set(KNOWN_ANNOTATIONS) | set(B.SETS) | set(B.RELATIONS) | set(B.FENCE_SETS) | set(B.ANNOTATION_SETS)
             | set(B.C_ANNOTATION_SETS)
             | {"sm", "X"} | A64.RESERVED)


def _n(name: str, typ: str) -> Expr:
    return Expr("name", name=name, type=typ)


# stdlib's co0 is loc & ((IW * (W\IW)) | ((W\FW) * FW)). mmdsl fixes no final writes (FW
# empty, as herd does for the tests of mmdsl's suites: the x86 corpus gives herd's verdicts
# with it), so co0 is the initial write of each location before its other writes.
_W_BUT_IW = Expr("diff", (_n("W", SET), _n("IW", SET)), type=SET)
CO0 = Expr("inter", (_n("loc", REL), Expr("product", (_n("IW", SET), _W_BUT_IW), type=REL)), type=REL)


Thunk, Closure, Builtin = S.Thunk, S.Closure, S.Builtin  # an environment's values (cat_static)
Tags = S.Tags  # bell tags as a value (cat_static)


@dataclass
class Proc:
    params: list | str
    body: list
    env: dict
    name: str



class CatExpressions:
    """The expression half of the cat lowerer: a value for each expression node (CatLowerer
    adds files and statements). Expects model, used, depth, rec_names, variants,
    one_event_amos and has_stdlib on the instance."""

    def _enter(self, pos: SourcePos) -> None:
        self.depth += 1
        if self.depth > MAX_CALL_DEPTH:
            self.depth -= 1
            raise UnsupportedError(f"functions applied more than {MAX_CALL_DEPTH} deep (a recursion over a "
                                   f"set of more than about {MAX_CALL_DEPTH} relations, or one that never "
                                   "ends) is not supported by mmdsl", pos)

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
                forcing = self.__dict__.setdefault("forcing", [])  # the definitions being read, outermost first
                forcing.append(v)
                if len(forcing) > self.__dict__.get("deepest", (0,))[0]:
                    self.deepest = (len(forcing), forcing[0])  # for the error of a chain too deep to follow
                try:
                    value = self._value(v.node, v.env)
                finally:
                    v.busy = False
                    forcing.pop()
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
        if name in OWN.CO_NAMES and getattr(self, "own_co_at", None) is not None:
            OWN.refuse_unbound_co_name(name, pos, self.own_co_at)  # herd generates no co here
        if self.lkmm and L.lookup(name, pos) is not None:  # herd's Linux-kernel view: see cat_linux
            return L.lookup(name, pos)
        if name in B.SETS:
            return Expr("name", name=B.SETS[name], type=SET, pos=pos)
        if name in B.EMPTY_SETS:
            return Expr("empty", type=None, pos=pos)
        if name == "X":  # herd's locked or exclusive accesses: see cat_builtins.X_PARTS
            return Expr("union", tuple(_n(x, SET) for x in B.X_PARTS), type=SET, pos=pos)
        if name in B.ANNOTATION_SETS:
            self.one_event_amos = self.one_event_amos or name in B.ONE_EVENT_AMO_NAMES
            return Expr("name", name=B.ANNOTATION_SETS[name], type=SET, pos=pos)
        if name == "A":
            # herd's A is an annotation set whose events each dialect makes: C's atomics, or
            # AArch64's acquire reads (cat_aarch64). The two dialects' annotations are
            # disjoint, so the union is each one's A on its own tests
            return Expr("union", (replace(B.C_ANNOTATION_SETS["A"], pos=pos), A64.lookup("A", pos)),
                        type=SET, pos=pos)
        if name in B.C_ANNOTATION_SETS:  # herd's C sets (RLX, ACQ, SC, NA ...): see cat_builtins
            self.c_model = self.c_model or name in B.C11_ORDER_SETS
            return replace(B.C_ANNOTATION_SETS[name], pos=pos)
        if name == "pco" and "co0" in env:  # herd's precomputed coherence: without -optace true, co0 (its
            self.model.c_rmw_refusal = "generates co from pco"  # C RMWs: cos-ok-opt.cat's rmwco reads R & W)
            return self._lookup("co0", pos, env)
        if name in ("si", "sm"):  # herd 7.58 binds both to its single-copy-atomic classes: with no
            # mixed-size access (mmdsl's dialects have none) each access alone, so not the read and
            # write of one xchg (the IR's own ``sm``, same instruction, is what ``amo`` reads)
            return Expr("id", (_n("M", SET),), type=REL, pos=pos)
        if name == "amo":  # herd: the rmw pairs of one instruction (an AMO, xchg), not LR/SC pairs
            return Expr("inter", (_n("rmw", REL), _n("sm", REL)), type=REL, pos=pos)
        a64 = A64.lookup(name, pos, self.catdep_at(pos))
        if a64 is not None:
            return a64
        if (reg := R.lookup(name, pos)) is not None:  # outside catdep: see cat_registers
            return reg
        if name in A64.EMPTY_FUNCTIONS:  # applied to empty page-table sets only: see cat_aarch64
            return Closure("x", Node("empty", pos), {}, name)
        if name == "RMW":  # herd's one-event RMWs: resolved once the model is read (resolve_rmw)
            return Expr("name", name=B.HERD_RMW, type=SET, pos=pos)
        if name in B.FENCE_SETS:
            return Expr("name", name=name, type=SET, pos=pos)
        if name in B.RELATIONS:
            return Expr("name", name=B.RELATIONS[name], type=REL, pos=pos)
        if name in B.FUNCTIONS or name in B.VALUE_FUNCTIONS or name == "tag2set":
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
        if k == "tag":
            return Tags(frozenset({node.text}))
        if k == "setlit":
            if not node.args:
                return Expr("empty", type=None, pos=node.pos)
            if all(a.kind == "tag" for a in node.args):  # {'a, 'b}: a set of tags (bell files)
                return Tags(frozenset(a.text for a in node.args))
            return S.set_literal(self, node, env)
        if k == "match":
            return S.match_value(self, node, env)
        if k == "ifexpr":
            cond, a, b = node.args
            return self._value(a if self._variant(cond) else b, env)
        what = {"match": "'match ... with'",
                "string": f"strings (\"{node.text}\")"}.get(k, k)
        raise UnsupportedError(f"cat {what} is not supported by mmdsl", node.pos)

    def _expr(self, node: Node, env: dict) -> Expr:
        return self._expr_of(self._value(node, env), node)

    def _expr_of(self, v, node: Node) -> Expr:
        """The value ``v`` of ``node`` as a set or relation (an error naming what it is otherwise)."""
        if isinstance(v, S.RelSet):
            raise ModelError("a set of relations where a set or relation is expected", node.pos)
        if not isinstance(v, Expr):
            what = "a tuple" if isinstance(v, tuple) else "a function"
            if isinstance(v, Tags):
                what = "tags (" + ", ".join("'" + t for t in sorted(v.names)) + ")"
                raise ModelError(f"{what} where a set or relation is expected (tag2set('t) is the set of "
                                 "events tagged t)", node.pos)
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
        if isinstance(f, Builtin) and f.name == "tag2set":
            return self._tag2set(arg, anode)
        if isinstance(f, Builtin) and f.name in B.VALUE_FUNCTIONS:  # empty on an empty relation only
            if isinstance(arg, Expr) and arg.type != SET and S.statically_empty(arg, self.model):
                return Expr("empty", type=REL, pos=node.pos)
            raise UnsupportedError(f"herd's built-in '{f.name}' ({B.VALUE_FUNCTIONS[f.name]}) is not supported "
                                   "by mmdsl (only on a relation empty on every execution)", node.pos)
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

    def _tag2set(self, arg, anode: Node) -> Expr:
        """herd's tag2set('t): the events carrying tag t, for the tags mmdsl's dialects carry."""
        if not isinstance(arg, Tags) or len(arg.names) != 1:
            raise ModelError("tag2set expects one tag, as in tag2set('acq)", anode.pos)
        (tag,) = arg.names
        if tag not in B.TAG_SETS:
            raise UnsupportedError(f"herd's tag '{tag} has no counterpart in mmdsl's dialects (tag2set knows "
                                   f"C11's {', '.join(chr(39) + t for t in B.TAG_SETS)})", anode.pos)
        self.c_model = True
        return replace(B.C_ANNOTATION_SETS[B.TAG_SETS[tag]], pos=anode.pos)

    def _op(self, node: Node, env: dict) -> Expr:
        op, pos = node.text, node.pos
        if op == "add":  # on sets of relations or tags: cat_static
            return S.add_value(self, node, env)
        if op == "union":  # of sets or relations, or of sets of relations or tags (cat_static)
            values = [self._value(a, env) for a in node.args]
            if any(isinstance(v, (S.RelSet, S.Tags)) for v in values):
                acc = values[0]
                for v in values[1:]:
                    acc = acc if acc is None else S.union_values(acc, v, node)
                if acc is not None:
                    return acc
            args = [self._expr_of(v, a) for v, a in zip(values, node.args)]  # or says what is not one
        else:
            args = [self._expr(a, env) for a in node.args]
        if len(args) > 2 and op == "union":
            return self._union_chain(args, pos)
        if len(args) > 2:  # a flat chain a & b & c ...: one operator at a time
            acc = args[0]
            for b in args[1:]:
                acc = self._binary(op, acc, b, pos)
            return acc
        if len(args) == 2:
            return self._binary(op, args[0], args[1], pos)
        return self._unary(op, args[0], pos)

    def _union_chain(self, args: list[Expr], pos: SourcePos) -> Expr:
        """``a | b | c ...`` as ``_binary`` folds it one term at a time, in time linear in the
        terms: while the union so far is one union node, a term of its type joins its parts (a
        term of no type, or a typed empty set, leaves it as it is) without copying them."""
        acc, parts, typ = args[0], None, None
        for b in args[1:]:
            if parts is not None:
                if b.type is None or (b.type == typ and b.op == "empty"):
                    continue
                if b.type == typ:
                    parts.extend(b.args if b.op == "union" else (b,))
                    continue
                acc, parts = Expr("union", tuple(parts), type=typ, pos=pos), None
            acc = self._binary("union", acc, b, pos)
            if acc.op == "union":
                parts, typ = list(acc.args), acc.type
        return acc if parts is None else Expr("union", tuple(parts), type=typ, pos=pos)

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


    def _typed(self, e: Expr, pos: SourcePos, want: str | None = None) -> Expr:
        if e.type is None:  # the empty set or relation: takes the type wanted
            return Expr("empty", type=want or REL, pos=pos)
        return e


    def _variant(self, c: Node) -> bool:
        """Whether a variant condition holds; every name it tests is recorded in the model
        (``variants_tested``: `mmdsl run --variant` warns of a name no condition tests)."""
        if c.kind == "variant":
            if c.text not in self.model.variants_tested:
                self.model.variants_tested.append(c.text)
            return c.text in self.variants
        if c.kind == "vnot":
            return not self._variant(c.args[0])
        a, b = self._variant(c.args[0]), self._variant(c.args[1])  # both: each name is recorded
        return (a and b) if c.kind == "vand" else (a or b)
