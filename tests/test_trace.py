"""The traced search tells the truth about the real search."""

from __future__ import annotations

from itertools import islice

import numpy as np
import pytest

from chesstours import count_tours, iter_tours
from chesstours.backtrack.search import Search
from chesstours.board import Board
from chesstours.colours import end_squares as colour_ends
from chesstours.errors import InvalidArgument, InvalidSquare
from chesstours.pieces import KNIGHT, ZEBRA, move_table
from chesstours.render.trace_text import trace_lines
from chesstours.tour import Tour
from chesstours.trace import BACK, DONE, MOVE, SKIP, START, STUCK, TOUR, trace_search
from chesstours.warnsdorff.walk import warnsdorff
from tests.oracle import neighbours


def kernel_first_tour(board, start, order, end=None, closed=False, piece=KNIGHT):
    table = move_table(board, piece)
    end_squares = [int(u) for u in table[start] if u >= 0] if closed and end is None else None
    if not closed and end is None:
        end_squares = colour_ends(board, piece, start)
    search = Search(
        table,
        [start],
        end=end,
        end_squares=end_squares,
        order=order,
        holes=board.hole_mask if board.holes else None,
    )
    status = search.run(stop_at_tour=True)
    return (search.path().tolist(), search.nodes) if status == "found" else (None, search.nodes)


def first_tour_event(events):
    for e in events:
        if e.kind == TOUR:
            return e
        if e.kind == DONE:
            return e
    raise AssertionError("the trace ended without a tour or an end")


CASES = [
    (Board(5, 5), "a1", None, False, "fixed"),
    (Board(5, 5), "c3", None, False, "fixed"),
    (Board(5, 5), "a1", None, False, "warnsdorff"),
    (Board(5, 6), "b1", None, False, "fixed"),
    (Board(6, 6), "a1", None, False, "fixed"),
    (Board(6, 6), "c3", None, True, "warnsdorff"),
    (Board(6, 6), "a1", "f5", False, "fixed"),
    (Board(6, 6), "a1", "e6", False, "warnsdorff"),
    (Board(3, 4), "a1", None, False, "fixed"),
    (Board(4, 4), "a1", None, False, "fixed"),
    (Board(4, 5), "a1", None, False, "fixed"),
    (Board(6, 6, holes="c3,d3"), "a1", None, False, "warnsdorff"),
    (Board(8, 8), "a1", None, False, "warnsdorff"),
    (Board(8, 8), "a1", None, False, "fixed"),
]


@pytest.mark.parametrize("board, start, end, closed, order", CASES, ids=lambda v: str(v))
def test_first_tour_and_node_count_equal_the_kernels(board, start, end, closed, order):
    s = board.square(start)
    e = None if end is None else board.square(end)
    expected, nodes = kernel_first_tour(board, s, order, e, closed)
    event = first_tour_event(trace_search(board, start, end, closed, order=order))
    assert event.nodes == nodes
    if expected is None:
        assert event.kind == DONE
    else:
        assert event.kind == TOUR and list(event.path) == expected
        Tour(board, KNIGHT, np.array(event.path), closed).validate()


@pytest.mark.parametrize(
    "spec, start, order", [("5x5", "c3", "fixed"), ("6x6", "b1", "warnsdorff"), ("3x4", "a1", "fixed")]
)
def test_trace_finds_the_tours_that_tours_lists_in_the_same_order(spec, start, order):
    events = trace_search(spec, start, order=order)
    traced = [e.path for e in islice((e for e in events if e.kind == TOUR), 3)]
    listed = [tuple(t.path.tolist()) for t in islice(iter_tours(spec, start, order=order), 3)]
    assert traced == listed and len(listed) >= 2  # 3x4 has two tours from a1


def test_whole_5x5_trace_counts_the_304_tours_from_a_corner():
    events = list(trace_search(Board(5, 5), "a1"))
    assert sum(e.kind == TOUR for e in events) == 304  # facts.md
    assert events[-1].kind == DONE
    table = move_table(Board(5, 5), KNIGHT)
    search = Search(table, [0], end_squares=colour_ends(Board(5, 5), KNIGHT, 0))
    search.run()
    assert events[-1].nodes == search.nodes
    # Every position the kernel tried is one move or one skip of the trace.
    assert sum(e.kind in (MOVE, SKIP) for e in events) == search.nodes


def test_events_tell_a_consistent_story_of_a_zebra_search():
    board = Board(10, 10)
    nb = neighbours(board, ZEBRA)
    path: list[int] = [0]
    for e in islice(trace_search(board, "a1", piece="zebra", order="warnsdorff"), 3000):
        if e.kind == START:
            assert e.path == (0,)
        elif e.kind == MOVE:
            assert e.square in nb[path[-1]] and e.square not in path
            path.append(e.square)
        elif e.kind == SKIP:
            assert e.square in nb[path[-1]] and e.square not in path and e.culprit >= 0
        elif e.kind == BACK:
            assert path[-1] == e.square and e.step == len(path)
            path.pop()
        assert list(e.path) == path, e
        free = set(nb) - set(path)
        for u, w in e.candidates:
            assert u in nb[path[-1]] and u not in path
            assert w == sum(1 for t in nb[u] if t in free and t != u)


def brute_completes(nb, path, n, end_ok=lambda v: True):
    """Plain search: can ``path`` be extended to a tour of n squares?"""
    seen = set(path)

    def go(v, k):
        if k == n:
            return end_ok(v)
        for u in nb[v]:
            if u not in seen:
                seen.add(u)
                if go(u, k + 1):
                    return True
                seen.discard(u)
        return False

    return go(path[-1], len(path))


@pytest.mark.parametrize("board, start", [(Board(5, 5), "a1"), (Board(4, 5), "b1"), (Board(4, 4), "a1")])
def test_every_skipped_move_really_leads_nowhere(board, start):
    nb = neighbours(board, KNIGHT)
    skipped = 0
    for e in trace_search(board, start):
        if e.kind == SKIP:
            skipped += 1
            assert not brute_completes(nb, list(e.path) + [e.square], board.free_count), e
            assert e.culprit >= 0 and board.name(e.culprit) in e.reason
    assert skipped > 0


def test_seed_004_4x4_search_steps_back_in_its_words():
    board = Board(4, 4)
    lines = list(trace_lines(trace_search(board, "a1"), board, boards=False))
    text = "\n".join(lines)
    assert lines[0] == "Move 1: start on a1."
    assert "No move left from" in text and ": back to move" in text
    assert "new move" in text
    # 4x4 has no tour (Schwenk; facts.md): the search ends without one.
    assert "tour of" not in text and lines[-2].endswith("the start: the search is over.")
    assert lines[-1].startswith("Search over after")


def test_a_move_after_stepping_back_is_a_new_move():
    events = list(islice(trace_search(Board(5, 5), "a1"), 400))
    for before, after in zip(events, events[1:]):
        if before.kind == BACK and after.kind == MOVE:
            assert after.new and after.step == before.step


@pytest.mark.parametrize("tiebreak", ["first", "pohl", "roth", "random"])
@pytest.mark.parametrize("spec, start", [("8x8", "a1"), ("7x9", "d4"), ("12x12", "b3")])
def test_warnsdorff_trace_replays_the_engine_and_always_takes_a_lightest_square(spec, start, tiebreak):
    board = Board.parse(spec)
    s = board.square(start)
    walk = warnsdorff(board, s, tiebreak=tiebreak, seed=3)
    events = list(trace_search(board, start, method="warnsdorff", tiebreak=tiebreak, seed=3))
    moves = [e for e in events if e.kind in (START, MOVE)]
    assert [e.square for e in moves] == walk.path.tolist()
    assert events[-1].kind == (TOUR if walk.complete else STUCK)
    for before, after in zip(moves, moves[1:]):
        weights = dict(before.candidates)
        assert after.square in weights and weights[after.square] == min(weights.values()) == after.weight


def test_bad_trace_arguments_are_refused():
    with pytest.raises(InvalidArgument):
        trace_search("5x5", "a1", method="frontier")
    with pytest.raises(InvalidSquare):
        trace_search("5x5", "z9")
    with pytest.raises(InvalidArgument):
        trace_search("5x5", "a1", order="random")
    with pytest.raises(InvalidArgument):
        trace_search("5x5", "a1", method="warnsdorff", tiebreak="coin")
    with pytest.raises(InvalidArgument):  # f6 is not a knight's move from a1: no closed tour ends there
        trace_search("6x6", "a1", "f6", closed=True)


def test_a_move_that_leaves_the_last_square_on_a_colour_no_tour_ends_on_is_skipped_in_words():
    board = Board(3, 4)  # from a1 (dark), every tour of 12 squares ends on a light square
    skips = [e.describe(board) for e in trace_search(board, "a1") if e.kind == SKIP
             and "no tour from a1" in e.reason]
    assert skips == ["Move 5: b1 to c3 is skipped: d2 would have only one way in, so it would have to be last, "
                     "and it is dark: no tour from a1 ends on a dark square."]
    tours = sum(e.kind == TOUR for e in trace_search(Board(4, 5), "b1"))
    assert tours == count_tours(Board(4, 5), start="b1", method="backtrack").directed > 0
