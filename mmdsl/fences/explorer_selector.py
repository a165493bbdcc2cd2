"""Fence selection on the explorer (programs with loops, ``--method cut``): solve -> insert -> re-explore.

Each round explores the (fenced) program, turns the traces to its violating final
states into requirements (``traces``: necessary and sufficient for each trace), solves,
and inserts. With ``--method cut`` the first round's requirements are instead the
.NET paper's minimum cut of the explored state graph (``cut``), also necessary; later
rounds add the traces that survive. Either way OPTIMAL on the last round plus a
violation-free re-exploration proves the fence set minimum.
"""

from __future__ import annotations

from ..core.errors import MmdslError, UnsupportedError
from ..core.outcome import TestResult
from ..core.program import Program, StoreCond
from ..explorer import StateSpace, explore_space
from ..lang.ir import Model
from .cut import cut_graph
from .loop import FenceOptions, Selection, Selector
from .traces import TraceEncoder, positions_back


class ExplorerSelector(Selector):
    """Programs with loops (and ``--method cut``): violating traces of the explorer."""

    engine = "explorer"

    def __init__(self, program: Program, model: Model, options: FenceOptions):
        from ..explorer.explore import uses_graph_machine

        if uses_graph_machine(model):  # its states are partial executions: no overtakings to cut
            raise UnsupportedError(
                f"fence selection on the explorer needs a reordering-table machine; model '{model.name}' "
                "defines its own axioms (or has no table) and runs on the execution-graph machine",
                hint="a loop-free test is selected on the axiomatic checker (--method cycles, the default)")
        for t in program.threads:
            sc = next((ins for ins in t.instrs if isinstance(ins, StoreCond)), None)
            if sc is not None:  # its reservations are pending entries traces.py does not follow
                raise UnsupportedError(
                    f"fence selection on the explorer does not handle store-conditionals ({t.name}: '{sc.text}')",
                    sc.pos, hint="the loop-free form of the test is selected on the axiomatic checker")
        super().__init__(program, model, options)
        self.encoder = TraceEncoder(self.problem)

    def explore(self, program: Program, graph: bool = False) -> StateSpace:
        """Breadth-first (shortest traces first), the reduction on unless the whole graph is wanted."""
        return explore_space(program, self.model, target=self.target.unwanted, por=not graph, order="bfs",
                             graph=graph, truncate=False, max_states=self.options.max_states,
                             max_pending=self.options.max_pending, max_memory=self.options.max_memory,
                             compact=self.options.compact and not graph)

    def first(self) -> tuple[TestResult, int]:
        space = self.explore(self.program, graph=self.options.method == "cut")
        if space.targets:
            if self.options.method == "cut":
                self.problem.cuts.append(cut_graph(self.problem, space))
            else:
                for req in self.encoder.requirements(space):
                    self.problem.add(req)
        return space.result(), len(space.targets)

    def recheck(self, fenced: Program) -> tuple[TestResult, StateSpace | None]:
        space = self.explore(fenced)
        return space.result(), (space if space.targets else None)

    def refine(self, chosen: frozenset[int], fenced: Program, survivors: StateSpace) -> bool:
        """Requirements of the surviving traces, read in the original program's places."""
        progress = False
        for req in self.encoder.requirements(survivors, positions_back(self.program, fenced)):
            if any(lit & chosen for alt in req for lit in alt):
                raise MmdslError(f"internal: a trace of the fenced {self.program.name} passes a fence that "
                                 "should block it (please report this)")
            progress |= self.problem.add(req)
        return progress

    def rerun(self, program: Program) -> TestResult:
        return self.explore(program).result()


def select_on_explorer(program: Program, model: Model, options: FenceOptions) -> Selection:
    """Fence selection on the explorer (programs with loops, or ``--method cut``)."""
    return ExplorerSelector(program, model, options).run()
