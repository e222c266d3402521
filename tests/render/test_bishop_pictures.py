"""Pictures of bishop routes: every file opened with a real decoder and checked."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image

import chesstours as ct
from chesstours.bishop.route import slide_corners
from chesstours.board import Board
from chesstours.cli import main
from chesstours.render.picture import draw_tour
from chesstours.render.style import COLOURS, geometry

SVG = "{http://www.w3.org/2000/svg}"


def points(d: str) -> np.ndarray:
    return np.array([[float(a), float(b)] for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)])


def board_centre(root: ET.Element, board: Board, v: int) -> tuple[float, float]:
    """Square v's centre, from the board rectangle alone (rank 1 at the bottom)."""
    rect = root.find(f".//{SVG}rect[@class='board']")
    x0, y0, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
    r, c = divmod(int(v), board.cols)
    return x0 + (c + 0.5) * w / board.cols, y0 + (board.rows - 1 - r + 0.5) * h / board.rows


def rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def near(pixel, colour: str, tol: int = 40) -> bool:
    return int(np.abs(np.asarray(pixel[:3], dtype=int) - rgb(colour)).max()) <= tol


def pixel(img: Image.Image, xy) -> tuple:
    return img.getpixel((round(xy[0] - 0.5), round(xy[1] - 0.5)))


def edge(g, v: int) -> tuple[float, float]:
    """A point just inside the middle of square v's top edge: off every diagonal line and marker."""
    x, y = g.corner(v)
    return x + g.cell / 2, y + 3


def gif_frames(data: bytes) -> list[Image.Image]:
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF" and img.is_animated
    frames = []
    for i in range(img.n_frames):
        img.seek(i)
        frames.append(img.convert("RGB"))
    return frames


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def route8():
    """The puzzle's answer with the fewest slides: a1 to h8 in 17 slides, 45 steps."""
    return ct.solve_bishop("8x8", shortest=True)


def test_svg_line_runs_through_the_slides_ends_from_the_first_square_to_the_last(route8):
    root = ET.fromstring(draw_tour(route8, "svg"))
    line = root.find(f".//{SVG}path[@class='route']")
    pts = points(line.get("d"))
    corners = route8.slides
    assert len(pts) == route8.slide_count + 1 == len(corners) == 18
    for p, v in zip(pts, corners):
        assert tuple(p) == pytest.approx(board_centre(root, route8.board, v), abs=0.01)
    assert tuple(pts[0]) == pytest.approx(board_centre(root, route8.board, route8.start), abs=0.01)
    assert tuple(pts[-1]) == pytest.approx(board_centre(root, route8.board, route8.last), abs=0.01)
    assert not line.get("d").endswith("Z")
    # One dot at each slide's end: the line's inner points carry the marker.
    assert line.get("marker-mid") and root.find(f".//{SVG}marker") is not None
    start, end = root.find(f".//{SVG}circle[@class='start']"), root.find(f".//{SVG}rect[@class='end']")
    assert (float(start.get("cx")), float(start.get("cy"))) == pytest.approx(
        board_centre(root, route8.board, route8.start), abs=0.01)
    x, y, w = (float(end.get(k)) for k in ("x", "y", "width"))
    assert (x + w / 2, y + w / 2) == pytest.approx(board_centre(root, route8.board, route8.last), abs=0.01)
    assert "Bishop route on 8x8, from a1 to h8, 17 slides" in root.find(f"{SVG}title").text


def test_svg_numbers_are_visit_numbers_two_on_a_square_passed_twice(route8):
    root = ET.fromstring(draw_tour(route8, "svg", numbers=True))
    badges = [g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g")
              if (g.get("class") or "").startswith("number")]
    assert len(badges) == 32  # every dark square once
    visits = sorted(int(n) for text in badges for n in text.split(","))
    assert visits == list(range(1, len(route8.steps) + 1))
    twice = [text for text in badges if "," in text]
    assert len(twice) == len(route8.steps) - 32 == 14
    # a1's badge is the green start with 1; h8's the red end with the last number.
    start = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "number start")
    assert start.find(f"{SVG}text").text == "1"


def test_png_shades_the_unvisited_colour_grey_marks_both_ends_and_holes(route8):
    img = Image.open(io.BytesIO(draw_tour(route8, "png", size=400)))
    assert img.format == "PNG" and img.size == (400, 400)
    img = img.convert("RGB")
    g = geometry(route8.board, 400)
    b = route8.board
    assert near(pixel(img, g.centre(b.square("a1"))), COLOURS["start"])
    assert near(pixel(img, g.centre(b.square("h8"))), COLOURS["end"])
    assert near(pixel(img, edge(g, b.square("b1"))), COLOURS["unvisited"], 6)  # light: never visited, grey
    assert near(pixel(img, edge(g, b.square("c1"))), COLOURS["dark"], 6)
    # The middle of the first slide, a1-e5, is on the line.
    (x0, y0), (x1, y1) = g.centre(0), g.centre(b.square("e5"))
    assert near(pixel(img, ((x0 + x1) / 2 + 0.5, (y0 + y1) / 2 + 0.5)), COLOURS["line"], 60)
    # Holes are shaded.
    holed = ct.solve_bishop(Board(8, 8, holes="d4"), end="any")
    img = Image.open(io.BytesIO(draw_tour(holed, "png", size=300))).convert("RGB")
    assert near(pixel(img, edge(geometry(holed.board, 300), 27)), COLOURS["hole"], 8)  # d4


def test_light_routes_grey_the_dark_squares():
    route = ct.solve_bishop("8x8", start="h1", end="any")  # h1 is light
    img = Image.open(io.BytesIO(draw_tour(route, "png", size=300))).convert("RGB")
    g = geometry(route.board, 300)
    assert near(pixel(img, edge(g, 0)), COLOURS["unvisited"], 6)  # a1 is dark
    assert near(pixel(img, edge(g, route.board.square("d1"))), COLOURS["light"], 6)  # the route's colour


def test_gif_has_a_frame_per_diagonal_step_with_the_bishop_on_its_square(route8):
    frames = gif_frames(draw_tour(route8, "gif", size=320, fps=5))
    assert len(frames) == len(route8.steps) == 46
    g = geometry(route8.board, 320)
    for k in (0, 7, 30):
        x, y = g.centre(route8.steps[k])
        base = (x, y + 0.36 * g.cell)  # the bishop's white base
        assert near(pixel(frames[k], base), COLOURS["knight"], 30)
    # The held last frame is the still picture.
    still = np.asarray(Image.open(io.BytesIO(draw_tour(route8, "png", size=320))).convert("RGB"), dtype=int)
    assert np.abs(still - np.asarray(frames[-1], dtype=int)).mean() < 1.5


def test_animated_svg_moves_the_bishop_one_step_a_frame_through_the_slides_ends(route8):
    root = ET.fromstring(draw_tour(route8, "svg", animate=True, fps=4))
    motion = root.find(f".//{SVG}g[@class='bishop']/{SVG}animateMotion")
    pts = points(motion.get("path"))
    assert len(pts) == 18
    assert tuple(pts[0]) == pytest.approx(board_centre(root, route8.board, route8.start), abs=0.01)
    assert tuple(pts[-1]) == pytest.approx(board_centre(root, route8.board, route8.last), abs=0.01)
    assert float(motion.get("dur").rstrip("s")) == pytest.approx(45 / 4 + 2)
    drawn = [p for p in root.iter(f"{SVG}path") if p.get("class") == "route" and p.find(f"{SVG}animate") is not None]
    assert drawn and drawn[0].get("pathLength") == "45"


def test_slide_corners_are_where_the_line_turns(route8):
    corners = slide_corners(route8.board, route8.steps)
    assert route8.board.names(route8.steps[corners]) == route8.slides_text().split("-")


# -- the command line -------------------------------------------------------------


def test_bishop_command_draws_by_extension_and_by_format(capsys, tmp_path):
    code, out, err = run(capsys, "bishop", "8x8", "--shortest", "-o", tmp_path / "r.png", "--size", 256)
    assert (code, out, err) == (0, "", "")
    img = Image.open(tmp_path / "r.png")
    assert img.format == "PNG" and img.size == (256, 256)
    code, _, _ = run(capsys, "bishop", "8x8", "--shortest", "--fps", 4, "-o", tmp_path / "r.gif")
    assert code == 0 and Image.open(tmp_path / "r.gif").n_frames == 46
    code, out, err = run(capsys, "bishop", "8x8", "--format", "svg", "--numbers")
    assert code == 0 and err == ""
    root = ET.fromstring(out)
    assert len([g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("number")]) == 32
    code, out, _ = run(capsys, "bishop", "8x8", "--format", "svg", "--animate")
    assert code == 0 and ET.fromstring(out).find(f".//{SVG}g[@class='bishop']") is not None


@pytest.mark.parametrize("args", [
    ["bishop", "8x8", "--format", "png"],                  # binary, no file
    ["bishop", "8x8", "--count", "-o", "x.png"],           # a count has no picture
    ["bishop", "8x8", "--all", "--format", "svg"],
    ["bishop", "8x8", "-o", "x.npy"],
    ["bishop", "8x8", "--json", "--format", "svg"],
    ["bishop", "8x8", "--animate"],
    ["bishop", "8x8", "--format", "gif", "--fps", 0, "-o", "x.gif"],
])
def test_bishop_picture_mistakes_are_one_sentence_and_exit_2(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("chesstours: ") and err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.iterdir())
