"""`mmdsl models`: the bundled models, one line each with its doc string."""

from __future__ import annotations

import typer

from .common import user_errors


@user_errors
def models(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """List the bundled models with their doc strings."""
    from ..lang import bundled_model_paths, load_model

    loaded = [load_model(p) for p in bundled_model_paths()]
    if as_json:
        from ..render.json_out import dumps

        print(dumps([{"name": m.name, "title": m.title, "path": m.path} for m in loaded]))
        return
    width = max(len(m.name) for m in loaded)
    for m in loaded:
        print(f"{m.name:<{width}}  {m.title}")
