"""The construction: a tour on every board and from every start the theory allows, in linear time."""

import numpy as np
import pytest

import chesstours as ct
from chesstours.board import Board
from chesstours.engines.backtrack import Search
from chesstours.engines.construct import construct_path, construct_tour
from chesstours.engines.construct_blocks import even_parts
from chesstours.engines.construct_strips import lane_parts, strip_start_reason
from chesstours.errors import InvalidArgument, NoTour
from chesstours.pieces import KNIGHT, move_table
from chesstours.theory import obstruction, open_theorem, schwenk_closed

rng = np.random.default_rng(20240604)


def corner_colour_squares(board: Board) -> list[int]:
    return [v for v in range(board.size) if (board.row(v) + board.col(v)) % 2 == 0]


def check(board: Board, start: int, closed: bool) -> ct.Tour:
    tour = construct_tour(board, start=start, closed=closed)
    tour.validate()
    assert tour.start == start and tour.closed == closed and tour.method == "construct"
    return tour


# -- every board from 5x5 to 40x40 ---------------------------------------------------------


@pytest.mark.parametrize("m", range(5, 41))
def test_every_board_with_sides_5_to_40_gets_the_tour_the_theory_allows(m):
    for n in range(m, 41):
        board = Board(m, n)
        if schwenk_closed(m, n) is None:
            # A closed tour, which is also an open tour from any square.
            check(board, 0, closed=True)
            check(board, int(rng.integers(board.size)), closed=True)
            tour = check(board, int(rng.integers(board.size)), closed=False)
            assert tour.is_reentrant()
        else:
            assert m % 2 == 1 and n % 2 == 1 and open_theorem(m, n) is None
            with pytest.raises(NoTour):
                construct_tour(board, start=0, closed=True)
            squares = corner_colour_squares(board)
            starts = squares if m * n <= 15 * 15 else [0, board.size - 1, squares[len(squares) // 2]] + list(
                rng.choice(squares, 6, replace=False))
            for s in starts:
                check(board, int(s), closed=False)
            with pytest.raises(NoTour, match="dark square"):
                construct_tour(board, start=1)


def test_odd_boards_start_from_every_corner_coloured_square_through_every_block_place():
    # 19 = 8 + 11, 5 + 6 + 8, 7 + 6 + 6 ...: the odd band lands at every offset.
    for m, n in [(19, 21), (13, 25), (5, 27), (27, 5), (11, 11)]:
        board = Board(m, n)
        for s in corner_colour_squares(board):
            check(board, s, closed=False)


def test_transposed_boards_are_built_too():
    for m, n in [(40, 6), (33, 5), (9, 7)]:
        check(Board(m, n), 0, closed=m % 2 == 0 or n % 2 == 0)


# -- 3 x n and 4 x n -----------------------------------------------------------------------


def start_allowed(board: Board, s: int, closed: bool) -> bool:
    """The theory's answer, with the 3 x n and 4 x n start rules (on the board or its transpose)."""
    if obstruction(board, start=s, closed=closed) is not None:
        return False
    h, n = sorted((board.rows, board.cols))
    if closed or h > 4:
        return True
    r, c = board.row(s), board.col(s)
    if board.rows > board.cols:
        r, c = c, r
    return strip_start_reason(h, n, r * n + c) is None


def allowed_starts(board: Board, closed: bool) -> list[int]:
    return [v for v in range(board.size) if start_allowed(board, v, closed)]


@pytest.mark.parametrize("h", [3, 4])
def test_every_3xn_and_4xn_board_to_60_from_every_allowed_start(h):
    for n in range(1, 61):
        board = Board(h, n)
        for closed in (True, False):
            starts = allowed_starts(board, closed)
            if n > 30:
                starts = [s for s in starts if s % n < 6 or s % n >= n - 6] + list(
                    rng.choice(starts, min(len(starts), 12), replace=False))
            for s in starts:
                check(board, int(s), closed)
            if not starts:
                assert obstruction(board, closed=closed) is not None or all(
                    strip_start_reason(h, n, v) for v in range(board.size))


def test_4xn_tours_start_only_on_the_outer_ranks():
    board = Board(4, 25)
    with pytest.raises(NoTour, match="outer rank"):
        construct_tour(board, start=board.square("c2"))
    assert check(board, board.square("m4"), closed=False).end // 25 in (0, 3)


@pytest.mark.parametrize("n, square", [(4, "b1"), (4, "c3"), (7, "d2"), (8, "c2"), (8, "f2")])
def test_3xn_exceptions_are_proved_by_exhaustive_search(n, square):
    board = Board(3, n)
    s = board.square(square)
    assert obstruction(board, start=s) is None
    search = Search(move_table(board, KNIGHT), [s])
    assert search.run() == "exhausted" and search.count == 0
    with pytest.raises(NoTour, match="exhaustive"):
        construct_tour(board, start=s)


def test_3xn_closed_tours_from_10_on_even_lengths():
    for n in (10, 12, 14, 16, 18, 100, 1002):
        check(Board(3, n), 0, closed=True)
        check(Board(n, 3), 1, closed=True)


# -- large boards ----------------------------------------------------------------------------


def test_random_large_boards_up_to_2000_from_random_starts():
    sizes = [(2000, 2000), (1999, 1997), (1001, 2000), (3, 99_999), (100_001, 4), (41, 1999), (5, 40_001)]
    sizes += [tuple(int(x) for x in rng.integers(41, 1200, 2)) for _ in range(3)]
    for m, n in sizes:
        board = Board(m, n)
        closed = schwenk_closed(m, n) is None and bool(rng.integers(2))
        s = int(rng.integers(board.size))
        while not start_allowed(board, s, closed):
            s = int(rng.integers(board.size))
        check(board, s, closed)


# -- api, and the pieces of the cutting ----------------------------------------------------


def test_find_tour_uses_the_construction_for_large_boards():
    tour = ct.find_tour("150x150", start="c7")
    assert tour.method == "auto/construct" and tour.start == tour.board.square("c7")
    assert ct.find_tour("8x8").method == "auto/warnsdorff"
    assert ct.find_tour("9x9", closed=False, method="construct").method == "construct"


def test_auto_falls_back_to_the_construction_when_warnsdorff_fails():
    # Warnsdorff's rule rarely closes a 3 x n tour; the construction does.
    tour = ct.find_tour("3x40", closed=True, start="b2")
    assert tour.closed and tour.method == "auto/construct"


def test_construction_refuses_what_it_cannot_do():
    with pytest.raises(InvalidArgument, match="last square"):
        ct.find_tour("20x20", start="a1", end="b2", method="construct")
    with pytest.raises(InvalidArgument, match="holes"):
        ct.find_tour("20x20", holes="d4", method="construct")
    with pytest.raises(InvalidArgument, match="knight"):
        ct.find_tour("20x20", piece="zebra", method="construct")
    with pytest.raises(NoTour, match="Schwenk"):
        ct.find_tour("4x400", closed=True, method="construct")


def test_a_1x1_board_has_its_trivial_tour():
    path, closed = construct_path(1, 1, 0, False)
    assert path.tolist() == [0] and not closed


def test_lengths_are_cut_into_the_stored_sides():
    for length in range(6, 300, 2):
        parts = even_parts(length)
        assert sum(parts) == length and set(parts) <= {6, 8, 10}
    assert even_parts(2) is None and even_parts(4) is None and even_parts(7) is None
    for length in range(4, 200, 2):
        assert sum(lane_parts(length, [4, 6])) == length


def test_every_odd_length_splits_around_every_coordinate():
    from chesstours.engines.construct_blocks import _odd_splits

    for length in range(5, 302, 2):
        for x in range(length):
            parts, i, lo = next(_odd_splits(length, x))
            assert sum(parts) == length and lo <= x < lo + parts[i] and parts[i] % 2 == 1


def test_strip_plans_exist_for_every_allowed_start_on_longer_boards():
    from chesstours.engines.construct_data import base_tours
    from chesstours.engines.construct_strips import plan_strip

    for h in (3, 4):
        for n in list(range(61, 69)) + [1001, 1002]:
            board = Board(h, n)
            for closed in (True, False):
                for s in allowed_starts(board, closed):
                    assert plan_strip(base_tours(), h, n, s, closed) is not None, (h, n, s, closed)
