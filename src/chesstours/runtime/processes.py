"""Processes started with the interrupts held back (:func:`interrupts_deferred`)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["interrupts_deferred"]


@contextlib.contextmanager
def interrupts_deferred(stop: Callable[[Any], None]) -> Iterator[list[Any]]:
    """Start processes (appended to the list given) with Ctrl-C and SIGTERM held back until they are started:
    an interrupt raised while ``subprocess`` or ``multiprocessing`` waits for a new process to start would leave
    it running, its caller never told of it. An interrupt that came meanwhile stops what was started
    (``stop(process)``), then is raised as it would have been. Only the main thread receives signals; elsewhere,
    and for a signal whose action is not a Python handler, nothing is held back."""
    started: list[Any] = []
    held: list[tuple[int, Any]] = []
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(sig)
            if callable(handler):
                previous[sig] = signal.signal(sig, lambda signum, frame: held.append((signum, frame)))
    try:
        yield started
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            for process in started:
                stop(process)
            first, frame = held[0]
            previous[first](first, frame)  # raises, as the signal would have
