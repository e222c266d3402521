import mmap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesstours import KNIGHT, Board, GaveUp, Leaper, Tour, find_tour
from chesstours.pieces import GIRAFFE, ZEBRA
from chesstours.warnsdorff import TIEBREAKS, warnsdorff


def test_the_dossiers_rule_tours_8x8_from_a1():
    r = warnsdorff(Board(8, 8), 0, tiebreak="first")
    assert r.complete
    Tour(Board(8, 8), KNIGHT, r.path).validate()


@pytest.mark.parametrize("tiebreak", TIEBREAKS)
def test_every_tiebreak_tours_8x8_from_every_square_or_says_where_it_stopped(tiebreak):
    b = Board(8, 8)
    complete = 0
    for s in range(64):
        r = warnsdorff(b, s, tiebreak=tiebreak, seed=s)
        if r.complete:
            Tour(b, KNIGHT, r.path).validate()
            complete += 1
        else:
            # the partial path is a legal walk that stopped at a dead end
            path = r.path
            assert len(np.unique(path)) == len(path) < 64
    assert complete >= 56  # a heuristic: it may fail from a few squares, never from most


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 14), st.integers(3, 14), st.sampled_from(TIEBREAKS), st.sampled_from([KNIGHT, ZEBRA, GIRAFFE, Leaper(0, 1)]), st.data())
def test_compiled_kernel_and_python_walk_agree_step_for_step(rows, cols, tiebreak, piece, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=4))
    if len(holes) == rows * cols:
        return
    board = Board(rows, cols, holes)
    start = data.draw(st.sampled_from(board.free_squares.tolist()))
    seed = data.draw(st.integers(0, 1000))
    a = warnsdorff(board, start, piece, tiebreak, seed, compiled=False)
    b = warnsdorff(board, start, piece, tiebreak, seed, compiled=True)
    assert np.array_equal(a.path, b.path)


def test_large_boards_use_the_kernel_and_validate():
    b = Board(300, 200)
    r = warnsdorff(b, 0, tiebreak="roth")
    assert r.complete
    Tour(b, KNIGHT, r.path).validate()


def test_a_path_on_ordinary_pages_is_the_same_walk(monkeypatch):
    from chesstours.warnsdorff import walk

    board = Board(120, 130)
    usual = warnsdorff(board, 0, compiled=True)
    monkeypatch.setattr(walk, "PLAIN_PAGES_FROM", 1024)  # this board's path, then, on an anonymous map
    mapped = warnsdorff(board, 0, compiled=True)
    owner = mapped.path
    while isinstance(owner, np.ndarray):
        owner = owner.base
    assert isinstance(owner, memoryview) and isinstance(owner.obj, mmap.mmap)
    assert not isinstance(usual.path.base, memoryview)
    assert mapped.complete and np.array_equal(mapped.path, usual.path)
    Tour(board, KNIGHT, mapped.path).validate()


def test_the_first_rule_fails_on_a_large_board_and_says_so():
    # The plain rule is known to fail as boards grow; on 1000x1000 from a1 it stops early.
    with pytest.raises(GaveUp) as info:
        find_tour("1000x1000", start="a1", method="warnsdorff", tiebreak="first")
    assert info.value.proof == "heuristic"
    assert "Warnsdorff's rule (first tie-break) reached a dead end after" in info.value.reason
    assert "of 1000000 squares" in info.value.reason


def test_a_reserved_end_square_is_visited_last_when_the_walk_succeeds():
    b = Board(8, 8)
    r = warnsdorff(b, 0, end=63)
    if r.complete:
        assert r.path[-1] == 63
    assert 63 not in r.path[:-1]


def test_random_tiebreak_is_reproducible():
    a = warnsdorff(Board(30, 30), 0, tiebreak="random", seed=7)
    b = warnsdorff(Board(30, 30), 0, tiebreak="random", seed=7)
    assert np.array_equal(a.path, b.path)
