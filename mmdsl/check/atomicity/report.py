"""The atomicity verdicts: per block and column, with reasons and witnessing executions, as data
(``--json``) and as text (a table of the seed's check / noise / error, then each block)."""

from __future__ import annotations

from dataclasses import dataclass, field

# The seed's Table 1 columns: (I) MC-ind, (L) MC-mover, (C) both, (W) both with the revised movers.
COLUMNS = {"I": ("ind",), "L": ("mover",), "C": ("ind", "mover"), "W": ("ind", "revised")}


@dataclass
class BlockReport:
    """One block's verdict per column, and the evidence."""

    number: int
    name: str
    where: str
    entered: bool
    kind: str = "atomic"  # the specification: "atomic" or "mover"
    verdicts: dict = field(default_factory=dict)  # column -> "checked" | "noise" | "error" | "not reached"
    definite: str | None = None  # why it is definitely not atomic
    trace: list = field(default_factory=list)  # the witnessing execution of ``definite``
    possible: dict = field(default_factory=dict)  # mode -> (why, trace) of its first broken pattern

    def as_json(self) -> dict:
        return {"block": self.name, "kind": self.kind, "at": self.where, "entered": self.entered,
                "verdicts": self.verdicts,
                "definitely_not_atomic": self.definite, "trace": self.trace,
                "possibly_not_atomic": {m: {"why": w, "trace": t} for m, (w, t) in self.possible.items()}}


@dataclass
class AtomicityResult:
    """Every block's report, the counts per column (the seed's check / noise / error) and the search's size."""

    program: str
    model: str
    blocks: list
    stats: dict
    races: dict  # location -> why it is race-free, or None

    def counts(self, column: str) -> dict:
        out = {"check": 0, "noise": 0, "error": 0}
        for b in self.blocks:
            v = b.verdicts[column]
            if v != "not reached":
                out["check" if v == "checked" else v] += 1
        return out

    @property
    def error(self) -> bool:
        return any(b.definite for b in self.blocks)

    def as_json(self) -> dict:
        return {"program": self.program, "model": self.model, "stats": self.stats,
                "counts": {c: self.counts(c) for c in COLUMNS}, "blocks": [b.as_json() for b in self.blocks],
                "locations": self.races}



COLUMN_TEXT = {"I": "independence", "L": "movers", "C": "both", "W": "both with the revised movers"}


def render(result: AtomicityResult, traces: bool = True) -> str:
    st = result.stats
    lines = [f"Atomicity of {result.program} under {result.model}: {len(result.blocks)} block(s), "
             f"{st['threads']} threads, {st['states']} states, {st['transitions']} transitions "
             f"({st['product_states']} with region positions)",
             "            " + "".join(f"{c:>6}" for c in COLUMNS)]
    for row in ("check", "noise", "error"):
        lines.append(f"  {row:<10}" + "".join(f"{result.counts(c)[row]:>6}" for c in COLUMNS))
    lines.append("  (" + "; ".join(f"{c}: {t}" for c, t in COLUMN_TEXT.items()) + ")")
    for b in result.blocks:
        verdicts = " ".join(f"{c}:{v}" for c, v in b.verdicts.items())
        kind = "" if b.kind == "atomic" else f"{b.kind} "
        lines.append(f"Block {kind}{b.name} ({b.where}): {verdicts}")
        if b.definite:
            lines.append(f"  definitely not atomic: {b.definite}")
            if traces:
                lines += [f"    {i:>3}. {s}" for i, s in enumerate(b.trace, 1)]
        elif b.entered:
            for mode, (why, trace) in b.possible.items():
                lines.append(f"  possibly not atomic ({mode}): {why}")
                if traces:
                    lines += [f"    {i:>3}. {s}" for i, s in enumerate(trace, 1)]
    if result.races:
        lines.append("Locations accessed while another thread ran:")
        lines += [f"  {loc}: {why or 'racy'}" for loc, why in result.races.items()]
    return "\n".join(lines)
