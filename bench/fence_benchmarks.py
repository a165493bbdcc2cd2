"""Benchmark: reachability of every program of litmus/fence-benchmarks under sc, tso and pso.

Prints a Markdown table (program, model, reachable, states, transitions, time, peak
memory) for docs/fence-benchmarks.md. Run it from the repository root, one core:
    .venv/bin/python bench/fence_benchmarks.py [--models sc,tso,pso] [--max-pending 3]
    .venv/bin/python bench/fence_benchmarks.py --compact bakery,dijkstra,lamport_fast [--models pso]
    .venv/bin/python bench/fence_benchmarks.py --table [--models tso,pso] [--programs bakery,lamport_fast]
(--table: the table of the field, ``suite --fences``'s cells -- every minimal set of every fence
kind -- with each cell's CPU time beside its wall time, and a digest of its sets to compare runs.)
(--compact: the exact visited set against ``--compact``'s 128-bit hashes, each search in a
fresh process so that its peak resident memory, getrusage's ru_maxrss, is its own.)
Not a timed test: our machines are noisy; compare within one run.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))  # compare_herd.machine: the benches' one machine line

from mmdsl.explorer import explore  # noqa: E402
from mmdsl.explorer.explore import DEFAULT_BUFFER_BOUND  # noqa: E402
from mmdsl.lang import load_model  # noqa: E402
from mmdsl.litmus import load_litmus  # noqa: E402

SUITE = ROOT / "litmus" / "fence-benchmarks"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sc,tso,pso")
    ap.add_argument("--max-pending", type=int, default=DEFAULT_BUFFER_BOUND)
    ap.add_argument("--memory", action="store_true", help="measure peak memory (tracemalloc, slower)")
    ap.add_argument("--fences", action="store_true",
                    help="instead: every inclusion-minimal set of full fences under tso and pso")
    ap.add_argument("--compact", metavar="PROGRAMS",
                    help="instead: states/s and peak memory with and without --compact (comma separated)")
    ap.add_argument("--table", action="store_true",
                    help="instead: the table of the field (suite --fences cells) with CPU and wall time")
    ap.add_argument("--programs", help="with --table: only these programs (comma separated)")
    ap.add_argument("--one", nargs=3, metavar=("PROGRAM", "MODEL", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one_search(*args.one, args.max_pending)
        return
    if args.compact:
        compact_table(args.compact.split(","), args.models.split(","), args.max_pending)
        return
    if args.fences:
        minimal_sets(args.max_pending)
        return
    if args.table:
        field_table(args.models if args.models != "sc,tso,pso" else "tso,pso", args.programs)
        return
    models = {m: load_model(m) for m in args.models.split(",")}
    print(f"pending lists bounded at {args.max_pending} operations per thread\n")
    print("| program | model | reachable | states | transitions | time (s) |" + (" peak MB |" if args.memory else ""))
    print("|---|---|---|---:|---:|---:|" + ("---:|" if args.memory else ""))
    for path in sorted(SUITE.glob("*.rmm")):
        program = load_litmus(path)
        for name, model in models.items():
            if args.memory:
                tracemalloc.start()
            start = time.perf_counter()
            result = explore(program, model, max_pending=args.max_pending)
            took = time.perf_counter() - start
            peak = ""
            if args.memory:
                peak = f" {tracemalloc.get_traced_memory()[1] / 1e6:.0f} |"
                tracemalloc.stop()
            word = "yes" if result.positive else "no"
            print(f"| {path.stem} | {name} | {word} | {result.stats['states']} | "
                  f"{result.stats['transitions']} | {took:.2f} |{peak}", flush=True)


def one_search(name: str, model: str, mode: str, max_pending: int) -> None:
    """One search in this process: prints states, seconds, peak MB before and after (ru_maxrss)."""
    from mmdsl.explorer.memory import peak_memory_mb

    program, loaded = load_litmus(SUITE / f"{name}.rmm"), load_model(model)
    before = peak_memory_mb()
    start = time.perf_counter()
    result = explore(program, loaded, max_pending=max_pending, compact=mode == "compact")
    took = time.perf_counter() - start
    print(result.stats["states"], result.positive, f"{took:.3f}", f"{before:.1f}", f"{peak_memory_mb():.1f}")


def compact_table(names: list[str], models: list[str], max_pending: int) -> None:
    """The exact visited set against --compact: states/s and the search's growth of peak memory."""
    import subprocess

    print(f"pending lists bounded at {max_pending} operations per thread; peak MB: the process's "
          "peak resident memory, and in parentheses what the search added to it\n")
    print("| program | model | states | exact: s, states/s, peak MB | compact: s, states/s, peak MB |")
    print("|---|---|---:|---|---|")
    for name in names:
        for model in models:
            cells, states, verdicts = [], set(), set()
            for mode in ("exact", "compact"):
                out = subprocess.run([sys.executable, __file__, "--one", name, model, mode,
                                      "--max-pending", str(max_pending)], capture_output=True, text=True,
                                     check=True).stdout.split()
                n, positive, took, before, peak = int(out[0]), out[1], float(out[2]), float(out[3]), float(out[4])
                states.add(n)
                verdicts.add(positive)
                cells.append(f"{took:.2f}, {n / took:,.0f}, {peak:.0f} (+{peak - before:.0f})")
            assert len(states) == 1 and len(verdicts) == 1, (name, model, states, verdicts)
            print(f"| {name} | {model} | {states.pop():,} | {cells[0]} | {cells[1]} |", flush=True)


def minimal_sets(max_pending: int) -> None:
    """Per program and model: how many minimal sets of full fences, the first, and the time."""
    from mmdsl.fences import FenceOptions, select_fences
    from mmdsl.render.fences_text import placement_text

    print(f"full fences only, pending lists bounded at {max_pending} operations per thread\n")
    print("| program | model | minimal sets | fences of each | first set | time (s) |")
    print("|---|---|---:|---|---|---:|")
    for path in sorted(SUITE.glob("*.rmm")):
        program = load_litmus(path)
        for name in ("tso", "pso"):
            start = time.perf_counter()
            sel = select_fences(program, load_model(name), FenceOptions(kinds=["full"], all_minimal=True,
                                                                         max_pending=max_pending))
            took = time.perf_counter() - start
            sets = sel.alternatives if sel.fences else []
            sizes = ", ".join(str(len(s)) for s in sets) or "-"
            first = placement_text(sets[0]) if sets else "none needed"
            more = "+" if sel.more_alternatives else ""
            print(f"| {path.stem} | {name} | {len(sets)}{more} | {sizes} | {first} | {took:.2f} |", flush=True)


def field_table(models: str, programs: str | None) -> None:
    """``suite --fences``'s cells (every fence kind, every minimal set), with CPU time: the goal is one core."""
    import hashlib

    from compare_herd import machine
    from mmdsl.suite.fence_table import fence_table
    from mmdsl.suite.manifest import load_suite
    from mmdsl.suite.run import model_columns

    suite = load_suite(str(SUITE))
    if programs:
        wanted = programs.split(",")
        suite.tests = [t for t in suite.tests if t.key in wanted]
    print(machine())
    print("every fence kind, every inclusion-minimal set re-checked (suite --fences); "
          "sets: a digest of the sets' text, equal digests = equal answers\n")
    print("| program | model | minimal sets | cheapest cost | cheapest set | CPU (s) | wall (s) | sets |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    cpu = [time.process_time()]

    def row(cell) -> None:
        now = time.process_time()
        took, cpu[0] = now - cpu[0], now
        digest = hashlib.sha256("\n".join(cell.sets).encode()).hexdigest()[:10]
        cost = cell.costs[0] if cell.costs else 0
        print(f"| {cell.test} | {cell.model} | {cell.count_text} | {cost} | {cell.cheapest} | {took:.2f} | "
              f"{cell.time:.2f} | {digest} |", flush=True)

    fence_table(suite, model_columns(suite, models.split(",")), None, on_cell=row)


if __name__ == "__main__":
    main()
