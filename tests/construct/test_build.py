"""The construction: a tour on every board and from every start the theory allows, in linear time."""

import time

import numpy as np
import pytest

import chesstours as ct
from chesstours.backtrack.search import Search
from chesstours.board import Board
from chesstours.construct.blocks import even_parts
from chesstours.construct.build import construct_path, construct_tour
from chesstours.construct.strips import lane_parts, strip_start_reason
from chesstours.errors import InvalidArgument, NoTour
from chesstours.existence.reasons import obstruction, open_theorem, schwenk_closed
from chesstours.pieces import KNIGHT, move_table

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
    with pytest.raises(NoTour, match="colour"):  # a1 and b2 are both dark
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
    from chesstours.construct.blocks import _odd_splits

    for length in range(5, 302, 2):
        for x in range(length):
            parts, i, lo = next(_odd_splits(length, x))
            assert sum(parts) == length and lo <= x < lo + parts[i] and parts[i] % 2 == 1


def test_strip_plans_exist_for_every_allowed_start_on_longer_boards():
    from chesstours.construct.data import base_tours
    from chesstours.construct.strips import plan_strip

    for h in (3, 4):
        for n in list(range(61, 69)) + [1001, 1002]:
            board = Board(h, n)
            for closed in (True, False):
                for s in allowed_starts(board, closed):
                    assert plan_strip(base_tours(), h, n, s, closed) is not None, (h, n, s, closed)


# -- a fixed end square: Pósa's rotations ---------------------------------------------------


def ends_allowed(board: Board, closed: bool = False):
    """Every (start, end) pair for which the theory says a tour exists."""
    from chesstours.existence.reasons import decide
    from chesstours.pieces import KNIGHT

    for s in range(board.size):
        for e in range(board.size):
            if s != e:
                verdict = decide(board, KNIGHT, s, e, closed)
                if verdict is not None and verdict.answer:
                    yield s, e


@pytest.mark.parametrize("spec", ["6x6", "7x7", "8x8", "9x9"])
def test_construction_ends_on_every_square_the_theory_allows(spec):
    board = Board.parse(spec)
    pairs = list(ends_allowed(board))
    assert len(pairs) > 500
    for s, e in pairs:
        tour = construct_tour(board, s, e)
        tour.validate()
        assert (tour.start, tour.end) == (s, e)


def colour_pairs(board: Board):
    """Every (start, end) pair the colour rule allows: opposite colours on an even board,
    both of the corners' colour on an odd one."""
    colour = [(board.row(v) + board.col(v)) % 2 for v in range(board.size)]
    for s in range(board.size):
        for e in range(board.size):
            if s != e and (colour[s] != colour[e] if board.size % 2 == 0 else colour[s] == colour[e] == 0):
                yield s, e


def test_construction_ends_where_asked_on_rectangles_and_strips():
    local = np.random.default_rng(4)
    for spec in ("7x10", "12x12", "8x13", "11x20", "6x7"):
        board = Board.parse(spec)
        pairs = list(colour_pairs(board))
        for k in local.choice(len(pairs), 300, replace=False):
            s, e = pairs[k]
            tour = construct_tour(board, s, e)
            tour.validate()
            assert (tour.start, tour.end) == (s, e)
    # 3 x n and 4 x n: the rotations are not promised there, but whatever they build is a tour.
    built = 0
    for spec in ("3x10", "3x11", "4x9"):
        board = Board.parse(spec)
        for s in range(board.size):
            for e in range(board.size):
                try:
                    tour = construct_tour(board, s, e) if s != e else None
                except (NoTour, InvalidArgument):
                    continue
                if tour is not None:
                    tour.validate()
                    assert (tour.start, tour.end) == (s, e)
                    built += 1
    assert built > 400


def test_a_closed_tour_with_both_ends_fixed_ends_on_any_knight_move_from_its_start():
    board = Board(30, 30)
    for start in ("a1", "d4", "o15"):
        s = board.square(start)
        for e in move_table(board)[s]:
            if e < 0:
                continue
            tour = ct.find_tour(board, start=s, end=int(e), closed=True, method="construct")
            assert tour.closed and (tour.start, tour.end) == (s, e)
    with pytest.raises(NoTour, match="knight move"):
        ct.find_tour(board, start="a1", end="d4", closed=True, method="construct")


def test_a_million_squares_end_on_the_far_side_in_about_a_second():
    board = Board(1000, 1000)
    for start, end in (("c7", "all999"), ("a1", "alk1000"), ("sg501", "b1")):
        t0 = time.perf_counter()
        tour = ct.find_tour(board, start=start, end=end, method="construct")
        tour.validate()
        assert (board.name(tour.start), board.name(tour.end)) == (start, end)
        assert time.perf_counter() - t0 < 10


def test_the_command_line_builds_a_tour_with_its_end_fixed(capsys):
    from chesstours.cli import main

    code = main(["tour", "30x30", "--end", "b3", "--method", "construct", "--format", "moves"])
    out, err = capsys.readouterr()
    words = out.split()
    assert code == 0 and err == "" and len(words) == 900 and words[0] == "a1" and words[-1] == "b3"


def test_when_the_rotations_give_up_construct_says_so_and_auto_searches():
    # On 5x7 the rotations do not reach some ends that a search finds (a1 to d2 is one).
    with pytest.raises(InvalidArgument, match="could not end its tour of 5x7 on d2"):
        ct.find_tour("5x7", start="a1", end="d2", method="construct")
    tour = ct.find_tour("5x7", start="a1", end="d2")
    assert tour.board.name(tour.end) == "d2"


@pytest.mark.parametrize("rows,cols,closed", [(5, 5, False), (6, 6, True), (4, 9, False), (3, 10, True), (7, 8, False),
                                              (64, 64, True), (65, 63, False)])
def test_the_plain_loop_follows_the_step_field_as_the_compiled_one(rows, cols, closed):
    from chesstours.construct.blocks import block_steps, plan_blocks
    from chesstours.construct.build import follow_steps
    from chesstours.construct.data import base_tours
    from chesstours.construct.strips import plan_strip, strip_steps

    data, start = base_tours(), 0
    if min(rows, cols) <= 4:
        plan = plan_strip(data, rows, cols, start, closed)
        step, closed = strip_steps(data, plan, rows, cols), plan.closed
    else:
        blocks = plan_blocks(data, rows, cols, start)
        step, closed = block_steps(data, blocks, rows, cols), blocks.path_block is None
    python, compiled = follow_steps(step, start, closed, compiled=False), follow_steps(step, start, closed, compiled=True)
    assert np.array_equal(python, compiled)
    ct.Tour(Board(rows, cols), KNIGHT, python, closed).validate()
    broken = step.copy()
    broken[python[rows * cols // 2]] = 0  # a step field that stops half way traces half a tour, in both
    with pytest.raises(ct.ChessToursError):
        follow_steps(broken, start, closed, compiled=False)
    with pytest.raises(ct.ChessToursError):
        follow_steps(broken, start, closed, compiled=True)


@pytest.mark.parametrize(("start", "steps", "expected"), [
    (0, [1, 1, 1, 0], (4, 3)),  # a whole field, ending on its last square
    (0, [1, 1, 5, 0], (-1, 7)),  # a step off the board
    (3, [1, 1, -9, -4], (-1, -1)),  # a step off the other end
    (-1, [1, 1, 1, 0], (-1, -1)),  # a start off the board, at either end
    (4, [1, 1, 1, 0], (-1, 4)),
])
def test_both_follows_stop_where_a_field_leaves_the_board(start, steps, expected):
    from chesstours.construct.kernel import follow
    from chesstours.construct.plain import follow_python

    step = np.array(steps, np.int32)  # as the blocks make it
    for walk in (follow_python, follow):
        path = np.full(len(steps), -7, np.int32)
        assert tuple(int(x) for x in walk(step, start, path)) == expected, walk


@pytest.mark.parametrize("rows,cols,end", [(6, 6, "b1"), (8, 8, "g8"), (5, 7, "g5"), (10, 12, "k9"), (65, 66, "bm60")])
def test_the_plain_rotations_move_the_end_as_the_compiled_ones(rows, cols, end):
    from chesstours.construct.end import rotate_to_end

    board = Board(rows, cols)
    path, _ = construct_path(rows, cols, 0, True)
    e = board.square(end)
    for seed in range(3):
        python = rotate_to_end(path.copy(), rows, cols, e, seed, compiled=False)
        compiled = rotate_to_end(path.copy(), rows, cols, e, seed, compiled=True)
        assert (python is None) == (compiled is None)
        if python is not None:
            assert np.array_equal(python, compiled) and python[-1] == e
            ct.Tour(board, KNIGHT, python).validate()
