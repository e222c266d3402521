"""complete_tour: finishing a played path ("solve from here")."""

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours.board import Board
from chesstours.pieces import KNIGHT
from tests.oracle import neighbours


def all_tours_by_brute_force(board: Board) -> list[tuple[int, ...]]:
    """Every directed open tour, by a plain recursive search without pruning."""
    nb = neighbours(board, KNIGHT)
    n = len(nb)
    out = []

    def walk(p: list[int]) -> None:
        if len(p) == n:
            out.append(tuple(p))
            return
        for u in nb[p[-1]]:
            if u not in p:
                p.append(u)
                walk(p)
                p.pop()

    for v in sorted(nb):
        walk([v])
    return out


@functools.cache
def every_tour(size: str, closed: bool = False) -> frozenset[tuple[int, ...]]:
    """All directed tours: by brute force on 4x5; on 5x5 and 5x6 (too slow for brute force in a
    test) listed by ``iter_tours`` and checked against the known counts (1,728 open; 8 cycles)."""
    board = Board.parse(size)
    if size == "4x5" and not closed:
        tours = all_tours_by_brute_force(board)
        assert len(tours) == 164
    elif closed:
        cycles = [t.path.tolist() for t in ct.iter_tours(board, closed=True)]
        assert size == "5x6" and len(cycles) == 8
        tours = [tuple(seq[i:] + seq[:i]) for c in cycles for seq in (c, c[::-1]) for i in range(len(c))]
    else:
        tours = [tuple(t.path.tolist()) for t in ct.iter_tours(board)]
        assert size == "5x5" and len(tours) == 1728
    return frozenset(tours)


def extendable(board: Board, path: list[int], closed: bool = False) -> bool:
    size = f"{board.rows}x{board.cols}"
    return any(t[: len(path)] == tuple(path) for t in every_tour(size, closed))


def random_walk(board: Board, rng: random.Random, length: int) -> list[int]:
    nb = neighbours(board, KNIGHT)
    path = [rng.choice(sorted(nb))]
    while len(path) < length:
        free = [u for u in nb[path[-1]] if u not in path]
        if not free:
            break
        path.append(rng.choice(free))
    return path


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["5x5", "4x5"]), st.integers(1, 10), st.integers(0, 10**6))
def test_completion_begins_with_the_played_path_exactly_when_one_exists(size, length, seed):
    board = Board.parse(size)
    path = random_walk(board, random.Random(seed), length)
    expected = extendable(board, path)
    try:
        tour = ct.complete_tour(board, path)
    except ct.NoTour as exc:
        assert not expected, exc.reason
        return
    assert expected
    tour.validate()
    assert tour.path[: len(path)].tolist() == path
    assert tour.stats["played"] == len(path)


def test_closed_completion_keeps_the_played_squares_and_closes():
    tour = ct.complete_tour("6x6", "a1 b3 a5 c6", closed=True)
    tour.validate()
    assert tour.closed and tour.names()[:4] == ["a1", "b3", "a5", "c6"]


def test_closed_completion_agrees_with_the_8_cycles_of_5x6():
    board = Board.parse("5x6")
    rng = random.Random(7)
    answers = set()
    for _ in range(12):
        path = random_walk(board, rng, 4)
        expected = extendable(board, path, closed=True)
        try:
            ct.complete_tour(board, path, closed=True).validate()
            answers.add(True)
            assert expected
        except ct.NoTour:
            answers.add(False)
            assert not expected
    assert answers == {True, False}


def test_completion_with_a_fixed_end_and_holes():
    tour = ct.complete_tour("8x8", ["a1", "c2"], end="h7", holes="d4,d5")
    tour.validate()
    assert tour.names()[:2] == ["a1", "c2"] and tour.names()[-1] == "h7" and len(tour) == 62


def test_a_whole_tour_as_played_path_is_returned_as_it_is():
    whole = ct.find_tour("5x5", start="a1")
    assert ct.complete_tour("5x5", whole.names()).names() == whole.names()


def test_no_completion_is_proved_by_exhaustive_search():
    board = Board.parse("5x5")
    path = [board.square(s) for s in ["a1", "c2", "a3", "c4"]]
    assert not extendable(board, path)
    with pytest.raises(ct.NoTour) as info:
        ct.complete_tour(board, path)
    assert info.value.proof == "exhaustive"
    assert info.value.reason.startswith("No tour begins with the played path a1 ... c4 (4 squares)")


def test_the_theory_answers_before_any_search():
    with pytest.raises(ct.NoTour) as info:
        ct.complete_tour("5x5", ["b1"])
    assert info.value.proof == "colour" and "b1 is light" in info.value.reason


@pytest.mark.parametrize(
    "played, kwargs, message",
    [
        ("a1,b3,a1", {}, "The played path returns to a1 at square 3; it was already visited at square 1."),
        ("a1,b3,b4", {}, "Move 2 of the played path, from b3 to b4, is not a knight move."),
        ("a1,z9", {}, "Square 2 of the played path: z9 is not on the 8x8 board (files a-h, ranks 1-8)."),
        ("a1,c2", {"holes": "c2"}, "Square 2 of the played path: c2 is a hole on this board; a tour cannot use it."),
        ("a1,c2", {"end": "c2"}, "The end square c2 is already on the played path."),
        ("", {}, "The played path is empty; it needs at least its first square."),
        ("a1", {"order": "sideways"}, "Unknown move order 'sideways'; use one of fixed, warnsdorff."),
        ("a1", {"time_limit": 0}, "The time limit must be a positive number of seconds, not 0."),
    ],
)
def test_bad_played_paths_get_one_sentence(played, kwargs, message):
    with pytest.raises(ct.ChessToursError) as info:
        ct.complete_tour("8x8", played, **kwargs)
    assert str(info.value) == message
    assert not isinstance(info.value, (ct.NoTour, ct.LimitReached))


def test_node_limit_stops_the_search():
    with pytest.raises(ct.LimitReached):
        ct.complete_tour("8x8", ["a1", "b3"], closed=True, node_limit=5)
