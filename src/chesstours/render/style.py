"""What every picture shares: the geometry of the board, the colours, the knight.

A picture is a :class:`Scene` -- a board, a path through square centres
(squares may repeat: a bishop route passes some squares twice), whether it
is closed, and what else is marked -- drawn at a :class:`Geometry`, which
turns squares into pixel centres. The SVG and the raster renderers draw the
same scene at the same geometry, so a PNG and an SVG of one tour match.

Sizes adapt to the board: coordinates, markers and step numbers are drawn
only while a square is large enough to hold them, and fade out in that order
as the board grows; the line through the centres always stays. Images are
capped at :data:`MAX_SIZE` pixels a side.

Examples
--------
>>> from chesstours.board import Board
>>> g = geometry(Board(8, 8), size=400)
>>> g.cell, g.width, g.height
(46.0, 400, 400)
>>> g.centre(0)  # a1: the bottom-left square
(48.0, 352.0)
>>> geometry(Board(100, 100)).show_markers, geometry(Board(100, 100)).show_labels
(True, False)
>>> geometry(Board(1000, 1000)).show_markers
False
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

import numpy as np

from ..board import Board, file_name
from ..errors import InvalidArgument

__all__ = [
    "Scene", "Geometry", "geometry", "CAPTION_LINES", "square_colours", "gradient_bands", "gradient_colour",
    "GRADIENT", "step_labels", "COLOURS", "KNIGHT_OUTLINE", "BISHOP_OUTLINE", "FIGURES", "MAX_SIZE", "MIN_SIZE",
    "DEFAULT_FPS", "MAX_FPS", "check_fps",
]

#: Largest picture side in pixels (width or height of the board area).
MAX_SIZE = 4096
#: Smallest picture side in pixels.
MIN_SIZE = 64
#: Lines of caption text under a trace's frames.
CAPTION_LINES = 3
#: Frames per second of animations, unless told otherwise.
DEFAULT_FPS = 8.0
#: Fastest animation: GIF delays are whole hundredths and browsers slow down any below 2.
MAX_FPS = 50.0
#: Slowest frame rate: a GIF frame lasts at most 655.35 s, and slower is a still picture.
MIN_FPS = 0.1

#: Colours, as CSS hex strings (Pillow reads them too).
COLOURS = {
    "light": "#f0d9b5",      # light squares
    "dark": "#b58863",       # dark squares (a1 is dark)
    "hole": "#3d3d3d",       # removed squares
    "hole_mark": "#5c5c5c",  # the cross on a removed square
    "paper": "#ffffff",      # margins
    "label": "#5a5a5a",      # coordinates
    "line": "#1b3a6b",       # the path
    "marker": "#ffffff",     # a move's dot or number badge
    "start": "#2e8b57",      # first square
    "end": "#c0392b",        # last square
    "text": "#1b1b1b",       # numbers in badges
    "knight": "#ffffff",     # the moving knight
    "candidate": "#f7dc6f",  # squares the knight may move to next (trace)
    "skipped": "#c0392b",    # a move tried and given up at once (trace)
    "left": "#e67e22",       # a square the search steps back from (trace)
    "caption": "#1b1b1b",
    "unvisited": "#dadada",  # squares of the colour a bishop never stands on
}

#: A knight's head facing left, in units of one square, centred on (0, 0), y down.
KNIGHT_OUTLINE = (
    (0.30, 0.40), (-0.30, 0.40), (-0.30, 0.30), (-0.20, 0.24), (-0.06, 0.12), (-0.02, 0.02),
    (-0.14, 0.06), (-0.22, 0.02), (-0.30, 0.05), (-0.37, -0.02), (-0.36, -0.10), (-0.22, -0.24),
    (-0.10, -0.31), (-0.08, -0.41), (0.00, -0.33), (0.08, -0.40), (0.12, -0.30), (0.24, -0.20),
    (0.31, -0.02), (0.33, 0.18), (0.27, 0.30),
)
#: The knight's eye, (x, y, radius) in the same units.
KNIGHT_EYE = (-0.13, -0.16, 0.035)
#: A bishop: a base, a collar and a mitre, in the same units.
BISHOP_OUTLINE = (
    (0.30, 0.40), (-0.30, 0.40), (-0.30, 0.32), (-0.12, 0.26), (-0.10, 0.18), (-0.17, 0.16),
    (-0.17, 0.09), (-0.10, 0.07), (-0.20, -0.05), (-0.18, -0.17), (-0.08, -0.28), (0.00, -0.31),
    (0.08, -0.28), (0.18, -0.17), (0.20, -0.05), (0.10, 0.07), (0.17, 0.09), (0.17, 0.16),
    (0.10, 0.18), (0.12, 0.26), (0.30, 0.32),
)
#: The ball on the bishop's mitre, (x, y, radius).
BISHOP_BALL = (0.0, -0.36, 0.055)
#: The figures an animation can move: outline and dot (the knight's eye, the bishop's ball).
FIGURES = {"knight": (KNIGHT_OUTLINE, KNIGHT_EYE), "bishop": (BISHOP_OUTLINE, BISHOP_BALL)}


@dataclass
class Scene:
    """Everything one picture shows.

    Parameters
    ----------
    board : Board
    path : int array
        Squares in order; a square may appear more than once.
    closed : bool
        Draw the leap from the last square back to the first.
    numbers : bool
        Put each square's step numbers (1-based) in a badge at its centre.
    ends : bool
        Mark the first square (a disc) and the last (a square) distinctly.
    knight : int, optional
        Square where a knight is drawn (animations and traces).
    labels : dict
        Square -> short text drawn in a yellow badge (a trace's candidate squares
        with their onward moves).
    marks : dict
        Square -> ``"skipped"`` (a red cross) or ``"left"`` (an orange ring).
    caption : str, optional
        A line of text under the board.
    figure : {"knight", "bishop"}
        What is drawn on ``knight``'s square.
    corners : int array, optional
        Indices into ``path`` where the line turns (a bishop route's slide
        ends): the line is drawn through these squares only and the markers
        sit on them. Default: every square of the path.
    faded : {0, 1}, optional
        Squares of this colour (0 dark, 1 light) are shaded grey: a bishop
        never stands on them.
    """

    board: Board
    path: np.ndarray
    closed: bool = False
    numbers: bool = False
    ends: bool = True
    knight: int | None = None
    labels: dict[int, str] = field(default_factory=dict)
    marks: dict[int, str] = field(default_factory=dict)
    caption: str | None = None
    figure: str = "knight"
    corners: np.ndarray | None = None
    faded: int | None = None

    @property
    def turns(self) -> np.ndarray:
        """The squares the line is drawn through: ``path[corners]``, or the whole path."""
        return self.path if self.corners is None else np.asarray(self.path)[self.corners]


@dataclass(frozen=True)
class Geometry:
    """Pixel geometry of a board picture.

    The board area is ``cols * cell`` by ``rows * cell`` pixels with its top
    left corner at ``(left, top)``; rank numbers sit left of it and file
    letters under it when ``show_labels``; a caption band of ``caption``
    pixels closes the picture.
    """

    rows: int
    cols: int
    cell: float
    left: float
    top: float
    width: int
    height: int
    caption: int
    show_labels: bool
    show_markers: bool
    scale: int = 1

    def scaled(self, k: int) -> "Geometry":
        """The same picture drawn ``k`` times larger (raster pictures are drawn large, then shrunk)."""
        if k == 1:
            return self
        return Geometry(self.rows, self.cols, self.cell * k, self.left * k, self.top * k, self.width * k,
                        self.height * k, self.caption * k, self.show_labels, self.show_markers,
                        self.scale * k)

    @property
    def board_bottom(self) -> float:
        return self.top + self.rows * self.cell

    def centre(self, v: int) -> tuple[float, float]:
        """Pixel centre of square ``v``."""
        r, c = divmod(int(v), self.cols)
        return (self.left + (c + 0.5) * self.cell, self.top + (self.rows - 1 - r + 0.5) * self.cell)

    def centres(self, path) -> np.ndarray:
        """``float64[k, 2]``: the centres of the squares of ``path``."""
        path = np.asarray(path, dtype=np.int64)
        r, c = np.divmod(path, self.cols)
        return np.column_stack((self.left + (c + 0.5) * self.cell,
                                self.top + (self.rows - 1 - r + 0.5) * self.cell))

    def corner(self, v: int) -> tuple[float, float]:
        """Pixel position of the top left corner of square ``v``."""
        r, c = divmod(int(v), self.cols)
        return (self.left + c * self.cell, self.top + (self.rows - 1 - r) * self.cell)

    @property
    def line_width(self) -> float:
        return max(1.0 * self.scale, round(self.cell * 0.06, 2))

    @property
    def dot_radius(self) -> float:
        return self.cell * 0.09

    @property
    def end_radius(self) -> float:
        """Radius of the start disc and half-side of the end square: a quarter square, but
        never too small to see on a large board."""
        return max(3.0 * self.scale, self.cell * 0.26, min(self.width, self.height) / 150)

    @property
    def gradient(self) -> bool:
        """Whether the line is coloured along the tour: once squares are too small for
        dots, one colour would fill the board, while a gradient shows where the tour went when."""
        return not self.show_markers

    @property
    def badge_radius(self) -> float:
        return self.cell * 0.33

    def badge_font(self, text: str) -> float:
        """Font size that fits ``text`` inside a badge."""
        return min(self.cell * 0.36, self.cell * 1.05 / max(1, len(text)))

    def fits(self, text: str) -> bool:
        """True when ``text`` in a badge would be readable (at least 7 pixels)."""
        return self.badge_font(text) >= 7.0 * self.scale

    def label_font(self) -> float:
        return self.scale * max(8.0, min(15.0, self.cell / self.scale * 0.34))

    def rank_labels(self):
        """``(text, x, y)`` for each rank number, right-aligned at x."""
        return [(str(r + 1), self.left - 4 * self.scale,
                 self.top + (self.rows - 1 - r + 0.5) * self.cell) for r in range(self.rows)]

    def file_labels(self):
        """``(text, x, y)`` for each file letter, centred at x."""
        y = self.board_bottom + (self.height - self.caption - self.board_bottom) / 2
        return [(file_name(c), self.left + (c + 0.5) * self.cell, y) for c in range(self.cols)]

    def caption_font(self) -> float:
        return self.scale * max(10.0, min(18.0, self.width / self.scale / 40))

    def caption_lines(self, text: str) -> list[tuple[str, float, float]]:
        """``(line, x, y)``: ``text`` wrapped to the picture's width, left-aligned at x, centred on y."""
        font = self.caption_font()
        chars = max(10, int((self.width - 2 * self.left) / (0.55 * font)))
        lines = textwrap.wrap(text, chars) or [""]
        y0 = self.height - self.caption + 0.35 * font + 0.65 * font
        return [(line, self.left, y0 + i * 1.3 * font) for i, line in enumerate(lines)]


#: Colours along the tour on large boards, from the first square to the last.
GRADIENT = ("#1b3a6b", "#2a9d8f", "#e9c46a", "#e76f51")


def gradient_colour(t: float) -> str:
    """The colour a fraction ``t`` (0 to 1) of the way along the tour."""
    stops = [[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in GRADIENT]
    x = min(1.0, max(0.0, t)) * (len(stops) - 1)
    i = min(int(x), len(stops) - 2)
    rgb = [a + (b - a) * (x - i) for a, b in zip(stops[i], stops[i + 1])]
    return "#" + "".join(f"{int(round(v)):02x}" for v in rgb)


def gradient_bands(points: int, bands: int = 96) -> list[tuple[int, int, str]]:
    """``(first, last, colour)``: runs of a path of ``points`` squares (consecutive runs
    share their end point) and the colour of each, from :data:`GRADIENT`."""
    edges = np.unique(np.linspace(0, points - 1, min(bands, max(1, points - 1)) + 1).round().astype(int))
    span = max(1, points - 1)
    return [(int(a), int(b), gradient_colour((a + b) / 2 / span)) for a, b in zip(edges[:-1], edges[1:])]


def square_colours(cell: float, faded: int | None = None) -> tuple[str, str]:
    """``(light, dark)`` square colours for squares of ``cell`` pixels.

    Small squares get a softer chequer, so the path stays the thing one sees.
    Squares of colour ``faded`` (0 dark, 1 light) are grey: a bishop's route
    never uses them.
    """
    t = min(0.55, max(0.0, (48 - cell) / 40))
    light, dark = COLOURS["light"], COLOURS["dark"]
    if t > 0:
        rgb = [round(int(dark[i : i + 2], 16) * (1 - t) + int(light[i : i + 2], 16) * t) for i in (1, 3, 5)]
        dark = "#" + "".join(f"{v:02x}" for v in rgb)
    if faded == 0:
        dark = COLOURS["unvisited"]
    elif faded == 1:
        light = COLOURS["unvisited"]
    return light, dark


def default_size(board: Board) -> int:
    """A comfortable picture side: 64 pixels a square, between 320 and 1200 pixels."""
    return int(min(1200, max(320, 64 * max(board.rows, board.cols))))


def check_size(size: int | None, board: Board) -> int:
    """The picture side to use; :raises InvalidArgument: if ``size`` is out of range."""
    if size is None:
        return default_size(board)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidArgument(
            f"The picture size must be between {MIN_SIZE} and {MAX_SIZE} pixels, not {size}.")
    return int(size)


def check_fps(fps: float | None) -> float:
    """The frame rate to use; :raises InvalidArgument: if ``fps`` is out of range."""
    if fps is None:
        return DEFAULT_FPS
    if not (MIN_FPS <= fps <= MAX_FPS) or math.isnan(fps):
        raise InvalidArgument(
            f"--fps must be between {MIN_FPS:g} and {MAX_FPS:g} frames a second, not {fps:g}.")
    return float(fps)


def geometry(board: Board, size: int | None = None, caption: int = 0) -> Geometry:
    """The geometry of a picture of ``board`` whose longer side is ``size`` pixels (caption aside).

    ``caption`` is the number of lines of text under the board.

    Squares are a whole number of pixels when that costs at most 5 % of their
    size, so every square is drawn the same; the pixels left over widen the
    margins evenly.
    """
    side = check_size(size, board)
    longest = max(board.rows, board.cols)
    cell = side / longest
    show_labels = cell >= 16
    pad = 4.0 if cell >= 4 else 1.0
    if show_labels:
        font = max(8.0, min(15.0, cell * 0.34))
        margin = float(math.ceil(max(font * (0.62 * len(str(board.rows)) + 0.2) + 8, font * 1.5)))
    else:
        margin = pad
    room = side - margin - pad
    cell = room / longest
    if cell >= 2 and math.floor(cell) >= 0.95 * cell:
        cell = float(math.floor(cell))
    spare = room - longest * cell  # centre the board in the pixels left over
    margin += math.floor(spare / 2)
    pad += spare - math.floor(spare / 2)
    font = max(10.0, min(18.0, (margin + board.cols * cell + pad) / 40))
    band = int(round(font * (1.3 * caption + 0.7))) if caption else 0
    width = int(round(margin + board.cols * cell + pad))
    height = int(round(pad + board.rows * cell + margin)) + band
    return Geometry(board.rows, board.cols, cell, margin, pad, width, height, band, show_labels, cell >= 7)


def step_labels(path: np.ndarray) -> dict[int, str]:
    """Square -> its step numbers (1-based), joined by commas when a path visits it again."""
    out: dict[int, list[int]] = {}
    for i, v in enumerate(np.asarray(path).tolist(), 1):
        out.setdefault(v, []).append(i)
    return {v: ",".join(map(str, steps)) for v, steps in out.items()}


def checked_path(board: Board, path) -> np.ndarray:
    """``path`` as an int64 array, every square on the board and not a hole.

    :raises InvalidArgument: naming the first bad square.
    """
    squares = np.asarray(path, dtype=np.int64).reshape(-1)
    if squares.size == 0:
        raise InvalidArgument("There is nothing to draw: the path is empty.")
    off = np.flatnonzero((squares < 0) | (squares >= board.size))
    if off.size:
        raise InvalidArgument(f"Square {int(off[0]) + 1} of the path is not on {board}.")
    if board.holes:
        on_hole = np.flatnonzero(board.hole_mask[squares])
        if on_hole.size:
            v = int(squares[on_hole[0]])
            raise InvalidArgument(f"Square {int(on_hole[0]) + 1} of the path, {board.name(v)}, is a hole.")
    return squares
