"""The library refuses arguments of the wrong type with its own errors, naming what it accepts, and takes
the forms a caller naturally has: ``(rows, cols)``, numpy integers and arrays."""

from __future__ import annotations

import numpy as np
import pytest

import chesstours as ct
from chesstours import Board, count_tours, find_tour
from chesstours.arguments import as_board, check_cluster, check_spread
from chesstours.errors import ChessToursError, InvalidArgument, InvalidBoard, InvalidPiece, ResourceError
from chesstours.reading import load_json, whole_number
from chesstours.tour import InvalidTour, Tour


@pytest.mark.parametrize("board", [3.5, None, [8, 8], (8,), (8, 8, 8), object()])
def test_boards_of_another_type_raise_invalid_board(board):
    with pytest.raises(InvalidBoard, match="A board"):
        find_tour(board)
    with pytest.raises(InvalidBoard):
        count_tours(board)


@pytest.mark.parametrize("piece", [[1, 2], 3, None, 1.5])
def test_pieces_of_another_type_raise_invalid_piece(piece):
    with pytest.raises(InvalidPiece, match="A piece is"):
        find_tour("5x5", piece=piece)


def test_a_board_as_rows_and_cols_or_one_number():
    assert as_board((5, 6)) == Board(5, 6) and as_board(np.int64(4)) == Board(4, 4)
    assert find_tour((8, 8)).board == Board(8, 8)


def test_numpy_seeds_and_hole_arrays_are_accepted():
    assert find_tour("8x8", method="warnsdorff", seed=np.int64(3)) == find_tour("8x8", method="warnsdorff", seed=3)
    for holes in (np.array([0, 1]), np.array(["a1", "b1"])):
        assert find_tour("5x6", holes=holes).board == Board(5, 6, "a1,b1")
        assert find_tour(Board(5, 6), holes=holes).board == Board(5, 6, "a1,b1")


@pytest.mark.parametrize("seed", [1.5, "3", True])
def test_seeds_that_are_not_whole_numbers(seed):
    with pytest.raises(InvalidArgument, match="seed"):
        find_tour("5x5", seed=seed)


@pytest.mark.parametrize("data, missing", [({}, "'board' and 'path'"), ({"path": []}, "'board'"),
                                           ({"board": "5x5"}, "'path'")])
def test_a_tour_dict_without_its_keys(data, missing):
    with pytest.raises(InvalidTour, match=missing):
        Tour.from_dict(data)
    with pytest.raises(InvalidTour):
        Tour.from_dict([])  # type: ignore[arg-type]


def test_a_board_too_large_for_memory_is_refused_before_it_is_allocated(monkeypatch):
    from chesstours import runtime

    monkeypatch.setattr(runtime, "memory_limit", lambda: 1 << 20)
    with pytest.raises(ResourceError, match="memory"):
        find_tour("2000x2000", method="warnsdorff")


def test_huge_integers_are_shown_without_converting_them_all():
    with pytest.raises(InvalidBoard, match="digits"):
        Board(10**5000, 8)
    with pytest.raises(ChessToursError, match="digits"):
        Board(8, 8, holes=[10**5000])
    with pytest.raises(InvalidBoard, match="digits"):
        whole_number("9" * 31, InvalidBoard, "A side")
    assert whole_number("0" * 100 + "7", InvalidBoard, "A side") == 7


def test_json_numbers_and_depth_are_bounded():
    with pytest.raises(InvalidTour, match="digits"):
        load_json("[" + "1" * 5000 + "]", InvalidTour, "The tour")
    with pytest.raises(InvalidTour, match="too deeply"):
        load_json("[" * 100_000 + "]" * 100_000, InvalidTour, "The tour")


@pytest.mark.parametrize("good", ["tcp://127.0.0.1:8786", "tcp://scheduler.example:1", "tcp://[::1]:8786"])
def test_good_cluster_addresses(good):
    check_cluster(good)


def test_spread_is_checked_once_by_one_rule():
    for kwargs in ({"workers": 0}, {"jobs": -1}, {"split_on": 0}, {"jobs": True}, {"workers": 1.5}):
        with pytest.raises(InvalidArgument, match="at least 1"):
            check_spread(**kwargs)
    with pytest.raises(InvalidArgument, match="at least 1"):
        count_tours("5x5", jobs=0)
    with pytest.raises(InvalidArgument, match="tcp://HOST:PORT"):
        count_tours("5x5", cluster="udp://x")


@pytest.mark.parametrize("limit, words", [("1", "number of seconds, not str"), (True, "not bool"), (1j, "not complex"),
                                          (10**400, "at most a billion seconds"), (float("inf"), "a billion")])
def test_a_time_limit_that_is_not_a_number_of_seconds_is_refused(limit, words):
    for call in (lambda: ct.count_tours("5x5", time_limit=limit), lambda: list(ct.iter_tours("5x5", time_limit=limit)),
                 lambda: ct.tour_exists("5x5", time_limit=limit)):
        with pytest.raises(ct.InvalidArgument, match=words):
            call()


def test_a_board_spec_of_another_type_and_a_played_path_that_is_no_list_are_refused():
    with pytest.raises(ct.InvalidBoard, match="not int64"):
        ct.Tour.from_dict({"board": np.int64(4), "path": [0]})
    with pytest.raises(ct.InvalidArgument, match="not NoneType"):
        ct.complete_tour("5x5", None)
