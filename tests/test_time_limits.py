"""Every entry point that takes a time limit stops within it (plus about a second), whatever it is doing.

Each call below would run for minutes or hours; each is given one second
and must stop with LimitReached in time. The kernels are compiled first (a
cold compile is not search time). find_tour and complete_tour share
iter_tours's way of stopping (the clock read before every chunk of search).
"""

from __future__ import annotations

import time

import pytest

import chesstours as ct
from chesstours.count import count_strip

LIMIT = 1.0
#: What a stop may add to the limit: the last chunk of work, and a loaded machine's scheduling.
SLACK = 1.5
#: Work in tasks also starts (and at the limit stops) a pool of processes.
POOL_SLACK = 3.0


def _first(iterator):
    return [t for _, t in zip(range(10**9), iterator)]


CALLS = {
    "iter_tours, tours found many a second": lambda: _first(ct.iter_tours("6x6", time_limit=LIMIT)),
    "iter_tours in tasks, on two processes": lambda: _first(ct.iter_tours("6x6", jobs=2, time_limit=LIMIT)),
    "count_tours by backtracking": lambda: ct.count_tours("7x7", start="a1", method="backtrack",
                                                          time_limit=LIMIT),
    "count_tours in tasks": lambda: ct.count_tours("7x7", start="a1", method="backtrack", jobs=2,
                                                   time_limit=LIMIT),
    "count_tours by the frontier": lambda: ct.count_tours("7x8", method="frontier", time_limit=LIMIT),
    "solve_bishop, shortest, on a large board": lambda: ct.solve_bishop("20x20", shortest=True,
                                                                        time_limit=LIMIT),
    "iter_bishop_routes": lambda: _first(ct.iter_bishop_routes("10x10", time_limit=LIMIT)),
    "count_bishop_routes": lambda: ct.count_bishop_routes("10x10", time_limit=LIMIT),
    # planning the sweep of 1.5 million squares alone takes most of a minute
    "count_strip of a long strip, while it plans": lambda: count_strip(5, [300_000], time_limit=LIMIT),
    # cutting a listing of 500x500 into tasks sizes each task in a good part of a second
    "iter_tours in tasks on a large board": lambda: _first(ct.iter_tours("500x500", start="b2", jobs=2,
                                                                         time_limit=LIMIT)),
}


@pytest.fixture(scope="module", autouse=True)
def compiled():
    for call in CALLS.values():  # compile every kernel once
        try:
            call()
        except ct.ChessToursError:
            pass


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_time_limit_holds(name):
    t0 = time.perf_counter()
    with pytest.raises(ct.LimitReached):
        CALLS[name]()
    assert time.perf_counter() - t0 < LIMIT + (POOL_SLACK if "tasks" in name else SLACK)


def test_a_count_s_time_limit_counts_its_plan_too(monkeypatch):
    """A count's plan (the estimate's probes run in Python on an empty compile cache: a second or two) spends the
    limit too: a plan made slow here leaves the count the rest, not the whole limit again."""
    import chesstours.count as count_module

    plan = count_module.policy.plan_count

    def slow_plan(*args, **kwargs):
        time.sleep(2 * LIMIT)
        return plan(*args, **kwargs)

    monkeypatch.setattr(count_module.policy, "plan_count", slow_plan)
    t0 = time.perf_counter()
    with pytest.raises(ct.LimitReached):
        ct.count_tours("7x7", start="a1", method="backtrack", time_limit=LIMIT)
    assert time.perf_counter() - t0 < 2 * LIMIT + 0.6  # the plan's two seconds and the stop; not three more


def test_tour_exists_on_a_long_board_with_a_hole_answers_within_its_limit():
    """Before any search, the arguments over 3 million squares (the move table, the connected parts) are array
    operations of a second or two (not counted in the limit): the answer comes unsettled (None) soon after the
    limit."""
    t0 = time.perf_counter()
    answer = ct.tour_exists("3x1000000", holes=["d1"], time_limit=LIMIT)
    assert answer.answer is None and answer.proof == "limit"
    assert time.perf_counter() - t0 < 2 * (LIMIT + SLACK)
