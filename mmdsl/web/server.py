"""Serving the workbench app with uvicorn on a loopback socket bound up front (so port 0 works)."""

from __future__ import annotations

import socket
import sys
import threading

from ..core.errors import MmdslError

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: a free port), or a MmdslError saying why not."""
    if not 0 <= port <= 65535:
        raise MmdslError(f"--port {port} is not a port", expected="0 (a free port) to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as err:
        raise MmdslError(f"cannot serve on '{host}': {err.strerror or err}") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # accepted connections inherit it: a response's head and body leave at once, instead of
    # the body waiting ~40 ms for the client's delayed ACK (Nagle) on a kept-alive connection
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(addr)
    except OSError as err:
        sock.close()
        raise MmdslError(f"cannot serve on {host}:{port}: {err.strerror or err}",
                         hint="choose another --port, or --port 0 for a free one") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def allowed_hosts(host: str) -> list[str]:
    """The Host header values the app accepts when serving on ``host`` (any, on a wildcard address)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return sorted({"127.0.0.1", "localhost", "::1", "[::1]", host, f"[{host}]" if ":" in host else host})


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, timeout: float | None = 10.0, quiet: bool = False) -> None:
    """Run the workbench until interrupted, printing its URL first."""
    import uvicorn

    from .app import create_app

    sock = bind(host, port)
    if host not in LOOPBACK:
        print(f"warning: serving on {host}, not loopback: anyone who reaches this address can use the "
              "workbench", file=sys.stderr)
    print(f"mmdsl workbench: {url_of(sock)}  (Ctrl-C stops it)", flush=True)
    app = create_app(timeout, allowed_hosts=allowed_hosts(host))
    threading.Thread(target=app.state.workbench.warm, name="mmdsl-warm", daemon=True).start()
    config = uvicorn.Config(app, log_level="warning" if quiet else "info",
                            access_log=not quiet, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])
