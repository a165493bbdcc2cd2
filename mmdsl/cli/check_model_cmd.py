"""`mmdsl check-model`: validate a model and print its classes, table, fences and axioms."""

from __future__ import annotations

import typer

from .common import timeout_option, user_errors, within_timeout


@user_errors
@within_timeout("checking model {model}")  # parsing and lowering included
def check_model(
    model: str = typer.Argument(..., help="A model file (.mm) or a bundled model name."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    timeout: float = timeout_option(),
) -> None:
    """Validate a model file; print what it defines, or every error with file:line:col."""
    from ..lang import load_model

    m = load_model(model)
    if as_json:
        from ..render.json_out import dumps, model_dict

        print(dumps(model_dict(m)))
        return
    from ..render.model_text import model_text

    print(model_text(m), end="")
    print(f"\nok: model '{m.name}' is well formed")
