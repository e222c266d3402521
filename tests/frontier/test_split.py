"""The frontier count in parts (chesstours.frontier.split): each part against a brute force, the parts' sum
against the whole count, on a process pool, a Dask cluster, and resumed from a checkpoint.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours import KNIGHT, Board, Leaper
from chesstours.errors import InvalidArgument, ResourceError
from chesstours.frontier import choose_halves, frontier_count
from chesstours.frontier.split import PartJob, count_part, frontier_parts, split_squares, worker_memory
from tests.oracle import neighbours, walk_all

SIX_OPEN = 6_637_920  # directed open tours of 6x6 (facts.md)
SEVEN_OPEN = 165_575_218_320  # directed open tours of 7x7 (facts.md)


def tours_by_edges(board: Board, piece: Leaper, closed: bool) -> list[tuple[frozenset, dict[int, frozenset]]]:
    """Every undirected path (or cycle) by plain recursion, with the tour edges at every square."""
    nb = neighbours(board, piece)
    seen: set[frozenset] = set()
    out = []

    def visit(path: list[int]) -> None:
        if closed and path[0] not in nb[path[-1]]:
            return
        edges = {frozenset(e) for e in zip(path, path[1:])} | ({frozenset((path[-1], path[0]))} if closed else set())
        key = frozenset(edges)
        if key in seen:
            return
        seen.add(key)
        at = {v: frozenset(u for e in edges if v in e for u in e if u != v) for v in nb}
        out.append((key, at))

    walk_all(nb, sorted(nb)[:1] if closed else sorted(nb), visit)  # every cycle passes the first square
    return out


@pytest.mark.parametrize("spec, closed", [("3x8", False), ("4x5", False), ("4x6", False), ("3x10", True)])
def test_each_part_counts_the_tours_with_those_edges_and_the_weights_make_the_whole(spec, closed):
    board = Board.parse(spec)
    tours = tours_by_edges(board, KNIGHT, closed)
    [s] = split_squares(board, KNIGHT, closed, None, None, 1)
    total = 0
    for part in frontier_parts(board, KNIGHT, closed, None, None, [s]):
        kept = set(part.fixed[0][1])
        want = sum(1 for _, at in tours if at[s] <= kept)  # the part's graph keeps only these edges at s
        got = count_part(PartJob(board, KNIGHT, closed, None, None, part))["count"]
        assert got == want, part.describe(board)
        total += part.weight * got
    assert total == len(tours) == frontier_count(board, KNIGHT, closed).count


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(3, 5), cols=st.integers(4, 6), closed=st.booleans(), k=st.integers(1, 2),
       ends=st.sampled_from(["none", "start", "both"]), data=st.data())
def test_the_parts_add_up_to_the_whole_count(rows, cols, closed, k, ends, data):
    board = Board(rows, cols)
    free = list(range(board.size))
    start = None if ends == "none" else data.draw(st.sampled_from(free))
    end = None if ends != "both" else data.draw(st.sampled_from([v for v in free if v != start]))
    try:
        squares = split_squares(board, KNIGHT, closed, start, end, k)
    except InvalidArgument:
        return  # too few squares to split on: said in one sentence
    parts = frontier_parts(board, KNIGHT, closed, start, end, squares)
    got = sum(p.weight * count_part(PartJob(board, KNIGHT, closed, start, end, p))["count"] for p in parts)
    assert got == frontier_count(board, KNIGHT, closed, start, end).count


def tours_by_search(board: Board, closed: bool, start: int | None) -> list[dict[int, frozenset]]:
    """Every undirected path (or cycle), by the backtracking search: the tour edges at every square."""
    out, seen = [], set()
    for tour in ct.iter_tours(board, start, closed=closed):
        path = list(tour.path)
        edges = {frozenset(e) for e in zip(path, path[1:])} | ({frozenset((path[-1], path[0]))} if closed else set())
        if frozenset(edges) not in seen:  # an open tour comes once from each end
            seen.add(frozenset(edges))
            out.append({v: frozenset(u for e in edges if v in e for u in e if u != v) for v in path})
    return out


@pytest.mark.parametrize("spec, closed, start", [("5x5", False, None), ("5x5", False, "a1"), ("5x6", True, None),
                                                  ("6x6", True, "c1"), ("5x6", False, "c3")])
def test_each_class_counts_the_tours_that_give_its_square_those_edges_in_the_left_half(spec, closed, start):
    board = Board.parse(spec)
    s = None if start is None else board.square(start)
    tours = tours_by_search(board, closed, s)
    left = set(choose_halves(board, KNIGHT, closed, s).left.order)
    squares = split_squares(board, KNIGHT, closed, s, None, 2)
    total = 0
    for part in frontier_parts(board, KNIGHT, closed, s, None, squares):
        assert part.weight == 1 and not part.fixed
        want = sum(1 for at in tours if all(len(at[v] & left) == c for v, c in part.classes))
        got = count_part(PartJob(board, KNIGHT, closed, s, None, part))["count"]
        assert got == want, part.describe(board)
        total += got
    assert total == len(tours) == frontier_count(board, KNIGHT, closed, s).count


@pytest.mark.parametrize("spec, piece, closed", [("6x6", Leaper(0, 1), False), ("6x6", Leaper(0, 1), True),
                                                  ("7x5", KNIGHT, False), ("6x5", KNIGHT, False)])
def test_classes_add_up_to_the_whole_count_for_other_leapers_and_shapes(spec, piece, closed):
    board = Board.parse(spec)
    squares = split_squares(board, piece, closed, None, None, 2)
    parts = frontier_parts(board, piece, closed, None, None, squares)
    assert all(p.classes and p.weight == 1 for p in parts)
    got = [count_part(PartJob(board, piece, closed, None, None, p))["count"] for p in parts]
    assert sum(got) == frontier_count(board, piece, closed).count and sum(1 for g in got if g) >= 2


def test_each_class_square_cuts_the_largest_part():
    board = Board(6, 6)
    # the parts keep every state (their classes are not symmetric): the shares are of the whole count that does too
    whole = frontier_count(board, KNIGHT, False, workers=1, mirror=False)
    largest = []
    for k in (1, 2, 3):
        parts = frontier_parts(board, KNIGHT, False, None, None, split_squares(board, KNIGHT, False, None, None, k))
        assert len(parts) == 3 ** k
        counts = [count_part(PartJob(board, KNIGHT, False, None, None, p)) for p in parts]
        assert sum(c["count"] for c in counts) == whole.count
        largest.append(max(c["max_states"] for c in counts))
    # the shares of the cost model in chesstours.frontier.split, for the first square and each further one
    assert largest[0] < 0.65 * whole.max_states
    assert largest[1] < 0.6 * largest[0] and largest[2] < 0.7 * largest[1]


def test_a_split_count_is_the_same_on_two_processes_and_with_every_option():
    c = ct.count_tours("5x6", method="frontier", jobs=2)
    assert (c.directed, c.undirected, c.method, c.complete) == (37_568, 18_784, "frontier", True)
    assert c.extra["split_on"] == ["d2"] and c.extra["tasks"] == 3  # on classes: a meet in the middle
    strip = ct.count_tours("4x7", method="frontier", jobs=2)  # on edges: one sweep
    assert strip.undirected == frontier_count(Board(4, 7), KNIGHT, False).count > 0
    assert strip.extra["tasks"] > 3 and len(strip.extra["split_on"]) == 1
    closed_from = ct.count_tours("6x6", closed=True, start="c1", split_on=1, jobs=2)
    assert (closed_from.directed, closed_from.undirected) == (2 * 9862, 9862)
    # a cycle through c1 is any cycle: the split is planned as the whole count's, which its parts then run
    assert split_squares(Board(8, 8), KNIGHT, True, 2, None, 8) == split_squares(Board(8, 8), KNIGHT, True, None, None, 8)
    to_end = ct.count_tours("6x6", closed=True, end="a1", split_on=1, jobs=2)
    assert to_end.end == Board(6, 6).square("a1") and to_end.undirected == 9862
    paths = ct.count_tours("5x5", start="a1", split_on=2, jobs=2)
    assert paths.directed == 304 and len(paths.extra["split_on"]) == 2


def test_a_split_count_is_the_same_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as local:
        c = ct.count_tours("6x5", method="frontier", cluster=local.scheduler_address)
    assert (c.directed, c.complete, c.extra["jobs"]) == (37_568, True, "cluster")


def test_a_split_count_interrupted_half_way_resumes_from_its_checkpoint_exactly(tmp_path):
    path = tmp_path / "parts.json"

    def stop_after_ten(p):
        if p.tasks_done == 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stop:
        ct.count_tours("5x6", method="frontier", jobs=2, split_on=3, checkpoint=path, progress=stop_after_ten)
    assert stop.value.partial.complete is False
    assert len(json.loads(path.read_text())["done"]) == 10
    resumed = []
    c = ct.count_tours("5x6", method="frontier", jobs=2, split_on=3, checkpoint=path,
                       progress=lambda p: resumed.append(1))
    assert c.directed == 37_568 and c.extra["tasks"] == 27 and len(resumed) == 27 - 10


def test_a_split_count_is_refused_or_stopped_in_one_sentence():
    with pytest.raises(InvalidArgument, match="splits the frontier count"):
        ct.count_tours("5x6", method="backtrack", split_on=1)
    with pytest.raises(InvalidArgument, match="at least 1"):
        ct.count_tours("5x6", split_on=0)
    with pytest.raises(InvalidArgument, match="square of its middle line|squares of its middle line"):
        ct.count_tours("3x4", split_on=3)
    with pytest.raises(InvalidArgument, match="fixed end"):
        frontier_parts(Board(4, 7), KNIGHT, False, 12, None, [12])
    with pytest.raises(InvalidArgument, match="not all decided"):  # a square of the left half's inside
        frontier_count(Board(6, 6), KNIGHT, False, classes={Board(6, 6).square("a1"): 1})
    with pytest.raises(InvalidArgument, match="too small or too narrow"):  # no meet in the middle: no classes
        frontier_count(Board(4, 7), KNIGHT, False, classes={Board(4, 7).square("d2"): 1})
    with pytest.raises(ct.LimitReached, match="parts counted and .* directed tours in them"):
        ct.count_tours("6x6", split_on=1, jobs=2, time_limit=0.1)  # its workers take longer to start


def test_a_part_is_held_to_its_memory_as_it_counts_not_to_the_whole_boards_forecast():
    board = Board(6, 6)
    parts = frontier_parts(board, KNIGHT, False, None, None, split_squares(board, KNIGHT, False, None, None, 1))
    roomy = 80 << 20  # each of the three parts peaks under 70 MiB
    with pytest.raises(InvalidArgument, match="would need about"):  # the whole board's forecast is over it
        frontier_count(board, KNIGHT, False, mirror=False, memory_limit=roomy)
    counts = [count_part(PartJob(board, KNIGHT, False, None, None, p, memory_limit=roomy)) for p in parts]
    assert 2 * sum(p.weight * c["count"] for p, c in zip(parts, counts)) == SIX_OPEN
    assert all(c["peak_bytes"] <= roomy for c in counts)
    with pytest.raises(ResourceError, match=r"^A part of the count of the tours of 6x6 by the frontier method "
                                            r"outgrew the 30\.0 MiB of memory a worker has .*--split-on"):
        count_part(PartJob(board, KNIGHT, False, None, None, parts[1], memory_limit=30 << 20))
    assert worker_memory() == ct.runtime.memory_limit()  # outside a Dask worker: this machine's share


def test_the_plan_of_a_split_count_lists_its_parts():
    plan = ct.policy.plan_count(Board(7, 7), split=True, jobs=2)
    assert plan.method == "frontier" and plan.extra["split_on"] == ["d2"] and plan.extra["task_count"] == 3
    assert "split on classes at d2" in plan.why
    assert plan.memory_bytes < plan.extra["whole_memory_bytes"] and plan.extra["cpu_hours"] > 0
    assert [t["part"] for t in plan.extra["tasks"]] == ["d2:0+2", "d2:1+1", "d2:2+0"]
    three = ct.policy.plan_count(Board(7, 7), split=True, jobs=2, split_on=3)
    assert three.extra["task_count"] == 27 and three.memory_bytes < plan.memory_bytes / 2
    board = Board(4, 7)  # one sweep: split on edges
    [s] = split_squares(board, KNIGHT, False, None, None, 1)
    d = len(neighbours(board, KNIGHT)[s])
    parts = frontier_parts(board, KNIGHT, False, None, None, [s])
    # d (d - 1) / 2 pairs of weight 1, d ends of weight -(d - 2)
    assert len(parts) == d * (d - 1) // 2 + d and sum(p.weight for p in parts) == d * (d - 1) // 2 - d * (d - 2)


def test_auto_in_tasks_counts_in_parts_where_backtracking_would_be_slower():
    # given a time limit, backtracking is not refused, however long it would take
    plan = ct.policy.plan_count(Board(8, 8), split=True, jobs=2, time_limit=5)
    assert plan.method == "frontier" and "exhaustive search is slower" in plan.why
    assert plan.refusal is None and plan.extra["task_count"] == 3 ** 8
    assert ct.policy.plan_count(Board(6, 7), closed=True, split=True, jobs=2).method == "backtrack"


def test_6x6_open_by_the_split_frontier_each_part_under_a_third_of_the_whole_counts_memory():
    # the parts keep every state (their classes are not symmetric), and so does this whole count: 27 parts
    # of 6x6 take 0.34 of its memory, 27 parts of 7x7 (below) under a quarter
    whole = frontier_count(Board(6, 6), KNIGHT, False, mirror=False)
    assert 2 * whole.count == SIX_OPEN
    c = ct.count_tours("6x6", method="frontier", jobs=2, split_on=3)
    assert c.directed == SIX_OPEN and c.extra["tasks"] == 27 and len(c.extra["split_on"]) == 3
    assert c.extra["peak_memory_mb"] * 2**20 < whole.peak_bytes / 2.5


@pytest.mark.skipif(not os.environ.get("CHESSTOURS_SLOW"), reason="about three minutes on two cores: set CHESSTOURS_SLOW=1")
def test_7x7_open_by_the_split_frontier_each_part_under_a_quarter_of_the_whole_counts_memory():
    # the whole count, then its 27 parts on two processes; by default the whole count keeps one state of each
    # mirror pair, which the note of the split's cost model compares as well
    whole = frontier_count(Board(7, 7), KNIGHT, False, mirror=False)
    assert 2 * whole.count == SEVEN_OPEN
    c = ct.count_tours("7x7", method="frontier", jobs=2, split_on=3)
    assert c.directed == SEVEN_OPEN and c.extra["tasks"] == 27 and c.extra["split_on"] == ["d2", "d4", "d6"]
    assert c.extra["peak_memory_mb"] * 2**20 < whole.peak_bytes / 4


@pytest.mark.skipif(not os.environ.get("CHESSTOURS_SLOW"), reason="about two minutes on two cores: set CHESSTOURS_SLOW=1")
def test_7x7_open_by_the_split_frontier_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as local:
        c = ct.count_tours("7x7", method="frontier", cluster=local.scheduler_address, split_on=3)
    assert (c.directed, c.extra["jobs"], c.extra["tasks"]) == (SEVEN_OPEN, "cluster", 27)
