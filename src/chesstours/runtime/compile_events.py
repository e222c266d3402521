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
#: When each compilation under way in this process began (:func:`time.perf_counter`): a kernel that calls
#: another compiles it inside its own. A list, changed by single appends and pops (atomic in Python), so
#: that no lock is held while numba compiles and a signal may interrupt it anywhere.
_RUNNING: list[float] = []
_LISTENING = False


def listen() -> None:
    """Register the listener to numba's compile events, once per process; it imports numba."""
    global _LISTENING
    with _LOCK:
        if _LISTENING:
            return
        _LISTENING = True
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - a numba without its event api: no compile is seen
        return

    class Compiles(event.Listener):
        def on_start(self, _event) -> None:
            _RUNNING.append(time.perf_counter())

        def on_end(self, _event) -> None:
            try:
                _RUNNING.pop()
            except IndexError:  # pragma: no cover - an end without its start
                pass

    event.register("numba:compile", Compiles())


def compiling_since() -> float | None:
    """The time (:func:`time.perf_counter`) since which a kernel compiles in this process, or None when none does."""
    started = list(_RUNNING)
    return min(started) if started else None
