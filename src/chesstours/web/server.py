"""Running the app: in the foreground (``chesstours serve``) or in a background thread (tests, scripts)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .limits import Limits

__all__ = ["free_port", "running_server", "serve"]


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


def _protocol(header_seconds: float) -> type:
    """uvicorn's fastest HTTP/1.1 connection here, with the head timer: httptools' parser (C) where it is
    installed, h11's (pure Python) else."""
    base: type
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency on CPython
        base = H11Protocol
    return type("TimedHTTP", (_HeadTimer, base), {"header_seconds": header_seconds})


def _connections() -> int:
    """How many connections the server keeps open at most: what the open-file limit allows, up to 4,096."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        return 1024
    return max(64, min(4096, soft - 64)) if soft > 0 else 4096


def _config(host: str, port: int, limits: Limits, log_level: str, own_process: bool = False) -> uvicorn.Config:
    protocol = _protocol(limits.header_seconds)
    return uvicorn.Config(
        create_app(limits, compiled_only=own_process),
        host=host,
        port=port,
        http=protocol,
        # Connections beyond this are answered 503 by uvicorn itself, before any work. Searches are
        # bounded by the lanes (limits.py), not by this; idle connections are closed by _HeadTimer.
        limit_concurrency=_connections(),
        backlog=1024,
        timeout_keep_alive=5,
        server_header=False,
        log_level=log_level,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None) -> None:
    """Run the app with uvicorn until Ctrl-C."""
    uvicorn.Server(_config(host, port, limits or Limits(), "info", own_process=True)).run()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(limits: Limits | None = None, host: str = "127.0.0.1", port: int | None = None,
                   start_timeout: float = 30.0) -> Iterator[str]:
    """Serve the app from a background thread; yield its base url (``http://127.0.0.1:PORT``).

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
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
