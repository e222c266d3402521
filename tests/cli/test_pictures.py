"""The command line's pictures, traces and coloured grid."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import chesstours as ct
from chesstours.cli import main
from chesstours.render.text import render_tour

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_format_comes_from_the_file_extension(capsys, tmp_path):
    for name, fmt in (("t.png", "PNG"), ("t.gif", "GIF")):
        code, out, err = run(capsys, "tour", "8x8", "--size", 256, "-o", tmp_path / name)
        assert (code, out, err) == (0, "", "")
        img = Image.open(tmp_path / name)
        assert img.format == fmt and img.size == (256, 256)
    assert Image.open(tmp_path / "t.gif").n_frames == 64
    code, _, _ = run(capsys, "tour", "8x8", "-o", tmp_path / "t.svg")
    root = ET.parse(tmp_path / "t.svg").getroot()
    assert code == 0 and root.tag == f"{SVG}svg"
    code, _, _ = run(capsys, "tour", "8x8", "-o", tmp_path / "t.txt")
    assert (tmp_path / "t.txt").read_text() == ct.find_tour("8x8").grid() + "\n"


def test_svg_goes_to_stdout_and_closed_tours_are_drawn_closed(capsys):
    code, out, err = run(capsys, "tour", "6x6", "--closed", "--start", "c3", "--format", "svg", "--numbers")
    assert code == 0 and err == ""
    root = ET.fromstring(out)
    assert root.find(f".//{SVG}path[@class='route']").get("d").endswith("Z")
    badges = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("number")]
    assert len(badges) == 36


def test_gif_options_set_frames_size_and_speed(capsys, tmp_path):
    code, _, _ = run(
        capsys,
        "tour",
        "6x6",
        "--closed",
        "--format",
        "gif",
        "--fps",
        4,
        "--size",
        200,
        "-o",
        tmp_path / "a.gif",
    )
    img = Image.open(tmp_path / "a.gif")
    assert code == 0 and img.size == (200, 200) and img.n_frames == 37 and img.info["duration"] == 250
    code, out, _ = run(capsys, "tour", "5x5", "--start", "a1", "--format", "svg", "--animate", "--fps", 5)
    motion = ET.fromstring(out).find(f".//{SVG}animateMotion")
    assert code == 0 and float(motion.get("dur").rstrip("s")) == pytest.approx(24 / 5 + 2)


def test_tours_draws_its_first_tour(capsys, tmp_path):
    code, out, err = run(capsys, "tours", "5x5", "--start", "a1", "-o", tmp_path / "first.svg")
    assert (code, out, err) == (0, "", "")
    first = next(ct.iter_tours("5x5", start="a1"))
    d = ET.parse(tmp_path / "first.svg").getroot().find(f".//{SVG}path[@class='route']").get("d")
    assert len(re.findall(r"[\d.]+,[\d.]+", d)) == 25
    code, out, _ = run(capsys, "tours", "5x5", "--start", "a1", "--format", "svg")
    assert code == 0 and ET.fromstring(out).find(f".//{SVG}path[@class='route']").get("d") == d
    assert first.start == 0


@pytest.mark.parametrize(
    "args",
    [
        ["tour", "8x8", "--format", "png"],
        ["tour", "8x8", "--format", "gif"],
        ["tour", "8x8", "--format", "png", "-o", "x.png", "--animate"],
        ["tour", "8x8", "--format", "svg", "--size", "10"],
        ["tour", "8x8", "--format", "gif", "-o", "x.gif", "--fps", "0"],
        ["tours", "5x5", "--format", "png"],
        ["tours", "5x5", "-o", "x.txt"],
        ["trace", "5x5"],
        ["trace", "5x5", "--start", "a1", "--format", "gif"],
        ["trace", "5x5", "--start", "a1", "--steps", "0"],
        ["trace", "5x5", "--start", "a1", "--format", "gif", "--steps", "5000", "-o", "x.gif"],
        ["trace", "5x5", "--start", "a1", "--method", "frontier"],
        ["trace", "5x5", "--start", "a1", "-o", "x.json"],
        ["tour", "2000x2000", "--format", "svg", "-o", "x.svg", "--method", "warnsdorff"],
    ],
)
def test_bad_picture_requests_get_one_sentence_and_status_2(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2, (args, err)
    sentence = [line for line in err.splitlines() if not line.startswith("Try 'chesstours")]  # a usage error's hint
    assert out == "" and len(sentence) == 1 and err.startswith("chesstours: ")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_trace_text_tells_the_search_in_seed_004_words(capsys):
    code, out, err = run(capsys, "trace", "4x4", "--start", "a1", "--steps", 30)
    assert code == 0 and err == ""
    assert out.startswith("Move 1: start on a1.\n4 |  .  .  .  .\n")
    assert "1 |  K  .  .  .\n     a  b  c  d\n" in out
    assert re.search(r"No move left from \w+: back to move \d+ on \w+\.", out)
    assert re.search(r"Move (\d+): new move \1 from \w+ to \w+\.", out)
    sentences = [
        line for line in out.splitlines() if line.startswith(("Move", "No move", "Back", "A ", "Search"))
    ]
    assert len(sentences) == 30


def test_trace_of_warnsdorff_lists_onward_moves(capsys):
    code, out, _ = run(
        capsys,
        "trace",
        "8x8",
        "--start",
        "a1",
        "--method",
        "warnsdorff",
        "--no-boards",
        "--tiebreak",
        "first",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Move 1: start on a1."
    assert lines[1] == "  open moves and their onward moves: b3 5, c2 5"
    assert lines[2] == "Move 2: a1 to b3 (5 onward moves)."
    assert lines[-1] == "A tour of 64 squares, after trying 64 positions."


def test_trace_pictures(capsys, tmp_path):
    code, _, _ = run(
        capsys, "trace", "5x5", "--start", "a1", "--steps", 12, "-o", tmp_path / "s.gif", "--size", 240
    )
    img = Image.open(tmp_path / "s.gif")
    assert code == 0 and img.n_frames == 12 and img.info["duration"] == 500
    code, _, _ = run(capsys, "trace", "5x5", "--start", "a1", "--steps", 12, "-o", tmp_path / "s.svg")
    frames = [g for g in ET.parse(tmp_path / "s.svg").getroot().iter(f"{SVG}g") if g.get("class") == "frame"]
    assert code == 0 and len(frames) == 12
    code, _, _ = run(capsys, "trace", "5x5", "--start", "a1", "--steps", 12, "-o", tmp_path / "s.png")
    assert code == 0 and Image.open(tmp_path / "s.png").format == "PNG"


def test_piped_grid_is_the_plain_grid_byte_for_byte(capsys):
    code, out, _ = run(capsys, "tour", "8x8")
    assert code == 0 and out == render_tour(ct.find_tour("8x8"), "grid") + "\n"
    assert "\x1b" not in out


def test_grid_on_a_terminal_is_coloured_with_the_same_text(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    code, out, _ = run(capsys, "tour", "6x6", "--holes", "c3,d3")
    assert code == 0 and "\x1b[" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert plain == ct.find_tour("6x6", holes="c3,d3").grid() + "\n"
