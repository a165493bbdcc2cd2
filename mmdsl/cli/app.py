"""The `mmdsl` command line: a typer app, one module per command, no logic of its own."""

from __future__ import annotations

import typer

from . import check_model_cmd, explore_cmd, fences_cmd, models_cmd, run_cmd

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
app.command("fences")(fences_cmd.fences)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
