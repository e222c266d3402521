"""The ``exists`` command: yes, no or unknown with the reason, exit status 0 for all three."""

import json

import pytest

from chesstours.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_seed_004_answer_from_a1_on_4x4(capsys):
    code, out, err = run(capsys, "exists", "4", "--start", "a1")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0] == "no" and "4x4" in lines[1] and lines[2].startswith("proof: theorem")


def test_yes_by_search_offers_the_certificate(capsys):
    code, out, _ = run(capsys, "exists", "5", "--start", "a1")
    assert code == 0 and out.splitlines()[0] == "yes" and "proof: construction" in out
    assert "--certificate" in out
    code, out, _ = run(capsys, "exists", "5", "--start", "a1", "--certificate")
    grid = out.splitlines()[3:]
    assert grid[-1].split() == list("abcde")
    assert sorted(int(x) for line in grid[:-1] for x in line.split("|")[1].split()) == list(range(1, 26))


def test_json_answers(capsys):
    code, out, _ = run(capsys, "exists", "4x7", "--start", "b2", "--json")
    data = json.loads(out)
    assert code == 0 and data["exists"] is False and data["proof"] == "theorem" and data["tour"] is None
    assert data["theorem"] == "Schwenk 1991" and data["start"] == "b2"
    code, out, _ = run(capsys, "exists", "6x6", "--closed", "--start", "a1", "--end", "b3", "--certificate", "--json")
    data = json.loads(out)
    assert data["exists"] is True and data["tour"][0] == "a1" and data["tour"][-1] == "b3" and len(data["tour"]) == 36
    code, out, _ = run(capsys, "exists", "1000x1000", "--closed", "--json")
    data = json.loads(out)
    assert data["exists"] is True and data["proof"] == "theorem" and data["nodes"] == 0


def test_unknown_after_the_time_limit_is_still_status_0(capsys):
    code, out, _ = run(capsys, "exists", "12x12", "--piece", "zebra", "--time-limit", "0.2", "--json")
    data = json.loads(out)
    assert code == 0 and data["exists"] in (None, True)
    if data["exists"] is None:
        assert data["proof"] == "limit" and "time limit" in data["reason"]


def test_leapers_and_holes(capsys):
    code, out, _ = run(capsys, "exists", "8x8", "--piece", "camel")
    assert code == 0 and out.startswith("no\n") and "proof: colour" in out
    code, out, _ = run(capsys, "exists", "6x6", "--holes", "a1,c1", "--start", "b1", "--json")
    data = json.loads(out)
    assert code == 0 and data["exists"] is False and data["holes"] == ["a1", "c1"] and data["proof"] == "colour"


@pytest.mark.parametrize("args", [
    ["exists", "8x8", "--start", "z9"], ["exists", "0x3"], ["exists", "5", "--start", "a1", "--end", "a1"],
    ["exists", "8", "--piece", "rook"], ["exists", "8", "--time-limit", "0"], ["exists", "8", "--holes", "a1", "--start", "a1"],
])
def test_bad_input_is_one_sentence_and_status_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("chesstours: ")


def test_ctrl_c_ends_with_one_line_and_status_130(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("chesstours.cli.exists.tour_exists", interrupted)
    code, out, err = run(capsys, "exists", "12x12", "--piece", "zebra")
    assert code == 130 and out == "" and err == "chesstours: interrupted before an answer.\n"


def test_a_certificate_of_a_million_squares_is_printed_as_json(capsys):
    code, out, err = run(capsys, "exists", "1000x1000", "--start", "c7", "--closed", "--certificate", "--json")
    data = json.loads(out)
    assert code == 0 and err == "" and data["exists"] is True and data["proof"] == "theorem"
    assert len(data["tour"]) == 1_000_000 and data["tour"][0] == "c7" and len(set(data["tour"])) == 1_000_000
