"""herd's models that compute co themselves (no co generated): detecting them, their co0, their names.

herd 7.58 generates no coherence order for a cat model unless the model builds one (``with co
from generate_cos(...)``, ``with mo from generate_orders(...)``). Models such as
uniproccat.cat, sccat.cat, coscat.cat, minimalcat.cat and prettycat.cat instead build
``co`` from ``co0`` and observations (``let co = WW(U)``). herd then enumerates, per
candidate, reads-from and a final write of each observed location (stdlib's ``FW``),
and ``co0`` is ``loc & ((IW * (W\\IW)) | ((W\\FW) * FW))``.

mmdsl's candidates still enumerate a coherence order, but for such a model it serves only
to pick the final writes: the model's own ``co`` (an ordinary binding, primed in the IR)
replaces it everywhere the model names co, ``co0`` gets its final-write half, and the
checker enumerates one order per final write of an observed location, and no final write
of another (``Model.own_co``: see ``Enumerator._final_writes`` in axiomatic.candidates). herd has no generated co, fr, coe, coi, fre
or fri in such a model, so naming one the model did not define is refused by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core.errors import SourcePos, UnsupportedError
from .cat_parse import Stmt
from .ir import REL, SET, Expr

# herd's relations over a generated co: unbound in a model that computes co itself
CO_NAMES = frozenset({"co", "fr", "coe", "coi", "fre", "fri"})


def _n(name: str, typ: str) -> Expr:
    return Expr("name", name=name, type=typ)


def co0_with_finals() -> Expr:
    """stdlib's co0 in full: loc & ((IW * (W\\IW)) | ((W\\FW) * FW)), FW the candidate's final writes."""
    fw = Expr("diff", (_n("W", SET), Expr("domain", (_n("co", REL),), type=SET)), type=SET)
    w_but_iw = Expr("diff", (_n("W", SET), _n("IW", SET)), type=SET)
    first = Expr("product", (_n("IW", SET), w_but_iw), type=REL)
    last = Expr("product", (Expr("diff", (_n("W", SET), fw), type=SET), fw), type=REL)
    return Expr("inter", (_n("loc", REL), Expr("union", (first, last), type=REL)), type=REL)


def _generates(e) -> bool:
    return e.kind == "app" and e.args[0].kind == "var" and e.args[0].text in ("generate_cos", "generate_orders")


def computes_co_itself(stmts: list[Stmt], here: Path, statements_of: Callable) -> SourcePos | None:
    """Where the model (with the files it includes) binds co with a `let`, when nothing in
    it generates an order (``with co from generate_cos(...)``, ``with mo from
    generate_orders(...)``, which mmdsl's candidate co enumerates); None otherwise. ``statements_of(file, here)``
    gives an included file's (statements, folder), or None when it is not found."""
    found: list[SourcePos] = []
    generated = [False]
    seen: set = set()

    def walk(body: list[Stmt], folder: Path) -> None:
        for st in body:
            d = st.data
            if st.kind == "let":
                for b in d["binds"]:
                    names = [b["name"]] if b["name"] is not None else (
                        b["names"] if isinstance(b["names"], list) else [b["names"]])
                    if "co" in names and not found:
                        found.append(b["pos"])
            elif st.kind == "with" and _generates(d["expr"]):
                generated[0] = True  # co is generated, or built from a generated order (c11_cos.cat's mo)
            elif st.kind == "if":
                walk(d["then"], folder)
                walk(d["else"], folder)
            elif st.kind == "include":
                got = statements_of(d["file"], folder)
                if got is not None and got[2] not in seen:
                    seen.add(got[2])
                    walk(got[0], got[1])

    walk(stmts, here)
    return found[0] if found and not generated[0] else None


def refuse_unbound_co_name(name: str, pos: SourcePos, own_co_at: SourcePos) -> None:
    """A model computing co itself names herd's generated co (or fr, coe ...) that it never defined."""
    at = f"{Path(own_co_at.file or '').name}:{own_co_at.line}:{own_co_at.col}"
    raise UnsupportedError(
        f"'{name}' names herd's generated coherence order, which this model has none of: it computes "
        f"co itself (at {at}), and herd then binds no '{name}' the model does not define", pos,
        hint="define it from the model's own co (herd's prettycat.cat: 'let coe = co & ext')")
