"""The `mmdsl` command line: a typer app, one module per command, no logic of its own.

``main`` (the console script) reads a plain ``mmdsl run`` command line without importing
typer at all (``run_main.run_fast``); everything else, and ``app`` itself (built on first
use, as ``from mmdsl.cli.app import app`` asks for it), is typer's.
"""

from __future__ import annotations

import sys

from .common import collect_seldom


def _build_app():
    import gc

    # start-up makes ~10^5 long-lived objects (typer, pydantic, the model, the parsers): the
    # cyclic collector would walk them again and again for nothing; collect seldom while they
    # are made, and run freezes them before its loop (common.startup_done)
    before = gc.get_threshold()
    gc.set_threshold(50_000, 20, 100)  # as common.STARTUP_GC_THRESHOLD
    try:
        import typer

        from . import (check_cmd, check_model_cmd, compare_cmd, diff_models_cmd, draw_cmd, explore_cmd, fences_cmd,
                       generate_cmd, hw_cmd, models_cmd, run_cmd, serve_cmd, suite_cmd)
    finally:
        gc.set_threshold(*before)  # importing this module (tests do) changes nothing

    typer_app = typer.Typer(
        name="mmdsl",
        help="A workbench for memory consistency models: models, litmus tests, fences, diagrams.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    typer_app.command("models")(models_cmd.models)
    typer_app.command("check-model")(check_model_cmd.check_model)
    typer_app.command("run")(run_cmd.run)
    typer_app.command("explore")(explore_cmd.explore)
    typer_app.command("check")(check_cmd.check)
    typer_app.command("suite")(suite_cmd.suite)
    typer_app.command("compare")(compare_cmd.compare)
    typer_app.command("diff-models")(diff_models_cmd.diff_models)
    typer_app.command("fences")(fences_cmd.fences)
    typer_app.command("draw")(draw_cmd.draw)
    typer_app.command("generate")(generate_cmd.generate)
    typer_app.command("serve")(serve_cmd.serve)
    typer_app.command("hw")(hw_cmd.hw)
    return typer_app


_APP: list = []


def __getattr__(name: str):
    if name == "app":  # the typer app, built once, on first use
        if not _APP:
            _APP.append(_build_app())
        return _APP[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    collect_seldom()  # until the command's start-up is done (common.startup_done)
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        from .run_main import herd_spellings, run_fast

        sys.argv[2:] = herd_spellings(sys.argv[2:])  # herd's -variant, -show ...: for typer too
        code = run_fast(sys.argv[2:])
        if code is not None:
            sys.exit(code)
    __getattr__("app")()


if __name__ == "__main__":
    main()
