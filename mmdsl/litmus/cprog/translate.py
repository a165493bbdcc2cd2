"""pycparser's AST of a whole C program translated to the C dialect's AST (``c_grammar``), which
``c_lower`` lowers; offsets are those of the preprocessed text, so errors keep file:line:col."""

from __future__ import annotations

from pycparser import c_ast

from ...core.errors import LitmusError, UnsupportedError
from .. import c_grammar as g
from .preprocess import Preprocessed

# typedefs the front end keeps by name (thread handles and mutexes are not plain ints to it)
KEPT_TYPEDEFS = {"pthread_t", "pthread_mutex_t", "pthread_attr_t", "pthread_mutexattr_t"}
_UNARY = {"!": "!", "-": "-", "+": "+", "~": "~", "*": "*", "&": "&", "++": "++", "--": "--"}
_POSTFIX = {"p++": "++", "p--": "--"}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}


class Translator:
    """One program's translation: typedefs seen so far, offsets through ``pre``."""

    def __init__(self, pre: Preprocessed):
        self.pre = pre
        self.text = pre.text
        self.typedefs: dict[str, c_ast.Node] = {}

    # ---- places -------------------------------------------------------------------------
    def at(self, node: c_ast.Node | None) -> int:
        coord = getattr(node, "coord", None)
        if coord is None or not coord.line:
            return 0
        return self.pre.offset(coord.line, coord.column or 1)

    def unsupported(self, what: str, node, hint: str | None = None) -> UnsupportedError:
        return UnsupportedError(f"{what} is not supported in C programs", self.pre.pos(self.at(node)), hint=hint)

    def _scan(self, at: int, stop: str) -> int:
        """The offset just past the first ``stop`` character at bracket depth 0 from ``at``."""
        text, depth, i, n = self.text, 0, at, len(self.text)
        while i < n:
            c = text[i]
            if c in "\"'":
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
                continue
            if c in "([{":
                depth += 1
                if c == stop == "{":
                    pass
            elif c in ")]}":
                depth -= 1
                if c == stop and depth == 0:
                    return i + 1
                if depth < 0:
                    return i
            elif c == stop and depth == 0:
                return i + 1
            i += 1
        return n

    def end_of(self, stmt: g.Stmt, node) -> int:
        if isinstance(node, c_ast.Compound):
            return self._scan(self.at(node), "}")
        return self._scan(stmt.at, ";")

    # ---- top level --------------------------------------------------------------------------
    def file(self, ast: c_ast.FileAST) -> list:
        items: list = []
        for ext in ast.ext:
            if isinstance(ext, c_ast.Typedef):
                self._typedef(ext, items)
            elif isinstance(ext, c_ast.FuncDef):
                items.append(self.function(ext))
            elif isinstance(ext, c_ast.Decl):
                self._top_decl(ext, items)
            elif isinstance(ext, c_ast.Pragma):
                continue
            else:
                raise self.unsupported(f"'{type(ext).__name__}' at the top level", ext)
        return items

    def _typedef(self, td: c_ast.Typedef, items: list) -> None:
        if td.name in KEPT_TYPEDEFS or td.name == "memory_order":
            self.typedefs[td.name] = td.type
            return
        inner = td.type.type if isinstance(td.type, c_ast.TypeDecl) else None
        if isinstance(inner, c_ast.Struct) and inner.decls is not None:
            if inner.name is None:
                inner.name = td.name  # typedef struct { ... } T: the struct is named T
            items.append(self._struct(inner))
            inner = c_ast.Struct(inner.name, None, coord=inner.coord)
            td.type.type = inner
        self.typedefs[td.name] = td.type

    def _top_decl(self, d: c_ast.Decl, items: list) -> None:
        t = d.type
        if isinstance(t, c_ast.FuncDecl):
            return  # a prototype
        if isinstance(t, c_ast.Struct):
            if t.decls is not None:
                items.append(self._struct(t))
            return
        if isinstance(t, c_ast.Enum) or (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Enum)):
            raise self.unsupported("an enum", d)
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Struct) and t.type.decls is not None:
            items.append(self._struct(t.type))
            t.type = c_ast.Struct(t.type.name, None, coord=t.type.coord)
        if "extern" in (d.storage or []):
            raise self.unsupported(f"extern declaration '{d.name}'", d)
        ctype, decl = self.declarator(d)
        items.append(g.GlobalDecl(decl.at, g.Decl(decl.at, ctype, [decl])))

    def _struct(self, s: c_ast.Struct) -> g.StructDef:
        if s.name is None:
            raise self.unsupported("an anonymous struct", s, hint="name it: struct node { ... }")
        fields = []
        for d in s.decls:
            ctype, decl = self.declarator(d)
            fields.append(g.Decl(decl.at, ctype, [decl]))
        return g.StructDef(self.at(s), s.name, fields)

    def function(self, fd: c_ast.FuncDef) -> g.Function:
        decl = fd.decl
        ftype = decl.type
        params = []
        args = ftype.args.params if ftype.args is not None else []
        for p in args:
            if isinstance(p, c_ast.EllipsisParam):
                raise self.unsupported("a variadic function", p)
            if isinstance(p, c_ast.Typename) and _is_void(p.type):
                continue
            if not isinstance(p, c_ast.Decl) or p.name is None:
                raise self.unsupported("an unnamed parameter", p)
            ctype, d = self.declarator(p)
            params.append(g.Param(d.at, ctype, d))
        ret = ftype.type
        stars = 0
        while isinstance(ret, c_ast.PtrDecl):
            stars, ret = stars + 1, ret.type
        returns = self.ctype(ret, [])
        body = self.block(fd.body)
        at = self.at(decl)
        return g.Function(at, decl.name, params, body, self.at(fd.body), returns, stars)

    # ---- types ------------------------------------------------------------------------------
    def ctype(self, t, quals: list[str]) -> g.CType:
        quals = list(quals) + list(getattr(t, "quals", None) or [])
        inner = t.type if isinstance(t, c_ast.TypeDecl) else t
        if isinstance(inner, c_ast.Struct):
            return g.CType(("struct", inner.name), "volatile" in quals, "_Atomic" in quals)
        if isinstance(inner, c_ast.Union):
            raise self.unsupported("a union", t)
        if isinstance(inner, c_ast.Enum):
            raise self.unsupported("an enum", t)
        if not isinstance(inner, c_ast.IdentifierType):
            raise self.unsupported(f"type '{type(inner).__name__}'", t)
        names = tuple(inner.names)
        if len(names) == 1 and names[0] in self.typedefs and names[0] not in KEPT_TYPEDEFS:
            target = self.typedefs[names[0]]
            if isinstance(target, c_ast.PtrDecl):
                raise self.unsupported(f"a pointer typedef ('{names[0]}')", t)
            return self.ctype(target, quals)
        for word in names:
            if word in ("float", "double"):
                raise self.unsupported(f"type '{word}'", t, hint="integers and pointers only")
        return g.CType(names, "volatile" in quals, "_Atomic" in quals)

    def declarator(self, d: c_ast.Decl) -> tuple[g.CType, g.Declarator]:
        t = d.type
        array, size = False, None
        if isinstance(t, c_ast.ArrayDecl):
            array = True
            size = self.expr(t.dim) if t.dim is not None else None
            t = t.type
            if isinstance(t, c_ast.ArrayDecl):
                raise self.unsupported(f"a multi-dimensional array ('{d.name}')", d)
        stars, star_volatile = 0, False
        while isinstance(t, c_ast.PtrDecl):
            stars += 1
            star_volatile = star_volatile or "volatile" in (t.quals or [])
            t = t.type
        if isinstance(t, (c_ast.FuncDecl, c_ast.ArrayDecl)):
            raise self.unsupported(f"this declarator ('{d.name}': a function pointer or pointer to array)", d)
        ctype = self.ctype(t, list(d.quals or []))
        init = None
        if d.init is not None:
            if isinstance(d.init, c_ast.InitList):
                raise self.unsupported(f"an initialiser list ('{d.name}')", d.init,
                                       hint="assign the elements in main before creating the threads")
            init = self.expr(d.init)
        at = self.at(d)
        return ctype, g.Declarator(at, d.name, stars, star_volatile, array, init, size)

    # ---- statements ---------------------------------------------------------------------------
    def block(self, node: c_ast.Compound) -> g.Block:
        stmts = []
        for item in node.block_items or []:
            stmts.extend(self.stmts(item))
        at = self.at(node)
        return g.Block(at, stmts, end=self._scan(at, "}"))

    def stmts(self, node) -> list[g.Stmt]:
        if isinstance(node, c_ast.Decl):
            if isinstance(node.type, c_ast.FuncDecl):
                return []
            if isinstance(node.type, c_ast.Struct) or (
                    isinstance(node.type, c_ast.TypeDecl) and isinstance(node.type.type, c_ast.Struct)
                    and node.type.type.decls is not None):
                raise self.unsupported("a struct defined inside a function", node)
            if "static" in (node.storage or []):
                raise self.unsupported(f"a static local ('{node.name}')", node, hint="declare it at the top level")
            ctype, decl = self.declarator(node)
            st = g.Decl(decl.at, ctype, [decl])
            st.end = self._scan(decl.at, ";")
            return [st]
        if isinstance(node, c_ast.DeclList):
            return [s for d in node.decls for s in self.stmts(d)]
        if isinstance(node, c_ast.Typedef):
            raise self.unsupported("a typedef inside a function", node)
        return [self.stmt(node)]

    def stmt(self, node) -> g.Stmt:
        at = self.at(node)
        if isinstance(node, c_ast.Compound):
            return self.block(node)
        if isinstance(node, c_ast.If):
            then = self.stmt(node.iftrue)
            other = self.stmt(node.iffalse) if node.iffalse is not None else None
            return g.If(at, self.expr(node.cond), then, other, end=(other or then).end)
        if isinstance(node, c_ast.While):
            body = self.stmt(node.stmt)
            return g.While(at, self.expr(node.cond), body, end=body.end)
        if isinstance(node, c_ast.DoWhile):
            body = self.stmt(node.stmt)
            return g.DoWhile(at, body, self.expr(node.cond), end=self._scan(body.end, ";"))
        if isinstance(node, c_ast.For):
            init = None
            if node.init is not None:
                if isinstance(node.init, c_ast.DeclList):
                    decls = self.stmts(node.init)
                    if len(decls) != 1:
                        raise self.unsupported("several declarations in a for header", node.init)
                    init = decls[0]
                else:
                    init = g.ExprStmt(self.at(node.init), self.expr(node.init))
            body = self.stmt(node.stmt)
            cond = self.expr(node.cond) if node.cond is not None else None
            step = self.expr(node.next) if node.next is not None else None
            return g.For(at, init, cond, step, body, end=body.end)
        if isinstance(node, c_ast.Break):
            return g.Jump(at, "break", end=self._scan(at, ";"))
        if isinstance(node, c_ast.Continue):
            return g.Jump(at, "continue", end=self._scan(at, ";"))
        if isinstance(node, c_ast.Return):
            value = self.expr(node.expr) if node.expr is not None else None
            return g.Return(at, value, end=self._scan(at, ";"))
        if isinstance(node, c_ast.EmptyStatement):
            return g.Empty(at, end=at + 1)
        if isinstance(node, (c_ast.Goto, c_ast.Label)):
            raise self.unsupported("'goto' and labels", node)
        if isinstance(node, (c_ast.Switch, c_ast.Case, c_ast.Default)):
            raise self.unsupported("'switch'", node, hint="use if/else")
        if isinstance(node, c_ast.Pragma):
            return g.Empty(at, end=at)
        st = g.ExprStmt(at, self.expr(node))
        st.end = self._scan(at, ";")
        return st

    # ---- expressions ----------------------------------------------------------------------------
    def expr(self, node) -> g.Node:
        at = self.at(node)
        if isinstance(node, c_ast.Constant):
            return g.Num(at, self._constant(node))
        if isinstance(node, c_ast.ID):
            return g.Name(at, node.name)
        if isinstance(node, c_ast.Cast):
            return self.expr(node.expr)  # integers and pointers: a cast changes nothing the checker sees
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return self._sizeof(node)
            if node.op in _POSTFIX:
                return g.Postfix(at, _POSTFIX[node.op], self.expr(node.expr))
            if node.op not in _UNARY:
                raise self.unsupported(f"operator '{node.op}'", node)
            return g.Unary(at, _UNARY[node.op], self.expr(node.expr))
        if isinstance(node, c_ast.BinaryOp):
            return g.Binary(at, node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, c_ast.Assignment):
            if node.op not in _ASSIGN:
                raise self.unsupported(f"assignment '{node.op}'", node)
            return g.AssignExpr(at, node.op, self.expr(node.lvalue), self.expr(node.rvalue))
        if isinstance(node, c_ast.FuncCall):
            if not isinstance(node.name, c_ast.ID):
                raise self.unsupported("a call through a function pointer", node)
            args = [self.expr(a) for a in (node.args.exprs if node.args is not None else [])]
            return g.Call(at, node.name.name, args)
        if isinstance(node, c_ast.ArrayRef):
            return g.Postfix(at, "[", self.expr(node.name), self.expr(node.subscript))
        if isinstance(node, c_ast.StructRef):
            return g.Postfix(at, node.type, self.expr(node.name), node.field.name)
        if isinstance(node, c_ast.TernaryOp):
            return g.Ternary(at, self.expr(node.cond), self.expr(node.iftrue), self.expr(node.iffalse))
        if isinstance(node, c_ast.ExprList):
            raise self.unsupported("the comma operator", node)
        if isinstance(node, c_ast.CompoundLiteral):
            raise self.unsupported("a compound literal", node)
        raise self.unsupported(f"expression '{type(node).__name__}'", node)

    def _constant(self, node: c_ast.Constant) -> int:
        v = node.value
        if node.type == "char":
            body = v[1:-1]
            escapes = {"\\n": 10, "\\t": 9, "\\0": 0, "\\\\": 92, "\\'": 39}
            if body in escapes:
                return escapes[body]
            if len(body) == 1:
                return ord(body)
        if node.type == "string":
            raise self.unsupported("a string literal", node)
        text = v.rstrip("uUlL")
        try:
            if text.lower().startswith("0x"):
                return int(text, 16)
            if text.lower().startswith("0b"):
                return int(text, 2)
            if len(text) > 1 and text.startswith("0") and text.isdigit():
                return int(text, 8)
            return int(text)
        except ValueError:
            raise self.unsupported(f"constant '{v}'", node, hint="integers only") from None

    def _sizeof(self, node: c_ast.UnaryOp) -> g.Node:
        at = self.at(node)
        arg = node.expr
        if isinstance(arg, c_ast.Typename):
            t = arg.type
            if isinstance(t, c_ast.TypeDecl):
                ct = self.ctype(t, [])
                return g.Call(at, "sizeof", [g.Name(at, " ".join(ct.words))])
        raise LitmusError("sizeof takes a type here", self.pre.pos(at), expected="sizeof(struct node)")


def _is_void(t) -> bool:
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and t.type.names == ["void"]
