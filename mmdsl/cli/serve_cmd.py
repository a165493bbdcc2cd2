"""`mmdsl serve`: the workbench in a browser (the app lives in `mmdsl.web`)."""

from __future__ import annotations

import typer

from .common import user_errors


@user_errors
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default)."),
    port: int = typer.Option(8000, "--port", "-p", help="Port to listen on; 0 picks a free one."),
    timeout: float = typer.Option(10.0, "--timeout", min=0,
                                  help="Seconds of work allowed per request (0: no limit)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No request log."),
) -> None:
    """Serve the workbench page: edit tests and models, run, draw, fences, step the explorer."""
    from ..core.limits import check_timeout
    from ..web.server import serve as run_server

    run_server(host, port, check_timeout(timeout), quiet)
