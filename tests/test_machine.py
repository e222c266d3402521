"""Starting processes without leaving one behind when an interrupt comes at that moment."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from chesstours.runtime import background, cache, engine, processes


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
        with processes.interrupts_deferred(stopped.append) as started:
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
            with processes.interrupts_deferred(stopped.append) as started:
                os.kill(os.getpid(), signal.SIGTERM)
                started.append(1)
                started.append(2)
        assert stopped == [1, 2] and signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, before)


def test_without_an_interrupt_nothing_is_stopped_and_the_handlers_are_back():
    stopped = []
    with processes.interrupts_deferred(stopped.append) as started:
        started.append("the process")
    assert stopped == [] and signal.getsignal(signal.SIGINT) is signal.default_int_handler


# -- compiling in a copy of the process (background.Forked) ---------------------------------------------------------


@pytest.fixture
def warmer(tmp_path, monkeypatch):
    """A module whose ``warm(word)`` writes, in the process that calls it, the word, the module the process
    is told it compiles, and what it finds on its standard output and on its SIGINT handler; ``warm('fail')``
    raises, ``warm('wait')`` sleeps."""
    out = tmp_path / "said.txt"
    (tmp_path / "fake_warm.py").write_text(
        "import os, signal, sys, time\n"
        "def warm(word='plain'):\n"
        "    if word == 'fail':\n"
        "        raise ValueError(word)\n"
        "    if word == 'wait':\n"
        "        time.sleep(30)\n"
        "    from chesstours.runtime import background, cache, engine, processes\n"
        "    with background.COMPILING_LOCK:  # as a search's allowance takes it\n"
        "        pass\n"
        f"    with open({str(out)!r}, 'w') as f:\n"
        "        f.write(' '.join([word, os.environ['CHESSTOURS_COMPILING'], os.readlink('/proc/self/fd/1'),\n"
        "                          sys.stderr.name, str(signal.getsignal(signal.SIGINT) is signal.SIG_DFL)]))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_warm", raising=False)  # each test's own, writing to its own file
    return out


linux = pytest.mark.skipif(not background.sys.platform.startswith("linux"), reason="copies of the process: Linux")


@linux
@pytest.mark.parametrize("args, word", [((), "plain"), (("bishop",), "bishop")])
def test_a_copy_of_the_process_calls_warm_with_its_arguments_and_ends_with_status_0(warmer, args, word):
    import fake_warm

    copy = background.Forked(fake_warm.warm, args)
    assert copy.wait(timeout=60) == 0 and copy.poll() == 0 and copy.returncode == 0
    # told it compiles (no copy of its own), its output on the null device, Ctrl-C at its default
    assert warmer.read_text() == f"{word} fake_warm {os.devnull} {os.devnull} True"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process's are left as they were


@linux
def test_a_copy_whose_call_raises_ends_with_status_1_and_a_killed_one_with_the_signal(warmer):
    import fake_warm

    assert background.Forked(fake_warm.warm, ("fail",)).wait(timeout=60) == 1
    copy = background.Forked(fake_warm.warm, ("wait",))
    with pytest.raises(background.subprocess.TimeoutExpired):
        copy.wait(timeout=0.05)
    assert copy.poll() is None
    background.stop_compiling(copy)
    assert copy.returncode == -signal.SIGKILL and not warmer.exists()
    copy.kill()  # ended: nothing to do


@linux
def test_threads_that_ask_at_once_whether_a_copy_still_runs_all_see_it_end(warmer):
    # the threads of a search each ask their allowance whether the kernels still compile: one reaps the copy,
    # and another asking at that moment must not wait for it a second time (no such child)
    import threading

    import fake_warm

    for _ in range(5):
        copy = background.Forked(fake_warm.warm, ())
        seen: list[object] = []

        def ask(copy=copy, seen=seen):
            try:
                while copy.poll() is None:
                    pass
                seen.append(copy.poll())
            except BaseException as exc:  # noqa: BLE001 - reported below
                seen.append(exc)

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert seen == [0] * 6 and copy.wait(timeout=1) == 0


@linux
def test_a_process_with_a_thread_of_its_own_compiles_in_a_new_interpreter(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CHESSTOURS_COMPILING", raising=False)
    import threading

    assert background.forks_to_compile()
    go = threading.Event()
    daemon = threading.Thread(target=go.wait, daemon=True)  # a live display's thread
    daemon.start()
    assert background.forks_to_compile()
    ours = threading.Thread(target=go.wait, daemon=True, name="chesstours-warm-up")  # may hold numba's lock
    ours.start()
    assert not background.forks_to_compile()
    go.set()
    ours.join()
    go.clear()
    pool = threading.Thread(target=go.wait)  # a pool's, which may too
    pool.start()
    try:
        assert not background.forks_to_compile()
        process = background.compile_in_background(os.path.normpath, "x")
        assert isinstance(process, background.subprocess.Popen) and process.wait(timeout=60) == 0
    finally:
        go.set()
        pool.join()
        daemon.join()
    process = background.compile_in_background(os.path.normpath, "x")
    assert isinstance(process, background.Forked) and process.wait(timeout=60) == 0


@linux
def test_a_copy_started_by_an_allowance_under_its_lock_can_take_that_lock(warmer, monkeypatch, tmp_path):
    # an allowance starts the process compiling its kernels holding the lock of those processes; the copy's
    # own searches take it too (their allowances), and would wait forever for the lock it inherited held
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CHESSTOURS_COMPILING", raising=False)
    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: False)
    monkeypatch.setattr(background, "COMPILING", {})
    import fake_warm

    allowance = engine.PlainAllowance(0, fake_warm.warm, ("fake_warm.py", "fake_warm.warm"))
    allowance.lasts()  # positions spent: the process is started (it may have ended already: not asserted)
    copy = allowance.compiling
    try:
        assert isinstance(copy, background.Forked)
        assert copy.wait(timeout=30) == 0 and warmer.read_text().startswith("plain fake_warm")
    finally:
        background.stop_compiling(copy)
