"""find_tour: complete, validated, and honest about failure."""

import pytest

from chesstours import (
    CAMEL,
    GIRAFFE,
    KNIGHT,
    ZEBRA,
    Board,
    GaveUp,
    InvalidArgument,
    InvalidSquare,
    Leaper,
    LimitReached,
    NoTour,
    count_tours,
    find_tour,
)


def _boards_up_to(squares):
    for m in range(1, squares + 1):
        for n in range(m, squares + 1):
            if m * n <= squares:
                yield Board(m, n)


def test_find_tour_succeeds_exactly_where_an_exhaustive_count_is_nonzero():
    # Every board with rows * cols <= 30 and every start square, open and closed.
    for board in _boards_up_to(30):
        closed_exists = count_tours(board, closed=True).undirected > 0
        for s in range(board.size):
            exists = count_tours(board, start=s).directed > 0
            try:
                tour = find_tour(board, start=s)
                assert exists, (board, s)
                assert tour.start == s and tour.is_valid()
            except NoTour as exc:
                assert not exists, (board, s, exc.reason)
                assert exc.proof != "heuristic"
        try:
            find_tour(board, closed=True).validate()
            assert closed_exists, board
        except NoTour:
            assert not closed_exists, board


def test_every_tour_on_boards_up_to_8x8_validates_from_every_start():
    for m in range(3, 9):
        for n in range(m, 9):
            board = Board(m, n)
            found = 0
            for s in range(board.size):
                try:
                    tour = find_tour(board, start=s)
                except NoTour:
                    continue
                tour.validate()
                assert tour.start == s and len(tour) == board.size
                found += 1
            if m >= 5 and (m * n) % 2 == 0:
                assert found == board.size  # every square starts a tour on these boards


def test_closed_tours_from_every_square_of_6x6_and_8x8():
    for size in ("6x6", "8x8", "6x8"):
        board = Board.parse(size)
        for s in range(0, board.size, 5):
            t = find_tour(board, start=s, closed=True)
            assert t.closed and t.start == s and t.is_valid()


def test_fixed_end_is_honoured():
    t = find_tour("8x8", start="a1", end="h7")
    assert t.start == 0 and t.end == 55 and t.is_valid()
    with pytest.raises(NoTour) as info:
        find_tour("8x8", start="a1", end="c3")  # same colour on an even board
    assert info.value.proof == "colour"


def test_reasons_are_sentences_with_their_proof():
    cases = {
        ("4x4", None, False): "theorem",
        ("5x5", "b1", False): "colour",
        ("5x5", None, True): "colour",
        ("3x3", None, False): "connectivity",  # b2 has no move
        ("4x6", None, True): "theorem",
        ("3x7", "d2", False): "exhaustive",  # d2 has the right colour, yet no tour starts there
        ("3x8", "f2", False): "exhaustive",
    }
    for (size, start, closed), proof in cases.items():
        with pytest.raises(NoTour) as info:
            find_tour(size, start=start, closed=closed)
        assert info.value.proof == proof, (size, start, closed, info.value.reason)
        assert info.value.reason.endswith(".")


def test_other_leapers_and_holes():
    assert find_tour("10x10", piece=ZEBRA, closed=True).is_valid()
    assert find_tour("10x10", piece=GIRAFFE, closed=True).is_valid()
    with pytest.raises(NoTour) as info:
        find_tour("8x8", piece=CAMEL)
    assert info.value.proof == "colour"
    t = find_tour(Board(8, 8, holes="d4,d5"), start="a1")
    assert t.is_valid() and len(t) == 62
    with pytest.raises(NoTour):
        find_tour("6x6", piece=Leaper(2, 4))


def test_warnsdorff_method_reports_a_dead_end_as_a_heuristic_failure_not_as_no_tour():
    # With Pohl's tie-break the rule dead-ends from d4 on 8x8; auto still finds a tour there.
    with pytest.raises(GaveUp) as info:
        find_tour("8x8", start="d4", method="warnsdorff", tiebreak="pohl")
    assert info.value.proof == "heuristic" and not isinstance(info.value, NoTour)
    assert "reached a dead end after" in info.value.reason
    assert find_tour("8x8", start="d4", tiebreak="pohl").is_valid()


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(InvalidSquare):
        find_tour("8x8", start="z9")
    with pytest.raises(InvalidSquare):
        find_tour(Board(8, 8, holes="a1"), start="a1")
    with pytest.raises(InvalidArgument):
        find_tour("8x8", method="magic")
    with pytest.raises(InvalidArgument):
        find_tour("8x8", time_limit=-1)
    with pytest.raises(InvalidArgument):
        find_tour("8x8", start="a1", end="a1")
    with pytest.raises(InvalidArgument):
        count_tours("10000x10000")


def test_limits_on_a_hopeless_backtrack():
    # Fixed move order from a corner of 8x8 needs several hundred positions even with pruning.
    with pytest.raises(LimitReached):
        find_tour("8x8", start="a1", method="backtrack", order="fixed", node_limit=100)
    t = find_tour("8x8", start="a1", method="backtrack", order="fixed")
    assert t.is_valid() and t.stats["nodes"] > 100


def test_one_by_one_board():
    t = find_tour("1x1")
    assert len(t) == 1 and t.is_valid()
    assert count_tours("1x1").directed == 1
    with pytest.raises(NoTour):
        find_tour("1x1", closed=True)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.oracle import brute_force_counts  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(2, 6), st.sampled_from([KNIGHT, ZEBRA, Leaper(1, 1), Leaper(0, 1), GIRAFFE]),
       st.data())
def test_find_tour_agrees_with_brute_force_on_random_boards_with_holes(rows, cols, piece, data):
    # At most 22 free squares: the plain enumeration of every path takes 20 s on a whole 5x5.
    extra = max(0, rows * cols - 22)
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), min_size=extra, max_size=extra + 4))
    if len(holes) >= rows * cols - 1:
        return
    board = Board(rows, cols, holes)
    bf = brute_force_counts(board, piece)
    for s in bf["free"]:
        exists = bf["per_start"][s] > 0
        try:
            tour = find_tour(board, start=s, piece=piece)
        except NoTour as exc:
            assert not exists, (board, piece, s, exc.reason)
            continue
        assert exists and tour.start == s and tour.is_valid()
    ends = [(s, e) for (s, e), n in bf["per_pair"].items() if n > 0]
    for s, e in ends[:5]:
        assert find_tour(board, start=s, end=e, piece=piece).end == e
    try:
        assert find_tour(board, piece=piece, closed=True).is_valid()
        assert bf["cycles"] > 0
    except NoTour:
        assert bf["cycles"] == 0
