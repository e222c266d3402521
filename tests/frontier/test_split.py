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
from chesstours.errors import InvalidArgument
from chesstours.frontier import frontier_count
from chesstours.frontier.split import PartJob, count_part, frontier_parts, split_squares
from tests.oracle import neighbours, walk_all

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


def test_two_squares_hold_far_fewer_states_than_one_and_than_the_whole():
    board = Board(6, 6)
    whole = frontier_count(board, KNIGHT, False)
    one = [count_part(PartJob(board, KNIGHT, False, None, None, p))["max_states"]
           for p in frontier_parts(board, KNIGHT, False, None, None, split_squares(board, KNIGHT, False, None, None, 1))]
    assert max(one) < whole.max_states / 2
    two = frontier_parts(board, KNIGHT, False, None, None, split_squares(board, KNIGHT, False, None, None, 2))
    assert len(two) == len(one) ** 2
    sample = two[:: len(two) // 24]
    assert max(count_part(PartJob(board, KNIGHT, False, None, None, p))["max_states"] for p in sample) \
        < whole.max_states / 8


def test_a_split_count_is_the_same_on_two_processes_and_with_every_option():
    c = ct.count_tours("5x6", method="frontier", jobs=2)
    assert (c.directed, c.undirected, c.method, c.complete) == (37_568, 18_784, "frontier", True)
    assert c.extra["split_on"] == ["c3"] and c.extra["tasks"] == 36
    closed_from = ct.count_tours("6x6", closed=True, start="c1", split_on=1, jobs=2)
    assert (closed_from.directed, closed_from.undirected) == (2 * 9862, 9862)
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
        ct.count_tours("5x6", method="frontier", jobs=2, checkpoint=path, progress=stop_after_ten)
    assert stop.value.partial.complete is False
    assert len(json.loads(path.read_text())["done"]) == 10
    resumed = []
    c = ct.count_tours("5x6", method="frontier", jobs=2, checkpoint=path, progress=lambda p: resumed.append(1))
    assert c.directed == 37_568 and len(resumed) == 36 - 10


def test_a_split_count_is_refused_or_stopped_in_one_sentence():
    with pytest.raises(InvalidArgument, match="splits the frontier count"):
        ct.count_tours("5x6", method="backtrack", split_on=1)
    with pytest.raises(InvalidArgument, match="at least 1"):
        ct.count_tours("5x6", split_on=0)
    with pytest.raises(InvalidArgument, match="square of its middle line|squares of its middle line"):
        ct.count_tours("3x4", split_on=3)
    with pytest.raises(InvalidArgument, match="fixed end"):
        frontier_parts(Board(5, 5), KNIGHT, False, 12, None, [12])
    with pytest.raises(ct.LimitReached, match="parts counted"):
        ct.count_tours("6x6", split_on=1, jobs=2, time_limit=1.0)


def test_the_plan_of_a_split_count_lists_its_parts():
    plan = ct.policy.plan_count(Board(7, 7), split=True, jobs=2)
    assert plan.method == "frontier" and plan.extra["split_on"] == ["d4"] and plan.extra["task_count"] == 36
    assert plan.memory_bytes < plan.extra["whole_memory_bytes"] and plan.extra["cpu_hours"] > 0
    parts = frontier_parts(Board(7, 7), KNIGHT, False, None, None, [Board(7, 7).square("d4")])
    assert sum(p.weight for p in parts) == 28 - 6 * 8  # 28 pairs of weight 1, 8 ends of weight -(8 - 2)


@pytest.mark.skipif(not os.environ.get("CHESSTOURS_SLOW"), reason="about an hour on two cores: set CHESSTOURS_SLOW=1")
def test_7x7_open_by_the_split_frontier():
    c = ct.count_tours("7x7", method="frontier", jobs=2, split_on=1)
    assert c.directed == SEVEN_OPEN
