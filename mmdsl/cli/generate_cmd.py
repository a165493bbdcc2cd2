"""`mmdsl generate`: litmus tests from diy-style cycles, or from what one model relaxes and another keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import user_errors


@user_errors
def generate(
    relax: str = typer.Option("", "--relax", help="Edges each cycle uses at least one of (PodWR,Rfi,...)."),
    safe: str = typer.Option("", "--safe", help="Edges cycles may use (Rfe,Fre,Coe,PodWW,MFencedWR,...)."),
    from_model: Optional[str] = typer.Option(None, "--from-model", help="Cycles this model relaxes ..."),
    against: Optional[str] = typer.Option(None, "--against", help="... and this model keeps (with --from-model)."),
    size: int = typer.Option(6, "--size", help="Edges per cycle at most (2-16)."),
    threads: int = typer.Option(4, "--threads", help="Threads per test at most (2-8)."),
    max_count: int = typer.Option(1000, "--max", help="Tests at most."),
    arch: str = typer.Option("X86", "--arch", "-a", help="Write tests in X86, LISA, C or RISCV."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the tests and a manifest.yaml here."),
    timeout: float = typer.Option(60.0, "--timeout", min=0, help="Seconds in all (0: no limit)."),
    engine: str = typer.Option("axiomatic", "--engine", help="With --from-model: axiomatic, explorer or both."),
    one_location: bool = typer.Option(False, "--one-location",
                                      help="Also cycles on a single location (coherence shapes; diy's -oneloc)."),
    mode: str = typer.Option("default", "--mode", help="diy7's -mode: default, critical, sc or ppo."),
    mix: bool = typer.Option(False, "--mix", help="A cycle may use several --relax edges (diy's -mix true)."),
    exact_threads: bool = typer.Option(False, "--exact-threads",
                                       help="Exactly --threads threads per test (diy's -eprocs)."),
    numeric: bool = typer.Option(False, "--numeric",
                                 help="Name tests by family and number, SB000, SB001, ... (diy's -num true)."),
    names: str = typer.Option("7.55", "--names",
                              help="diy7's naming: 7.55 (the x86 corpus's) or 7.58 (2+2W+mfence+poR-mfence)."),
) -> None:
    """Generate litmus tests from cycles of relaxations, as herd's diy7 does.

    Exit code: 0; 1 when the time limit is reached; 2 on bad input.
    """
    from ..core.errors import MmdslError
    from ..generate.api import generate_from_models, generate_from_words, write_suite
    from ..generate.cycles import Bounds
    from ..generate.edges import cycle_text

    bounds = Bounds(size=size, threads=threads, max_count=max_count, timeout=timeout or None,
                    one_location=one_location, mode=mode.lower(), mix=mix, exact_threads=exact_threads)
    bounds.check()
    columns = None
    if from_model is not None or against is not None:
        if from_model is None or against is None:
            raise MmdslError("--from-model and --against go together")
        if relax:
            raise MmdslError("--relax comes from the models with --from-model; give extra edges with --safe")
        if numeric or mix or names != "7.55":
            raise MmdslError("--numeric, --mix and --names go with --relax/--safe, not --from-model")
        tests, columns = generate_from_models(from_model, against, bounds, arch, safe=safe, engine=engine)
        (a, _), (b, _) = columns
        head = f"{len(tests)} test(s) that {a} allows and {b} forbids"
    else:
        tests = generate_from_words(relax, safe, bounds, arch, numeric, names)
        head = f"{len(tests)} test(s)"
    print(head + (":" if tests else ""))
    width = max((len(t.name) for t in tests), default=0)
    for t in tests:
        print(f"  {t.name:<{width}}  {cycle_text(t.cycle)}")
    if output is not None:
        name = f"{columns[0][0]}-vs-{columns[1][0]}" if columns else "generated"
        write_suite(tests, output, name, columns, description=head)
        print(f"wrote {len(tests)} test(s) and manifest.yaml into {output}")


def diff_generated(model_a: str, model_b: str, size: int, threads: int, max_count: int, arch: str,
                   output: Optional[Path], timeout: float, as_json: bool, engine: str | None = None) -> None:
    """`diff-models --generate`: the generated tests two models disagree on, smallest first."""
    from ..generate.api import generate_from_models, write_suite
    from ..generate.cycles import Bounds
    from ..generate.edges import cycle_text

    bounds = Bounds(size=size, threads=threads, max_count=max_count, timeout=timeout or None)
    bounds.check()
    tests, columns = generate_from_models(model_a, model_b, bounds, arch, one_way=False,
                                          engine=engine or "axiomatic")
    (a, _), (b, _) = columns
    if output is not None:
        write_suite(tests, output, f"{a}-vs-{b}", columns,
                    description=f"generated tests on which {a} and {b} differ")
    if as_json:
        from ..render.json_out import dumps

        print(dumps({"a": a, "b": b, "differences": [
            {"test": t.name, "cycle": cycle_text(t.cycle), "verdicts": t.verdicts} for t in tests]}))
        return
    if not tests:
        print(f"{a} and {b} agree on every generated test (cycles of at most {size} edges, {threads} threads)")
    else:
        print(f"{a} and {b} differ on {len(tests)} generated test(s), smallest first:")
        width = max(len(t.name) for t in tests)
        for t in tests:
            allowing = a if t.verdicts[a] == "Allowed" else b
            forbidding = b if allowing == a else a
            print(f"  {t.name:<{width}}  allowed by {allowing}, forbidden by {forbidding}  ({cycle_text(t.cycle)})")
    if output is not None:
        print(f"wrote {len(tests)} test(s) and manifest.yaml into {output}")
