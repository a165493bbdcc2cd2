"""`mmdsl serve`: the workbench as a local web app (Starlette, imported only when serving)."""


def create_app(*args, **kwargs):
    """The ASGI app (see ``mmdsl.web.app.create_app``); Starlette is imported on first call."""
    from .app import create_app as make

    return make(*args, **kwargs)


__all__ = ["create_app"]
