import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chesstours.board import Board, file_name, parse_file
from chesstours.errors import InvalidBoard, InvalidSquare


def test_parse_rows_by_columns_and_single_number():
    assert Board.parse("8x8") == Board(8, 8)
    assert Board.parse("8") == Board(8, 8)
    b = Board.parse("3x10")
    assert (b.rows, b.cols) == (3, 10)
    assert Board.parse(" 5 X 6 ").shape == (5, 6)
    assert Board.parse("4×7").shape == (4, 7)


@pytest.mark.parametrize("text", ["0x5", "5x0", "8x", "x", "", "-3x4", "3x4x5", "a", "8x8x", "1.5x2"])
def test_bad_sizes_are_refused_with_a_sentence(text):
    with pytest.raises(InvalidBoard) as info:
        Board.parse(text)
    message = str(info.value)
    assert message.endswith(".") and "\n" not in message


def test_square_numbering_follows_the_design():
    b = Board(8, 8)
    assert b.square("a1") == 0
    assert b.square("h1") == 7
    assert b.square("a2") == 8
    assert b.square("h8") == 63
    assert b.name(10) == "c2"
    assert b.colour(b.square("a1")) == 0  # a1 is dark
    assert b.colour(b.square("h1")) == 1
    assert b.colour(b.square("h8")) == 0


def test_files_past_z_are_spreadsheet_style():
    assert [file_name(c) for c in (0, 25, 26, 27, 51, 52, 701, 702)] == [
        "a", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    b = Board(2, 60)
    assert b.name(26) == "aa1"
    assert b.square("ab2") == 60 + 27


@given(st.integers(min_value=0, max_value=20000))
def test_file_names_round_trip(c):
    assert parse_file(file_name(c)) == c


@pytest.mark.parametrize("name", ["a0", "z9", "i1", "a9", "9a", "", "a-1"])
def test_squares_off_the_board_are_refused(name):
    with pytest.raises(InvalidSquare):
        Board(8, 8).square(name)


def test_holes_are_removed_and_cannot_be_used():
    b = Board.parse("8x8", holes="d4,e5")
    assert b.free_count == 62
    assert b.is_hole(b._square_of("d4"))
    with pytest.raises(InvalidSquare, match="hole"):
        b.square("d4")
    assert list(b.free_squares[:3]) == [0, 1, 2]
    assert str(b) == "8x8 without d4,e5"
    with pytest.raises(InvalidBoard):
        Board(1, 2, holes="a1,b1")


def test_spec_round_trips():
    b = Board(5, 6, holes="c3")
    assert Board.from_spec(b.spec()) == b
    assert Board.from_spec("5x6") == Board(5, 6)


def test_symmetries_of_square_and_rectangle_boards():
    assert len(Board(6, 6).symmetries()) == 8
    assert len(Board(5, 6).symmetries()) == 4
    assert len(Board(6, 6, holes="a1").symmetries()) == 2  # identity and the a1-f6 diagonal
    for perm in Board(4, 7).symmetries():
        assert sorted(perm) == list(range(28))


@given(st.integers(1, 90), st.integers(1, 90), st.data())
def test_the_names_of_many_squares_are_each_ones_name_from_the_table_or_numpy(rows, cols, data):
    # boards of at most NAMED_SQUARES squares name them from a table, larger ones with numpy
    b = Board(rows, cols)
    squares = data.draw(st.lists(st.integers(0, b.size - 1), max_size=50))
    expected = [b.name(v) for v in squares]
    assert b.names(squares) == b.names(np.array(squares, dtype=np.int32)) == b.names(iter(squares)) == expected


def test_a_few_squares_of_a_board_a_million_files_wide_are_named_as_each_alone():
    b = Board(3, 10**6, ["d1", "bdwgn3"])
    squares = [0, 5, b.size - 1, 10**6 + 17, 3]
    assert b.names(squares) == [b.name(v) for v in squares]
    assert str(b) == "3x1000000 without d1,bdwgn3"


def test_too_large_boards_are_refused():
    with pytest.raises(InvalidBoard):
        Board(100_000, 100_000)


@given(st.integers(1, 40), st.integers(1, 40), st.data())
def test_every_square_name_round_trips(rows, cols, data):
    b = Board(rows, cols)
    v = data.draw(st.integers(0, b.size - 1))
    assert b.square(b.name(v)) == v
    assert b.names([v]) == [b.name(v)]
    assert b.index(b.row(v), b.col(v)) == v
    assert np.array_equal(b.free_squares, np.arange(b.size))
