"""The FastAPI application: the JSON api, its errors and limits, and the page.

``create_app()`` builds the app (:mod:`.server` runs it). The api answers as the command line does:

=====  ==========================================================  =================
HTTP   when                                                        CLI exit status
=====  ==========================================================  =================
200    the answer; no tour is an answer too (``found`` false)      0 (no tour: 1)
400    bad input, or a request larger than this server accepts     2
404    no tour (or heat map) to draw a picture of                  1
422    a parameter of the wrong type or an unknown choice          2
503    the server is busy (``Retry-After`` says when to retry)     --
504    the time limit ran out (``partial``: what was found)         3
=====  ==========================================================  =================

Every error body is ``{"detail": "<one sentence>"}``, the sentence the command
line prints. The requests never name a file: the page is served from the
package's ``static`` folder and nothing else on disk is reachable.
"""

from __future__ import annotations

import functools
import ipaddress
import threading
from collections.abc import Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware

from .. import __version__
from ..errors import ChessToursError, GaveUp, LimitReached, NoTour, ResourceError
from . import drawing, service
from .limits import Busy, Lanes, Limits
from .routes import ROUTERS
from .workers import ClientGone

__all__ = ["STATIC", "create_app", "security_headers"]

#: The page's files, shipped in the package.
STATIC = Path(__file__).parent / "static"

#: The page loads nothing from elsewhere: scripts, styles and data come from this server only.
_PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
#: The api's schema page (Swagger UI, served from this package) starts itself with an inline script.
_DOCS_POLICY = _PAGE_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'")
#: Headers of every answer, pages, api and errors alike.
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin")]
_PAGE_HEADERS = [*_HEADERS, (b"content-security-policy", _PAGE_POLICY.encode())]
_DOCS_HEADERS = [*_HEADERS, (b"content-security-policy", _DOCS_POLICY.encode())]


def security_headers(path: str = "/") -> list[tuple[bytes, bytes]]:
    """The security headers of an answer to ``path``: the same on every answer, but for the content security
    policy, which lets the api's schema page run its inline script."""
    return _DOCS_HEADERS if path.startswith(("/docs", "/openapi", "/static-offline-docs")) else _PAGE_HEADERS


def create_app(limits: Limits | None = None, warm_up: bool = True, compiled_only: bool = False,
               hosts: Sequence[str] | None = None) -> FastAPI:
    """Build the app: the api under ``/api``, its schema at ``/docs``, the page at ``/``.

    ``warm_up`` loads the compiled kernels in a background thread at start-up,
    so that the first visitor does not wait for them; the slow lane's worker processes
    (:mod:`.workers`) load them too, before their first search. ``compiled_only`` then runs every
    search of this process in compiled code (:func:`chesstours.runtime.use_compiled_only`), and
    starts the worker processes once the kernels are loaded: for a server that owns its process,
    not for one started inside another program (whose worker processes start with their first search).
    The worker processes are stopped when the app's lifespan ends.
    ``hosts`` are the names a request's ``Host`` header may give (the port aside), so that a page of another
    site cannot reach the api through a name of its own that resolves to this server (DNS rebinding); any
    other is answered 400. Where they hold ``0.0.0.0`` or ``[::]`` (a server on every interface), every IP
    address is answered too. Without ``hosts`` every name is answered: :mod:`.server` gives the names of the
    address it listens on.
    """
    limits = limits or Limits()
    # The slow lane's processes are processes of their own: they run every search compiled.
    lanes = Lanes(limits, prepare=functools.partial(service.warm_up, compiled_only=True) if warm_up else None)

    def warm_up_and_start() -> None:
        service.warm_up(compiled_only)
        if compiled_only:  # a server in a process of its own: its slow lane's processes ready for the first visitor
            lanes.start()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if warm_up:
            threading.Thread(target=warm_up_and_start, name="chesstours-warm-up", daemon=True).start()
        try:
            yield
        finally:
            lanes.shutdown()
            drawing.shutdown()

    app = FastAPIOffline(
        title="chesstours",
        version=__version__,
        description="Knight's tours and other leaper tours: find, count and explain them. The JSON is the "
                    "command line's (`chesstours tour ... --format json`, `chesstours count ... --json`).",
        lifespan=lifespan,
        redoc_url=None,
        favicon_url="/static/favicon.svg",
    )
    app.state.limits = limits
    app.state.lanes = lanes
    app.state.features = {name: bool(router.routes) for name, router in ROUTERS}
    for _, router in ROUTERS:
        app.include_router(router)
    _errors(app)
    # A trace repeats its path in every event: compressed, it is a tenth of the size.
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.add_middleware(_Guard, limits=limits, hosts=None if hosts is None else list(hosts))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    return app


#: The one path whose requests carry a body (a tour to check, :mod:`.routes.check`).
CHECK_PATH = "/api/check"

#: The status of a request whose client went away before its answer (nginx's "client closed request").
CLIENT_GONE = 499
#: Seconds a client is asked to wait after the machine ran short of memory or disk for its request.
RESOURCE_RETRY = 30


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ChessToursError)
    async def library_error(request: Request, exc: ChessToursError) -> JSONResponse:
        if isinstance(exc, (NoTour, GaveUp)):
            return JSONResponse({"detail": exc.reason, "proof": exc.proof, "nodes": exc.nodes}, status_code=404)
        if isinstance(exc, LimitReached):
            body = {"detail": str(exc)}
            # What was found before the limit: a count so far, or the best bishop route so far.
            if hasattr(exc.partial, "to_dict"):
                body["partial"] = exc.partial.to_dict()
            return JSONResponse(body, status_code=504)
        if isinstance(exc, ClientGone):  # nobody reads this answer: the connection is closed
            return JSONResponse({"detail": str(exc)}, status_code=CLIENT_GONE)
        if isinstance(exc, Busy):
            return JSONResponse({"detail": str(exc)}, status_code=503,
                                headers={"Retry-After": str(exc.retry_after)})
        if isinstance(exc, ResourceError):  # the machine's problem (memory, disk), not the request's
            return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": str(RESOURCE_RETRY)})
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        return JSONResponse({"detail": _sentence(errors[0]) if errors else "The request is not valid.",
                             "errors": jsonable_encoder(errors)}, status_code=422)


def _sentence(error: dict) -> str:
    """One pydantic error as the command line would say it."""
    name = str(error.get("loc", ("", "parameter"))[-1])
    if error.get("type") == "missing":
        return f"The parameter {name} is required."
    message = str(error.get("msg", "is not valid")).rstrip(".")
    message = message[0].lower() + message[1:]
    return f"Invalid value {error.get('input')!r} for {name}: {message}."


class _Guard:
    """ASGI middleware: set security headers on every answer; answer only the ``hosts`` named (400); refuse long
    queries (414) and bodies (413).

    HEAD is answered as GET without the body; OPTIONS with the methods allowed (204).
    """

    def __init__(self, app, limits: Limits, hosts: list[str] | None = None):
        self.app = app
        self.limits = limits
        # The Host is checked first, before any other answer: no answer goes to a page of another site.
        self.checked = self._refuse_or_serve if hosts is None else _Hosts(self._refuse_or_serve, hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = security_headers(scope["path"])
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *headers]}
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        return await self.checked(scope, receive, send_with_headers)

    async def _refuse_or_serve(self, scope, receive, send):
        query = scope.get("query_string", b"")
        if len(query) > self.limits.query_chars:
            return await _refuse(send, 414, f"The query is {len(query):,} characters long; this server accepts "
                                            f"at most {self.limits.query_chars:,}.")
        # One endpoint reads a body: a tour to check (POST /api/check), at most check_bytes of it.
        checking = scope["method"] == "POST" and scope["path"] == CHECK_PATH
        most = self.limits.check_bytes if checking else self.limits.body_bytes
        refusal = (f"A tour to check is at most {most:,} bytes here; chesstours check FILE has no such limit."
                   if checking else "The api reads no request body; send the parameters in the query.")
        for key, value in scope.get("headers", ()):
            if key == b"content-length" and (not value.isdigit() or int(value) > most):
                return await _refuse(send, 413, refusal)
            if key == b"transfer-encoding":
                return await _refuse(send, 413, refusal)
        if scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": [(b"allow", b"GET, HEAD, OPTIONS")]})
            return await send({"type": "http.response.body", "body": b""})
        return await self.app(scope, receive, send)


class _Hosts(TrustedHostMiddleware):
    """Starlette's check of the ``Host`` header, which answers any IP address too where the hosts hold a wildcard
    address: a browser names an address only when the page itself is served from it, so no other site can
    rebind it."""

    def __init__(self, app, allowed_hosts: list[str]):
        super().__init__(app, allowed_hosts=allowed_hosts, www_redirect=False)
        self.any_address = not {"0.0.0.0", "[::]"}.isdisjoint(self.allowed_hosts)

    async def __call__(self, scope, receive, send):
        if self.any_address and scope["type"] == "http" and _is_address(Headers(scope=scope).get("host", "")):
            return await self.app(scope, receive, send)
        return await super().__call__(scope, receive, send)


def _is_address(host: str) -> bool:
    """Whether a ``Host`` header names an IP address (``192.168.1.5:8000``, ``[fe80::1]``), not a name."""
    if host.startswith("["):
        name, bracket, port = host[1:].partition("]")
        if not bracket or port and not (port[0] == ":" and port[1:].isdigit()):
            return False
    else:
        name, colon, port = host.partition(":")
        if colon and not port.isdigit():
            return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


async def _refuse(send, status: int, sentence: str) -> None:
    response = JSONResponse({"detail": sentence}, status_code=status)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})
