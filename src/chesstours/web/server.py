"""Running the app: in the foreground (``chesstours serve``) or in a background thread (tests, scripts)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from .app import create_app
from .limits import Limits

__all__ = ["free_port", "running_server", "serve"]


def _config(host: str, port: int, limits: Limits, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(limits),
        host=host,
        port=port,
        # Connections beyond this are answered 503 by uvicorn itself, before any work.
        limit_concurrency=limits.quick_queue + limits.slow_queue + 256,
        backlog=1024,
        timeout_keep_alive=5,
        server_header=False,
        log_level=log_level,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None) -> None:
    """Run the app with uvicorn until Ctrl-C."""
    uvicorn.Server(_config(host, port, limits or Limits(), "info")).run()


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
