"""A count by the meet in the middle wholly in plain Python on two cores: its right half and half its join in a
copy of the process (:func:`chesstours.runtime.processes.run_beside`)."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time

import pytest

from chesstours.board import Board
from chesstours.errors import LimitReached
from chesstours.frontier import join, plain, plan
from chesstours.frontier.run import OverMemory
from chesstours.frontier.sweep import frontier_count
from chesstours.pieces import KNIGHT
from chesstours.runtime import processes, resources
from tests.processes import ctrl_c_as_on_a_terminal, processes_with

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, and reads /proc")


@pytest.fixture
def two_cores(monkeypatch):
    """Two cores for the count, whatever the machine has; the count runs wholly in Python (no kernel loaded), and
    every copy of the process it starts is recorded."""
    monkeypatch.setattr(processes, "cores", lambda: 2)
    monkeypatch.setattr(plain, "compiled_below", lambda *args: False)
    monkeypatch.setattr(plain, "_plain_only_states", 0)
    monkeypatch.setattr(plain, "PLAIN_ONLY_EXTENDED", 0)  # past it, and within PLAIN_ONLY_BESIDE: every count here
    started = []
    real = join.run_beside

    def recorded(call, talk=False):
        started.append(call)
        return real(call, talk)

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


def _shares(monkeypatch, side: int) -> list[tuple[int, int]]:
    """Share a half at the first step it may, from 100 states on: the left half (``side`` 0), whose process then
    waits for the copy's answer before each step; or the right (1), whose copy then waits before each step for
    the process to say it is idle. The halves and steps shared are recorded."""
    if side == 0:
        monkeypatch.setattr(processes.Beside, "ready", lambda self: self._conn.poll(None))
    else:
        monkeypatch.setattr(processes.Talk, "asked", lambda self: self._conn.poll(None))
    monkeypatch.setattr(join, "SHARE_FROM", 100)
    at = []
    real = join._shared

    def recorded(job, side, step, *args):
        at.append((side, step))
        return real(job, side, step, *args)

    monkeypatch.setattr(join, "_shared", recorded)
    return at


@pytest.fixture
def shares(two_cores, monkeypatch):
    """The left half is shared (see :func:`_shares`)."""
    return _shares(monkeypatch, 0)


@pytest.fixture
def shares_right(two_cores, monkeypatch):
    """The right half is shared (see :func:`_shares`)."""
    return _shares(monkeypatch, 1)


# (board, its holes, closed, the start, the undirected count): 6x6 and 6x8 closed keep one state of each mirror pair
# (the right half of 6x8 closed hands over); without a1 the left half ends on five times the states of the right,
# without f6 on fewer
@linux
@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("size, holes, closed, start, count", [
    ("6x6", "", False, None, 3_318_960),
    ("6x8", "", True, None, 55_488_142),
    ("6x6", "a1", False, None, 3_354_758),
    ("6x6", "f6", False, None, 3_354_758),
    ("6x6", "c3", False, "b1", 13_574),
])
def test_a_half_shared_between_the_processes_makes_the_states_and_the_count_of_one_process(
        two_cores, monkeypatch, side, size, holes, closed, start, count):
    shares = _shares(monkeypatch, side)
    board = Board.parse(size, holes)
    start = None if start is None else board.square(start)
    shared = frontier_count(board, KNIGHT, closed, start=start, workers=2)
    assert [s for s, _ in shares] == [side]
    # the right half in a copy; a part of the left half in a second copy, or a part of the right handed over here
    assert len(two_cores) == 2 - side
    monkeypatch.setattr(plain, "PLAIN_ONLY_EXTENDED", float("inf"))
    alone = frontier_count(board, KNIGHT, closed, start=start, workers=1)
    assert shared.count == alone.count == count
    # parted by the kinds of the squares the half has done with: no state is made in both parts
    assert shared.states_total == shared.plain_states == alone.states_total
    assert shared.halves == alone.halves and shared.max_states == alone.max_states
    assert multiprocessing.active_children() == []


@linux
@pytest.mark.parametrize("holes, indexed_there", [("f6", False), ("a1", True)])
def test_the_copy_leaves_the_index_to_the_process_that_said_it_was_idle_with_the_smaller_half(
        two_cores, monkeypatch, holes, indexed_there):
    monkeypatch.setattr(join._Share, "until", lambda self, step, states: False)  # no half shared
    monkeypatch.setattr(processes.Beside, "ready", lambda self: False)  # the process says it is idle ...
    monkeypatch.setattr(processes.Talk, "asked", lambda self: self._conn.poll(None))  # ... before the copy ends
    answers = []
    real = processes.Beside.next

    def recorded(self):
        done, answer = real(self)
        answers.append(answer)
        return done, answer

    monkeypatch.setattr(processes.Beside, "next", recorded)
    result = frontier_count(Board.parse("6x6", holes), KNIGHT, False, workers=2)
    assert result.count == 3_354_758
    # without f6 the left half is the smaller (301,733 states against 408,995): the copy reads no index, the
    # process has read its own; without a1 the larger (748,350 against 147,467): the copy reads its own
    right, index = answers[0]  # (then the copy joining half the streamed states answers)
    assert (index is not None) == indexed_there == (result.halves[0] > result.halves[1])
    assert multiprocessing.active_children() == []


@linux
def test_the_process_done_after_the_copy_reads_its_own_half_as_the_index_where_it_is_the_smaller(
        two_cores, monkeypatch):
    def until(self, step, states):
        if isinstance(getattr(self.idle, "__self__", None), processes.Beside):  # the process's left half
            while not self.idle():  # starts once the copy has swept the right half
                time.sleep(0.01)
        return False  # no half shared

    monkeypatch.setattr(join._Share, "until", until)
    indexed = []
    real = join._Beside.index
    monkeypatch.setattr(join._Beside, "index", lambda job, side, states: indexed.append(side) or real(job, side, states))
    # without f6 the left half is the smaller (301,733 states against 408,995): the copy, done first, tells how
    # many states its half ends on, and the process reads its own half as the index
    result = frontier_count(Board.parse("6x6", "f6"), KNIGHT, False, workers=2)
    assert result.count == 3_354_758 and result.halves == (301_733, 408_995)
    assert indexed == [0]
    assert multiprocessing.active_children() == []


@linux
@pytest.mark.parametrize("which", ["shares", "shares_right"])
def test_the_time_limit_stops_a_shared_half_in_both_processes(which, request, monkeypatch):
    shares = request.getfixturevalue(which)
    real = join._shared

    def late(job, *args):
        job.deadline = time.perf_counter()  # the limit passes as the half is shared
        return real(job, *args)

    monkeypatch.setattr(join, "_shared", late)
    with pytest.raises(LimitReached) as stopped:
        frontier_count(Board.parse("6x6", "a1"), KNIGHT, False, workers=2, deadline=time.perf_counter() + 60)
    assert shares and not stopped.value.partial.complete
    assert multiprocessing.active_children() == []


def test_the_squares_a_half_has_done_with_take_no_edge_later_and_pair_with_their_images():
    board = Board.parse("6x6")
    sweep = join.plan_halves(board, KNIGHT, False, 24).left
    image = plan.mirror_map(board)
    fronts, front = [], []  # the frontier before each step, and at the end
    for st in sweep.steps:
        fronts.append(front)
        combined = front + [st.square]
        front = [combined[int(i)] for i in st.keep]
    fronts.append(front)
    given = [{fronts[t][int(a)] for a in (*st.choice_a, *st.choice_b) if 0 <= a < len(fronts[t])}
             for t, st in enumerate(sweep.steps)]  # the squares of the frontier each step gives an edge
    settled = join._settled_slots(sweep, image)
    assert settled[0] == ([], []) and settled[-1][0] and any(slots for slots, _ in settled[:-1])
    for t, (slots, images) in enumerate(settled):
        done = [fronts[t][i] for i in slots]
        assert not set(done) & set().union(*given[t:]), t
        assert [image[u] for u in done] == [done[k] for k in images], t
        # every square of the frontier that no later step touches and whose image is one too is among them
        assert set(done) == {u for u in fronts[t] if not {u, image[u]} & set().union(*given[t:])
                             and image[u] in fronts[t]}, t


def _double(x: int) -> int:
    return 2 * x


class _Unpicklable(Exception):
    def __init__(self, a: int, b: int):
        super().__init__(f"{a} and {b}")


def _raise_unpicklable() -> None:
    raise _Unpicklable(1, 2)


@linux
def test_run_beside_returns_what_the_copy_returns_and_raises_what_it_raised():
    with processes.run_beside(lambda: _double(21)) as beside:
        assert beside.result() == 42
    with processes.run_beside(lambda: 1 // 0) as beside, pytest.raises(ZeroDivisionError):
        beside.result()
    # an exception whose arguments do not rebuild it still says what it was
    with processes.run_beside(_raise_unpicklable) as beside, pytest.raises(RuntimeError, match="_Unpicklable: 1 and 2"):
        beside.result()
    with processes.run_beside(lambda: os._exit(3)) as beside, pytest.raises(RuntimeError, match="exit status 3"):
        beside.result()
    assert multiprocessing.active_children() == []


def _talker(talk: processes.Talk) -> int:
    talk.tell("ready")
    question = talk.read()
    talk.tell(("half", question // 2))
    return question + int(talk.asked())


def test_a_copy_that_talks_tells_notes_reads_what_it_is_sent_and_answers_last():
    with processes.run_beside(_talker, talk=True) as beside:
        assert beside.next() == (False, "ready")
        assert beside.send(40)
        assert beside.next() == (False, ("half", 20))
        assert beside.next() == (True, 40)  # nothing more was sent: asked() said so
        assert not beside.send(1), "the copy has ended"
    with processes.run_beside(_talker, talk=True) as beside, pytest.raises(RuntimeError, match="told something"):
        beside.result()  # a note where the answer was awaited
    assert multiprocessing.active_children() == []


@linux
def test_a_copy_still_running_is_killed_on_the_way_out():
    with processes.run_beside(lambda: time.sleep(60)) as beside:
        process = beside._process
        assert process.is_alive()
    assert not process.is_alive() and process.exitcode == -signal.SIGKILL


def test_over_memory_pickles_with_its_fields():
    again = pickle.loads(pickle.dumps(OverMemory(3, 24, 1000, 5 << 20, 4 << 20)))
    assert (again.step, again.steps, again.live, again.held, again.limit) == (3, 24, 1000, 5 << 20, 4 << 20)


def test_only_the_main_thread_of_a_linux_process_with_two_cores_forks(monkeypatch):
    import threading

    monkeypatch.setattr(processes, "cores", lambda: 2)
    assert processes.forks(2) == sys.platform.startswith("linux")
    assert not processes.forks(1)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(processes.forks(2)))
    thread.start()
    thread.join()
    assert seen == [False]  # a server's or a pool's thread: the copy could inherit another thread's lock held
    monkeypatch.setattr(processes, "cores", lambda: 1)
    assert not processes.forks(2)


@linux
@pytest.mark.skipif(resources.cores() < 2, reason="one core: the count runs in one process")
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
