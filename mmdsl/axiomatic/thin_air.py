"""When looking for values out of thin air overflows the value domains: refuse, unless the model forbids thin air.

``threads.thin_air_traces`` seeds each location's values with the program's integer
constants (closed under what the writes compute) to find executions whose values justify
themselves through a cycle of reads-from and dependencies. When that closure would give a
location more than ``threads.MAX_DOMAIN`` values (a counter incremented in a loop, a test
with many constants), the seeding cannot be done. Skipping it silently would be right only
for a model that forbids such executions anyway; for one that allows them (herd's c11
family) it could hide an execution herd finds. So the checker asks the model about the
two smallest thin-air shapes (``PROBES``: a value that a cycle of reads-from and a control
dependency, or a data then a control dependency, justifies). A model that forbids both
keeps the grounded values (every bundled model, herd's hardware models, rc11.cat); any
other model gets the refusal ``SeedOverflow`` describes, named and placed at the first
write of the location.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import SourcePos, UnsupportedError
from ..core.program import Program, Rmw, Store, StoreCond

_ACCESSES = {  # (read of x into r, write of v to y) in each flavour a test may use
    "plain": ("{r} = *{x};", "*{y} = {v};"),
    "once": ("{r} = READ_ONCE(*{x});", "WRITE_ONCE(*{y}, {v});"),
    "relaxed": ("{r} = atomic_load_explicit({x}, memory_order_relaxed);",
                "atomic_store_explicit({y}, {v}, memory_order_relaxed);"),
}


def _probe(flavour: str, data: bool) -> str:
    rd, wr = _ACCESSES[flavour]
    first = wr.format(y="y", v="r0") if data else "if (r0 == 1) " + wr.format(y="y", v="1")
    return (f"C thin-air-probe-{flavour}-{'data' if data else 'ctrl'}\n{{}}\n"
            f"P0(int *x, int *y) {{ int r0; {rd.format(r='r0', x='x')} {first} }}\n"
            f"P1(int *x, int *y) {{ int r1; {rd.format(r='r1', x='y')} if (r1 == 1) {wr.format(y='x', v='1')} }}\n"
            "exists (0:r0=1 /\\ 1:r1=1)\n")


# the two smallest thin-air shapes (a cycle of reads-from and a control dependency; a data
# then a control dependency) with each kind of access
PROBES = {f"{f}-{'data' if d else 'ctrl'}": _probe(f, d) for f in _ACCESSES for d in (False, True)}


@dataclass
class SeedOverflow:
    """The seeding of ``location``'s values with the program's constants overflowed."""

    location: str
    limit: int

    def error(self, program: Program) -> UnsupportedError:
        return UnsupportedError(
            f"looking for values out of thin air: location '{self.location}' would hold more than {self.limit} "
            "values once the program's constants are added, and the model may allow executions whose values "
            "justify themselves through a cycle of reads-from and dependencies; mmdsl does not enumerate them "
            "here (thin-air value seeding)", _first_write(program, self.location),
            hint="a model with a no-thin-air axiom (acyclic po | rf, or herd's no-thin-air) runs such tests; "
                 "see docs/cat.md")


def _first_write(program: Program, location: str) -> SourcePos:
    """Where the program first writes ``location`` (else its first line)."""
    for t in program.threads:
        for ins in t.instrs:
            if isinstance(ins, (Store, Rmw, StoreCond)) and ins.pos is not None:
                addr = getattr(ins, "addr", None)
                if getattr(addr, "value", None) == location:
                    return ins.pos
    return SourcePos(program.path or program.name, 1, 1)


_VERDICTS: dict = {}


def model_forbids_thin_air(model, check) -> bool:
    """Does the model forbid the probe shapes' thin-air executions (Never on both), asked of the
    checker ``check`` (the caller's: this module is below it)?"""
    key = id(model)
    if key not in _VERDICTS:
        from ..litmus import parse_litmus

        forbids = True
        for name, text in PROBES.items():
            try:
                res = check(parse_litmus(text, f"<{name}>"), model, collect="verdict")
            except UnsupportedError:  # the probe's own thin-air execution is allowed
                forbids = False
                break
            if res.observation != "Never":
                forbids = False
                break
        _VERDICTS[key] = (model, forbids)  # the model is kept so its id is not reused
    return _VERDICTS[key][1]
