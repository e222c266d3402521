"""The frontier method in plain Python makes the kernels' states, and counts while the kernels compile."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesstours import Board
from chesstours.errors import LimitReached
from chesstours.frontier import count_strip, frontier_count, plain, run
from chesstours.frontier import kernel as fk
from chesstours.frontier.join import python as plain_join
from chesstours.frontier.plan import best_plan
from chesstours.frontier.sweep import _quick_slots, choose_halves, estimate_extended, estimate_states
from chesstours.pieces import CAMEL, KNIGHT, ZEBRA, Leaper
from chesstours.runtime import background, cache, stop_compiling


def _kernel_step(states: dict[int, int], step, budget: int, closed: bool, finish: bool) -> tuple[dict[int, int], int]:
    """One step of the compiled sweep over ``states`` (keys and counts): the new states and the tours finished."""
    keys = np.array(list(states), np.uint64)
    counts = np.array(list(states.values()), np.uint64)
    room = (len(states) + 1) * step.choice_a.size
    bk, bl, bh = (np.zeros(room, np.uint64) for _ in range(3))
    nbuf, acc, err = np.zeros(1, np.int64), np.zeros(2, np.uint64), np.zeros(1, np.int64)
    fk.expand(keys, counts, np.zeros(0, np.uint64), 0, keys.size, step.nprev, step.choice_a, step.choice_b,
              step.one_end, step.departs, step.keep, step.mirror, step.single,
              step.choice_mask, step.free_need, step.label_need, step.signs, step.balance2, budget, closed, finish,
              bk, bl, bh, nbuf, acc, err, fk.scratch())
    out: dict[int, int] = {}
    for k, c in zip(bk[:nbuf[0]].tolist(), bl[:nbuf[0]].tolist()):
        out[k] = out.get(k, 0) + c
    return out, int(acc[0])


def test_the_comparisons_read_every_work_code_as_the_tables_do():
    codes = np.arange(256, dtype=np.uint8).reshape(16, 16) % 16  # every code, in rows as the steps hold them
    assert (plain.labelled_codes(codes) == plain._LABELLED[codes].astype(bool)).all()
    assert (plain._kind(codes) == plain._KIND_OF[codes]).all()
    assert (plain.degree_codes(codes) == plain._DEGREE[codes]).all()


def _same_steps(sweep, budget: int, closed: bool, finish: bool) -> None:
    """Every step of ``sweep`` makes the same states with the same counts in Python as in the kernel."""
    in_python, in_kernel = plain.EMPTY, {0: 1}
    for t, step in enumerate(sweep.steps):
        last = finish and t == len(sweep.steps) - 1
        in_python, done_python = plain.extend(in_python, step, budget, closed, last)
        in_kernel, done_kernel = _kernel_step(in_kernel, step, budget, closed, last)
        assert in_python.as_dict() == in_kernel, t
        assert done_python == done_kernel, t


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(3, 6), st.sampled_from([KNIGHT, ZEBRA, CAMEL, Leaper(1, 1), Leaper(0, 1)]),
       st.booleans(), st.data())
def test_each_step_in_python_makes_the_states_the_kernel_makes(rows, cols, piece, closed, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    board = Board(rows, cols, holes)
    if board.free_count < 3:
        return
    free = [int(v) for v in board.free_squares]
    start = data.draw(st.sampled_from([None, *free]))
    end = data.draw(st.sampled_from([None, *[v for v in free if v != start]]))
    if closed:
        start = end = None  # (a closed count through a given edge: the whole-count tests below)
    budget = 2 - (start is not None) - (end is not None)
    _same_steps(best_plan(board, piece, start, end, closed), budget, closed, True)
    halves = choose_halves(board, piece, closed, start, end)
    if halves is not None:  # the halves of a meet in the middle: caps, kept squares, no tour finished
        _same_steps(halves.left, budget, closed, False)
        _same_steps(halves.right, budget, closed, False)


# -- whole counts on an empty compile cache -------------------------------------------------------------------


@pytest.fixture
def compiling(monkeypatch, tmp_path):
    """An empty compile cache: the frontier's kernels 'compile' in processes of ours (``start(seconds)``; None:
    no process, and the count runs compiled; ``start(steps=k)``: they are ready as soon as Python has made
    ``k`` steps, however fast this machine runs them). Every count here has them compile, however small (a
    count within ``PLAIN_ONLY_EXTENDED`` would run wholly in Python: see the tests after these)."""
    started: list[tuple[str, subprocess.Popen]] = []
    monkeypatch.setattr(run, "PLAIN_ONLY_EXTENDED", 0)
    ready = tmp_path / "compiled"

    def start(seconds: float | None = 60.0, steps: int | None = None) -> None:
        def compile_in_background(warm, *args) -> subprocess.Popen | None:
            if seconds is None:
                return None
            wait = f"import time; time.sleep({seconds})" if steps is None else (
                f"import os, time\nt = time.time() + {seconds}\n"
                f"while not os.path.exists({str(ready)!r}) and time.time() < t: time.sleep(0.002)")
            started.append((warm.__name__, subprocess.Popen([sys.executable, "-c", wait])))
            return started[-1][1]

        for module in (run, background):
            monkeypatch.setattr(module, "compile_in_background", compile_in_background)
        if steps is not None:
            extend, made = plain.extend, []

            def step_then_ready(*args, **kwargs):
                made.append(1)
                if len(made) == steps:
                    ready.touch()
                return extend(*args, **kwargs)

            monkeypatch.setattr(plain, "extend", step_then_ready)

    start(None)
    monkeypatch.setattr(run, "compiled_below", lambda *args: False)
    for module in (run, cache):
        monkeypatch.setattr(module, "in_cache_folder", lambda source, name: False)
    yield start, started
    for _, process in started:
        stop_compiling(process)


@pytest.mark.parametrize(("rows", "cols", "closed"), [(6, 6, True), (5, 5, False), (4, 9, False), (5, 6, True)])
def test_a_small_count_runs_in_python_and_never_compiles_the_join(compiling, rows, cols, closed):
    start, started = compiling
    compiled = frontier_count(Board(rows, cols), KNIGHT, closed)
    start(60)
    counted = frontier_count(Board(rows, cols), KNIGHT, closed)
    assert counted.count == compiled.count and counted.states_total == compiled.states_total
    assert counted.pairs == compiled.pairs and counted.how == compiled.how
    assert counted.plain_states == counted.states_total and counted.threads == 1  # every state in Python
    assert [m for m, _ in started] == ["warm"]  # no process for the join's kernels
    assert started[0][1].poll() is not None  # stopped with the count


@pytest.mark.parametrize("cached", [False, True])
@pytest.mark.parametrize(("rows", "cols", "closed"), [(6, 7, True), (5, 7, False), (4, 16, False)])
def test_a_count_forecast_small_runs_wholly_in_python_without_compiling(compiling, monkeypatch, rows, cols, closed,
                                                                       cached):
    start, started = compiling
    compiled = frontier_count(Board(rows, cols), KNIGHT, closed)
    assert compiled.plain_states == 0
    start(60)
    monkeypatch.setattr(run, "PLAIN_ONLY_EXTENDED", 400_000)
    for module in (run, cache):
        monkeypatch.setattr(module, "in_cache_folder", lambda source, name: cached)
    counted = frontier_count(Board(rows, cols), KNIGHT, closed)
    assert counted.count == compiled.count and counted.states_total == compiled.states_total
    assert counted.plain_states == counted.states_total and not started  # no process compiles anything
    assert run.allowance(1e5, [], 1e5).compiling is None and run.runs_wholly_here(1e5, 1e5)
    # a process that has loaded the kernels counts in them
    monkeypatch.setattr(run, "compiled_below", lambda *args: True)
    assert run.allowance(1e5, [], 1e5) is None and not run.runs_wholly_here(1e5, 1e5)


@pytest.mark.parametrize("cached", [False, True])
def test_a_count_that_would_take_a_while_in_python_runs_in_the_kernels_where_they_are_cached(compiling, monkeypatch,
                                                                                            cached):
    from chesstours.settings import FRONTIER_PLAIN_ONLY_EXTENDED

    monkeypatch.setattr(run, "PLAIN_ONLY_EXTENDED", FRONTIER_PLAIN_ONLY_EXTENDED)
    for module in (run, cache):
        monkeypatch.setattr(module, "in_cache_folder", lambda source, name: cached)
    wide = run.PLAIN_CACHED_UP_TO + 1  # 6x6 open extends 1.4 million states: a second in Python
    assert (run.allowance(1e6, [], wide) is None) == cached and run.runs_wholly_here(1e6, wide) != cached
    assert run.allowance(1e5, [], 1e5).compiling is None  # a count this small is quicker here, cached or not


@pytest.mark.parametrize(("rows", "cols", "closed"), [(6, 6, True), (5, 7, False), (4, 9, False)])
def test_counts_held_as_python_ints_count_the_same(compiling, monkeypatch, rows, cols, closed):
    start, _ = compiling
    compiled = frontier_count(Board(rows, cols), KNIGHT, closed)
    start(60)
    monkeypatch.setattr(plain, "WIDE_FROM", 0.0)  # as if every count could pass 63 bits
    made = []
    extend = plain.extend

    def spy(*args, **kwargs):
        made.append(extend(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(plain, "extend", spy)
    counted = frontier_count(Board(rows, cols), KNIGHT, closed)
    assert counted.count == compiled.count and counted.plain_states == counted.states_total
    # every step in Python ints, and so the join, which multiplies the counts of the last steps
    assert made and all(states.counts.dtype == object for states, _ in made)


def test_a_count_moves_to_the_kernels_once_they_are_compiled(compiling):
    start, started = compiling
    compiled = frontier_count(Board(6, 8), KNIGHT, True)  # 439 thousand states: a second or so in Python
    start(steps=1)
    counted = frontier_count(Board(6, 8), KNIGHT, True)
    assert counted.count == compiled.count == 55_488_142 and counted.states_total == compiled.states_total
    assert 0 < counted.plain_states < counted.states_total
    # the join's kernels compile once the count leaves Python, and it waits for them
    assert [m for m, _ in started] == ["warm", "warm_join"]
    assert all(p.returncode == 0 for _, p in started)


def test_a_count_past_its_states_in_python_compiles_the_join_and_goes_on_in_python(compiling, monkeypatch):
    start, started = compiling
    compiled = frontier_count(Board(6, 7), KNIGHT, True)
    monkeypatch.setattr(run, "PLAIN_STATES", 5_000)
    start(60)  # the kernels are not ready before the count ends: it never waits for them
    counted = frontier_count(Board(6, 7), KNIGHT, True)
    assert counted.count == compiled.count == 1_067_638
    assert counted.plain_states == counted.states_total == compiled.states_total > 5_000
    # past 5,000 states the join's kernels start compiling too; both processes are stopped with the count
    assert [m for m, _ in started] == ["warm", "warm_join"]
    assert all(p.poll() is not None for _, p in started)


def test_a_large_count_starts_in_the_kernels(compiling):
    start, started = compiling
    start(60)
    assert run.allowance(4e6) is None and not started  # a forecast past PLAIN_FORECAST (7x7 closed's is 6.5 million)
    assert run.allowance(2.7e6, extended=5.4e5, sweep=run.warm).compiling is started[0][1]  # 6x6 open: in Python while they compile


@pytest.mark.parametrize(("rows", "cols", "closed", "in_python"),
                         [(5, 9, False, True), (6, 8, True, True), (5, 10, False, False), (6, 9, True, False)])
def test_a_long_count_by_halves_starts_in_the_kernels_with_the_join_compiling_beside(compiling, rows, cols, closed,
                                                                                     in_python):
    start, started = compiling
    board = Board(rows, cols)
    compiled = frontier_count(board, KNIGHT, closed)
    forecast = estimate_extended(board, estimate_states(_quick_slots(board, KNIGHT), closed), closed)
    assert 0.5 <= forecast / compiled.states_total <= 3.5  # the forecast of its work follows the work done
    assert (forecast <= run.PLAIN_EXTENDED) == in_python
    # ready after Python's first step (where the count starts there), else a moment after the count starts
    start(steps=1) if in_python else start(0.3)
    counted = frontier_count(board, KNIGHT, closed)
    assert counted.count == compiled.count and counted.states_total == compiled.states_total
    if in_python:  # Python first, until the sweep's kernels are ready; then the join's compile
        assert counted.plain_states > 0
        assert [m for m, _ in started] == ["warm", "warm_join"]
    else:  # this process compiles the sweep's kernels while another compiles the join's, from the start
        assert counted.plain_states == 0
        assert [m for m, _ in started] == ["warm_join"]


def test_strips_count_every_length_in_python(compiling):
    start, started = compiling
    compiled = count_strip(3, 14, KNIGHT, closed=True)
    start(60)
    counted = count_strip(3, 14, KNIGHT, closed=True)
    assert counted.per_length == compiled.per_length and counted.plain_states == counted.states_total > 0


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.integers(3, 5), st.integers(4, 6), st.booleans(), st.data())
def test_counts_in_python_are_the_kernels_counts(compiling, rows, cols, closed, data):
    start, _ = compiling
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=2))
    board = Board(rows, cols, holes)
    free = [int(v) for v in board.free_squares]
    ends = data.draw(st.sampled_from([(None, None), (free[0], None), (free[0], free[-1])]))
    start(None)
    compiled = frontier_count(board, KNIGHT, closed, *ends)
    start(60)
    counted = frontier_count(board, KNIGHT, closed, *ends)
    assert counted.count == compiled.count
    if counted.max_slots:  # a sweep ran (not a closed count through two squares that no move joins)
        assert counted.plain_states == counted.states_total


def test_the_time_limit_stops_a_count_in_python(compiling):
    start, started = compiling
    start(60)
    with pytest.raises(LimitReached) as info:
        frontier_count(Board(6, 8), KNIGHT, True, deadline=time.perf_counter() + 0.2)
    assert info.value.partial.complete is False and started[0][1].poll() is not None


def test_a_count_on_an_empty_cache_ends_in_python_and_leaves_nothing_behind(tmp_path):
    code = ("import sys\nfrom chesstours import count_tours\n"
            "c = count_tours('6x6', closed=True, method='frontier')\n"
            "print(c.directed, c.extra['plain_states'], 'numba' in sys.modules)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["19724", "32848", "False"]  # every state in Python; numba never loaded
    time.sleep(0.5)  # the compiling process was stopped: nothing is written after the count
    written = sorted(tmp_path.rglob("*"))
    time.sleep(1.0)
    assert sorted(tmp_path.rglob("*")) == written


def test_the_command_says_how_much_of_a_count_ran_in_python(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-m", "chesstours", "count", "5x5", "--method", "frontier"],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    assert "undirected: 864" in out.stdout
    assert "19,463 states extended in plain Python" in out.stdout


def test_the_time_limit_stops_a_join_in_python_with_what_the_halves_cost(compiling, monkeypatch):
    start, _ = compiling
    start(60)
    deadline = time.perf_counter() + 5.0  # the halves of 6x6 closed take about half a second in Python
    read_half = plain_join.read_half

    def slow_read_half(*args):
        time.sleep(max(0.0, deadline - time.perf_counter()) + 0.1)  # the deadline passes before the join
        return read_half(*args)

    monkeypatch.setattr(plain_join, "read_half", slow_read_half)
    with pytest.raises(LimitReached, match="while joining the two halves") as info:
        frontier_count(Board(6, 6), KNIGHT, True, deadline=deadline)
    partial = info.value.partial
    assert partial.complete is False and partial.how == "meet in the middle"
    assert partial.seconds >= 5.0 and partial.states_total == 32_848 and partial.peak_bytes > 0


class _LastsOneStep:
    """An allowance that lets a sweep into plain Python for its first step and ends there: the kernels take over."""

    def __init__(self):
        self.looks = 0

    def lasts(self, pending: int = 0) -> bool:
        self.looks += 1
        return self.looks <= 2  # the sweep's look before it starts here, and the first step's

    def take(self, states: int) -> None:
        pass

    def await_sweep(self, deadline) -> None:
        pass


def test_a_sweep_that_leaves_python_with_a_count_past_one_limb_is_counted_again_in_two(monkeypatch):
    from chesstours.frontier.run import NarrowOverflow, run_sweep

    extend = plain.extend

    def huge(*args, **kwargs):  # a step whose counts pass 64 bits
        states, finished = extend(*args, **kwargs)
        return plain.States(states.rows, states.keys, np.array([2**70] * len(states), dtype=object)), finished

    monkeypatch.setattr(plain, "extend", huge)
    sweep = best_plan(Board(3, 4), KNIGHT, closed=False)
    allowance = _LastsOneStep()
    with pytest.raises(NarrowOverflow):  # the kernels count in one limb: the caller counts again in two
        run_sweep(sweep.steps, sweep.max_slots, False, 2, threads=1, allowance=allowance)
    assert allowance.looks == 3  # one step in Python, then the kernels
