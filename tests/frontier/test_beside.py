"""A count by the meet in the middle wholly in plain Python on two cores: its right half and half its join in a
copy of the process (:func:`chesstours.machine.run_beside`)."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time

import pytest

from chesstours import machine
from chesstours.board import Board
from chesstours.errors import LimitReached
from chesstours.frontier import join, plain
from chesstours.frontier.run import OverMemory
from chesstours.frontier.sweep import frontier_count
from chesstours.pieces import KNIGHT
from tests.processes import ctrl_c_as_on_a_terminal, processes_with

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, and reads /proc")


@pytest.fixture
def two_cores(monkeypatch):
    """Two cores for the count, whatever the machine has; the count runs wholly in Python (no kernel loaded), and
    every copy of the process it starts is recorded."""
    monkeypatch.setattr(machine, "cores", lambda: 2)
    monkeypatch.setattr(plain, "compiled_below", lambda *args: False)
    monkeypatch.setattr(plain, "_plain_only_states", 0)
    monkeypatch.setattr(plain, "PLAIN_ONLY_EXTENDED", 0)  # past it, and within PLAIN_ONLY_BESIDE: every count here
    started = []
    real = join.run_beside

    def recorded(call):
        started.append(call)
        return real(call)

    monkeypatch.setattr(join, "run_beside", recorded)
    return started


# (board, closed, undirected count): the tours of shared/facts.md, and the paths of 5x8 that the kernels count
@linux
@pytest.mark.parametrize("size, closed, count", [
    ("6x6", False, 3_318_960),  # 6,637,920 directed open tours
    ("6x8", True, 55_488_142),
    ("5x8", False, 18_061_054),
])
def test_a_count_with_a_half_beside_is_the_count_in_one_process(two_cores, monkeypatch, size, closed, count):
    board = Board.parse(size)
    beside = frontier_count(board, KNIGHT, closed, workers=2)
    assert len(two_cores) == 2, "the right half and half the join run in a copy of the process"
    monkeypatch.setattr(plain, "PLAIN_ONLY_EXTENDED", float("inf"))  # wholly in Python, in one process
    alone = frontier_count(board, KNIGHT, closed, workers=1)
    assert len(two_cores) == 2, "one worker: no copy"
    assert beside.count == alone.count == count
    assert beside.plain_states == beside.states_total == alone.states_total
    assert multiprocessing.active_children() == []


@linux
def test_a_count_that_runs_here_in_one_process_starts_no_copy(two_cores, monkeypatch):
    monkeypatch.setattr(plain, "PLAIN_ONLY_EXTENDED", 400_000)
    # 6x7 closed: forecast to extend 364 thousand states, 113,271 in fact; a copy would cost more than it saves
    result = frontier_count(Board.parse("6x7"), KNIGHT, True, workers=2)
    assert result.count == 1_067_638 and result.plain_states == result.states_total and not two_cores


@linux
def test_a_count_with_holes_and_an_end_with_a_half_beside_is_the_count_in_one_process(two_cores):
    board = Board.parse("6x6", ["c3"])
    start = board.square("b1")  # a1 is of the colour the hole leaves short: no tour from it
    beside = frontier_count(board, KNIGHT, False, start=start, workers=2)
    assert two_cores
    assert beside.count == frontier_count(board, KNIGHT, False, start=start, workers=1).count > 0


@linux
def test_the_time_limit_stops_both_processes(two_cores):
    with pytest.raises(LimitReached) as stopped:
        frontier_count(Board.parse("6x6"), KNIGHT, False, workers=2, deadline=time.perf_counter() + 0.2)
    assert not stopped.value.partial.complete
    assert two_cores and multiprocessing.active_children() == []


def _double(x: int) -> int:
    return 2 * x


class _Unpicklable(Exception):
    def __init__(self, a: int, b: int):
        super().__init__(f"{a} and {b}")


def _raise_unpicklable() -> None:
    raise _Unpicklable(1, 2)


@linux
def test_run_beside_returns_what_the_copy_returns_and_raises_what_it_raised():
    with machine.run_beside(lambda: _double(21)) as beside:
        assert beside.result() == 42
    with machine.run_beside(lambda: 1 // 0) as beside, pytest.raises(ZeroDivisionError):
        beside.result()
    # an exception whose arguments do not rebuild it still says what it was
    with machine.run_beside(_raise_unpicklable) as beside, pytest.raises(RuntimeError, match="_Unpicklable: 1 and 2"):
        beside.result()
    with machine.run_beside(lambda: os._exit(3)) as beside, pytest.raises(RuntimeError, match="exit status 3"):
        beside.result()
    assert multiprocessing.active_children() == []


@linux
def test_a_copy_still_running_is_killed_on_the_way_out():
    with machine.run_beside(lambda: time.sleep(60)) as beside:
        process = beside._process
        assert process.is_alive()
    assert not process.is_alive() and process.exitcode == -signal.SIGKILL


def test_over_memory_pickles_with_its_fields():
    again = pickle.loads(pickle.dumps(OverMemory(3, 24, 1000, 5 << 20, 4 << 20)))
    assert (again.step, again.steps, again.live, again.held, again.limit) == (3, 24, 1000, 5 << 20, 4 << 20)


def test_only_the_main_thread_of_a_linux_process_with_two_cores_forks(monkeypatch):
    import threading

    monkeypatch.setattr(machine, "cores", lambda: 2)
    assert machine.forks(2) == sys.platform.startswith("linux")
    assert not machine.forks(1)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(machine.forks(2)))
    thread.start()
    thread.join()
    assert seen == [False]  # a server's or a pool's thread: the copy could inherit another thread's lock held
    monkeypatch.setattr(machine, "cores", lambda: 1)
    assert not machine.forks(2)


@linux
@pytest.mark.skipif(machine.cores() < 2, reason="one core: the count runs in one process")
@pytest.mark.parametrize("sig, status, group", [(signal.SIGINT, 130, True), (signal.SIGTERM, 143, False)])
def test_ctrl_c_and_sigterm_stop_the_copy_too(tmp_path, sig, status, group):
    # a time limit no other test gives marks the processes of this count
    marker = "--time-limit 97.531"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "chesstours", "count", "6x6", "--method", "frontier",
                                *marker.split()], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=ctrl_c_as_on_a_terminal)
    deadline = time.monotonic() + 30
    while len(processes_with(marker)) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(processes_with(marker)) == 2, "the right half runs in a copy of the process"
    if group:  # Ctrl-C reaches every process of the terminal's group
        os.killpg(process.pid, sig)
    else:  # SIGTERM from a supervisor reaches the process alone
        process.send_signal(sig)
    _, err = process.communicate(timeout=30)
    assert process.returncode == status
    assert err.count("\n") == 1 and "Traceback" not in err
    time.sleep(0.2)
    assert processes_with(marker) == []
