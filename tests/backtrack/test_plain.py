"""The plain-Python backtracking (the first positions of every small search) against the compiled kernel.

The twins must leave the same arrays after every call -- the stack, the
registers, the counts, the estimates -- so that a search may start in Python
and go on in the kernel; and every count and tour the api gives through them
must be the kernel's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours import policy
from chesstours.backtrack import closed_tasks, open_tasks
from chesstours.backtrack import kernel as compiled
from chesstours.backtrack import plain as python
from chesstours.backtrack.search import Search
from chesstours.board import Board
from chesstours.pieces import GIRAFFE, KNIGHT, ZEBRA, Leaper, move_table
from chesstours.runtime import PlainAllowance, background, cache, engine

_ARRAYS = ("_visited", "_degree", "stack_square", "stack_next", "stack_count", "stack_cand", "stack_forced",
           "regs")


@pytest.fixture
def all_in_python(monkeypatch):
    """Every small search runs in plain Python to its end, as in a process that has not loaded the kernels."""
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)
    monkeypatch.setattr(engine, "PLAIN_SEARCH_POSITIONS", 10**12)


def _same_state(a: Search, b: Search) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in _ARRAYS)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.sampled_from([KNIGHT, ZEBRA, GIRAFFE, Leaper(0, 1), Leaper(1, 1)]),
       st.sampled_from(["fixed", "warnsdorff"]), st.booleans(), st.data())
def test_the_python_twin_leaves_the_kernels_arrays_after_every_call(rows, cols, piece, order, closed, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    board = Board(rows, cols, holes)
    if board.free_count < 2:
        return
    # pairs: tours on some last squares count twice
    tasks = closed_tasks(board, piece) if closed else open_tasks(board, piece, symmetry=False,
                                                                  pairs=data.draw(st.booleans()))
    if not tasks:
        return
    task = data.draw(st.sampled_from(tasks))
    table, mask = move_table(board, piece), board.hole_mask if board.holes else None
    budget = data.draw(st.sampled_from([1, 7, 100, 1 << 30]))
    stop = data.draw(st.booleans())
    a = task.search(table, mask, order, PlainAllowance(1 << 40))
    b = task.search(table, mask, order)
    assert np.array_equal(a.near, b.near) and a.done == b.done and _same_state(a, b)
    for _ in range(200):
        status_a, status_b = a.run(budget, stop_at_tour=stop), b.run(budget, stop_at_tour=stop)
        assert status_a == status_b and _same_state(a, b)
        if status_a == "exhausted":
            break
    assert a.estimate(60, seed=3) == b.estimate(60, seed=3)


def test_a_search_goes_on_in_the_kernel_where_python_left_it():
    table = move_table(Board(5, 6), KNIGHT)
    allowance = PlainAllowance(2500)
    mixed, kernel = Search(table, [0], plain=allowance), Search(table, [0])

    def tours(search: Search) -> list[tuple[int, ...]]:
        found = []
        while (status := search.run(300, stop_at_tour=True)) != "exhausted":
            if status == "found":
                found.append(tuple(search.path()))
        return found

    assert tours(mixed) == tours(kernel) and allowance.positions == 0
    assert (mixed.count, mixed.nodes) == (kernel.count, kernel.nodes) and kernel.count > 0


def test_probes_draw_the_same_numbers_in_python_and_in_the_kernel():
    board = Board(6, 6)
    table = move_table(board, KNIGHT)
    a, b = Search(table, [0, 13]), Search(table, [0, 13])
    args = lambda s: (s._ktable, s.near, s._visited, s._degree, s.prefix, int(s.stack_forced[1]), s.end_ok,  # noqa: E731
                      s.fixed_end, int(s.regs[5]), 500)
    rng_a, rng_b = np.array([12345], dtype=np.uint64), np.array([12345], dtype=np.uint64)
    assert python.probe(*args(a), rng_a) == compiled.probe(*args(b), rng_b)
    assert rng_a[0] == rng_b[0]


@pytest.mark.parametrize("board,kwargs,directed", [
    ("5x5", {}, 1728),
    ("5x5", {"start": "a1"}, 304),
    ("5x5", {"start": "c3"}, 64),
    ("3x4", {}, 16),
    ("4x5", {}, 164),
    ("5x6", {"closed": True}, 16),
    ("3x10", {"closed": True}, 32),
])
def test_counts_of_the_literature_in_plain_python(all_in_python, board, kwargs, directed):
    count = ct.count_tours(board, **kwargs)
    assert count.directed == directed and count.method == "backtrack"


def test_tours_found_and_listed_in_python_are_the_kernels(all_in_python, monkeypatch):
    python_tours = [t.path.tolist() for t in ct.iter_tours("5x5", start="a1")][:40]
    found = ct.find_tour("6x6", closed=True, method="backtrack")
    monkeypatch.setattr(engine, "PLAIN_SEARCH_POSITIONS", 0)
    assert python_tours == [t.path.tolist() for t in ct.iter_tours("5x5", start="a1")][:40]
    assert np.array_equal(found.path, ct.find_tour("6x6", closed=True, method="backtrack").path)
    found.validate()


def test_small_boards_start_in_python_and_large_ones_in_the_kernel(monkeypatch):
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)  # a fresh process
    assert policy.plain_allowance(Board(5, 5)).positions == policy.PLAIN_SEARCH_POSITIONS
    assert policy.plain_allowance(Board(20, 20)) is None


def test_once_the_kernels_are_loaded_small_boards_run_compiled_too():
    from chesstours.backtrack.search import load_kernels

    load_kernels()
    assert policy.plain_allowance(Board(5, 5)) is None
    assert engine.plain_allowance(25) is not None  # a family that names no kernels keeps its allowance


def test_small_queries_never_load_numba(tmp_path):
    code = ("import sys, chesstours as ct; ct.count_tours('5x5'); ct.count_tours('5x5', start='a1'); "
            "ct.find_tour('6x6', method='backtrack'); list(ct.iter_tours('5x5', start='a1')); "
            "ct.tour_exists('3x7', start='d2'); ct.count_bishop_routes('6x6'); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_process_that_asks_for_compiled_code_only_gets_it_on_every_board(monkeypatch):
    # What the web server does once its kernels are loaded: plain Python would hold the interpreter lock.
    engine.use_compiled_only(False)  # a process that has not asked for compiled code only
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)
    python_walk = ct.find_tour("12x12", method="warnsdorff").path.tolist()
    assert engine.compiled_below(144, 4096) is False
    engine.use_compiled_only()
    assert policy.plain_allowance(Board(5, 5)) is None
    assert engine.compiled_below(144, 4096) is True
    assert ct.find_tour("12x12", method="warnsdorff").path.tolist() == python_walk  # the same walk, compiled
    assert ct.count_tours("5x5", start="a1").directed == 304
    engine.use_compiled_only(False)
    assert policy.plain_allowance(Board(5, 5)).positions == policy.PLAIN_SEARCH_POSITIONS


def test_the_server_runs_small_searches_compiled_once_warmed_up(tmp_path):
    code = ("import sys, time, chesstours as ct\n"
            "from chesstours.runtime import background, cache, engine, processes\n"
            "from chesstours.web.service import warm_up\n"
            "warm_up(compiled_only=True)\n"
            "print(engine.plain_allowance(25) is None, 'chesstours.construct.kernel' in sys.modules,"
            " 'chesstours.warnsdorff.kernel' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True"]


def test_walks_and_rotations_run_compiled_on_small_boards_once_their_loops_are_loaded(monkeypatch):
    from chesstours.construct.plain import KERNELS

    engine.use_compiled_only(False)  # a process that has not asked for compiled code only
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)
    assert engine.compiled_below(30, 4096, KERNELS) is False  # a fresh process: plain Python
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: module == KERNELS)
    assert engine.compiled_below(30, 4096, KERNELS) is True
    assert engine.compiled_below(30, 4096, "chesstours.warnsdorff.kernel") is False
    tour = ct.find_tour("5x6", start="a1", end="b3", method="construct")  # rotated to its end by the kernel
    assert tour.end == Board(5, 6).square("b3")
    tour.validate()


def _spy(monkeypatch, module, name: str = "probe") -> list[int]:
    """Record each call of ``module.name`` (a plain-Python twin or a kernel)."""
    calls: list[int] = []
    real = getattr(module, name)

    def spy(*args):
        calls.append(1)
        return real(*args)

    if hasattr(real, "py_func"):  # a kernel's Python source, which its cache key is read from (runtime.cache_key)
        spy.py_func = real.py_func
    monkeypatch.setattr(module, name, spy)
    return calls


def test_an_estimate_of_few_probes_runs_them_all_in_python_on_an_allowance_of_its_own(monkeypatch):
    from chesstours.backtrack.tasks import PLAIN_PROBE_SQUARES, estimate_nodes, split_tasks

    in_kernel = _spy(monkeypatch, compiled)
    small = Board(6, 6)
    tasks = split_tasks(small, KNIGHT, open_tasks(small, KNIGHT, 0))
    allowance = PlainAllowance(50_000)
    assert 50 * len(tasks) * 36 <= PLAIN_PROBE_SQUARES  # the bound holds on 6x6 ...
    estimate = estimate_nodes(small, KNIGHT, tasks, plain=allowance)
    assert not in_kernel and allowance.positions == 50_000  # ... every probe in Python, the search's own intact
    assert estimate == estimate_nodes(small, KNIGHT, tasks)  # the kernel's probes draw the same
    large = Board(14, 14)
    tasks = split_tasks(large, KNIGHT, open_tasks(large, KNIGHT, 0))
    in_kernel.clear()
    estimate = estimate_nodes(large, KNIGHT, tasks, plain=PlainAllowance(50_000))
    assert in_kernel and estimate == estimate_nodes(large, KNIGHT, tasks)  # past the bound the kernel takes over


def test_a_count_whose_estimate_foresees_a_small_search_probes_in_python_with_the_kernel_cached(monkeypatch):
    # loading numba (0.6 to 0.9 s) would take longer than the whole count in Python
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)  # a fresh process ...
    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: True)  # ... every kernel cached
    monkeypatch.setattr(background, "compile_in_background", lambda warm, *args: None)
    in_python, in_kernel = _spy(monkeypatch, python), _spy(monkeypatch, compiled)
    searched = _spy(monkeypatch, compiled, "advance_count")
    c = ct.count_tours("6x6", piece="zebra")
    assert c.method == "backtrack" and c.directed == 0 and c.nodes > 0
    assert in_python and not in_kernel and not searched  # with the probes spent on the kernel: in_kernel


@pytest.fixture
def empty_cache(monkeypatch):
    """A fresh process on an empty compile cache, whose kernels 'compile' in a process of ours."""
    started: list[subprocess.Popen] = []

    def start(seconds: float) -> None:
        def compile_in_background(warm, *args):
            started.append(subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})"]))
            return started[-1]

        monkeypatch.setattr(background, "compile_in_background", compile_in_background)

    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)
    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: False)
    monkeypatch.setattr(background, "COMPILING", {})
    yield start, started
    for process in started:
        background.stop_compiling(process)


def test_a_search_goes_on_in_python_while_its_kernel_compiles_elsewhere(empty_cache, monkeypatch):
    start, started = empty_cache
    start(60)  # compiling longer than the search takes in Python
    in_kernel = _spy(monkeypatch, compiled, "advance")
    found = ct.find_tour("4x9", start="a1", method="backtrack")  # some 160,000 positions: past the allowance
    assert len(started) == 1 and started[0].poll() is None and not in_kernel
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: True)
    assert np.array_equal(found.path, ct.find_tour("4x9", start="a1", method="backtrack").path)  # the kernel's


def test_a_search_moves_to_the_kernel_once_it_is_compiled(empty_cache, monkeypatch):
    start, started = empty_cache
    by_frontier = ct.count_tours("5x6", method="frontier").directed  # before the stand-in compiles anything
    start(0.0)  # ready as soon as it has started: well before Python has searched the count
    in_kernel = _spy(monkeypatch, compiled, "advance_count")
    assert ct.count_tours("5x6").directed == by_frontier  # 271,000 positions: the kernel takes over
    assert len(started) == 1 and started[0].returncode == 0 and in_kernel


def _estimated_first(monkeypatch) -> None:
    """The policy estimates backtracking before it counts (else it counts 4x8 by the frontier method in plain
    Python at once: its forecast is small)."""
    from chesstours.policy import counting

    monkeypatch.setattr(counting, "PLAIN_FRONTIER_STATES", 0)


def test_a_count_goes_on_in_python_while_the_kernel_compiles_beside_its_estimate(empty_cache, monkeypatch):
    _estimated_first(monkeypatch)
    start, started = empty_cache
    by_frontier = ct.count_tours("4x8", method="frontier").directed
    start(60)  # compiling longer than the count takes in Python
    in_kernel = _spy(monkeypatch, compiled, "advance_count")
    counted = ct.count_tours("4x8")  # 748,000 positions, after an estimate: past the allowance, compiled elsewhere
    assert counted.method == "backtrack" and counted.directed == by_frontier and not in_kernel
    assert len(started) == 1 and started[0].poll() is None  # never waited for, and not started twice
    assert background.COMPILING["chesstours.backtrack.search"] is started[0]  # stopped at exit, or by the fixture


def test_a_count_moves_to_the_kernel_compiled_beside_its_estimate(empty_cache, monkeypatch):
    _estimated_first(monkeypatch)
    start, started = empty_cache
    by_frontier = ct.count_tours("4x8", method="frontier").directed
    start(0.2)
    in_kernel = _spy(monkeypatch, compiled, "advance_count")
    assert ct.count_tours("4x8").directed == by_frontier and in_kernel  # the kernel took over
    assert len(started) == 1 and started[0].returncode == 0


def test_a_warm_cache_starts_no_compiling_process(monkeypatch):
    by_frontier = ct.count_tours("5x6", method="frontier").directed
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)
    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: True)
    monkeypatch.setattr(background, "compile_in_background", lambda warm, *args: pytest.fail("compiled again"))
    in_kernel = _spy(monkeypatch, compiled, "advance_count")
    assert ct.count_tours("5x6").directed == by_frontier and in_kernel


def test_the_compiling_process_is_stopped_when_the_query_ends_before_it(tmp_path):
    code = ("import sys, chesstours as ct\nfrom chesstours.runtime import background, cache, engine, processes\n"
            "ct.find_tour('4x9', start='a1', method='backtrack')\n"
            "print(engine.kernels_loaded('chesstours.backtrack.kernel'),\n"
            "      [p.pid for p in background.COMPILING.values() if p.poll() is None])\n")
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    loaded, pids = out.stdout.split(maxsplit=1)
    assert loaded == "False"  # the search ended in Python: no kernel was loaded (numba was, for its cache key)
    pids = eval(pids)  # noqa: S307 - a list of ints printed above
    assert len(pids) == 1  # compiling when the search ended ...
    status = Path(f"/proc/{pids[0]}/status")
    assert not status.exists() or "State:\tZ" in status.read_text()  # ... and stopped with the process


def test_queries_on_an_empty_cache_share_one_compiling_process(empty_cache):
    start, started = empty_cache
    start(60)
    allowances = [policy.plain_allowance(Board(5, 6)) for _ in range(5)]
    for allowance in allowances:
        allowance.spend()
    assert all(allowance.lasts() for allowance in allowances)  # in Python while the kernel compiles ...
    assert len(started) == 1  # ... in one process for them all
