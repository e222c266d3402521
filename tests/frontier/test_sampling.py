"""The sampling tables of a frontier sweep: the count's own states, each rank one tour, statistics that add up."""

from __future__ import annotations

import numpy as np
import pytest

from chesstours.board import Board
from chesstours.frontier import frontier_count
from chesstours.frontier.sampling import build_layers, completions, draw, edge_tours, paths, ranks, tables
from chesstours.pieces import KNIGHT, parse_piece
from chesstours.tour import Tour


@pytest.mark.parametrize("rows, cols, closed, start, end", [
    (3, 4, False, None, None), (5, 5, False, None, None), (5, 5, False, 0, None), (5, 5, False, 0, 24),
    (5, 6, True, None, None), (6, 6, True, None, None), (3, 10, True, None, None), (4, 5, False, None, None),
    (6, 6, True, 0, 13),
])
def test_the_tables_count_what_the_frontier_count_counts(rows, cols, closed, start, end):
    board = Board(rows, cols)
    layers = build_layers(board, KNIGHT, closed, start, end)
    assert completions(layers)[0][0] == frontier_count(board, KNIGHT, closed, start, end).count


def test_the_tables_count_the_9862_cycles_of_6x6_and_the_864_paths_of_5x5():
    assert completions(build_layers(Board(6, 6), KNIGHT, True))[0][0] == 9862
    assert completions(build_layers(Board(5, 5), KNIGHT, False))[0][0] == 864


@pytest.mark.parametrize("rows, cols, closed, holes", [(5, 5, False, ()), (5, 6, True, ()), (4, 5, False, (0,)),
                                                       (3, 7, False, ())])
def test_every_rank_names_one_tour_and_every_tour_has_one_rank(rows, cols, closed, holes):
    board = Board(rows, cols, holes)
    layers = build_layers(board, KNIGHT, closed)
    tabs = tables(layers)
    chosen = draw(tabs, np.arange(tabs.count, dtype=np.uint64))
    out = paths(tabs, chosen, board.size, board.free_count, int(board.free_squares[0]) if closed else -1, -1,
                np.zeros(tabs.count, np.int64))
    tours = [Tour(board, KNIGHT, p, closed) for p in out]
    assert all(t.is_valid() for t in tours)
    if closed:
        assert len({frozenset(frozenset(e) for e in zip(p.tolist(), np.roll(p, 1).tolist())) for p in out}) == tabs.count
    else:
        assert len({frozenset([tuple(p.tolist()), tuple(p[::-1].tolist())]) for p in out}) == tabs.count


def test_the_walk_on_python_ints_takes_the_compiled_walk_s_choices():
    layers = build_layers(Board(6, 6), KNIGHT, True)
    counts = completions(layers)
    narrow, wide = tables(layers, counts), tables(layers, [c.astype(object) for c in counts])
    assert wide.weight.dtype == object and narrow.weight.dtype == np.uint64
    picks = np.random.default_rng(1).integers(0, narrow.count, 200, np.uint64)
    assert (draw(narrow, picks) == draw(wide, np.array(picks.tolist(), object))).all()


def test_ranks_past_64_bits_are_below_their_bound_and_reproducible():
    bound = 3 * 2**70 + 1
    first = ranks(np.random.default_rng(4), bound, 500)
    assert first.tolist() == ranks(np.random.default_rng(4), bound, 500).tolist()
    assert all(0 <= r < bound for r in first)
    assert max(first) > bound // 2 and min(first) < bound // 2  # both halves are reached
    assert ranks(np.random.default_rng(4), 304, 3).dtype == np.uint64


def test_the_moves_of_all_tours_add_up_to_the_moves_of_each_tour():
    for rows, cols, closed, piece, holes in [(6, 6, True, KNIGHT, ()), (5, 5, False, KNIGHT, ()),
                                              (4, 6, False, parse_piece("1,3"), (0, 2, 4, 7, 9, 11, 12, 14, 16, 19, 21, 23))]:
        board = Board(rows, cols, holes)
        layers = build_layers(board, piece, closed)
        counts = completions(layers)
        moves = board.free_count if closed else board.free_count - 1
        assert sum(edge_tours(layers, counts).values()) == moves * counts[0][0]


def test_the_tables_are_the_same_on_one_thread_and_on_two():
    one = tables(build_layers(Board(6, 6), KNIGHT, True, workers=1))
    two = tables(build_layers(Board(6, 6), KNIGHT, True, workers=2))
    for name in ("first", "weight", "choice", "child", "squares", "edge_a", "edge_b"):
        assert (getattr(one, name) == getattr(two, name)).all(), name
