"""The theorems answer by arithmetic alone, on any board size, and agree with the move graph."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesstours import KNIGHT, Board, Leaper, tour_exists
from chesstours import exists as existence
from chesstours.existence.reasons import components
from chesstours.existence.theorems import (
    closed_knight_tour_exists,
    knight_verdict,
    leaper_connected,
    open_knight_tour_exists,
)
from chesstours.pieces import move_table
from tests.oracle import neighbours

SIDES = sorted(set(range(1, 41)) | {57, 64, 99, 100, 101, 255, 256, 499, 500, 777, 998, 999, 1000})


@pytest.fixture
def no_search(monkeypatch):
    """Make any search fail the test: the answers must come from the theory alone."""

    def forbidden(*args, **kwargs):
        raise AssertionError("a search ran where a theorem should have answered")

    monkeypatch.setattr(existence, "search_tour", forbidden)
    monkeypatch.setattr("chesstours.existence.reasons.move_table", forbidden)


def test_whole_board_knight_questions_never_search_up_to_1000x1000(no_search):
    for m in SIDES:
        for n in SIDES:
            board = Board(m, n)
            closed = tour_exists(board, closed=True)
            open_ = tour_exists(board)
            for answer in (closed, open_):
                assert answer.proof in ("theorem", "colour", "connectivity", "construction")
                assert answer.nodes == 0 and (answer.certificate is None or board.size == 1)
            assert closed.answer == tour_exists(Board(n, m), closed=True).answer
            assert open_.answer == tour_exists(Board(n, m)).answer
            assert open_.answer or not closed.answer  # cut a closed tour open
            if min(m, n) >= 5:
                assert open_.answer is True
                assert closed.answer is (m * n % 2 == 0)
            if min(m, n) in (1, 2, 4):
                assert closed.answer is False


def test_start_squares_on_large_boards_are_decided_by_theorems(no_search):
    for size, start, answer, theorem in [
        ("1000x1000", "a1", True, "Conrad et al. 1994"),       # n even: every square
        ("999x999", "b1", False, None),                        # odd: the corners' colour only
        ("999x999", "c1", True, "Conrad et al. 1994"),
        ("999x1000", "b1", True, "Schwenk 1991"),              # cut a closed tour open
        ("4x1000", "c2", False, "Schwenk 1991"),               # 4 x n: inner ranks never start a tour
        ("1000x4", "c2", False, "Schwenk 1991"),
        ("3x1000", "b2", True, "Schwenk 1991"),
        ("3x999", "b1", False, None),
        ("2x1000", "a1", False, None),
    ]:
        e = tour_exists(size, start=start)
        assert (e.answer, e.theorem) == (answer, theorem), (size, start, e.reason)
    e = tour_exists("1000x1000", start="a1", end="zz1000")
    assert e.answer is False and e.proof == "colour"  # opposite corners of an even board share a colour
    e = tour_exists("1000x1000", start="a1", end="b1000", closed=True)
    assert e.answer is False and e.proof == "connectivity"
    e = tour_exists("1000x1000", start="a1", end="c2", closed=True)
    assert e.answer is True and e.proof == "theorem"  # a corner's two moves are in every closed tour
    e = tour_exists("999x1000", start="b3", end="a1")
    assert e.answer is True and e.proof == "theorem"  # ... so removing one leaves an open tour


def test_schwenk_and_the_open_tour_theorem_list_the_small_exceptions():
    closed_none = [(m, n) for m in range(1, 11) for n in range(m, 11) if not closed_knight_tour_exists(m, n)]
    assert (3, 10) not in closed_none and (5, 6) not in closed_none and (6, 6) not in closed_none
    assert {(3, 4), (3, 6), (3, 8), (4, 10), (2, 8), (5, 5), (7, 9)} <= set(closed_none)
    open_some = [(m, n) for m in range(1, 8) for n in range(m, 8) if open_knight_tour_exists(m, n)]
    assert open_some == [(1, 1), (3, 4), (3, 7), (4, 5), (4, 6), (4, 7), (5, 5), (5, 6), (5, 7),
                         (6, 6), (6, 7), (7, 7)]


def test_every_verdict_names_its_proof_and_reads_as_sentences():
    for m in range(1, 9):
        for n in range(1, 9):
            board = Board(m, n)
            for s in range(board.size):
                for closed in (False, True):
                    v = knight_verdict(board, s, None, closed)
                    if v is None:
                        continue
                    assert v.proof in ("theorem", "colour", "connectivity", "construction")
                    assert v.reason[0].isupper() and v.reason.endswith(".")
                    assert v.reason.startswith("Yes") == v.answer
                    if v.proof == "theorem":
                        assert any(year in v.reason for year in ("1978", "1991", "1994")), v.reason


@pytest.mark.parametrize("leap", [(1, 2), (1, 4), (2, 3), (1, 6), (3, 4), (2, 5), (1, 3), (2, 4)])
def test_knuths_leaper_theorem_agrees_with_the_move_graph(leap):
    a, b = leap
    piece = Leaper(a, b)
    for m in range(2, 13):
        for n in range(m, 15):
            board = Board(m, n)
            labels = components(board, piece)
            connected = np.unique(labels).size == 1
            assert leaper_connected(m, n, a, b) is connected, (m, n, leap)


def test_knuth_theorem_answers_no_before_any_move_table_is_built(no_search):
    e = tour_exists("6x1000", piece="3,4")  # connected only with the short side >= 7, the long >= 8
    assert e.answer is False and e.theorem == "Knuth 1994" and "short side is 6 < a + b = 7" in e.reason


def test_knight_moves_in_the_corner_rule_are_real_moves():
    board = Board(6, 8)
    table = move_table(board, KNIGHT)
    for corner in board.corners():
        for other in table[corner]:
            if other < 0:
                continue
            v = knight_verdict(board, corner, int(other), closed=True)
            assert v.answer is True
            assert board.name(int(other)) in v.reason


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 11), st.integers(1, 11), st.sampled_from([(1, 2), (1, 3), (0, 1), (2, 2), (1, 1), (2, 3)]),
       st.data())
def test_the_connected_parts_are_those_a_search_of_the_moves_finds(rows, cols, leap, data):
    squares = rows * cols
    holes = data.draw(st.sets(st.integers(0, squares - 1), max_size=squares // 3))
    board = Board(rows, cols, sorted(holes))
    graph = neighbours(board, Leaper(*leap))
    expected = np.full(squares, -1)
    for v in sorted(graph):  # each part found from its least square, as the labels name it
        if expected[v] >= 0:
            continue
        expected[v], todo = v, [v]
        while todo:
            for u in graph[todo.pop()]:
                if expected[u] < 0:
                    expected[u] = v
                    todo.append(u)
    assert components(board, Leaper(*leap)).tolist() == expected.tolist()
