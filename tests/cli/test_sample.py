"""``chesstours sample`` and ``chesstours stats``: uniformly random tours and exact statistics on the command line."""

from __future__ import annotations

import json

import pytest

from chesstours.cli import main
from chesstours.tour import Tour


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_sample_prints_n_tours_one_a_line_and_a_seed_repeats_them(capsys):
    code, out, err = run(capsys, "sample", "5x5", "-n", "4", "--seed", "9", "--start", "a1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 4 and all(line.split()[0] == "a1" and len(line.split()) == 25 for line in lines)
    assert all(Tour.from_names("5x5", line.split()).is_valid() for line in lines)
    assert run(capsys, "sample", "5x5", "-n", "4", "--seed", "9", "--start", "a1")[1] == out


def test_sample_json_is_one_tour_a_line_as_tours_writes_them(capsys):
    code, out, _ = run(capsys, "sample", "6x6", "-n", "3", "--closed", "--format", "json")
    assert code == 0
    tours = [Tour.from_dict(json.loads(line)) for line in out.splitlines()]
    assert len(tours) == 3 and all(t.closed and t.is_valid() for t in tours)
    assert {t.names()[0] for t in tours} == {"a1"}


def test_sample_with_holes_and_another_piece(capsys):
    holes = "a1,c1,e1,b2,d2,f2,a3,c3,e3,b4,d4,f4"
    code, out, _ = run(capsys, "sample", "4x6", "-n", "5", "--piece", "1,3", "--holes", holes)
    assert code == 0 and len(out.splitlines()) == 5


def test_sample_plan_says_the_cost_and_builds_nothing(capsys):
    code, out, _ = run(capsys, "sample", "6x6", "--closed", "--plan")
    assert code == 0 and "frontier" in out and "memory" in out and "states" in out
    code, out, _ = run(capsys, "sample", "6x6", "--closed", "--plan", "--format", "json")
    assert json.loads(out)["frontier_squares"] == 12


def test_sample_draws_its_first_tour_as_a_picture(capsys, tmp_path):
    target = tmp_path / "tour.svg"
    code, _, _ = run(capsys, "sample", "6x6", "--closed", "-o", str(target))
    assert code == 0 and target.read_text().lstrip().startswith("<")


@pytest.mark.parametrize("args", [["sample", "5x5", "-n", "-1"], ["sample", "20x20"], ["sample", "5x5", "--seed", "x"],
                                  ["sample", "8", "--start", "z9"], ["stats", "20x20"], ["stats", "5x5", "-o", "x.gif"]])
def test_bad_input_gets_one_sentence_and_status_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2, (args, err)
    sentence = [line for line in err.splitlines() if not line.startswith("Try 'chesstours")]  # a usage error's hint
    assert out == "" and len(sentence) == 1 and err.startswith("chesstours: ")


@pytest.mark.parametrize("args", [["sample", "4x4"], ["sample", "5x5", "--closed"], ["stats", "3x3"]])
def test_a_board_without_tours_is_an_answer_with_status_1(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 1 and out == "" and err.startswith("chesstours: ")


def test_stats_json_counts_exactly_every_move_and_every_start(capsys):
    code, out, _ = run(capsys, "stats", "5x5", "--json")
    data = json.loads(out)
    assert code == 0 and (data["undirected"], data["directed"]) == (864, 1728)
    assert data["starts"]["a1"] == 304 and data["starts"]["c3"] == 64 and sum(data["starts"].values()) == 1728
    assert sum(e["tours"] for e in data["edges"]) == 24 * 864
    code, out, _ = run(capsys, "stats", "6x6", "--closed", "--json")
    data = json.loads(out)
    assert "starts" not in data and sum(e["tours"] for e in data["edges"]) == 36 * 9862


def test_stats_draws_the_heat_map(capsys, tmp_path):
    for name in ("heat.svg", "heat.png"):
        target = tmp_path / name
        code, out, _ = run(capsys, "stats", "5x5", "-o", str(target))
        assert code == 0 and out == "" and target.stat().st_size > 0
    assert (tmp_path / "heat.png").read_bytes()[:4] == b"\x89PNG"


def test_stats_prints_the_moves_by_their_tours(capsys):
    code, out, _ = run(capsys, "stats", "5x6", "--closed")
    assert code == 0 and "undirected: 8" in out and "a1-b3  8" in out


def test_cache_lists_the_tables_sample_kept_and_clears_them(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSTOURS_TABLES_DIR", str(tmp_path))
    assert run(capsys, "cache")[1] == "no tables kept\n"
    assert run(capsys, "sample", "5x6", "--closed", "-n", "1", "--no-cache")[0] == 0
    assert run(capsys, "cache")[1] == "no tables kept\n"
    assert run(capsys, "sample", "5x6", "--closed", "-n", "1")[0] == 0
    code, out, _ = run(capsys, "cache")
    assert code == 0 and "5x6, knight (1,2), closed tours" in out
    code, out, _ = run(capsys, "cache", "--clear")
    assert code == 0 and out.startswith("removed the tables kept")
    assert run(capsys, "cache")[1] == "no tables kept\n"


def test_random_and_hostile_arguments_end_in_a_tour_an_answer_or_one_sentence(capsys, tmp_path):
    import random

    rng = random.Random(2026)
    boards = ["5x5", "3x4", "4x4", "1x1", "0x3", "x", "5x6", "3x10", "7x7", "30x30", "-5x5"]
    squares = ["a1", "e5", "z9", "a0", "c3", "b1", "", "a1,b1"]
    for _ in range(120):
        args = [rng.choice(["sample", "stats"]), rng.choice(boards)]
        options = [["-n", rng.choice(["0", "1", "3", "-1", "x", "99999999999999999999"])],
                   ["--seed", rng.choice(["0", "-3", "x"])], ["--start", rng.choice(squares)],
                   ["--end", rng.choice(squares)], ["--closed"], ["--holes", rng.choice(squares)],
                   ["--piece", rng.choice(["knight", "1,3", "2,3", "0,0", "bishop", "9,9"])],
                   ["--format", rng.choice(["json", "moves", "pdf"])], ["--time-limit", rng.choice(["0", "-1", "5"])],
                   ["--plan"], ["--json"], ["-o", str(tmp_path / rng.choice(["a.svg", "a.png", "a.gif"]))]]
        for option in rng.sample(options, rng.randint(0, 4)):
            args += option
        code = main(args)
        _, err = capsys.readouterr()
        assert "Traceback" not in err and "internal error" not in err, (args, err)
        assert code in (0, 1, 2, 3), (args, code, err)
        if code == 2:
            sentence = [line for line in err.splitlines() if not line.startswith("Try 'chesstours")]
            assert len(sentence) == 1 and err.startswith("chesstours: "), (args, err)
