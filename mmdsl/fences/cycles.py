"""What a fence set must do to forbid one candidate execution: close a cycle of an ordering axiom.

The model must let fences act only through the ``fence`` relation as a member of the
union of an ``acyclic`` axiom (as the default axioms do: ``acyclic ppo | fence | rfe | co
| fr``). Then, for an allowed execution X and a fence set S, the executions of the
fenced program that correspond to X differ from X only in that axiom, whose relation
grows from E0 (its value on X) to E0 | fence_S. So X is forbidden exactly when
E0 | fence_S has a cycle, and since every cycle contains a simple one, exactly when for
some simple cycle every edge outside E0 is a program-order pair ordered by S.

Those edges are found on an auxiliary graph H: one node per relaxed pair (a, b) (a po
pair not in E0 that some fence kind at some place passed between a and b would order),
and an arc from (a, b) to (c, d) when E0* leads from b to c. The node sets of the simple
cycles of H are exactly the sets R with E0 | R cyclic whose edges a simple cycle uses in
order, and every minimal such set is one of them; the requirement is the OR over the
minimal sets of the AND of their pairs' literals. Enumeration is deterministic and
bounded; past the bound the requirement falls back to a weaker necessary one (some pair
on a cycle of E0 | every orderable pair is ordered) and the selection loop refines it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..axiomatic.structure import prepared_for
from ..core.errors import UnsupportedError
from ..core.events import Execution
from ..core.program import Program
from ..lang.evaluate import Dynamic
from ..lang.ir import DYNAMIC_RELATIONS, Axiom, Expr, Model, render_expr
from ..relations import Rel, bits
from .encoding import Literal, Problem, Requirement, any_of
from .paths import ThreadPath, replay

CYCLE_BUDGET = 200_000  # DFS steps per execution before falling back


@dataclass
class Pair:
    """A relaxed program-order pair of one execution and the fences that would order it."""

    a: int
    b: int
    literal: Literal


@dataclass
class ExecutionCycles:
    """The relaxed pairs of an execution, its requirement, and whether that is exact."""

    pairs: list[Pair]
    requirement: Requirement
    exact: bool
    on_cycle: list[Pair]  # pairs on some cycle of E0 | every relaxed pair (for refinements)


# ----- which axioms fences act through -------------------------------------------------
def _let_bodies(model: Model) -> dict[str, Expr]:
    out: dict[str, Expr] = {}
    for group in model.lets:
        for b in group.bindings:
            out[b.name] = b.expr
    return out


def _mentions(expr: Expr, names: set[str], lets: dict[str, Expr]) -> str | None:
    """The first fence-sensitive name or operator ``expr`` uses, following let bindings
    (depth first, left to right; iterative, so a long chain of lets is no deeper)."""
    stack = [expr]
    seen: set[str] = set()
    while stack:
        e = stack.pop()
        if e.op in ("compl", "universe"):
            return "~" if e.op == "compl" else "_"
        if e.op == "name":
            if e.name in names:
                return e.name
            if e.name in lets and e.name not in seen:
                seen.add(e.name)
                stack.append(lets[e.name])
            continue
        stack.extend(reversed(e.args))
    return None


def _members(expr: Expr, lets: dict[str, Expr]) -> list[Expr]:
    """Top-level union members, unfolding let-bound unions (iteratively, in order)."""
    out: list[Expr] = []
    stack: list[tuple[Expr, frozenset]] = [(expr, frozenset())]
    while stack:
        e, seen = stack.pop()
        if e.op == "union":
            stack.extend((a, seen) for a in reversed(e.args))
            continue
        if e.op == "name" and e.name in lets and e.name not in seen and e.name != "fence":
            body = lets[e.name]
            if body.op in ("union", "name") or _is_fence_on_accesses(body):
                stack.append((body, seen | {e.name}))
                continue
        if _is_fence_on_accesses(e):
            e = e.args[1]  # [M] ; fence ; [M] is fence: a fence orders accesses only
        out.append(e)
    return out


def _is_fence_on_accesses(e: Expr) -> bool:
    """``[M] ; fence ; [M]``: the fence relation restricted to the accesses it relates anyway."""
    return (e.op == "seq" and len(e.args) == 3 and e.args[1].op == "name" and e.args[1].name == "fence"
            and all(a.op == "id" and a.args[0].op == "name" and a.args[0].name == "M" for a in (e.args[0], e.args[2])))


def _unfold(e: Expr, lets: dict[str, Expr]) -> Expr:
    """A let-bound name replaced by its body, as long as it is one (never ``fence`` itself)."""
    seen: set[str] = set()
    while e.op == "name" and e.name in lets and e.name != "fence" and e.name not in seen:
        seen.add(e.name)
        e = lets[e.name]
    return e


def lifted_union(expr: Expr, lets: dict[str, Expr], sensitive: set[str]) -> tuple[Expr, Expr | None]:
    """``L? ; (U \\ S) ; L?`` with static ``L`` and ``S`` that no fence touches: (U, L); else (expr, None).

    Such an axiom grows, when fences are added to U, by ``L? ; fence_S ; L?``: a fence pair counts
    from and to the events ``L`` relates (herd's RVWMO makes an AMO one event; a model with two
    events per AMO writes L = its halves, so a fence ordering either half orders the AMO), and
    ``S`` loses nothing since no fence lies between the two events of one of its pairs."""
    e = _unfold(expr, lets)
    if e.op != "seq" or len(e.args) != 3:
        return expr, None
    left, middle, right = (_unfold(a, lets) for a in e.args)
    if left.op != "opt" or right.op != "opt" or render_expr(left) != render_expr(right) or middle.op != "diff" or len(middle.args) != 2:
        return expr, None
    inner, subtracted = left.args[0], middle.args[1]
    if any(_mentions(x, sensitive, lets) or _dynamic(x, lets) for x in (inner, subtracted)):
        return expr, None
    return middle.args[0], inner


def _dynamic(e: Expr, lets: dict[str, Expr]) -> bool:
    """Does ``e`` read rf or co (through its lets)?"""
    return _mentions(e, set(DYNAMIC_RELATIONS), lets) is not None


def fence_axioms(model: Model) -> list[Axiom]:
    """The acyclic axioms fences act through; an UnsupportedError when they act otherwise.

    An axiom ``acyclic L? ; (U \\ S) ; L?`` (``lifted_union``; RVWMO's ``Model`` in
    models/riscv.mm, where L relates an AMO's two halves) counts with U as its union, and a
    fence pair then counts from and to both events L relates (``CycleEncoder.lift``).
    """
    lets = _let_bodies(model)
    sensitive = {"fence", "F", "_", "ext", "id"}
    for decl in model.fences.values():
        sensitive |= set(decl.spellings)
    through: list[Axiom] = []
    if model.propagation != "multi-copy-atomic":
        raise UnsupportedError(
            f"fence selection does not support model '{model.name}' (propagation {model.propagation}): its "
            "fences order the execution through cumulativity (prop, hb), not as a member of one acyclic union",
            model.propagation_pos, hint="choose fences under a multi-copy-atomic model (armv8, riscv, tso ...)")
    for ax in model.axioms:
        members = _members(lifted_union(ax.expr, lets, sensitive)[0], lets)
        fence_members = [m for m in members if m.op == "name" and m.name == "fence"]
        others = [m for m in members if not (m.op == "name" and m.name == "fence")]
        if fence_members and ax.test == "acyclic" and not ax.negated:
            hit = next((h for h in (_mentions(m, sensitive, lets) for m in others) if h), None)
            if hit is None:
                through.append(ax)
                continue
        else:
            hit = _mentions(ax.expr, sensitive, lets)
            if hit is None:
                continue
        raise UnsupportedError(
            f"fence selection needs model '{model.name}' to use fences only through the relation "
            f"'fence' as a member of an acyclic union; axiom '{ax.name}' uses '{hit}' otherwise",
            ax.pos, hint="write the axiom as 'acyclic ppo | fence | rfe | co | fr' (the default axioms do)")
    if not through:
        raise UnsupportedError(
            f"no axiom of model '{model.name}' uses the relation 'fence', so no fence can forbid anything",
            hint="add 'fence' to the union of the ordering axiom, e.g. 'acyclic ppo | fence | rfe | co | fr'")
    return through


# ----- one execution ---------------------------------------------------------------------
class CycleEncoder:
    """Builds the requirement of each unwanted execution of one program."""

    def __init__(self, program: Program, model: Model, problem: Problem, budget: int = CYCLE_BUDGET):
        self.program = program
        self.model = model
        self.problem = problem
        lets = _let_bodies(model)
        # per axiom fences act through: the static L its fence pairs are lifted by (lifted_union), or None
        self.lifts = {ax.name: lifted_union(ax.expr, lets, {"fence"})[1] for ax in fence_axioms(model)}
        self.axioms = set(self.lifts)
        self.budget = budget

    def paths(self, x: Execution) -> dict[int, ThreadPath]:
        by_thread: dict[int, list] = {}
        for e in x.events:
            if e.tid >= 0:
                by_thread.setdefault(e.tid, []).append(e)
        return {tid: replay(self.program.threads[tid], evs) for tid, evs in sorted(by_thread.items())}

    def relaxed_pairs(self, x: Execution, e0: Rel, paths: dict[int, ThreadPath]) -> list[Pair]:
        """Program-order pairs of accesses outside E0 that some available fence would order."""
        pairs = []
        po = x.static["po"]
        for a in x.events:
            if a.kind == "F" or a.tid < 0:
                continue
            for b in bits(po.rows[a.eid]):
                eb = x.events[b]
                if eb.kind == "F" or (a.eid, b) in e0:
                    continue
                lit = self.problem.literal(a.tid, paths[a.tid].between(a.eid, b), a.shape, eb.shape)
                if lit:
                    pairs.append(Pair(a.eid, b, lit))
        return pairs

    def encode(self, x: Execution) -> ExecutionCycles:
        prepared = prepared_for(x, self.model)
        d = Dynamic(x.rf, x.co, x.static["int"])
        paths = self.paths(x)
        alternatives: set = set()
        exact = True
        all_pairs: dict[tuple[int, int], Pair] = {}
        on_cycle: dict[tuple[int, int], Pair] = {}
        for ax, compiled, _ in prepared.axioms:
            if ax.name not in self.axioms:
                continue
            e0 = prepared.value(compiled, d)
            lift = self.lifts[ax.name]
            partner = None if lift is None else _partners(prepared.value(prepared.compile_expr(lift), d))
            pairs = self.relaxed_pairs(x, e0, paths)
            for p in pairs:
                all_pairs.setdefault((p.a, p.b), p)
            for p in _on_cycles(e0, pairs, partner):
                on_cycle.setdefault((p.a, p.b), p)
            sets = minimal_cycle_sets(e0, pairs, self.budget, partner)
            if sets is None:
                exact = False
                continue
            for s in sets:
                alternatives.add(frozenset(pairs[i].literal for i in s))
        cyc = [on_cycle[k] for k in sorted(on_cycle)]
        if exact:
            requirement = frozenset(_minimal(alternatives))
        else:
            requirement = any_of(p.literal for p in cyc)
        return ExecutionCycles([all_pairs[k] for k in sorted(all_pairs)], requirement, exact, cyc)


def refinement(cycles: ExecutionCycles, chosen: set[int]) -> Requirement:
    """After ``chosen`` failed to forbid the execution: some pair it leaves unordered must be ordered.

    Necessary for every correct fence set: one that orders only pairs ``chosen`` orders
    adds no edge the failed attempt lacked, so the execution stays allowed.
    """
    return any_of(p.literal for p in cycles.on_cycle if not (p.literal & chosen))


def _minimal(alternatives: set) -> list:
    """Drop alternatives that contain another one (they add nothing to an OR)."""
    ordered = sorted(alternatives, key=lambda a: (len(a), sorted(sorted(lit) for lit in a)))
    kept: list = []
    for alt in ordered:
        if not any(k <= alt for k in kept):
            kept.append(alt)
    return kept


Partners = tuple  # (events L leads to each event, events each event leads to by L), per event


def _partners(lift: Rel) -> Partners:
    """The events a lifted fence pair counts at, from the value of L (``lifted_union``)."""
    before: dict[int, tuple[int, ...]] = {}
    after: dict[int, tuple[int, ...]] = {}
    for a, row in enumerate(lift.rows):
        for b in bits(row & ~(1 << a)):
            after[a] = after.get(a, ()) + (b,)
            before[b] = before.get(b, ()) + (a,)
    return before, after


def _ends(e: int, partner: Partners | None, side: int) -> tuple[int, ...]:
    """The events an edge at ``e`` counts at: ``e``, and with a lift L those L relates to it
    (``side`` 0: ``e`` starts the edge, the events L leads to ``e``; 1: it ends it, the events
    ``e`` leads to). Under riscv.mm an AMO's other half: an AMO is one event in herd's RVWMO."""
    if partner and e in partner[side]:
        return (e,) + partner[side][e]
    return (e,)


def _on_cycles(e0: Rel, pairs: list[Pair], partner: Partners | None = None) -> list[Pair]:
    """The pairs lying on some cycle of E0 | every relaxed pair (the others never help)."""
    edges = [(a, b) for p in pairs for a in _ends(p.a, partner, 0) for b in _ends(p.b, partner, 1)]
    full = e0 | Rel.from_pairs(e0.n, edges)
    reach = full.plus()
    return [p for p in pairs if any((b, a) in reach for b in _ends(p.b, partner, 1) for a in _ends(p.a, partner, 0))]


def minimal_cycle_sets(e0: Rel, pairs: list[Pair], budget: int,
                       partner: Partners | None = None) -> list[frozenset[int]] | None:
    """The minimal sets of pairs (indices) whose addition to E0 makes a cycle; None past the budget.

    Simple cycles of the auxiliary graph H (see the module doc), each rooted at its
    smallest node and extended only through larger ones; a path that already contains a
    found set is not extended, since every cycle through it would contain that set.
    """
    m = len(pairs)
    if m == 0:
        return []
    reach = e0.star()
    succ = [0] * m
    enter = [sum(1 << a for a in _ends(q.a, partner, 0)) for q in pairs]
    for i, p in enumerate(pairs):
        row = 0
        for b in _ends(p.b, partner, 1):
            row |= reach.rows[b]
        for j in range(m):
            if row & enter[j]:
                succ[i] |= 1 << j
    found: list[int] = []  # bitmasks
    steps = 0

    def contains_found(mask: int) -> bool:
        return any(f & mask == f for f in found)

    for s in range(m):
        if (succ[s] >> s) & 1:
            found.append(1 << s)
            continue
        allowed = ~((1 << (s + 1)) - 1)
        stack = [(s, 1 << s, succ[s] & allowed)]
        while stack:
            steps += 1
            if steps > budget:
                return None
            node, mask, todo = stack[-1]
            if not todo:
                stack.pop()
                continue
            low = todo & -todo
            stack[-1] = (node, mask, todo ^ low)
            j = low.bit_length() - 1
            new = mask | low
            if contains_found(new):
                continue
            if (succ[j] >> s) & 1:
                found.append(new)
                continue
            stack.append((j, new, succ[j] & allowed & ~new))
    masks = sorted(set(found), key=lambda f: (bin(f).count("1"), f))
    minimal: list[int] = []
    for f in masks:
        if not any(k & f == k for k in minimal):
            minimal.append(f)
    return [frozenset(bits(f)) for f in minimal]
