"""Value ranges for data speculation: what each stored value can be, by a flow-insensitive fixpoint.

A model that does not honour ``data`` dependencies (CheckFence's Relaxed) lets a store be
performed before the load its value comes from. The explorer then guesses the stored
value and checks the guess once the load is performed (``transitions``); the guesses
must cover every value the store can write. This module over-approximates those values
the way CheckFence's own range analysis does (Burckhardt, Alur and Martin, PLDI 2007,
section 3.2.1): every register and location starts with its initial values; an
assignment adds its expression over the sets of its operands; a load adds the sets of
every location its address can be; a store (and a read-modify-write's write) adds its
value's set to every location its address can be; repeat until nothing changes.

The result is sound for executions without circular value dependencies (a value
justified only by itself -- out of thin air -- is never guessed; CheckFence's encoding
makes the same restriction when it bounds its bit-vectors by this analysis). When a set
outgrows ``MAX_VALUES`` (a counter in a loop), the analysis stops and the explorer
refuses the model by name rather than guess from an incomplete set.
"""

from __future__ import annotations

from itertools import product

from ....core.errors import MmdslError, UnsupportedError
from ....core.program import OLD, Assign, BinOp, Branch, Const, Load, Reg, Rmw, Store, StoreCond, UnOp, apply_op, apply_unop

MAX_VALUES = 256  # values one register or location may take before the analysis gives up


class RangeTooLarge(UnsupportedError):
    """A register or location may take more values than the explorer guesses among."""


def _values(e, regs: dict, limit: int, old=None) -> dict:
    """Every value ``e`` may take when each register ranges over its values, each with the
    least number of operations that produced it (values past ``limit`` operations dropped)."""
    if isinstance(e, Const):
        return {e.value: 0}
    if isinstance(e, Reg):
        if e.name == OLD:
            return old or {}
        return regs.get(e.name, {0: 0})
    out: dict = {}
    if isinstance(e, BinOp):
        pairs = [((a, b), max(da, db) + 1) for (a, da), (b, db) in
                 product(_values(e.left, regs, limit, old).items(), _values(e.right, regs, limit, old).items())]
        apply = lambda ab: apply_op(e.op, *ab)  # noqa: E731
    elif isinstance(e, UnOp):
        pairs = [(a, da + 1) for a, da in _values(e.arg, regs, limit, old).items()]
        apply = lambda a: apply_unop(e.op, a)  # noqa: E731
    else:
        raise TypeError(e)
    for args, depth in pairs:
        if depth > limit:
            continue
        try:
            v = apply(args)
        except MmdslError:  # an error on that path (a null pointer, arithmetic on an address)
            continue
        if depth < out.get(v, limit + 1):
            out[v] = depth
    return out


def _operations(e) -> int:
    if isinstance(e, BinOp):
        return 1 + _operations(e.left) + _operations(e.right)
    if isinstance(e, UnOp):
        return 1 + _operations(e.arg)
    return 0


class ValueRanges:
    """Per thread and instruction: the values its store (or RMW write) may write."""

    def __init__(self, program, locations: list[str]):
        self.locations = set(locations)
        loops = any(isinstance(ins, Branch) and ins.target <= pc
                    for t in program.threads for pc, ins in enumerate(t.instrs))
        # in a loop-free program each operation of the code runs at most once per execution, so
        # no value is the result of more operations than the code has (CheckFence's bound)
        self.limit = MAX_VALUES * 1000 if loops else sum(
            _operations(getattr(ins, a)) for t in program.threads for ins in t.instrs
            for a in ("expr", "value", "new", "addr") if isinstance(getattr(ins, a, None), (BinOp, UnOp)))
        mem = {loc: {v: 0 for v in (program.init.get(loc, 0), *program.init_choices.get(loc, ()))}
               for loc in locations}
        regs = [{name: {v: 0} for name, v in t.reg_init.items()} for t in program.threads]
        for t, thread in enumerate(program.threads):
            for name, vals in thread.reg_choices.items():
                regs[t].setdefault(name, {}).update({v: 0 for v in vals})
        self.writes: dict[tuple[int, int], dict] = {}
        changed = True
        while changed:
            changed = False
            for t, thread in enumerate(program.threads):
                for pc, ins in enumerate(thread.instrs):
                    changed |= self._step(t, pc, ins, regs[t], mem)

    def _step(self, t: int, pc: int, ins, regs: dict, mem: dict) -> bool:
        grown = False

        def add(target: dict, values: dict, where) -> None:
            nonlocal grown
            for v, depth in values.items():
                if depth < target.get(v, self.limit + 1):
                    target[v] = depth
                    grown = True
            if len(target) > MAX_VALUES:
                raise RangeTooLarge(
                    f"{where} may take more than {MAX_VALUES} values; the explorer guesses a stored "
                    "value among every value it may take, and cannot bound them here", ins.pos)

        limit = self.limit
        if isinstance(ins, Assign):
            add(regs.setdefault(ins.dst, {}), _values(ins.expr, regs, limit), f"register {ins.dst}")
            return grown
        if not isinstance(ins, (Load, Store, Rmw, StoreCond)):
            return False
        locs = [a for a in _values(ins.addr, regs, limit) if a in self.locations]
        seen: dict = {}
        for a in locs:
            for v, depth in mem[a].items():
                if depth < seen.get(v, limit + 1):
                    seen[v] = depth
        if isinstance(ins, (Load, Rmw)) and ins.dst is not None:
            add(regs.setdefault(ins.dst, {}), seen, f"register {ins.dst}")
        if isinstance(ins, (Store, StoreCond)):
            written = _values(ins.value, regs, limit)
        elif isinstance(ins, Rmw):
            written = _values(ins.new, regs, limit, seen)
        else:
            return grown
        add(self.writes.setdefault((t, pc), {}), written, f"the value written at '{ins.text}'")
        for a in locs:
            add(mem[a], written, f"location {a}")
        return grown

    def guesses(self, t: int, pc: int) -> tuple:
        """The values instruction ``pc`` of thread ``t`` may write, in a fixed order."""
        return tuple(sorted(self.writes.get((t, pc), ()), key=lambda v: (isinstance(v, str), v)))
