"""Random small programs in the core IR (loads, stores, RMWs, CAS, locks, fences, dependencies, branches, loops)."""

from __future__ import annotations

import random

from mmdsl.core.condition import Condition, Truth
from mmdsl.core.program import (
    OLD, Assign, BinOp, Branch, Const, Fence, Load, Program, Reg, Rmw, Store, Thread,
)

LOCATIONS = ("x", "y", "z")
# fence spellings every bundled table model knows
FULL_FENCES = ("mb",)
ANNOTATIONS = ((), (), ("volatile",), ("acq",), ("rel",))


def random_program(rng: random.Random, *, threads=(2, 3), length=(1, 4), locations=2,
                   rmw=True, deps=True, branches=True, fences=True, name="random") -> Program:
    """A loop-free program whose observed keys are every register and every location."""
    locs = LOCATIONS[:locations]
    out = []
    for tid in range(rng.randint(*threads)):
        instrs = []
        regs = []
        n = rng.randint(*length)
        k = 0
        while k < n:
            k += 1
            choice = rng.random()
            loc = rng.choice(locs)
            annots = frozenset(rng.choice(ANNOTATIONS))
            addr = Const(loc)
            if deps and regs and rng.random() < 0.3:  # an address dependency, diy style
                dep = rng.choice(regs)
                t = f"r{len(regs) + 10}"
                instrs.append(Assign(t, BinOp("xor", Reg(dep), Reg(dep))))
                addr = BinOp("add", Const(loc), Reg(t))
            if choice < 0.35:
                r = f"r{len(regs)}"
                regs.append(r)
                instrs.append(Load(r, addr, annots))
            elif choice < 0.7:
                value = Const(rng.randint(1, 2))
                if deps and regs and rng.random() < 0.3:
                    value = Reg(rng.choice(regs))
                instrs.append(Store(addr, value, annots))
            elif choice < 0.85 and rmw:
                r = f"r{len(regs)}"
                regs.append(r)
                kind = rng.random()
                if kind < 0.4:  # fetch-and-add
                    instrs.append(Rmw(r, addr, BinOp("add", Reg(OLD), Const(1)), annots=annots))
                elif kind < 0.7:  # compare-and-swap
                    instrs.append(Rmw(r, addr, Const(2), cond=BinOp("eq", Reg(OLD), Const(rng.randint(0, 1))),
                                      annots=annots))
                else:  # a lock
                    instrs.append(Rmw(r, addr, Const(1), cond=BinOp("eq", Reg(OLD), Const(0)), blocking=True,
                                      annots=annots | {"lock"}))
            elif choice < 0.93 and fences:
                instrs.append(Fence(rng.choice(FULL_FENCES)))
            elif branches and regs:
                skip = rng.randint(1, 2)
                instrs.append(Branch(BinOp("eq", Reg(rng.choice(regs)), Const(rng.randint(0, 1))), -skip))
            else:
                instrs.append(Store(addr, Const(1), annots))
        # resolve forward branch targets (stored as -skip) now that the length is known
        fixed = []
        for i, ins in enumerate(instrs):
            if isinstance(ins, Branch):
                ins = Branch(ins.cond, min(len(instrs), i + 1 - ins.target))
            fixed.append(ins)
        out.append(Thread(tid, f"P{tid}", fixed))
    observed = [("mem", loc) for loc in locs]
    for t in out:
        for r in sorted(t.registers()):
            observed.append(("reg", t.tid, r))
    return Program(name=name, arch="LISA", threads=out, init={loc: 0 for loc in locs},
                   condition=Condition("exists", Truth(True)), observed=observed)


def random_loop_program(rng: random.Random, *, threads=(2, 3), blocks=(1, 4), name="random-loops") -> Program:
    """A program with loops: spin loops on a value, compare-and-swap retry loops, counted loops, and
    loads, stores, fetch-and-add, CAS, locks, unlocks and fences between them (every register observed).

    The explorer alone runs these; they are for comparing it with itself (reduction on and off).
    """
    out = []
    for tid in range(rng.randint(*threads)):
        instrs: list = []
        regs = iter(f"r{i}" for i in range(100))
        for _ in range(rng.randint(*blocks)):
            choice = rng.random()
            loc = rng.choice(LOCATIONS[:2])
            annots = frozenset(rng.choice(ANNOTATIONS))
            start = len(instrs)
            if choice < 0.2:  # spin until the location holds (or leaves) a value
                r = next(regs)
                instrs.append(Load(r, Const(loc), annots))
                instrs.append(Branch(BinOp("ne", Reg(r), Const(rng.randint(0, 1))), start))
            elif choice < 0.35:  # retry a compare-and-swap until it succeeds
                r = next(regs)
                instrs.append(Rmw(r, Const(loc), Const(1), cond=BinOp("eq", Reg(OLD), Const(0)), annots=annots))
                instrs.append(Branch(BinOp("ne", Reg(r), Const(0)), start))
            elif choice < 0.5:  # two rounds of a store
                r = next(regs)
                instrs.append(Assign(r, Const(0)))
                instrs.append(Store(Const(loc), BinOp("add", Reg(r), Const(1)), annots))
                instrs.append(Assign(r, BinOp("add", Reg(r), Const(1))))
                instrs.append(Branch(BinOp("lt", Reg(r), Const(2)), start + 1))
            elif choice < 0.6:
                instrs.append(Rmw(next(regs), Const(loc), BinOp("add", Reg(OLD), Const(1)), annots=annots))
            elif choice < 0.68:
                instrs.append(Rmw(next(regs), Const(loc), Const(1), cond=BinOp("eq", Reg(OLD), Const(0)),
                                  blocking=True, annots=annots | {"lock"}))
            elif choice < 0.75:
                instrs.append(Store(Const(loc), Const(0), annots | {"unlock"}))
            elif choice < 0.8:
                instrs.append(Load(next(regs), Const(loc), annots))
            elif choice < 0.87:  # a CAS that may fail, then a load whose address depends on it
                r, t, r2 = next(regs), next(regs), next(regs)
                instrs.append(Rmw(r, Const(loc), Const(2), cond=BinOp("eq", Reg(OLD), Const(rng.randint(0, 1))),
                                  annots=annots))
                instrs.append(Assign(t, BinOp("xor", Reg(r), Reg(r))))
                instrs.append(Load(r2, BinOp("add", Const(rng.choice(LOCATIONS[:2])), Reg(t)), annots))
            elif choice < 0.94:
                instrs.append(Store(Const(loc), Const(rng.randint(1, 2)), annots))
            else:
                instrs.append(Fence(rng.choice(FULL_FENCES)))
        out.append(Thread(tid, f"P{tid}", instrs))
    locs = LOCATIONS[:2]
    observed = [("mem", loc) for loc in locs]
    for t in out:
        observed.extend(("reg", t.tid, r) for r in sorted(t.registers()))
    return Program(name=name, arch="LISA", threads=out, init={loc: 0 for loc in locs},
                   condition=Condition("exists", Truth(True)), observed=observed)
