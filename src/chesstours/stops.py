"""The signals that stop the program, taken from its first moment: Ctrl-C (SIGINT), SIGTERM and SIGHUP.

While a command runs, the command line raises them as interrupts, which clean up as they go
(:mod:`chesstours.cli`). Before that, while the program's modules are imported (numpy and the rest, a
few tenths of a second), and after it, while the program ends, such a signal is recorded here, and the
program ends with its exit status: 128 plus the signal's number, as in a command. This module imports
nothing but the standard library, so that :mod:`chesstours.__main__` takes the signals before the
program waits for anything else.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

__all__ = ["STOPS", "record_stops", "end_at_once", "words"]

#: The signals that stop the program: Ctrl-C, SIGTERM, and SIGHUP where there is one.
STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def words(signum: int) -> str:
    """How a stop is told: "interrupted" for Ctrl-C, "stopped by SIGTERM" for a signal."""
    return "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"


def record_stops() -> list[int]:
    """From now on, record the stop signals that come in the list returned, in the order they come; a second
    one ends the program at once (the signal's default action). A signal ignored on entry (``nohup``, a job
    that a shell started in the background) stays ignored. Only the main thread can take signals; elsewhere
    nothing changes, and the list stays empty."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        return came

    def record(signum: int, frame: object) -> None:
        if came:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        came.append(signum)

    _take(record)
    return came


def end_at_once() -> None:
    """From now on, a stop signal ends the program at once with its exit status, and says so on standard
    error: for the program's last moments, where nothing is left to clean up and an interrupt would break
    the interpreter's own teardown."""
    if threading.current_thread() is threading.main_thread():
        _take(_end)


def _take(handler) -> None:
    for sig in STOPS:
        try:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                signal.signal(sig, handler)
        except (ValueError, OSError):  # not a signal this system lets a program take
            continue


def _end(signum: int, frame: object) -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
        os.write(2, f"chesstours: {words(signum)}.\n".encode())
    except (OSError, ValueError, RuntimeError):  # a reader gone, a stream closed, or a flush under way
        pass
    os._exit(128 + signum)
