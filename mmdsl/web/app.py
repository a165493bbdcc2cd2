"""The `mmdsl serve` ASGI app (Starlette): JSON endpoints over `web.actions`, the explorer
sessions of `web.stepping`, a live suite run as server-sent events, and the static page.

Every request body is capped (``MAX_BODY_BYTES``), every computation runs in a worker
thread under one lock and the per-request time limit of ``core.limits`` (a TimeLimitError
past it), and every error is a JSON list of located errors, never a traceback.
"""

from __future__ import annotations

import ctypes
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import MmdslError
from . import actions
from .inputs import (DEFAULT_TIMEOUT, MAX_BODY_BYTES, NotFound, RequestTooLarge, bundled_model_file, bundled_models,
                     bundled_test_file, check_encodable, suite_tests, test_suites)
from .stepping import SessionGone, Sessions, Stepper
from .suite_runs import SuiteBusy, SuiteRuns

STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
                                "frame-ancestors 'none'; form-action 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class _Cancel(BaseException):
    """Raised asynchronously in the work the page cancelled (a BaseException, like TestTimeout)."""


class WorkCancelled(MmdslError):
    """Work stopped by the page's Cancel button (HTTP 409)."""

    kind = "cancelled"


class Workbench:
    """The app's state: the time limit, the lock that serialises work, the explorer sessions."""

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT):
        self.timeout = timeout or None
        self.lock = threading.Lock()
        self.current_lock = threading.Lock()  # guards current/fired, for cancel()
        self.current: int | None = None  # the thread doing the work under way
        self.fired = False
        self.sessions = Sessions()
        self.suites = SuiteRuns(self.timeout)

    def warm(self) -> None:
        """Fill the caches the page's first requests read (suite lists, bundled models) and import what
        a first check needs (one run and one drawing of classic/SB under tso), under the lock."""
        with self.lock:
            try:
                test_suites()
                bundled_models()
                actions.run({"test_name": "classic/SB.litmus", "model_name": "tso"})
                actions.draw({"test_name": "classic/SB.litmus", "model_name": "tso"})
            except MmdslError:
                pass  # the requests themselves will say what is wrong

    # ---- plumbing -------------------------------------------------------------------
    def _work(self, what: str, fn, *args):
        from ..core.limits import too_deep_to_run, within

        with self.lock:
            ident = threading.get_ident()
            with self.current_lock:
                self.current, self.fired = ident, False
            try:
                try:
                    with within(self.timeout, what):
                        return fn(*args)
                finally:
                    with self.current_lock:
                        self.current = None
                        if self.fired:  # withdraw a cancellation that has not been delivered yet
                            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
            except _Cancel:
                raise WorkCancelled(f"{what}: cancelled") from None
            except RecursionError:
                raise too_deep_to_run() from None

    def cancel(self) -> bool:
        """Stop the work under way (the page's Cancel): it ends with a WorkCancelled error.

        The same asynchronous exception ``core.limits`` uses for time limits in threads: it
        interrupts Python code at once, code inside a native call when the call returns.
        """
        with self.current_lock:
            if self.current is None or self.fired:
                return False
            self.fired = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.current), ctypes.py_object(_Cancel))
            return True

    async def _answer(self, what: str, fn, *args) -> Response:
        try:
            out = await run_in_threadpool(self._work, what, fn, *args)
        except MmdslError as err:
            return error_response(err)
        except _Cancel:  # delivered as the work ended, past its handler
            return error_response(WorkCancelled(f"{what}: cancelled"))
        return out if isinstance(out, Response) else JSONResponse(out)

    async def _post(self, request: Request, what: str, fn, *extra) -> Response:
        try:
            payload = await json_body(request)
        except MmdslError as err:
            return error_response(err)
        return await self._answer(what, fn, payload, *extra)

    # ---- endpoints ------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def list_tests(self, request: Request) -> Response:
        suite = request.query_params.get("suite")
        if suite is None:
            return await self._answer("listing the suites", lambda: {"suites": test_suites()})
        return await self._answer("listing a suite", lambda: {"suite": suite, "tests": list(suite_tests(suite))})

    async def test_text(self, request: Request) -> Response:
        name = request.path_params["name"]
        return await self._answer("reading a test", lambda: {"name": name, "text": _read(bundled_test_file(name))})

    async def list_models(self, request: Request) -> Response:
        return await self._answer("listing the models", lambda: {"models": bundled_models()})

    async def model_text(self, request: Request) -> Response:
        name = request.path_params["name"]
        return await self._answer("reading a model", lambda: {"name": name, "text": _read(bundled_model_file(name))})

    async def check_model(self, request: Request) -> Response:
        return await self._post(request, "checking the model", actions.check_model)

    async def run(self, request: Request) -> Response:
        return await self._post(request, "running the test", actions.run)

    async def draw(self, request: Request) -> Response:
        if request.query_params.get("format") == "pdf":
            def pdf(payload):
                data, stem = actions.draw_pdf(payload)
                return Response(data, media_type="application/pdf",
                                headers={"content-disposition": f'attachment; filename="{stem}.pdf"'})

            return await self._post(request, "drawing the test", pdf)
        return await self._post(request, "drawing the test", actions.draw)

    async def fences(self, request: Request) -> Response:
        return await self._post(request, "choosing fences", actions.fences, self.timeout)

    async def explore_start(self, request: Request) -> Response:
        def start(payload):
            from .inputs import load_inputs

            inputs = load_inputs(payload)
            stepper = Stepper(inputs.program, inputs.model)
            sid = self.sessions.add(stepper)
            return dict(stepper.view(), session=sid)

        return await self._post(request, "starting the exploration", start)

    async def explore_move(self, request: Request) -> Response:
        sid, move = request.path_params["sid"], request.path_params["move"]

        def act(payload):
            stepper = self.sessions.get(sid)
            if move == "step":
                stepper.step(payload.get("index"))
            elif move == "back":
                stepper.back()
            elif move == "forward":
                stepper.forward()
            elif move == "outcome":
                stepper.run_to_outcome()
            elif move != "view":
                raise NotFound(f"no exploration move '{move}'", expected="step, back, forward, outcome or view")
            return dict(stepper.view(), session=sid)

        return await self._post(request, "exploring", act)

    async def cancel_work(self, request: Request) -> Response:
        try:
            await json_body(request)  # declared JSON, like every POST
        except MmdslError as err:
            return error_response(err)
        return JSONResponse({"cancelled": self.cancel()})

    async def suite(self, request: Request) -> Response:
        """A bundled suite under the chosen models, one server-sent event per cell (``web.suite_runs``)."""
        params = request.query_params
        try:
            suite, refs, cut = await run_in_threadpool(self.suites.prepare, params.get("suite", ""),
                                                       params.getlist("model"))
        except MmdslError as err:
            return error_response(err)
        return StreamingResponse(self.suites.events(suite, refs, cut), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    async def suite_report(self, request: Request) -> Response:
        rid, fmt = request.path_params["rid"], request.query_params.get("format", "html")
        try:
            text, media = self.suites.report(rid, fmt)
        except MmdslError as err:
            return error_response(err)
        return Response(text, media_type=f"{media}; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="suite-report.{fmt}"'})


def _read(path: Path) -> str:
    from ..core.files import read_input

    return read_input(path, "bundled file")


def error_response(err: MmdslError) -> JSONResponse:
    from ..core.limits import TimeLimitError

    status = 422
    if isinstance(err, RequestTooLarge):
        status = 413
    elif isinstance(err, UnsupportedMedia):
        status = 415
    elif isinstance(err, WorkCancelled):
        status = 409
    elif isinstance(err, (NotFound, SessionGone)):
        status = 404
    elif isinstance(err, (TimeLimitError, SuiteBusy)):
        status = 503
    return JSONResponse({"errors": actions.errors_of(err)}, status_code=status)


class UnsupportedMedia(MmdslError):
    """A POST that is not declared JSON (HTTP 415)."""

    kind = "unsupported media type"


async def json_body(request: Request) -> dict:
    """The request's JSON object, read up to MAX_BODY_BYTES (RequestTooLarge beyond)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        # a cross-site form or a "simple" fetch cannot send this without a CORS preflight, which
        # the app never grants: other sites cannot make a visitor's browser spend this machine's time
        raise UnsupportedMedia("the request must be JSON", expected="content-type: application/json")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise RequestTooLarge("the request is too large", expected=f"at most {MAX_BODY_BYTES:,} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise RequestTooLarge("the request is too large", expected=f"at most {MAX_BODY_BYTES:,} bytes")
    if not body:
        return {}
    try:
        payload = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MmdslError("the request is not JSON", expected="a JSON object") from None
    if not isinstance(payload, dict):
        raise MmdslError("the request is not a JSON object", expected="a JSON object")
    check_encodable(payload)
    return payload


class _SecurityHeaders:
    """Pure ASGI middleware adding SECURITY_HEADERS to every response (streams included)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.decode("latin-1").lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(timeout: float | None = DEFAULT_TIMEOUT, allowed_hosts: list[str] | None = None) -> Starlette:
    """The workbench app; ``timeout`` is each request's time limit in seconds (None: none);
    ``allowed_hosts``: the names a request's Host header may give (None: any), which keeps a
    web page whose name was rebound to 127.0.0.1 from talking to the app."""
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    wb = Workbench(timeout)
    routes = [
        Route("/", wb.index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/tests", wb.list_tests),
        Route("/api/tests/{name:path}", wb.test_text),
        Route("/api/models", wb.list_models),
        Route("/api/models/{name}", wb.model_text),
        Route("/api/check-model", wb.check_model, methods=["POST"]),
        Route("/api/run", wb.run, methods=["POST"]),
        Route("/api/draw", wb.draw, methods=["POST"]),
        Route("/api/fences", wb.fences, methods=["POST"]),
        Route("/api/explore", wb.explore_start, methods=["POST"]),
        Route("/api/explore/{sid}/{move}", wb.explore_move, methods=["POST"]),
        Route("/api/cancel", wb.cancel_work, methods=["POST"]),
        Route("/api/suite", wb.suite),
        Route("/api/suite/{rid}/report", wb.suite_report),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(_SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.workbench = wb
    return app
