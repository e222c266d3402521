"""Starting processes without leaving one behind when an interrupt comes at that moment."""

from __future__ import annotations

import os
import signal

import pytest

from chesstours import machine


class _Stopped(Exception):
    pass


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C raising KeyboardInterrupt, as in a terminal (a runner started in the background ignores it)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_an_interrupt_while_processes_start_stops_them_then_is_raised():
    stopped = []
    with pytest.raises(KeyboardInterrupt):
        with machine.interrupts_deferred(stopped.append) as started:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while a process starts
            started.append("the process")
            reached = True  # the start went on to its end: the process was recorded
    assert reached and stopped == ["the process"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_held_back_goes_to_the_handler_it_had():
    def stop(signum, frame):
        raise _Stopped(signum)

    before = signal.signal(signal.SIGTERM, stop)  # as the command line's SIGTERM handler raises
    try:
        stopped = []
        with pytest.raises(_Stopped):
            with machine.interrupts_deferred(stopped.append) as started:
                os.kill(os.getpid(), signal.SIGTERM)
                started.append(1)
                started.append(2)
        assert stopped == [1, 2] and signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, before)


def test_without_an_interrupt_nothing_is_stopped_and_the_handlers_are_back():
    stopped = []
    with machine.interrupts_deferred(stopped.append) as started:
        started.append("the process")
    assert stopped == [] and signal.getsignal(signal.SIGINT) is signal.default_int_handler
