"""The atomicity verdicts as text: a table per column (the seed's check / noise / error), then each
block's verdicts with the reason and the witnessing execution."""

from __future__ import annotations

from .check import COLUMNS, AtomicityResult

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
        lines.append(f"Block {b.name} ({b.where}): {verdicts}")
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
