"""Output that scales: streamed text equals the plain rendering; NumPy output round-trips."""

import json

import numpy as np
import pytest

import chesstours as ct
from chesstours.board import Board, file_name
from chesstours.cli import STREAM_ABOVE, main
from chesstours.render.text import render_tour, tour_chunks


@pytest.mark.parametrize("spec, kw", [
    ("8x8", {}), ("5x5", {"start": "c3"}), ("3x4", {}), ("6x6", {"holes": "a1"}), ("12x30", {"closed": True}),
    ("3x30", {"closed": True}), ("28x3", {"start": "a1"}),
])
@pytest.mark.parametrize("fmt", ["grid", "moves", "json"])
@pytest.mark.parametrize("chunk", [1, 7, 1 << 20])
def test_streamed_text_is_the_plain_rendering(spec, kw, fmt, chunk):
    tour = ct.find_tour(spec, **kw)
    assert b"".join(tour_chunks(tour, fmt, chunk)) == render_tour(tour, fmt).encode()


def test_streamed_names_reach_multi_letter_files():
    tour = ct.find_tour(Board(5, 800), method="construct")
    assert b"".join(tour_chunks(tour, "moves", 999)).decode().split() == tour.names()


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_npy_output_round_trips(capsys, tmp_path):
    target = tmp_path / "t.npy"
    code, out, err = run(capsys, "tour", "301x300", "--start", "k9", "--format", "npy", "-o", str(target))
    assert code == 0 and out == "" and err == ""
    path = np.load(target)
    assert path.dtype == np.int32
    tour = ct.Tour(Board(301, 300), ct.KNIGHT, path)
    tour.validate()
    assert tour.start == tour.board.square("k9")


def test_check_reads_npy_tours_with_their_board(capsys, tmp_path):
    target = tmp_path / "t.npy"
    assert run(capsys, "tour", "3x400", "--closed", "--format", "npy", "-o", str(target))[0] == 0
    code, out, _ = run(capsys, "check", str(target), "--board", "3x400", "--closed")
    assert code == 0 and out.startswith("valid: closed knight's tour of 3x400, 1200 squares, from a1")
    code, _, err = run(capsys, "check", str(target), "--board", "400x3")
    assert code == 1 and err.startswith("chesstours: invalid: Step 1")
    code, _, err = run(capsys, "check", str(target))
    assert code == 2 and "--board" in err
    (tmp_path / "bad.npy").write_text("not numpy")
    code, _, err = run(capsys, "check", str(tmp_path / "bad.npy"), "--board", "3x3")
    assert code == 2 and err == f"chesstours: {tmp_path / 'bad.npy'} is not a NumPy array file (.npy) of square numbers.\n"


def test_npy_needs_a_file(capsys):
    code, out, err = run(capsys, "tour", "8x8", "--format", "npy")
    assert code == 2 and out == "" and "-o" in err and len(err.strip().splitlines()) == 1


def test_large_tours_stream_json_moves_and_grid(capsys, tmp_path):
    size = "3x30001"  # more than STREAM_ABOVE squares
    assert 3 * 30001 > STREAM_ABOVE
    expected = ct.find_tour(size, start="b2")
    for fmt in ("json", "moves", "grid"):
        target = tmp_path / f"t.{fmt}"
        code, _, err = run(capsys, "tour", size, "--start", "b2", "--format", fmt, "-o", str(target))
        assert code == 0 and err == ""
        text = target.read_text()
        if fmt == "json":
            data = json.loads(text)
            plain = expected.to_dict()
            data["stats"] = plain["stats"] = None
            assert data == plain
        elif fmt == "moves":
            assert text.split() == expected.names()
        else:
            lines = text.splitlines()
            assert len(lines) == 4 and lines[0].startswith("3 |")
            assert lines[-1].split()[-1] == file_name(30000)
            numbers = np.array([line.split("|")[1].split() for line in lines[:3]], dtype=np.int64)[::-1]
            assert np.array_equal(numbers, expected.numbers())


def test_tour_method_construct_on_the_command_line(capsys):
    code, out, err = run(capsys, "tour", "3x1000", "--closed", "--method", "construct", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "construct" and data["closed"] and len(data["path"]) == 3000
    code, out, err = run(capsys, "tour", "4x10", "--start", "c2", "--method", "construct")
    assert code == 1 and "outer rank" in err
