"""Benchmark: drawing the whole classic suite (every dialect in litmus/classic) under sc, tso, pso and rmo.

For every test and model it draws what `mmdsl run --draw` draws (the witness when the
outcome is allowed, else the forbidden execution with its cycle). Timed separately:
checking (the axiomatic checker with explanations), building the DOT text, and running
Graphviz's `dot` to SVG. Run it from the repository root:

    .venv/bin/python bench/draw.py [--models sc,tso,pso,rmo] [--no-svg]

Not a timed test: compare ratios within one run, our machines are noisy.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mmdsl.axiomatic import check  # noqa: E402
from mmdsl.lang import load_model  # noqa: E402
from mmdsl.litmus import load_litmus  # noqa: E402
from mmdsl.render.drawing import result_diagram  # noqa: E402
from mmdsl.render.graphviz_out import INSTALL_HINT, write_diagrams  # noqa: E402
from mmdsl.render.styles import SCREEN  # noqa: E402

SUITE = ROOT / "litmus" / "classic"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="sc,tso,pso,rmo")
    parser.add_argument("--no-svg", action="store_true", help="only build the DOT text")
    args = parser.parse_args()
    files = sorted(SUITE.rglob("*.litmus"))
    programs = [(f, load_litmus(f)) for f in files]
    models = [load_model(m) for m in args.models.split(",")]
    archs = ", ".join(sorted({p.arch for _, p in programs}))
    print(f"classic suite: {len(files)} tests ({archs}) x {len(models)} models")
    t_check = t_dot = 0.0
    diagrams: list[tuple[str, str]] = []
    for model in models:
        for path, program in programs:
            t0 = time.perf_counter()
            result = check(program, model, why=True, max_explanations=1)
            t1 = time.perf_counter()
            source = result_diagram(program, model, result, SCREEN)
            t_dot += time.perf_counter() - t1
            t_check += t1 - t0
            if source is not None:
                stem = f"{model.name}/{path.relative_to(SUITE).with_suffix('')}"
                diagrams.append((stem, source))
    n = len(diagrams)
    print(f"check (with explanations): {t_check:.2f} s")
    print(f"DOT text:                  {t_dot:.2f} s for {n} diagrams ({n / t_dot:.0f} diagrams/s)")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        write_diagrams(diagrams, tmp, "dot")
        t_write = time.perf_counter() - t0
        print(f"write .dot files:          {t_write:.2f} s")
        if not args.no_svg:
            t0 = time.perf_counter()
            written = write_diagrams(diagrams, tmp, "svg")
            t_svg = time.perf_counter() - t0
            if written.missing_dot:
                print(INSTALL_HINT)
            else:
                print(f"SVG through dot:           {t_svg:.2f} s ({n / t_svg:.1f} diagrams/s)")
                total = t_check + t_dot + t_write + t_svg
                print(f"total, check to SVG:       {total:.2f} s ({n / total:.1f} diagrams/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
