"""Starting processes without leaving one behind when an interrupt comes at that moment."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesstours.runtime import background, cache, engine, processes

from .processes import all_gone, running


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


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_interrupts_are_held_is_raised_once_the_body_is_done(sig):
    def stop(signum, frame):
        raise _Stopped(signum)

    before = signal.signal(sig, stop)
    try:
        done = []
        with pytest.raises(_Stopped):
            with processes.interrupts_held():
                os.kill(os.getpid(), sig)
                done.append("the wait")
        assert done == ["the wait"] and signal.getsignal(sig) is stop
    finally:
        signal.signal(sig, before)


# -- compiling in a second process (background.compile_in_background) ------------------------------------------


@pytest.fixture
def warmer(tmp_path, monkeypatch):
    """A module whose ``warm(word)`` writes, in the process that calls it, the word, the module the process
    is told it compiles, and where its standard output goes; ``warm('fail')`` raises, ``warm('wait')`` sleeps.
    The processes started find it on their path; compiling needs a cache folder."""
    out = tmp_path / "said.txt"
    (tmp_path / "fake_warm.py").write_text(
        "import os, time\n"
        "def warm(word='plain'):\n"
        "    if word == 'fail':\n"
        "        raise ValueError(word)\n"
        "    if word == 'wait':\n"
        "        time.sleep(30)\n"
        f"    with open({str(out)!r}, 'w') as f:\n"
        "        f.write(' '.join([word, os.environ['CHESSTOURS_COMPILING'], os.readlink('/proc/self/fd/1')]))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CHESSTOURS_COMPILING", raising=False)
    monkeypatch.delitem(sys.modules, "fake_warm", raising=False)  # each test's own, writing to its own file
    return out


linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux
@pytest.mark.parametrize("args, word", [((), "plain"), (("bishop",), "bishop")])
def test_a_compiling_process_calls_warm_with_its_words_and_ends_with_status_0(warmer, args, word):
    import fake_warm

    process = background.compile_in_background(fake_warm.warm, *args)
    assert process is not None and process.wait(timeout=60) == 0 and process.poll() == 0
    # told it compiles (so that it starts no process of its own), its output on the null device
    assert warmer.read_text() == f"{word} fake_warm {os.devnull}"


@linux
def test_a_compiling_process_whose_warm_raises_ends_with_status_1_and_a_stopped_one_with_the_signal(warmer):
    import fake_warm

    assert background.compile_in_background(fake_warm.warm, "fail").wait(timeout=60) == 1
    process = background.compile_in_background(fake_warm.warm, "wait")
    with pytest.raises(background.subprocess.TimeoutExpired):
        process.wait(timeout=0.05)
    assert process.poll() is None
    background.stop_compiling(process)
    assert process.returncode == -signal.SIGKILL and not warmer.exists()
    background.stop_compiling(process)  # ended: nothing to do


@linux
def test_a_compiling_process_ends_when_the_process_that_started_it_is_killed(warmer):
    parent = subprocess.Popen([sys.executable, "-c", "import time\nimport fake_warm\n"
                               "from chesstours.runtime import background\n"
                               "print(background.compile_in_background(fake_warm.warm, 'wait').pid, flush=True)\n"
                               "time.sleep(120)\n"], stdout=subprocess.PIPE, text=True)
    _ends_with(parent)


def test_no_compiling_process_without_a_cache_folder_or_from_a_compiling_process(warmer, monkeypatch):
    import fake_warm

    monkeypatch.setenv("CHESSTOURS_COMPILING", "fake_warm")  # such a process compiles what it needs itself
    assert background.compile_in_background(fake_warm.warm) is None
    monkeypatch.delenv("CHESSTOURS_COMPILING")
    monkeypatch.delenv("NUMBA_CACHE_DIR")  # nowhere to hand the kernels over
    assert background.compile_in_background(fake_warm.warm) is None


@linux
def test_queries_that_ask_at_once_share_one_compiling_process(warmer, monkeypatch):
    import fake_warm

    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: False)
    monkeypatch.setattr(background, "COMPILING", {})
    allowances = [engine.PlainAllowance(0, fake_warm.warm, lambda: ("fake_warm.py", "fake_warm.warm"), ("wait",))
                  for _ in range(3)]
    try:
        assert all(allowance.lasts() for allowance in allowances)  # in Python while the process compiles
        assert len({id(allowance.compiling) for allowance in allowances}) == 1
    finally:
        background.stop_compiling(allowances[0].compiling)


# -- processes that end with their parent (processes.die_with_parent) ----------------------------------------

SRC = Path(__file__).resolve().parents[1] / "src"


def _python(code: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", code], env=env, **kwargs)


@linux
@pytest.mark.parametrize("any_thread", [False, True])
def test_a_process_that_dies_with_its_parent_ends_when_the_parent_is_killed(any_thread):
    child = ("import os, sys, time\nfrom chesstours.runtime.processes import die_with_parent\n"
             f"die_with_parent(os.getppid(), any_thread={any_thread})\n"
             "print('ready', flush=True)\ntime.sleep(120)\n")
    parent = _python(f"import subprocess, sys, time\np = subprocess.Popen([sys.executable, '-c', {child!r}])\n"
                     "print(p.pid, flush=True)\ntime.sleep(120)\n", stdout=subprocess.PIPE, text=True)
    _ends_with(parent)


@linux
@pytest.mark.parametrize(("any_thread", "status"), [(False, -signal.SIGKILL), (True, 1)])
def test_a_process_whose_parent_ended_before_it_asked_to_die_with_it_ends_at_once(any_thread, status):
    # pid 1 is not this process's parent: as if its parent had ended before the call
    child = _python("import time\nfrom chesstours.runtime.processes import die_with_parent\n"
                    f"die_with_parent(1, any_thread={any_thread})\ntime.sleep(120)\n")
    try:
        assert child.wait(timeout=30) == status
    finally:
        child.kill()
        child.wait()


def _ends_with(parent: subprocess.Popen) -> None:
    """The process whose pid ``parent`` prints first runs, and is gone within 5 s of ``parent``'s SIGKILL."""
    try:
        pid = int(parent.stdout.readline())
        time.sleep(0.5)
        assert running([pid]) == [pid]
        parent.kill()
        parent.wait()
        assert all_gone([pid], set(), 5) == ([], [])
    finally:
        parent.kill()
        parent.wait()
