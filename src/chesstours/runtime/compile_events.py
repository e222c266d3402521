"""Whether this process is compiling a kernel now: numba's compile events, listened to from the first kernel.

numba announces each compilation of a dispatcher (a cache miss; a kernel
loaded from the compile cache is not one) with the ``"numba:compile"`` event
of :mod:`numba.core.event`. :func:`listen` registers a listener once, when the
first kernel is defined (:func:`chesstours.runtime.kernel`, where numba is
imported already); :func:`compiling_since` then tells whether a kernel compiles
in this process, in any thread, and since when. A process that has imported
no kernel compiles none, and the answer is None without importing numba.

The command line uses it to keep ``--time-limit`` a bound on the whole
command on an empty compile cache (:func:`chesstours.cli.common.time_bound`):
numba's compiler cannot be stopped half-way by a deadline, only with its process.
"""

from __future__ import annotations

import threading
import time

__all__ = ["listen", "compiling_since"]

_LOCK = threading.Lock()
#: Compilations under way in this process (a kernel that calls another compiles it inside its own), and the
#: time (:func:`time.perf_counter`) the first of them began.
_RUNNING = {"count": 0, "since": 0.0}
_LISTENING = False


def listen() -> None:
    """Register the listener to numba's compile events, once per process; it imports numba."""
    global _LISTENING
    with _LOCK:
        if _LISTENING:
            return
        _LISTENING = True
    from numba.core import event

    class Compiles(event.Listener):
        def on_start(self, _event) -> None:
            with _LOCK:
                if _RUNNING["count"] == 0:
                    _RUNNING["since"] = time.perf_counter()
                _RUNNING["count"] += 1

        def on_end(self, _event) -> None:
            with _LOCK:
                _RUNNING["count"] = max(0, _RUNNING["count"] - 1)

    event.register("numba:compile", Compiles())


def compiling_since() -> float | None:
    """The time (:func:`time.perf_counter`) since which a kernel compiles in this process, or None when none does."""
    with _LOCK:
        return _RUNNING["since"] if _RUNNING["count"] else None
