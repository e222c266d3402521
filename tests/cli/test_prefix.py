"""``chesstours tour BOARD --prefix SQ,SQ...``: a started tour completed from the command line."""

import json

import pytest

from chesstours.cli import main
from chesstours.tour import Tour


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_completed_tour_begins_with_the_played_squares(capsys):
    code, out, err = run(capsys, "tour", "5x5", "--prefix", "a1,b3,c1", "--format", "moves")
    assert code == 0 and err == ""
    assert out.split()[:3] == ["a1", "b3", "c1"] and len(out.split()) == 25
    assert Tour.parse(out, board="5x5").problem() is None


def test_a_closed_completion_in_json_as_tour_writes_it(capsys):
    code, out, _ = run(capsys, "tour", "6x6", "--prefix", "a1 b3 a5", "--closed", "--json")
    data = json.loads(out)
    assert code == 0 and data["closed"] is True and data["path"][:3] == ["a1", "b3", "a5"]
    assert len(data["path"]) == 36 and data["stats"]["played"] == 3


def test_the_completion_is_written_to_a_file_like_any_tour(capsys, tmp_path):
    target = tmp_path / "t.npz"
    assert run(capsys, "tour", "5x5", "--prefix", "a1,c2", "-o", target)[0] == 0
    code, out, _ = run(capsys, "check", target)
    assert code == 0 and "from a1" in out


def test_a_start_that_agrees_with_the_prefix_is_accepted(capsys):
    code, out, _ = run(capsys, "tour", "5x5", "--prefix", "a1,c2", "--start", "a1", "-f", "moves")
    assert code == 0 and out.split()[:2] == ["a1", "c2"]


@pytest.mark.parametrize("prefix, words", [
    ("a1,b3,b4", "Move 2 of the played path, from b3 to b4, is not a knight move."),
    ("a1,b3,a1", "returns to a1 at square 3"),
    ("a1,z9", "Square 2 of the played path"),
    (",", "The played path is empty"),
    ("", "--prefix is empty"),
])
def test_a_bad_prefix_is_one_sentence_and_status_2(capsys, prefix, words):
    code, out, err = run(capsys, "tour", "5x5", "--prefix", prefix)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and words in err and "Traceback" not in err


@pytest.mark.parametrize("extra, words", [
    (["--method", "warnsdorff"], "--method warnsdorff cannot"),
    (["--tiebreak", "roth"], "--tiebreak"),
    (["--start", "b1"], "name two first squares"),
    (["--plan"], "--plan"),
])
def test_options_that_do_not_go_with_a_prefix_are_refused(capsys, extra, words):
    code, out, err = run(capsys, "tour", "5x5", "--prefix", "a1,b3", *extra)
    assert code == 2 and out == "" and words in err


def test_no_completion_is_status_1_with_the_reason(capsys):
    code, out, err = run(capsys, "tour", "5x5", "--prefix", "a1,b3,c5,d3")
    assert code == 1 and out == ""
    assert err.startswith("chesstours: No tour begins with the played path a1 ... d3") and "exhaustive" in err


def test_a_prefix_from_a_square_no_tour_starts_on_says_why(capsys):
    code, _, err = run(capsys, "tour", "5x5", "--prefix", "b1")
    assert code == 1 and "b1 is light" in err
