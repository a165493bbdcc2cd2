"""C11 memory orders compiled onto a table model the way compilers map them to hardware fences.

A table model reorders by access kind and knows nothing of ``memory_order``: a C program is
checked as compiled. The mappings are the standard ones: under ``sc`` nothing; under ``tso``
(x86) a seq_cst store is followed by a full fence and nothing else is needed; under any other
model (SPARC PSO/RMO style) a release store is preceded by ``membar #LoadStore|#StoreStore``,
an acquire load followed by ``#LoadLoad|#LoadStore``, a seq_cst store also followed by a full
fence, and C11 fences become the membars of their order. Where the model declares no such
partial fence, its full fence (``mb``) stands in.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.program import Branch, Fence, Load, Program, Store, Thread
from ..lang.ir import Model

NONE = "none"
X86 = "x86"


def family(model: Model) -> str:
    name = model.name.lower()
    if name == "sc":
        return NONE
    if name in ("tso", "x86tso", "x86-tso", "tso-axioms"):
        return X86
    return "weak"


def _kinds(model: Model, wanted: tuple[str, ...]) -> list[str]:
    if all(model.fence_for(k) is not None for k in wanted):
        return list(wanted)
    return ["mb"]


def compile_orders(program: Program, model: Model) -> Program:
    """``program`` with the fences its C11 orders compile to under ``model`` (a new Program)."""
    fam = family(model)
    if fam == NONE:
        return _drop_order_fences(program)
    threads = [_thread(t, model, fam) for t in program.threads]
    return replace(program, threads=threads)


def _drop_order_fences(program: Program) -> Program:
    """Under sc the acquire/release fences order nothing more: they become no-ops (mb stays)."""
    return replace(program, threads=[_thread(t, None, NONE) for t in program.threads])


def _around(ins, model: Model | None, fam: str) -> tuple[list, list]:
    """The fences to put before and after ``ins``; ``None`` in ``before`` drops ``ins`` itself."""
    annots = getattr(ins, "annots", frozenset())
    if isinstance(ins, Fence) and ins.kind in ("acquire", "release", "acq_rel"):
        if fam in (NONE, X86):
            return [None], []
        wanted = {"acquire": ("ll", "ls"), "release": ("ls", "ss"), "acq_rel": ("ll", "ls", "ss")}[ins.kind]
        return [None] + [Fence(k, pos=ins.pos, text=ins.text) for k in _kinds(model, wanted)], []
    if fam == NONE:
        return [], []
    before, after = [], []
    if isinstance(ins, Store) and "sc" in annots:
        after = ["mb"]
        if fam != X86:
            before = _kinds(model, ("ls", "ss"))
    elif isinstance(ins, Store) and "rel" in annots and fam != X86:
        before = _kinds(model, ("ls", "ss"))
    elif isinstance(ins, Load) and ({"acq", "sc"} & annots) and fam != X86:
        after = _kinds(model, ("ll", "ls"))
    mk = (lambda k: Fence(k, pos=ins.pos, text=ins.text))
    return [mk(k) for k in before], [mk(k) for k in after]


def _thread(t: Thread, model: Model | None, fam: str) -> Thread:
    out, index = [], []
    for ins in t.instrs:
        before, after = _around(ins, model, fam)
        drop = bool(before) and before[0] is None
        before = [b for b in before if b is not None]
        index.append(len(out))  # a jump to ins lands on its leading fences
        out.extend(before)
        if not drop:
            out.append(ins)
        out.extend(after)
    index.append(len(out))
    out = [replace(i, target=index[i.target]) if isinstance(i, Branch) else i for i in out]
    return replace(t, instrs=out, unsequenced=frozenset(), operations=[], pc_labels={})
