"""Pictures: every file is opened with a real decoder and its contents checked."""

from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
from itertools import islice
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

import chesstours as ct
from chesstours.bishop import BishopRoute
from chesstours.board import Board
from chesstours.errors import InvalidArgument
from chesstours.render import raster
from chesstours.render.picture import draw_tour, draw_trace, route_of
from chesstours.render.style import COLOURS, geometry
from chesstours.tour import Tour
from chesstours.trace import trace_search

SVG = "{http://www.w3.org/2000/svg}"


# -- helpers -------------------------------------------------------------------


def svg_root(data: bytes) -> ET.Element:
    return ET.fromstring(data)


def board_rect(root: ET.Element) -> tuple[float, float, float, float]:
    rect = root.find(f".//{SVG}rect[@class='board']")
    return tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def expected_centre(root: ET.Element, board: Board, v: int) -> tuple[float, float]:
    """Where square v's centre must be, from the board rectangle alone (rank 1 at the bottom)."""
    x0, y0, w, h = board_rect(root)
    r, c = divmod(v, board.cols)
    return x0 + (c + 0.5) * w / board.cols, y0 + (board.rows - 1 - r + 0.5) * h / board.rows


def route_points(element: ET.Element) -> tuple[np.ndarray, bool]:
    d = element.get("d")
    pts = np.array([[float(a), float(b)] for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)])
    return pts, d.rstrip().endswith("Z")


def route(root: ET.Element) -> ET.Element:
    return root.find(f".//{SVG}path[@class='route']")


def png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def near(pixel, colour: str, tol: int = 40) -> bool:
    return int(np.abs(np.asarray(pixel[:3], dtype=int) - rgb(colour)).max()) <= tol


def pixel(img: Image.Image, xy) -> tuple:
    return img.getpixel((int(round(xy[0] - 0.5)), int(round(xy[1] - 0.5))))


@pytest.fixture(scope="module")
def tour8():
    return ct.find_tour("8x8", start="a1")


@pytest.fixture(scope="module")
def closed6():
    return ct.find_tour("6x6", start="a1", closed=True)


# -- SVG -----------------------------------------------------------------------


def test_svg_line_passes_through_every_square_centre_from_first_to_last(tour8):
    root = svg_root(draw_tour(tour8, "svg", size=480))
    assert (root.get("width"), root.get("height")) == ("480", "480")
    pts, closed = route_points(route(root))
    assert not closed and len(pts) == 64
    want = np.array([expected_centre(root, tour8.board, v) for v in tour8.path])
    assert np.abs(pts - want).max() < 0.01
    assert tuple(pts[0]) == pytest.approx(
        expected_centre(root, tour8.board, tour8.board.square("a1")), abs=0.01
    )
    # A dot at every move: the line's marker-mid is a circle.
    marker_id = re.fullmatch(r"url\(#(.+)\)", route(root).get("marker-mid")).group(1)
    assert root.find(f".//{SVG}marker[@id='{marker_id}']/{SVG}circle") is not None
    # Start and end are marked distinctly: a disc on the first square, a square on the last.
    start, end = root.find(f".//{SVG}circle[@class='start']"), root.find(f".//{SVG}rect[@class='end']")
    assert (float(start.get("cx")), float(start.get("cy"))) == pytest.approx(pts[0], abs=0.01)
    x, y, w = (float(end.get(k)) for k in ("x", "y", "width"))
    assert (x + w / 2, y + w / 2) == pytest.approx(pts[-1], abs=0.01)


def test_svg_of_a_closed_tour_returns_to_its_start(closed6):
    root = svg_root(draw_tour(closed6, "svg"))
    pts, closed = route_points(route(root))
    assert closed and len(pts) == 36
    assert tuple(pts[0]) == pytest.approx(expected_centre(root, closed6.board, closed6.start), abs=0.01)
    # The closing leap is a knight's move: its length is the same as every other leap's.
    legs = np.hypot(*np.diff(np.vstack([pts, pts[:1]]), axis=0).T)
    assert np.ptp(legs) < 0.02


def test_svg_shades_every_hole_on_its_square():
    board = Board(6, 6, holes="c3,d3")
    t = ct.find_tour(board, start="a1")
    root = svg_root(draw_tour(t, "svg"))
    group = root.find(f".//{SVG}g[@class='holes']")
    assert group.get("fill") == COLOURS["hole"]
    holes = group.findall(f"{SVG}rect")
    assert sorted(r.get("data-square") for r in holes) == ["c3", "d3"]
    for r in holes:
        v = board._square_of(r.get("data-square"))
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        assert (x + w / 2, y + h / 2) == pytest.approx(expected_centre(root, board, v), abs=0.02)


def test_svg_numbers_every_step_and_shows_both_visits_of_a_revisited_square():
    t = ct.find_tour("5x5", start="a1")
    root = svg_root(draw_tour(t, "svg", numbers=True))
    badges = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("number")]
    assert sorted(int(g.find(f"{SVG}text").text) for g in badges) == list(range(1, 26))
    for g in badges:
        c = g.find(f"{SVG}circle")
        v = int(t.path[int(g.find(f"{SVG}text").text) - 1])
        assert (float(c.get("cx")), float(c.get("cy"))) == pytest.approx(
            expected_centre(root, t.board, v), abs=0.01
        )
    # A bishop route passes some squares twice: their badge carries both step numbers.
    board = Board(8, 8)
    route_obj = BishopRoute(board, [board.square(s) for s in "a1 b2 c3 b4 a3 b2 c1".split()], end="any")
    root = svg_root(draw_tour(route_obj, "svg", numbers=True))
    badge_texts = [
        g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("number")
    ]
    assert sorted(badge_texts) == sorted(["1", "2,6", "3", "4", "5", "7"])


def test_numbers_and_markers_fade_out_on_large_boards_but_the_line_stays():
    big = ct.find_tour("100x100", start="a1", method="warnsdorff")
    root = svg_root(draw_tour(big, "svg", numbers=True))
    assert (root.get("width"), root.get("height")) == ("1200", "1200")
    assert not [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("number")]
    assert route(root).get("marker-mid")  # too small for numbers, still dots
    assert len(route_points(route(root))[0]) == 10_000
    # Squares of 4 pixels: no dots; the line is coloured from the first square to the last,
    # in runs that join end to end.
    huge = ct.find_tour("300x300", start="a1", method="warnsdorff")
    root = svg_root(draw_tour(huge, "svg"))
    assert route(root) is None and not root.findall(f".//{SVG}marker")
    bands = [route_points(p)[0] for p in root.iter(f"{SVG}path") if p.get("class") == "route-band"]
    assert (
        len(bands) > 10
        and len({p.get("stroke") for p in root.iter(f"{SVG}path") if p.get("class") == "route-band"}) > 10
    )
    for a, b in zip(bands, bands[1:]):
        assert tuple(a[-1]) == tuple(b[0])
    joined = np.vstack([bands[0]] + [b[1:] for b in bands[1:]])
    assert len(joined) == 90_000
    assert tuple(joined[0]) == pytest.approx(expected_centre(root, huge.board, huge.start), abs=0.01)
    assert tuple(joined[-1]) == pytest.approx(expected_centre(root, huge.board, huge.end), abs=0.01)


def test_animated_svg_moves_the_knight_along_the_tour_and_back_to_its_start(closed6):
    root = svg_root(draw_tour(closed6, "svg", animate=True, fps=4))
    motion = root.find(f".//{SVG}g[@class='knight']/{SVG}animateMotion")
    pts = np.array(
        [[float(a), float(b)] for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", motion.get("path"))]
    )
    assert len(pts) == 37 and tuple(pts[-1]) == pytest.approx(pts[0])
    assert float(motion.get("dur").rstrip("s")) == pytest.approx(36 / 4 + 2)
    drawn = [
        p
        for p in root.iter(f"{SVG}path")
        if p.get("class") == "route" and p.find(f"{SVG}animate") is not None
    ]
    assert drawn and drawn[0].find(f"{SVG}animate").get("attributeName") == "stroke-dashoffset"


# -- PNG -----------------------------------------------------------------------


def test_png_size_ends_line_and_holes_are_where_they_belong():
    board = Board(6, 6, holes="c3,d3")
    t = ct.find_tour(board, start="a1")
    img = png(draw_tour(t, "png", size=360))
    assert img.size == (360, 360)
    g = geometry(board, 360)
    assert near(pixel(img, g.centre(t.start)), COLOURS["start"])
    assert near(pixel(img, g.centre(t.end)), COLOURS["end"])
    for a, b in ((t.path[0], t.path[1]), (t.path[-2], t.path[-1])):
        (x0, y0), (x1, y1) = g.centre(a), g.centre(b)
        for f in (0.45, 0.5, 0.55):  # the middle of the first and last leaps
            assert near(pixel(img, (x0 + f * (x1 - x0), y0 + f * (y1 - y0))), COLOURS["line"], 60)
    for v in board.holes:
        assert near(pixel(img, g.centre(v)), COLOURS["hole"], 8)


def test_png_chequer_has_a_dark_a1_and_rank_1_at_the_bottom():
    board = Board(5, 5)
    img = png(draw_tour(Tour(board, ct.KNIGHT, [24]), "png", size=300))
    g = geometry(board, 300)
    light, dark = COLOURS["light"], COLOURS["dark"]
    assert near(pixel(img, g.centre(0)), dark, 2) and near(pixel(img, g.centre(1)), light, 2)
    x, y = g.centre(0)
    assert x < 300 / 5 and y > 300 * 4 / 5  # a1: bottom left
    assert near(pixel(img, g.centre(24)), COLOURS["start"])


def test_png_of_a_closed_tour_adds_exactly_the_closing_leap(closed6):
    open_version = Tour(closed6.board, closed6.piece, closed6.path, closed=False)
    a = np.asarray(png(draw_tour(closed6, "png", size=300)), dtype=int)
    b = np.asarray(png(draw_tour(open_version, "png", size=300)), dtype=int)
    g = geometry(closed6.board, 300)
    (x0, y0), (x1, y1) = g.centre(closed6.end), g.centre(closed6.start)
    ys, xs = np.nonzero(np.abs(a - b).max(axis=2) > 24)
    assert len(xs) > 0
    # Every changed pixel lies along the closing leap: on the line, or at its joints with the
    # marks of the two end squares.
    seg = np.array([x1 - x0, y1 - y0])
    t = np.clip(((xs - x0) * seg[0] + (ys - y0) * seg[1]) / seg.dot(seg), 0, 1)
    dist = np.hypot(xs - (x0 + t * seg[0]), ys - (y0 + t * seg[1]))
    assert dist.max() <= g.end_radius * 1.5 + 2
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    assert near(pixel(Image.fromarray(a.astype(np.uint8)), mid), COLOURS["line"], 60)


def test_sizes_are_checked_and_huge_boards_refused():
    t = ct.find_tour("5x5", start="a1")
    for bad in (10, 5000):
        with pytest.raises(InvalidArgument):
            draw_tour(t, "png", size=bad)
    with pytest.raises(InvalidArgument):
        draw_tour(Tour(Board(1001, 1000), ct.KNIGHT, [0]), "svg")
    with pytest.raises(InvalidArgument):
        draw_tour(t, "pdf")
    with pytest.raises(InvalidArgument):
        draw_tour(Tour(Board(5, 5, holes="b3"), ct.KNIGHT, [0, 11]), "svg")
    with pytest.raises(InvalidArgument):
        draw_tour(t, "gif", fps=0)
    with pytest.raises(InvalidArgument):
        route_of(SimpleNamespace(path=[0]))  # no board: nothing to draw on


# -- GIF -----------------------------------------------------------------------


def gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF" and img.is_animated
    out = []
    for i in range(img.n_frames):
        img.seek(i)
        out.append((img.convert("RGB"), img.info["duration"]))
    return out


def test_gif_has_a_frame_per_move_with_the_knight_on_its_square(tour8):
    frames = gif_frames(draw_tour(tour8, "gif", size=320, fps=5))
    assert len(frames) == 64 and all(f.size == (320, 320) for f, _ in frames)
    assert [d for _, d in frames[:-1]] == [200] * 63 and frames[-1][1] >= 2000
    g = geometry(tour8.board, 320)
    for k in (0, 5, 40):
        x, y = g.centre(tour8.path[k])
        body = (x + 0.1 * g.cell, y + 0.33 * g.cell)  # inside the knight's base
        assert near(pixel(frames[k][0], body), COLOURS["knight"], 30)
        assert not near(pixel(frames[k + 1][0], body), COLOURS["knight"], 30)
    # The held last frame is the still picture.
    still = np.asarray(png(draw_tour(tour8, "png", size=320)), dtype=int)
    last = np.asarray(frames[-1][0], dtype=int)
    assert np.abs(still - last).mean() < 1.5


def test_closed_gif_ends_back_on_the_start_and_long_tours_are_capped(closed6):
    frames = gif_frames(draw_tour(closed6, "gif", size=240))
    assert len(frames) == 37
    capped = gif_frames(raster.animation_gif(closed6.board, closed6.path, True, 240, 8.0, max_frames=10))
    assert 2 <= len(capped) <= 10
    assert np.abs(np.asarray(capped[-1][0], dtype=int) - np.asarray(frames[-1][0], dtype=int)).mean() < 1
    still = np.asarray(png(draw_tour(closed6, "png", size=240)), dtype=int)
    assert np.abs(still - np.asarray(frames[-1][0], dtype=int)).mean() < 1.5


# -- traces --------------------------------------------------------------------


def test_trace_gif_and_svg_have_one_frame_per_event_with_its_caption():
    board = Board(5, 5)
    events = list(islice(trace_search(board, "a1"), 25))
    frames = gif_frames(draw_trace(events, board, "gif", size=300, fps=4))
    assert len(frames) == 25 and frames[0][1] == 250
    g = geometry(board, 300, caption=3)
    assert frames[0][0].size == (g.width, g.height)
    root = svg_root(draw_trace(events, board, "svg", size=300))
    groups = [el for el in root.iter(f"{SVG}g") if el.get("class") == "frame"]
    assert len(groups) == 25
    for el, e in zip(groups, events):
        caption = " ".join(t.text for t in el.find(f"{SVG}g[@class='caption']").iter(f"{SVG}text"))
        assert caption == e.describe(board)
    # A skipped move is crossed out on its square.
    skip = next(i for i, e in enumerate(events) if e.kind == "skip")
    assert groups[skip].find(f"{SVG}g[@class='skipped']") is not None


def test_warnsdorff_trace_shows_onward_moves_on_the_candidate_squares():
    board = Board(6, 6)
    events = list(trace_search(board, "a1", method="warnsdorff"))[:6]
    root = svg_root(draw_trace(events, board, "svg"))
    for el, e in zip([g for g in root.iter(f"{SVG}g") if g.get("class") == "frame"], events):
        shown = {}
        for badge in el.findall(f"{SVG}g[@class='candidate']"):
            c = badge.find(f"{SVG}circle")
            x, y = float(c.get("cx")), float(c.get("cy"))
            v = next(
                u
                for u, _ in e.candidates
                if np.hypot(*np.subtract(expected_centre(root, board, u), (x, y))) < 0.1
            )
            shown[v] = int(badge.find(f"{SVG}text").text)
        assert shown == dict(e.candidates)
    img = png(draw_trace(events, board, "png"))
    assert img.size[0] == geometry(board, None, caption=3).width


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's peak-memory reset")
def test_a_large_animation_holds_little_more_than_one_frame_while_it_is_drawn():
    """A 1024-pixel GIF of some 200 frames: its RGB frames would be 600 MiB held at once; the frames are kept as
    what changed, and only the indexed frames the encoder needs (a mebibyte each) are held whole. The peak is
    measured from the drawing's start (Linux resets a process's peak when told to), after the search."""
    import subprocess
    import sys

    code = ("import chesstours as ct\n"
            "tour = ct.find_tour('24x24', start='a1')\n"
            "ct.draw_tour(tour, 'gif', size=64)\n"
            "def status(key):\n"
            "    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith(key))\n"
            "open('/proc/self/clear_refs', 'w').write('5')\n"
            "before = status('VmRSS:')\n"
            "gif = ct.draw_tour(tour, 'gif', size=1024)\n"
            "print(status('VmHWM:') - before, len(gif))")
    grown_kib, size = map(int, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                              check=True, timeout=300).stdout.split())
    assert size > 100_000
    assert grown_kib < 700 * 1024, grown_kib  # holding every RGB frame, the drawing grew by 1.2 GiB
