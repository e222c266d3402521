"""Backtracking against the facts of the literature and against brute force."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesstours import KNIGHT, Board, Leaper, LimitReached, count_tours, iter_tours
from chesstours.backtrack.search import Search
from chesstours.pieces import ZEBRA, move_table


def test_5x5_has_304_open_tours_from_a_corner():
    assert count_tours("5x5", start="a1").directed == 304


def test_5x5_tours_from_each_square():
    b = Board(5, 5)
    expected = {"a1": 304, "e5": 304, "c1": 56, "b2": 56, "d2": 56, "c3": 64, "b1": 0, "a2": 0, "c2": 0}
    for name, n in expected.items():
        assert count_tours(b, start=name).directed == n, name


def test_5x5_has_1728_directed_and_864_undirected_open_tours():
    c = count_tours("5x5")
    assert (c.directed, c.undirected) == (1728, 864)


def test_3x4_has_16_directed_open_tours_and_no_closed_one():
    assert count_tours("3x4").directed == 16
    assert count_tours("3x4", closed=True).undirected == 0


def test_4x5_has_164_directed_open_tours():
    c = count_tours("4x5")
    assert (c.directed, c.undirected) == (164, 82)


@pytest.mark.parametrize("board,cycles", [("3x10", 16), ("3x12", 176), ("5x6", 8), ("6x6", 9862)])
def test_closed_tour_counts(board, cycles):
    c = count_tours(board, closed=True)
    assert c.undirected == cycles
    assert c.directed == 2 * cycles


def test_6x6_has_524486_open_tours_from_a_corner():
    assert count_tours("6x6", start="a1").directed == 524_486


def test_6x6_has_6637920_directed_open_tours():
    c = count_tours("6x6")
    assert (c.directed, c.undirected) == (6_637_920, 3_318_960)


def test_closed_count_does_not_depend_on_the_start():
    assert count_tours("5x6", closed=True, start="c3").undirected == 8


def test_counting_with_one_worker_and_many_agrees():
    assert count_tours("5x5", workers=1).directed == count_tours("5x5", workers=2).directed == 1728


def test_listing_yields_as_many_tours_as_counted():
    tours = list(iter_tours("5x5", start="a1"))
    assert len(tours) == 304
    assert len({tuple(t.path) for t in tours}) == 304
    assert all(t.start == 0 and t.is_valid() for t in tours)
    closed = list(iter_tours("5x6", closed=True))
    assert len(closed) == 8 and all(t.closed and t.is_valid() for t in closed)


def test_fixed_end_counts_match_listing(brute):
    b = Board(4, 5)
    bf = brute(b)
    for (s, e), n in list(bf["per_pair"].items())[:12]:
        assert count_tours(b, start=s, end=e).directed == n


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.sampled_from([KNIGHT, ZEBRA, Leaper(0, 1), Leaper(1, 1), Leaper(0, 2)]), st.data())
def test_pruned_search_agrees_with_brute_force(rows, cols, piece, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    if len(holes) >= rows * cols:
        return
    board = Board(rows, cols, holes)
    bf = data.draw(st.just(None))  # keep hypothesis' data stream stable
    from tests.oracle import brute_force_counts

    bf = brute_force_counts(board, piece)
    table = move_table(board, piece)
    mask = board.hole_mask if board.holes else None
    for s in bf["free"]:
        search = Search(table, [s], holes=mask)
        search.run()
        assert search.count == bf["per_start"][s]
    assert count_tours(board, piece=piece, closed=True).undirected == bf["cycles"]
    total = sum(bf["per_start"].values())
    assert count_tours(board, piece=piece).directed == total


def test_resumable_search_finds_tours_one_at_a_time():
    table = move_table(Board(5, 5), KNIGHT)
    search = Search(table, [0], order="warnsdorff")
    seen = set()
    while search.run(stop_at_tour=True) == "found":
        seen.add(tuple(search.path()))
    assert len(seen) == 304
    assert search.count == 304


def test_budgeted_runs_add_up_to_the_same_count():
    table = move_table(Board(5, 6), KNIGHT)
    whole = Search(table, [0])
    whole.run()
    pieces = Search(table, [0])
    calls = 0
    while pieces.run(997) == "budget":
        calls += 1
    assert calls > 10
    assert (pieces.count, pieces.nodes) == (whole.count, whole.nodes)


@pytest.mark.parametrize("board, piece, closed", [(Board(5, 6), KNIGHT, False), (Board(6, 6), KNIGHT, True),
                                                   (Board(5, 5, holes=[12]), KNIGHT, False), (Board(3, 10), KNIGHT, False)])
def test_a_search_stopped_at_tours_then_counted_on_in_the_counts_kernel_adds_up(board, piece, closed):
    # a tour left on the stack is stepped back from by the search kernel; the count's kernel (the fixed order, no
    # stop) takes the rest, budget by budget, and the whole is what one count in either kernel finds
    table = move_table(board, piece)
    ends = [int(u) for u in table[0] if u >= 0] if closed else None
    holes = board.hole_mask if board.holes else None
    whole, mixed = (Search(table, [0], end_squares=ends, holes=holes) for _ in range(2))
    whole.run()
    listed = Search(table, [0], end_squares=ends, holes=holes)
    while listed.run(stop_at_tour=True) == "found":
        pass
    stops = 0
    while stops < 3 and mixed.run(stop_at_tour=True) == "found":
        stops += 1
    while mixed.run(997) == "budget":
        pass
    assert whole.count == listed.count == mixed.count and whole.nodes == listed.nodes == mixed.nodes
    assert whole.count > 0 and stops == min(3, whole.count)


def test_move_order_changes_the_first_tour_not_the_count():
    table = move_table(Board(5, 5), KNIGHT)
    a, b = Search(table, [0], order="fixed"), Search(table, [0], order="warnsdorff")
    a.run(stop_at_tour=True)
    b.run(stop_at_tour=True)
    assert not np.array_equal(a.path(), b.path())
    a.run(), b.run()
    assert a.count == b.count == 304
    assert a.nodes == b.nodes


def test_time_limit_stops_a_count_with_a_partial_result():
    with pytest.raises(LimitReached) as info:
        count_tours("7x7", start="a1", time_limit=0.3)
    partial = info.value.partial
    assert partial is not None and not partial.complete and partial.nodes > 0


def test_node_limit_stops_a_count():
    with pytest.raises(LimitReached):
        count_tours("7x7", start="a1", node_limit=100_000)


def test_a_task_from_a_start_ends_only_where_the_colours_allow():
    from chesstours.backtrack.tasks import open_tasks

    board = Board(6, 6)
    light = tuple(v for v in range(36) if board.colour(v))
    assert {t.end_squares for t in open_tasks(board, KNIGHT, start=0)} == {light}  # a1 is dark
    odd = Board(5, 5)
    dark = {v for v in range(25) if not odd.colour(v)}
    assert {t.end_squares for t in open_tasks(odd, KNIGHT, start=12)} == {tuple(sorted(dark - {12}))}
    assert {t.end_squares for t in open_tasks(odd, KNIGHT, start=1)} == {()}  # b1 is light: no tour
    assert count_tours(odd, start="b1", method="backtrack").directed == 0
    assert {t.end_squares for t in open_tasks(board, Leaper(1, 3), start=0)} == {None}  # a camel keeps its colour
    assert {t.end_squares for t in open_tasks(board, KNIGHT, start=0, end=7)} == {None}


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(2, 6), st.sampled_from([KNIGHT, ZEBRA, Leaper(0, 1), Leaper(1, 1)]), st.data())
def test_ending_only_where_the_colours_allow_drops_branches_and_no_tour(rows, cols, piece, data):
    from chesstours.backtrack.tasks import open_tasks, run_tasks

    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    if rows * cols - len(holes) < 2:
        return
    board = Board(rows, cols, holes)
    tasks = open_tasks(board, piece)
    anywhere = [dataclasses.replace(t, end_squares=None) for t in tasks]
    held, free = run_tasks(board, piece, tasks, workers=1), run_tasks(board, piece, anywhere, workers=1)
    assert held.count == free.count
    assert held.nodes <= free.nodes


def test_a_count_from_every_start_searches_each_pair_of_ends_from_one_of_them():
    from chesstours.backtrack.tasks import open_tasks, run_tasks

    board = Board(5, 5)
    tasks = open_tasks(board, KNIGHT, pairs=True)
    rank = {"a1": 0, "b1": 1, "c1": 2, "b2": 3, "c2": 4, "c3": 5}  # the orbits of the starts, in square order
    orbit = {board.name(int(p[board.square(n)])): k for n, k in rank.items() for p in board.symmetries()}
    for t in tasks:
        start = rank[board.name(t.prefix[0])]
        assert t.end_squares and all(orbit[board.name(u)] >= start for u in t.end_squares)
        assert set(t.doubled) == {u for u in t.end_squares if orbit[board.name(u)] > start}
    # b1 and c2 are light (no tour starts there); c3's tours end on the dark squares of earlier orbits
    assert {board.name(t.prefix[0]) for t in tasks} == {"a1", "c1", "b2"}
    both, once = run_tasks(board, KNIGHT, open_tasks(board, KNIGHT), workers=1), run_tasks(board, KNIGHT, tasks)
    assert both.count == once.count == 1728 and once.nodes < 0.7 * both.nodes
    six = Board(6, 6)
    both = run_tasks(six, KNIGHT, open_tasks(six, KNIGHT))
    once = run_tasks(six, KNIGHT, open_tasks(six, KNIGHT, pairs=True))
    assert both.count == once.count == 6_637_920 and once.nodes < 0.65 * both.nodes
    # the facts, and the frontier method's counts (which count each path once)
    for name, directed in [("3x4", 16), ("4x5", 164), ("3x7", None), ("3x8", None), ("5x6", None)]:
        if directed is None:
            directed = count_tours(name, method="frontier").directed
        for symmetry in (True, False):
            tasks = open_tasks(Board.parse(name), KNIGHT, symmetry=symmetry, pairs=True)
            assert run_tasks(Board.parse(name), KNIGHT, tasks).count == directed, (name, symmetry)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.sampled_from([KNIGHT, ZEBRA, Leaper(1, 3), Leaper(0, 1), Leaper(1, 1)]),
       st.booleans(), st.data())
def test_counting_each_pair_of_ends_once_counts_every_tour(rows, cols, piece, symmetry, data):
    from chesstours.backtrack.tasks import open_tasks, run_tasks

    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    if rows * cols - len(holes) < 1:
        return
    board = Board(rows, cols, holes)
    both = run_tasks(board, piece, open_tasks(board, piece, symmetry=symmetry), workers=1)
    once = run_tasks(board, piece, open_tasks(board, piece, symmetry=symmetry, pairs=True), workers=1)
    assert once.count == both.count
    assert once.nodes <= both.nodes
    # and the count of a start given is its own
    start = data.draw(st.sampled_from([int(v) for v in board.free_squares]))
    assert open_tasks(board, piece, start, pairs=True) == open_tasks(board, piece, start)


def test_a_signal_inside_the_wait_for_the_threads_is_raised_once_the_wait_is_over(monkeypatch):
    # raised inside the wait, the interrupt could leave one of the pool's locks taken, and the threads, which
    # take it to hand over their results, would never end
    import os
    import signal
    import threading

    from chesstours.backtrack import tasks as module

    class Stopped(KeyboardInterrupt):
        pass

    def stop(signum, frame):
        raise Stopped()

    calls, real_wait = [], module.wait

    def wait(*args, **kwargs):
        calls.append("in")
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        answer = real_wait(*args, **kwargs)
        calls.append("out")
        return answer

    monkeypatch.setattr(module, "wait", wait)
    board = Board(6, 6)
    before = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stopped) as stopped:
            module.run_tasks(board, KNIGHT, module.open_tasks(board, KNIGHT), workers=2)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert calls == ["in", "out"]
    assert stopped.value.partial.stopped_by == "interrupt" and not stopped.value.partial.complete
    assert not [t for t in threading.enumerate() if t.name.startswith("chesstours-count")]
