"""Running the app: in the foreground (``chesstours serve``) or in a background thread (tests, scripts)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import InvalidArgument
from .app import create_app, security_headers
from .limits import Limits

__all__ = ["check_host", "free_port", "hosts", "running_server", "serve", "url"]


class _HeadTimer:
    """A mixin for uvicorn's HTTP/1.1 connections: closed when they have not sent a whole request's head in time.

    uvicorn times out a connection only between requests, once it has
    answered one; a connection that never sends a request, or sends its
    headers a byte at a time, would stay open for ever and hold one of the
    server's places. Here every connection gets :attr:`Limits.header_seconds`
    from its start, and again after each answer, to send a request's head.
    """

    header_seconds = 10.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._head_timer: asyncio.TimerHandle | None = None
        self.opened = self.loop.time()  # type: ignore[attr-defined]
        self._arm()

    def _arm(self) -> None:
        if getattr(self, "_head_timer", None) is not None:
            self._head_timer.cancel()  # type: ignore[union-attr]
        self._head_timer = self.loop.call_later(self.header_seconds, self._head_late)  # type: ignore[attr-defined]

    def _head_late(self) -> None:
        self._head_timer = None
        cycle, transport = self.cycle, self.transport  # type: ignore[attr-defined]
        if (cycle is None or cycle.response_complete) and not transport.is_closing():
            transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():  # type: ignore[attr-defined]
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if getattr(self, "_head_timer", None) is not None:
            self._head_timer.cancel()  # type: ignore[union-attr]
        super().connection_lost(exc)  # type: ignore[misc]


#: Seconds a client is asked to wait when the server has as many connections open as it keeps.
CONNECTIONS_RETRY = 1


class _OwnAnswers:
    """A mixin for uvicorn's HTTP/1.1 connections: the answers the server gives before the app sees a request.

    * a request's head (its line and headers) larger than :attr:`head_bytes` is answered 431 and the
      connection closed; the bytes are counted as they arrive, a read at a time, before the parser sees them;
    * with :attr:`most_connections` connections open, a request takes the place of the connection that has
      waited longest without one (an idle socket); with as many requests at work, it is answered 503 with
      ``Retry-After``, before any work;
    * a request the parser cannot read is answered 400.

    These answers, and any other the app itself does not head (a 500), carry the security headers of the
    app's answers (:func:`~chesstours.web.app.security_headers`).
    """

    head_bytes = 32 * 1024
    most_connections = 1024

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._head_size = 0
        self._app, self.app = self.app, self._serve  # type: ignore[has-type]

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is None or cycle.response_complete:  # no request at work: these bytes are the next one's head
            self._head_size += len(data)
            if self._head_size > self.head_bytes:
                return self._answer_now(431, f"A request's head (its line and headers) is at most "
                                             f"{self.head_bytes:,} bytes here.")
        super().data_received(data)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        self._head_size = 0
        super().on_response_complete()  # type: ignore[misc]

    def send_400_response(self, msg: str) -> None:
        self._answer_now(400, "The request is not valid HTTP/1.1.")

    def _answer_now(self, status: int, sentence: str) -> None:
        """Answer ``status`` with ``sentence`` straight on the connection, then close it."""
        transport = self.transport  # type: ignore[attr-defined]
        if transport.is_closing():
            return
        status_line = f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode()
        head, body = _answer(status, sentence)
        transport.write(status_line + b"".join(name + b": " + value + b"\r\n" for name, value in head) + b"\r\n"
                        + body)
        transport.close()

    async def _serve(self, scope, receive, send) -> None:
        # This request's task is counted among the tasks already.
        most = self.most_connections
        full = len(self.connections) >= most and not self._make_room()  # type: ignore[attr-defined]
        if full or len(self.tasks) > most:  # type: ignore[attr-defined]
            self.logger.warning("Refused a request: %d connections are open, as many as the server keeps.",  # type: ignore[attr-defined]
                                len(self.connections))  # type: ignore[attr-defined]
            head, body = _answer(503, "The server has as many connections open as it keeps; try again in a "
                                      "moment.", [(b"retry-after", str(CONNECTIONS_RETRY).encode())])
            await send({"type": "http.response.start", "status": 503, "headers": head})
            return await send({"type": "http.response.body", "body": body})

        async def send_headed(message):
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                if not any(name.lower() == b"x-content-type-options" for name, _ in headers):
                    message = {**message, "headers": [*headers, *security_headers(scope["path"])]}
            await send(message)

        await self._app(scope, receive, send_headed)


    def _make_room(self) -> bool:
        """Close the connection open longest with no request at work, for this one; False if there is none."""
        idle = [c for c in self.connections  # type: ignore[attr-defined]
                if c is not self and (c.cycle is None or c.cycle.response_complete) and not c.transport.is_closing()]
        if not idle:
            return False
        min(idle, key=lambda c: getattr(c, "opened", 0.0)).transport.close()
        return True


def _answer(status: int, sentence: str, extra: list[tuple[bytes, bytes]] | None = None
            ) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an answer the server gives itself: ``{"detail": sentence}``, then the connection
    is closed."""
    body = json.dumps({"detail": sentence}).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"), *(extra or []), *security_headers()]
    return head, body


def _protocol(limits: Limits) -> type:
    """uvicorn's fastest HTTP/1.1 connection here, with the head timer and the server's own answers:
    httptools' parser (C) where it is installed, h11's (pure Python) else."""
    base: type
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency on CPython
        base = H11Protocol
    return type("ServedHTTP", (_HeadTimer, _OwnAnswers, base), {
        "header_seconds": limits.header_seconds, "head_bytes": limits.header_bytes,
        "most_connections": limits.connections or _connections()})


def _connections() -> int:
    """How many connections the server keeps open at most: what the open-file limit allows, up to 4,096."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        return 1024
    return max(64, min(4096, soft - 64)) if soft > 0 else 4096


#: The names a request's Host may give, whatever address the server listens on: those of the loopback addresses.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: The addresses that listen on every interface.
EVERY_INTERFACE = ("0.0.0.0", "::")


def hosts(host: str) -> list[str]:
    """The names a request's ``Host`` header may give a server listening on ``host`` (the port aside).

    The loopback names and ``host`` itself (an IPv6 address in brackets); on every interface
    (``0.0.0.0``, ``::``), also this machine's name, and any IP address (see :func:`~chesstours.web.create_app`).
    """
    names = [*LOOPBACK_HOSTS, f"[{host}]" if ":" in host else host]
    if host in EVERY_INTERFACE:
        names.append(socket.gethostname())
    return list(dict.fromkeys(name.lower() for name in names if name))


def check_host(host: str) -> None:
    """:raises InvalidArgument: when ``host`` names no address (an empty one would listen on every interface)."""
    if not host.strip():
        raise InvalidArgument("--host must name an address to listen on, such as 127.0.0.1, ::1 or 0.0.0.0 "
                              "(every interface).")


def url(host: str, port: int) -> str:
    """The address of a server listening on ``host`` and ``port``: ``http://127.0.0.1:8000``, ``http://[::1]:8000``."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _config(host: str, port: int, limits: Limits, log_level: str, own_process: bool = False) -> uvicorn.Config:
    protocol = _protocol(limits)
    return uvicorn.Config(
        create_app(limits, compiled_only=own_process, hosts=hosts(host)),
        host=host,
        port=port,
        http=protocol,
        # The connections are limited by the protocol (_OwnAnswers), whose 503 carries the security headers.
        # Searches are bounded by the lanes (limits.py), not by this; idle connections are closed by _HeadTimer.
        limit_concurrency=None,
        # Where h11 parses (no httptools), its own cap on a head is the one _OwnAnswers keeps.
        h11_max_incomplete_event_size=limits.header_bytes,
        backlog=1024,
        timeout_keep_alive=5,
        server_header=False,
        log_level=log_level,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None) -> None:
    """Run the app with uvicorn until Ctrl-C; :raises InvalidArgument: when ``host`` names no address."""
    check_host(host)
    uvicorn.Server(_config(host, port, limits or Limits(), "info", own_process=True)).run()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(limits: Limits | None = None, host: str = "127.0.0.1", port: int | None = None,
                   start_timeout: float = 30.0) -> Iterator[str]:
    """Serve the app from a background thread; yield its base url (``http://127.0.0.1:PORT``, ``http://[::1]:PORT``).

    The server stops when the block ends.
    """
    port = port or free_port(host)
    server = uvicorn.Server(_config(host, port, limits or Limits(), "warning"))
    thread = threading.Thread(target=server.run, name=f"chesstours-server-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"The test server on {host}:{port} did not start.")
        time.sleep(0.02)
    try:
        yield url(host, port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
