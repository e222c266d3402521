"""The command line: outputs, exit statuses and one-line errors."""

import json
import subprocess
import sys

import pytest

from chesstours.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_tour_8x8_prints_a_numbered_grid(capsys):
    code, out, err = run(capsys, "tour", "8x8")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("8 |") and lines[-1].split() == list("abcdefgh")
    assert sorted(int(x) for line in lines[:-1] for x in line.split("|")[1].split()) == list(range(1, 65))


def test_tour_moves_and_json_formats(capsys):
    code, out, _ = run(capsys, "tour", "5x5", "--start", "a1", "--format", "moves")
    assert code == 0 and out.split()[0] == "a1" and len(out.split()) == 25
    code, out, _ = run(capsys, "tour", "6x6", "--closed", "--format", "json", "--start", "c3")
    data = json.loads(out)
    assert data["closed"] is True and data["path"][0] == "c3" and len(data["path"]) == 36
    assert data["board"] == {"rows": 6, "cols": 6, "holes": []}
    assert data["piece"] == {"name": "knight", "leap": [1, 2]}
    assert {"nodes", "seconds"} <= set(data["stats"])


@pytest.mark.parametrize(
    "args",
    [
        ["tour", "0x5"], ["tour", "8x"], ["tour", "x"], ["tour", "8", "--start", "a0"],
        ["tour", "8", "--start", "z9"], ["tour", "8", "--holes", "d4", "--start", "d4"],
        ["tour", "8", "--piece", "0,0"], ["tour", "8", "--time-limit", "-1"],
        ["tour", "8", "--node-limit", "-5"], ["tours", "5x5", "--limit", "-3"],
        ["count", "10000x10000"], ["count", "9x9"], ["tour", "8", "--bogus"], ["tour"],
        ["count", "6x6", "--spill-dir", "/proc/no/such/folder"], ["count", "6x6", "--spill-dir", ".", "-m", "backtrack"],
        ["tour", "8", "--format", "pdf"], ["check", "/nonexistent/file"], ["tour", "8", "--piece", "bishop"],
        ["count", "5x5", "--workers", "0"], ["tour", "8", "--holes", "a1,zz99"],
    ],
)
def test_bad_input_gets_one_sentence_and_status_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2, (args, err)
    assert out == ""
    lines = err.splitlines()
    assert err.startswith("chesstours: ") and err.endswith("\n")
    # the argument parser's own errors end with its hint to the help
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("Try 'chesstours") and
                               lines[1].endswith(" --help' for help."))
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [["tour", "4x4"], ["tour", "5x5", "--start", "b1"], ["tour", "5x5", "--closed"]])
def test_no_tour_is_an_answer_with_status_1(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    assert err.startswith("chesstours: No ") and err.count("\n") == 1


def test_tours_streams_one_per_line(capsys):
    code, out, _ = run(capsys, "tours", "3x4")
    assert code == 0 and len(out.splitlines()) == 16
    code, out, _ = run(capsys, "tours", "5x5", "--start", "a1", "--limit", "5", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 5 and all(r["path"][0] == "a1" for r in rows)


def test_count_plain_and_json(capsys):
    code, out, _ = run(capsys, "count", "5x5")
    assert code == 0 and "1,728" in out and "864" in out
    code, out, _ = run(capsys, "count", "6x6", "--closed", "--json")
    data = json.loads(out)
    assert data["directed"] == 19724 and data["undirected"] == 9862
    assert data["closed"] is True and data["board"] == "6x6" and data["start"] is None
    assert {"nodes", "seconds"} <= set(data)
    code, out, _ = run(capsys, "count", "5x5", "--start", "a1", "--json")
    assert json.loads(out)["directed"] == 304 and json.loads(out)["start"] == "a1"


def test_count_by_meet_in_the_middle_says_so_and_keeps_its_layers_on_disk_when_asked(tmp_path, capsys):
    code, out, _ = run(capsys, "count", "6x6", "--method", "frontier", "--json")
    data = json.loads(out)
    assert code == 0 and data["directed"] == 6_637_920 and data["how"] == "meet in the middle"
    assert len(data["middle_states"]) == 2 and data["pairs_joined"] > 0 and "peak_disk_mb" not in data
    code, out, _ = run(capsys, "count", "6x6", "--method", "frontier", "--spill-dir", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and data["directed"] == 6_637_920 and data["peak_disk_mb"] > 0
    assert list(tmp_path.iterdir()) == []  # the layers are gone with the count
    code, out, _ = run(capsys, "count", "6x7", "--closed", "--method", "frontier")
    assert code == 0 and "1,067,638" in out and "frontier (meet in the middle)" in out


def test_ctrl_c_in_a_frontier_count_says_nothing_was_counted_and_leaves_no_layers(tmp_path, capsys, monkeypatch):
    import chesstours.frontier as frontier

    real = frontier.frontier_count
    reports = []

    def interrupted_midway(*args, **kwargs):
        def progress(p):
            reports.append(p)
            if len(reports) == 20:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "progress": progress})

    monkeypatch.setattr(frontier, "frontier_count", interrupted_midway)
    code, out, err = run(capsys, "count", "6x6", "--method", "frontier", "--spill-dir", str(tmp_path), "--json")
    assert len(reports) == 20 and code == 130 and out == ""
    assert err == "chesstours: interrupted before the count was complete; nothing was counted.\n"
    assert list(tmp_path.iterdir()) == []


def test_a_frontier_count_past_its_memory_exits_5_with_one_line(capsys, monkeypatch):
    import chesstours.count

    # the forecast (from the frontier's width) fits in 40 MiB; the count itself holds about 110 MiB
    monkeypatch.setattr(chesstours.count, "memory_limit", lambda: 40 << 20)
    code, out, err = run(capsys, "count", "6x10", "--closed", "--method", "frontier")
    assert code == 5 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("chesstours: Counting tours of 6x10 by the frontier method outgrew the 40.0 MiB")


def test_a_part_of_a_split_count_past_its_workers_memory_exits_5_with_one_line(capsys, monkeypatch):
    import chesstours.scale

    # the plan finds each part's forecast within a worker's share; the workers are then given 15 MiB each
    monkeypatch.setattr(chesstours.scale, "memory_limit", lambda: 30 << 20)
    code, out, err = run(capsys, "count", "6x6", "--method", "frontier", "--jobs", "2", "--split-on", "1")
    assert code == 5 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("chesstours: A part of the count of the tours of 6x6 by the frontier method outgrew the "
                          "15.0 MiB of memory a worker has")


def test_count_time_limit_prints_the_partial_count_and_exits_3(capsys):
    code, out, err = run(capsys, "count", "7x7", "--start", "a1", "--time-limit", "0.3", "--json")
    assert code == 3
    data = json.loads(out)
    assert data["complete"] is False and data["nodes"] > 0
    assert "time limit" in err


def test_check_accepts_a_valid_tour_and_names_the_first_bad_step(tmp_path, capsys):
    good = tmp_path / "t.txt"
    good.write_text("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3\n")
    code, out, _ = run(capsys, "check", str(good))
    assert code == 0 and out.startswith("valid: open knight's tour of 3x4")
    bad = tmp_path / "bad.txt"
    bad.write_text("a1 c2 a3 b1 b3 d2 c1 a2 c3 d1 b2 d3\n")
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1 and "Step 4, from b1 to b3, is not a knight move." in err
    run(capsys, "tour", "6x6", "--closed", "--format", "json", "-o", str(tmp_path / "t.json"))
    code, out, _ = run(capsys, "check", str(tmp_path / "t.json"))
    assert code == 0 and "closed" in out


def test_output_file_is_written_whole(tmp_path, capsys):
    target = tmp_path / "tour.json"
    code, out, _ = run(capsys, "tour", "8x8", "--format", "json", "-o", str(target))
    assert code == 0 and out == ""
    assert len(json.loads(target.read_text())["path"]) == 64
    assert [p.name for p in tmp_path.iterdir()] == ["tour.json"]  # no temporary file left


def test_check_reads_stdin():
    tour = subprocess.run([sys.executable, "-m", "chesstours", "tour", "5x5", "-f", "moves"],
                          capture_output=True, text=True, check=True).stdout
    done = subprocess.run([sys.executable, "-m", "chesstours", "check", "-"], input=tour,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("valid")


def test_options_that_do_not_apply_are_refused_or_named(capsys):
    code, _, err = run(capsys, "tour", "6x6", "--method", "backtrack", "--tiebreak", "roth")
    assert code == 2 and "--tiebreak chooses among Warnsdorff's moves" in err
    code, out, err = run(capsys, "tour", "5x5", "--start", "a1", "--numbers", "--size", "300")
    assert code == 0 and err.strip() == ("chesstours: --numbers and --size shape pictures; the grid format does "
                                         "not use them.")
    assert len(out.splitlines()) == 6


def test_check_reads_what_the_tool_writes_a_grid_and_json_lines(tmp_path, capsys):
    grid = tmp_path / "t.grid"
    assert run(capsys, "tour", "12x10", "--holes", "c3,d3", "-o", str(grid))[0] == 0
    code, out, _ = run(capsys, "check", str(grid))
    assert code == 0 and out.startswith("valid: open knight's tour of 12x10 without c3,d3, 118 squares")
    rank, _, cells = grid.read_text().splitlines()[-2].partition("|")  # rank 1, where the tour starts (a1)
    grid.write_text(grid.read_text().replace(rank + "|" + cells, rank + "|" + cells.replace(" 1 ", " 2 ", 1)))
    code, _, err = run(capsys, "check", str(grid))
    assert code == 2 and "Move 2 is on both" in err  # two squares numbered 2, none 1
    code, lines, _ = run(capsys, "tours", "5x5", "--start", "a1", "--limit", "3", "--format", "json")
    listing = tmp_path / "t.jsonl"
    listing.write_text(lines)
    code, out, _ = run(capsys, "check", str(listing))
    assert code == 0 and out.strip() == "valid: 3 tours, open knight's tours of 5x5"
    broken = json.loads(lines.splitlines()[1])
    broken["path"][3], broken["path"][4] = broken["path"][4], broken["path"][3]
    listing.write_text("\n".join([lines.splitlines()[0], json.dumps(broken)]))
    code, out, err = run(capsys, "check", str(listing))
    assert code == 1 and "invalid: tour 2 of 2:" in err


def test_no_tour_is_said_once_and_a_count_of_zero_by_theory_says_why(capsys):
    code, _, err = run(capsys, "tours", "4x4")
    assert code == 1 and err.count("No tour") == 1 and "no tour:" not in err
    code, out, _ = run(capsys, "count", "5x5", "--closed")
    assert code == 0 and "reason:     No closed tour: 5x5 has 25 squares, an odd number." in out
    code, _, err = run(capsys, "tour", "8x8", "--method", "construct", "--piece", "zebra")
    assert code == 2 and "not tours of the zebra" in err
