"""The `mmdsl` command line: a typer app, one module per command, no logic of its own."""

from __future__ import annotations

import gc

# start-up makes ~10^5 long-lived objects (typer, pydantic, the model, the parsers): the
# cyclic collector would walk them again and again for nothing; collect seldom while they
# are made, and run_cmd freezes them before its loop (common.startup_done)
_GC_DEFAULT = gc.get_threshold()
gc.set_threshold(50_000, 20, 100)  # as common.STARTUP_GC_THRESHOLD

import typer  # noqa: E402

from . import (check_model_cmd, compare_cmd, diff_models_cmd, draw_cmd, explore_cmd, fences_cmd,  # noqa: E402
               generate_cmd, models_cmd, run_cmd, serve_cmd, suite_cmd)
from .common import collect_seldom  # noqa: E402

gc.set_threshold(*_GC_DEFAULT)  # importing this module (tests do) changes nothing

app = typer.Typer(
    name="mmdsl",
    help="A workbench for memory consistency models: models, litmus tests, fences, diagrams.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("models")(models_cmd.models)
app.command("check-model")(check_model_cmd.check_model)
app.command("run")(run_cmd.run)
app.command("explore")(explore_cmd.explore)
app.command("suite")(suite_cmd.suite)
app.command("compare")(compare_cmd.compare)
app.command("diff-models")(diff_models_cmd.diff_models)
app.command("fences")(fences_cmd.fences)
app.command("draw")(draw_cmd.draw)
app.command("generate")(generate_cmd.generate)
app.command("serve")(serve_cmd.serve)


def main() -> None:
    collect_seldom()  # until the command's start-up is done (common.startup_done)
    app()


if __name__ == "__main__":
    main()
