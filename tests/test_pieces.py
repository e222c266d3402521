import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesstours.board import Board
from chesstours.errors import InvalidPiece
from chesstours.pieces import CAMEL, GIRAFFE, KNIGHT, ZEBRA, Leaper, degrees, move_table, parse_piece
from tests.oracle import neighbours


def test_knight_move_order_is_the_dossiers():
    # Algorithm 1 of the 2011 student research dossier (TIPE): deltaLigne = [2,1,-1,-2,-2,-1,1,2], deltaColonne = [1,2,2,1,-1,-2,-2,-1]
    assert KNIGHT.offsets() == [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


def test_named_pieces():
    assert (CAMEL.a, CAMEL.b) == (1, 3)
    assert (ZEBRA.a, ZEBRA.b) == (2, 3)
    assert (GIRAFFE.a, GIRAFFE.b) == (1, 4)
    assert Leaper(2, 1) == KNIGHT
    assert parse_piece("knight") == KNIGHT
    assert parse_piece("2,3") == ZEBRA
    assert parse_piece("(4, 1)") == GIRAFFE
    assert parse_piece("Zebra") == ZEBRA


@pytest.mark.parametrize("text", ["0,0", "bishop", "1", "1,2,3", "-1,2", ""])
def test_bad_pieces_are_refused(text):
    with pytest.raises(InvalidPiece):
        parse_piece(text)


def test_symmetric_leapers_have_four_moves():
    assert len(Leaper(0, 1).offsets()) == 4
    assert len(Leaper(2, 2).offsets()) == 4
    assert len(Leaper(1, 2).offsets()) == 8


def test_corner_and_centre_degrees_on_8x8():
    deg = degrees(move_table(Board(8, 8), KNIGHT))
    assert deg[0] == 2 and deg[Board(8, 8).square("d4")] == 8
    assert deg.sum() == 2 * 168  # the 8x8 knight graph has 168 edges


def test_holes_have_no_moves_and_are_never_reached():
    b = Board(5, 5, holes="c3,b3")
    table = move_table(b, KNIGHT)
    for h in b.holes:
        assert (table[h] == -1).all()
        assert not (table == h).any()


def test_move_table_is_read_only_and_cached():
    t = move_table(Board(6, 6), KNIGHT)
    assert t is move_table(Board(6, 6), KNIGHT)
    with pytest.raises(ValueError):
        t[0, 0] = 5


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 3), st.integers(1, 4), st.data())
def test_move_table_matches_the_geometry(rows, cols, a, b, data):
    piece = Leaper(a, b)
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=rows * cols - 1))
    board = Board(rows, cols, holes)
    table = move_table(board, piece)
    expected = neighbours(board, piece)
    for v in range(board.size):
        row = [int(u) for u in table[v] if u >= 0]
        assert sorted(row) == sorted(expected.get(v, []))
        # padding only at the end of each row
        assert (np.diff((table[v] < 0).astype(int)) >= 0).all()


def test_a_leap_longer_than_the_board_lands_nowhere():
    from chesstours.board import Board
    from chesstours.errors import InvalidPiece
    from chesstours.pieces import MAX_LEAP, Leaper, move_table

    table = move_table(Board(4, 5), Leaper(MAX_LEAP, 1))
    assert table.shape[0] == 20 and (table == -1).all()
    with pytest.raises(InvalidPiece, match="A leap is at most"):
        Leaper(10**20, 1)
