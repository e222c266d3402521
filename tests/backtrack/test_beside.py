"""A count by backtracking wholly in plain Python on two processes (:func:`chesstours.backtrack.run_tasks_beside`),
and the plan that chooses it (:func:`chesstours.policy.counts_in_python_beside`)."""

from __future__ import annotations

import contextlib
import os
import sys
import time

import pytest

from chesstours import policy
from chesstours.backtrack import closed_tasks, open_tasks, run_tasks, run_tasks_beside, split_tasks, tasks
from chesstours.board import Board
from chesstours.pieces import KNIGHT, ZEBRA
from chesstours.policy import counting
from chesstours.runtime import background, engine, processes
from tests.processes import children_of, running

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, and reads /proc")


def _tasks(board: Board, piece=KNIGHT, closed: bool = False):
    made = closed_tasks(board, piece) if closed else open_tasks(board, piece, pairs=True)
    return split_tasks(board, piece, made)


@linux
@pytest.mark.parametrize("size, holes, piece, closed", [
    ("5x5", (), KNIGHT, False),
    ("6x6", (), KNIGHT, True),
    ("5x6", ("c3",), KNIGHT, False),
    ("5x7", (), ZEBRA, False),
])
def test_two_processes_count_and_visit_what_one_does(size, holes, piece, closed):
    board = Board.parse(size, holes)
    work = _tasks(board, piece, closed)
    one = run_tasks(board, piece, work, workers=1)
    two = run_tasks_beside(board, piece, work, plain=engine.PlainAllowance(10**9))
    assert (two.count, two.nodes, two.tasks_done, two.tasks_total) == (one.count, one.nodes, len(work), len(work))
    assert two.complete and two.stopped_by is None and two.extra["plain_processes"] == 2
    assert running(children_of(os.getpid())) == []


@linux
def test_6x6_has_9862_closed_tours_counted_on_two_processes():
    board = Board(6, 6)
    assert run_tasks_beside(board, KNIGHT, _tasks(board, closed=True), plain=engine.PlainAllowance(10**9)).count \
        == 9_862


@linux
def test_the_time_limit_stops_both_processes_with_what_they_counted():
    board = Board(6, 6)
    work = _tasks(board, closed=True)
    t0 = time.perf_counter()
    part = run_tasks_beside(board, KNIGHT, work, time_limit=0.05, plain=engine.PlainAllowance(10**9))
    assert time.perf_counter() - t0 < 5
    assert not part.complete and part.stopped_by == "time limit"
    assert 0 < part.nodes < 701_890 and part.count < 9_862 and part.tasks_done < len(work)
    assert running(children_of(os.getpid())) == []


@linux
def test_progress_reports_the_work_of_both_and_ctrl_c_stops_the_copy_with_what_both_counted(monkeypatch):
    monkeypatch.setattr(tasks, "BESIDE_REPORT", 0.0)
    board = Board(6, 6)
    work = _tasks(board, closed=True)
    reports = []

    def progress(result):
        reports.append(result)
        if result.nodes >= 200_000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        run_tasks_beside(board, KNIGHT, work, progress=progress, plain=engine.PlainAllowance(10**9))
    partial = caught.value.partial  # type: ignore[attr-defined]
    assert not partial.complete and partial.stopped_by == "interrupt" and partial.tasks_total == len(work)
    assert partial.tasks_done < len(work) and partial.nodes >= reports[-1].nodes >= 200_000
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    assert running(children_of(os.getpid())) == []
    assert 0 < partial.count < 9_862  # the tasks done, the copy's among them


def test_an_allowance_told_to_go_on_in_python_stops_its_compiling_process(monkeypatch, tmp_path):
    monkeypatch.setattr(background, "_COMPILING", {})
    allowance = engine.PlainAllowance(0, "fake", ("fake.py", "fake.warm"))
    process = background.subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        allowance.compile_with(process)
        assert background._COMPILING == {"fake": process}
        allowance.in_python(1_000)
        assert process.poll() is not None and background._COMPILING == {}
        assert allowance.positions == 1_000 and allowance.lasts() and allowance.compiling is None
    finally:
        background.stop_compiling(process)


@pytest.fixture
def cold(monkeypatch):
    """The count's kernel not compiled, and this process free to fork a copy."""
    monkeypatch.setattr(counting, "in_cache_folder", lambda *kernel: False)
    monkeypatch.setattr(counting, "forks", lambda processes: processes >= 2)


def _plan(size: str, closed: bool, allowance, **kw):
    return policy.plan_count(Board.parse(size), KNIGHT, None, None, closed, "backtrack", plain=allowance, **kw)


def test_a_count_estimated_within_the_bounds_runs_in_python_on_two_processes_on_an_empty_cache(cold, monkeypatch):
    allowance = engine.PlainAllowance(engine.PLAIN_SEARCH_POSITIONS)
    plan = _plan("6x6", True, allowance)  # 701,890 positions
    assert policy.PLAIN_BESIDE_FROM <= plan.states <= policy.PLAIN_BESIDE_POSITIONS
    assert policy.counts_in_python_beside(plan, allowance)
    assert not policy.counts_in_python_beside(plan, allowance, node_limit=10**6)  # bounds one search
    assert not policy.counts_in_python_beside(plan, allowance, workers=1)
    assert not policy.counts_in_python_beside(plan, None)  # compiled code from the start
    monkeypatch.setattr(counting, "in_cache_folder", lambda *kernel: True)
    assert not policy.counts_in_python_beside(plan, allowance)  # the kernel is compiled: it searches


def test_counts_past_the_bounds_or_not_estimated_are_not_run_in_python_on_two_processes(cold):
    allowance = engine.PlainAllowance(engine.PLAIN_SEARCH_POSITIONS)
    big = _plan("6x6", False, allowance)  # 17.5 million positions
    assert big.states > policy.PLAIN_BESIDE_POSITIONS and not policy.counts_in_python_beside(big, allowance)
    small = _plan("5x6", False, engine.PlainAllowance(engine.PLAIN_SEARCH_POSITIONS))  # 30 squares: no estimate
    assert small.states is None and not policy.counts_in_python_beside(small, allowance)


@linux
def test_a_count_searched_in_python_on_two_processes_never_readies_numba(cold, monkeypatch):
    # readying numba while the kernel compiles serves a count that will load it; this one stops the compiling
    import subprocess

    from chesstours import count as count_module

    monkeypatch.setattr(engine, "compiled_below", lambda *args: False)  # the kernels not loaded here
    monkeypatch.setattr(processes, "cores", lambda: 2)
    compiling = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # stands for the compiler
    monkeypatch.setattr(count_module, "compiled_beside", lambda module, kernel, call: contextlib.nullcontext(compiling))
    monkeypatch.setattr(count_module, "READY_NUMBA_POSITIONS", 1)  # every count estimated past it
    readied: list[bool] = []
    monkeypatch.setattr(count_module, "ready_numba", lambda: readied.append(True))
    try:
        c = count_module.count_tours("6x6", closed=True, method="backtrack")
    finally:
        background.stop_compiling(compiling)
    assert (c.undirected, c.extra["plain_processes"], readied) == (9_862, 2, [])
    assert compiling.returncode not in (0, None)  # the count stopped it: it searched in Python alone


@linux
def test_a_count_on_an_empty_cache_searches_on_two_processes_and_says_so(cold, monkeypatch, capsys):
    from chesstours import count as count_module
    from chesstours.cli import main

    monkeypatch.setattr(engine, "compiled_below", lambda *args: False)  # the kernels not loaded here
    monkeypatch.setattr(count_module, "compiled_beside", lambda module, kernel, call: contextlib.nullcontext(None))
    monkeypatch.setattr(processes, "cores", lambda: 2)
    c = count_module.count_tours("6x6", closed=True, method="backtrack")
    assert (c.undirected, c.nodes, c.extra["plain_processes"]) == (9_862, 701_890, 2)
    assert main(["count", "6x6", "--closed", "--method", "backtrack", "--start", "c3"]) == 0
    out = capsys.readouterr().out
    assert "undirected: 9,862\n" in out and "method:     backtrack, in plain Python on 2 processes\n" in out
