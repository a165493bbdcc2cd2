"""The diagram gallery of docs/diagrams.md, built by the tool itself.

    python -m mmdsl.render.gallery docs/gallery            # DOT + SVG (SVG needs `dot`)
    python -m mmdsl.render.gallery --format dot OUTDIR     # DOT only (what the test compares)
    python -m mmdsl.render.gallery --set why-iriw docs/why-iriw   # the figures of docs/why-iriw.md
    python -m mmdsl.render.gallery --set explorer docs/explorer   # the figure of docs/explorer.md

Each classic shape is drawn under the strongest bundled model that forbids its outcome
(the forbidden execution with the cycle of the violated axiom) and under one that allows
it (the witness), plus explored state graphs. File names: ``TEST-MODEL-forbidden``,
``TEST-MODEL-witness``, ``TEST-MODEL-states``. The set ``why-iriw`` holds the figures of
docs/why-iriw.md, among them explorer traces (``TEST-MODEL-trace``, `mmdsl draw --trace`).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from ..core.resources import bundled_dir
from .graphviz_out import INSTALL_HINT, Written, write_diagrams


@dataclass(frozen=True)
class Entry:
    test: str  # path under the bundled litmus folder
    model: str
    show: str  # witness | forbidden | states (the explored state graph) | trace (the explorer's shortest trace)
    # | extension (a partial execution of the graph machine and its next read's choices)
    style: str = "screen"
    fences: bool = False
    caption: str = ""

    @property
    def stem(self) -> str:
        name = Path(self.test).stem
        extra = "-fences" if self.fences else ""
        paper = "-paper" if self.style == "paper" else ""
        return f"{name}-{self.model}-{self.show}{extra}{paper}"


ENTRIES = (
    Entry("classic/SB.litmus", "sc", "forbidden", caption="store buffering: forbidden by SC"),
    Entry("classic/SB.litmus", "tso", "witness", caption="store buffering: allowed by TSO (W->R relaxed)"),
    Entry("classic/MP.litmus", "tso", "forbidden", caption="message passing: forbidden by TSO"),
    Entry("classic/MP.litmus", "pso", "witness", caption="message passing: allowed by PSO (W->W relaxed)"),
    Entry("classic/LB.litmus", "pso", "forbidden", caption="load buffering: forbidden by PSO"),
    Entry("classic/LB.litmus", "rmo", "witness", caption="load buffering: allowed by RMO (R->W relaxed)"),
    Entry("classic/IRIW.litmus", "pso", "forbidden", caption="independent reads of independent writes: "
                                                              "forbidden by PSO"),
    Entry("classic/IRIW.litmus", "rmo", "witness", caption="IRIW: allowed by RMO (R->R relaxed)"),
    Entry("classic/2+2W.litmus", "tso", "forbidden", caption="2+2W: forbidden by TSO"),
    Entry("classic/2+2W.litmus", "pso", "witness", caption="2+2W: allowed by PSO"),
    Entry("classic/MP+fences.litmus", "rmo", "forbidden", caption="MP with fences: forbidden even by RMO"),
    Entry("classic/SB.litmus", "tso", "witness", fences=True,
          caption="SB under TSO with the fences `mmdsl fences` chooses, drawn in place"),
    Entry("classic/SB.litmus", "sc", "forbidden", style="paper", caption="SB under SC, paper style"),
    Entry("classic/SB.litmus", "tso", "states", fences=True,
          caption="SB's states under TSO; the steps the chosen fences remove are thick"),
    Entry("programs/peterson.litmus", "sc", "states", caption="Peterson's states under SC"),
)
# docs/why-iriw.md: IRIW with dependencies under Power (allowed) and Armv8 (forbidden), in both engines
WHY_IRIW = (
    Entry("ppc/tests/deps-and-fences/IRIW+addrs.litmus", "power", "witness",
          caption="IRIW+addrs under power: the witness the checker finds"),
    Entry("aarch64/tests/deps-and-fences/IRIW+addrs.litmus", "armv8", "forbidden",
          caption="IRIW+addrs under armv8: the forbidden execution and its cycle"),
    Entry("ppc/tests/deps-and-fences/IRIW+addrs.litmus", "power", "trace",
          caption="IRIW+addrs under power: the explorer's trace, each write reaching one reader only"),
    Entry("ppc/tests/herding-cats/IRIW+syncs.litmus", "power", "forbidden",
          caption="IRIW+syncs under power: forbidden, sync is cumulative"),
    Entry("ppc/tests/deps-and-fences/IRIW+lwsyncs.litmus", "power", "witness",
          caption="IRIW+lwsyncs under power: allowed, lwsync does not order a write before a read"),
)
# docs/explorer.md: the graph machine extending a partial execution of MP under tso-axioms
EXPLORER = (
    Entry("classic/lisa/MP.litmus", "tso-axioms", "extension",
          caption="MP under tso-axioms: a read's choices, one blocked by the axiom tso"),
)
SETS = {"gallery": ENTRIES, "why-iriw": WHY_IRIW, "explorer": EXPLORER}
MAX_STATES = 500


def build(outdir: str | Path, fmt: str = "svg", entries: tuple[Entry, ...] = ENTRIES) -> Written:
    """Write every diagram of ``entries`` into ``outdir`` (DOT always, plus ``fmt``)."""
    from ..lang import load_model
    from ..litmus import load_litmus
    from .state_graph_drawing import state_graph_source
    from .styles import style_named

    diagrams = []
    for entry in entries:
        program = load_litmus(bundled_dir("litmus") / entry.test)
        model = load_model(entry.model)
        style = style_named(entry.style)
        if entry.show == "states":
            source = state_graph_source(program, model, style, max_states=MAX_STATES, fences=entry.fences)[0]
            if source is None:
                raise SystemExit(f"gallery: {entry.test} under {entry.model} has more than {MAX_STATES} states")
        elif entry.show == "extension":
            from .graph_step_drawing import extension_source

            source = extension_source(program, model, style)
        elif entry.show == "trace":
            from .trace_drawing import trace_source

            source = trace_source(program, model, style)[0]
            if source is None:
                raise SystemExit(f"gallery: {entry.test} under {entry.model} never reaches its outcome")
        else:
            source = _execution_source(program, model, entry, style)
        diagrams.append((entry.stem, source))
    return write_diagrams(diagrams, outdir, fmt)


def _execution_source(program, model, entry: Entry, style) -> str:
    """The first execution ``entry.show`` picks, drawn (with the chosen fences when asked)."""
    from .drawing import chosen_dots
    from .execution_choice import chosen_fences
    from .execution_choice import choose_executions

    insertions = chosen_fences(program, model)[0] if entry.fences else []
    chosen = choose_executions(program, model, entry.show, max_count=1).chosen
    if not chosen:
        raise SystemExit(f"gallery: {entry.test} under {entry.model} has no {entry.show} execution")
    return chosen_dots(program, model, chosen, style, insertions=insertions)[0][1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mmdsl.render.gallery", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", help="where to write the gallery (docs/gallery)")
    parser.add_argument("--format", default="svg", choices=("dot", "svg", "png", "pdf"))
    parser.add_argument("--set", default="gallery", choices=sorted(SETS),
                        help="gallery (docs/diagrams.md), why-iriw (docs/why-iriw.md) or explorer "
                             "(docs/explorer.md)")
    args = parser.parse_args(argv)
    written = build(args.outdir, args.format, SETS[args.set])
    print(f"wrote {len(written.files)} diagram(s) into {args.outdir}")
    if written.missing_dot:
        print(INSTALL_HINT, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
