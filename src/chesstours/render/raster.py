"""PNG pictures and GIF animations of tours and searches, drawn with Pillow.

The same scenes and geometry as :mod:`chesstours.render.svg`, drawn on a
canvas twice as large and scaled down, which smooths the lines (Pillow draws
without anti-aliasing). The chequer is a ``rows x cols`` image scaled up
without blending, so a board of any size costs one resize.

An animation draws the tour onto a "trail" canvas one leap at a time and adds
the knight on a copy for each frame, so a tour of N squares costs O(N) work.
All frames share one palette, so colours do not flicker, and Pillow stores
only the part of each frame that changed.

Examples
--------
>>> import io
>>> import numpy as np
>>> from PIL import Image
>>> from chesstours.board import Board
>>> png = scene_png(Scene(Board(5, 5), np.array([0, 7, 14])), size=200)
>>> Image.open(io.BytesIO(png)).size
(200, 200)
"""

from __future__ import annotations

import io
import math
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..board import Board
from ..errors import InvalidArgument, LimitReached
from ..units import format_bytes
from .style import (
    CAPTION_LINES,
    COLOURS,
    FIGURES,
    Geometry,
    Scene,
    geometry,
    gradient_bands,
    gradient_colour,
    square_colours,
    step_labels,
)

__all__ = ["scene_image", "scene_png", "animation_gif", "frames_gif", "gif_frames", "MAX_FRAMES", "MIN_FRAMES",
           "GIF_MEMORY"]

#: Most frames in a GIF; longer tours advance several moves a frame.
MAX_FRAMES = 600
#: Fewest frames an animation is cut to, to fit its memory budget, before it is refused.
MIN_FRAMES = 24
#: Memory an animation may hold while it is drawn (its frames, kept until the palette is
#: chosen and the file is written), by default.
GIF_MEMORY = 1 << 30
#: Bytes a frame holds per pixel until the GIF is written: its RGB image and its palette image.
_FRAME_BYTES = 4


def gif_frames(width: int, height: int, wanted: int, memory: int = GIF_MEMORY) -> int:
    """How many frames of ``width`` x ``height`` pixels an animation may have within ``memory`` bytes.

    :raises InvalidArgument: when not even :data:`MIN_FRAMES` fit, with the size that would.
    """
    per_frame = _FRAME_BYTES * width * height
    fit = memory // per_frame
    if fit >= min(wanted, MIN_FRAMES):
        return int(min(wanted, fit))
    side = int(math.sqrt(memory / (_FRAME_BYTES * MIN_FRAMES) * max(width, height) / min(width, height)))
    raise InvalidArgument(
        f"An animation {width}x{height} pixels would hold {format_bytes(per_frame)} a frame while it is drawn, "
        f"and fewer than {MIN_FRAMES} frames fit in {format_bytes(memory)}; ask for a size of at most {side} pixels.")


def _past(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise LimitReached("The time limit ran out while the animation was drawn.")


@lru_cache(maxsize=64)
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=max(6, int(round(size))))


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def _scale_for(geom: Geometry) -> int:
    """Draw twice as large (then shrink: smooth edges) unless the picture is already large."""
    return 2 if geom.width * geom.height <= 1600 * 1600 else 1


def _board_image(geom: Geometry, board: Board, k: int, faded: int | None = None) -> Image.Image:
    """The paper, the chequer (squares of colour ``faded`` grey), the holes and the coordinates, at scale ``k``."""
    g = geom.scaled(k)
    img = Image.new("RGB", (g.width, g.height), _rgb(COLOURS["paper"]))
    r = np.arange(board.rows)[::-1, None]
    c = np.arange(board.cols)[None, :]
    dark = (r + c) % 2 == 0
    light_colour, dark_colour = square_colours(geom.cell, faded)
    colours = np.where(dark[..., None], np.array(_rgb(dark_colour), np.uint8), np.array(_rgb(light_colour),
                                                                                        np.uint8))
    if board.holes:
        hole = board.hole_mask.reshape(board.rows, board.cols)[::-1]
        colours[hole] = _rgb(COLOURS["hole"])
    squares = Image.fromarray(np.ascontiguousarray(colours, dtype=np.uint8), "RGB")
    w, h = int(round(board.cols * g.cell)), int(round(board.rows * g.cell))
    # Whole-pixel squares scale up exactly; squares under two pixels are averaged.
    method = Image.Resampling.NEAREST if geom.cell >= 2 else Image.Resampling.BOX
    img.paste(squares.resize((w, h), method), (int(round(g.left)), int(round(g.top))))
    if g.show_labels:
        draw = ImageDraw.Draw(img)
        font = _font(g.label_font())
        for text, x, y in g.rank_labels():
            draw.text((x, y), text, fill=COLOURS["label"], font=font, anchor="rm")
        for text, x, y in g.file_labels():
            draw.text((x, y), text, fill=COLOURS["label"], font=font, anchor="mm")
    return img


def _circle(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill, outline=None,
            width: float = 0) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=max(0, int(round(width))))


def _polyline(draw: ImageDraw.ImageDraw, points: np.ndarray, width: float, colour: str) -> None:
    """A line with round joints through ``points``."""
    w = max(1, int(round(width)))
    flat = [float(v) for v in points.reshape(-1)]
    draw.line(flat, fill=colour, width=w, joint="curve" if w >= 3 else None)
    if w >= 3:
        for x, y in points[[0, -1]].tolist():  # round caps
            _circle(draw, x, y, w / 2 - 0.5, colour)


def _knight(draw: ImageDraw.ImageDraw, g: Geometry, v: int, figure: str = "knight") -> None:
    """The knight (or another of :data:`FIGURES`) on square ``v``."""
    x, y = g.centre(v)
    shape, dot = FIGURES[figure]
    pts = [(x + px * g.cell, y + py * g.cell) for px, py in shape]
    outline = max(1, int(round(g.cell * 0.035)))
    draw.polygon(pts, fill=COLOURS["knight"], outline=COLOURS["text"], width=outline)
    ex, ey, er = dot
    _circle(draw, x + ex * g.cell, y + ey * g.cell, max(0.7, er * g.cell), COLOURS["text"])


def _badge(draw: ImageDraw.ImageDraw, g: Geometry, v: int, text: str, fill: str, ink: str) -> None:
    x, y = g.centre(v)
    _circle(draw, x, y, g.badge_radius, fill, COLOURS["line"], max(1.0, g.cell * 0.025))
    if text and g.fits(text):
        draw.text((x, y), text, fill=ink, font=_font(g.badge_font(text)), anchor="mm")


def _start(draw, g: Geometry, v: int) -> None:
    x, y = g.centre(v)
    _circle(draw, x, y, g.end_radius, COLOURS["start"], COLOURS["paper"], max(1.0, g.cell * 0.03))


def _end(draw, g: Geometry, v: int) -> None:
    x, y = g.centre(v)
    r = g.end_radius * 0.9
    draw.rectangle((x - r, y - r, x + r, y + r), fill=COLOURS["end"], outline=COLOURS["paper"],
                   width=max(1, int(round(g.cell * 0.03))))


def _draw_path(draw: ImageDraw.ImageDraw, g: Geometry, scene: Scene) -> None:
    path = scene.path
    if len(path) == 0:
        return
    numbers = scene.numbers and g.fits(str(len(path)))
    turns = scene.turns
    points = g.centres(turns)
    if len(path) > 1:
        if scene.closed:
            points = np.vstack((points, points[:1]))
        if g.gradient:
            for a, b, colour in gradient_bands(len(points)):
                _polyline(draw, points[a : b + 1], g.line_width, colour)
        else:
            _polyline(draw, points, g.line_width, COLOURS["line"])
    first, last = int(path[0]), int(path[-1])
    if numbers:
        for v, text in step_labels(path).items():
            fill, ink = COLOURS["marker"], COLOURS["text"]
            if scene.ends and v == first:
                fill, ink = COLOURS["start"], COLOURS["paper"]
            elif scene.ends and v == last:
                fill, ink = COLOURS["end"], COLOURS["paper"]
            _badge(draw, g, v, text, fill, ink)
        return
    if g.show_markers and len(turns) > 2:
        for x, y in g.centres(turns[1:-1]).tolist():
            _circle(draw, x, y, g.dot_radius, COLOURS["marker"], COLOURS["line"], max(1.0,
                                                                                      g.dot_radius * 0.45))
    if scene.ends:
        _start(draw, g, first)
        if len(path) > 1 and last != first:
            _end(draw, g, last)


def _draw_trace(draw: ImageDraw.ImageDraw, g: Geometry, scene: Scene) -> None:
    for v, text in scene.labels.items():
        _badge(draw, g, v, text, COLOURS["candidate"], COLOURS["text"])
    for v, how in scene.marks.items():
        x, y = g.centre(v)
        r = g.cell * 0.36
        w = max(1, int(round(g.cell * 0.08)))
        if how == "skipped":
            draw.line((x - r, y - r, x + r, y + r), fill=COLOURS["skipped"], width=w)
            draw.line((x - r, y + r, x + r, y - r), fill=COLOURS["skipped"], width=w)
        else:
            colour = COLOURS["left"] if how == "left" else COLOURS["skipped"]
            _circle(draw, x, y, r * 1.1, None, colour, max(1.0, g.cell * 0.07))
    if scene.knight is not None:
        _knight(draw, g, scene.knight, scene.figure)
    if scene.caption and g.caption:
        font = _font(g.caption_font())
        for line, x, y in g.caption_lines(scene.caption):
            draw.text((x, y), line, fill=COLOURS["caption"], font=font, anchor="lm")


def scene_image(scene: Scene, size: int | None = None, geom: Geometry | None = None) -> Image.Image:
    """One still ``scene`` as an RGB image (``size``: the longer side in pixels)."""
    geom = geom or geometry(scene.board, size, caption=CAPTION_LINES if scene.caption else 0)
    k = _scale_for(geom)
    img = _board_image(geom, scene.board, k, scene.faded)
    g = geom.scaled(k)
    draw = ImageDraw.Draw(img)
    _draw_path(draw, g, scene)
    _draw_trace(draw, g, scene)
    return _shrink(img, geom, k)


def _shrink(img: Image.Image, geom: Geometry, k: int) -> Image.Image:
    return img if k == 1 else img.resize((geom.width, geom.height), Image.Resampling.LANCZOS)


def scene_png(scene: Scene, size: int | None = None) -> bytes:
    """The PNG bytes of one still ``scene``."""
    buf = io.BytesIO()
    scene_image(scene, size).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


class _Reel:
    """The frames of an animation as its first frame and, for each next one, the box that changed and its
    pixels: consecutive frames differ around a move or two, so a reel holds little more than one frame."""

    def __init__(self) -> None:
        self.first: Image.Image | None = None
        self.changes: list[tuple[tuple[int, int, int, int], Image.Image] | None] = []
        self._last: np.ndarray | None = None

    def add(self, frame: Image.Image) -> None:
        now = np.asarray(frame)
        if self._last is None:
            self.first = frame.copy()
        else:
            changed = (now != self._last).any(axis=2)
            rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            if rows.size:
                box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
                self.changes.append((box, frame.crop(box)))
            else:
                self.changes.append(None)
        self._last = now

    def __len__(self) -> int:
        return 0 if self.first is None else 1 + len(self.changes)

    def frames(self) -> Iterator[Image.Image]:
        """Each frame in turn, as one image changed in place: copy a frame to keep it."""
        assert self.first is not None
        image = self.first.copy()
        yield image
        for change in self.changes:
            if change is not None:
                image.paste(change[1], change[0][:2])
            yield image


def _palette(sample: list[Image.Image]) -> Image.Image:
    """One palette for every frame: the style's colours exactly, then the blends
    at the edges of shapes, taken from a sample of the frames."""
    exact = list(dict.fromkeys(_rgb(c) for c in COLOURS.values()))
    w, h = sample[0].size
    montage = Image.new("RGB", (w, h * len(sample)))
    for i, f in enumerate(sample):
        montage.paste(f, (0, i * h))
    room = _UNCHANGED - len(exact)  # the last index is kept for "unchanged"
    blends = montage.quantize(colors=room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat = [v for rgb in exact for v in rgb] + (blends.getpalette() or [])[: 3 * room]
    flat += [0] * (3 * _UNCHANGED - len(flat))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [255, 0, 255])
    return palette


def _packed(frame: Image.Image) -> np.ndarray:
    pixels = np.asarray(frame, dtype=np.int32)
    return (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]


def _nearest(packed: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Each packed RGB value's nearest colour in ``table`` (exact: Pillow's own mapping rounds colours)."""
    unique, inverse = np.unique(packed, return_inverse=True)
    rgb = np.column_stack(((unique >> 16) & 255, (unique >> 8) & 255, unique & 255))
    best = np.empty(len(unique), dtype=np.uint8)
    for lo in range(0, len(unique), 4096):
        d = ((rgb[lo : lo + 4096, None, :] - table[None, :, :]) ** 2).sum(axis=2)
        best[lo : lo + 4096] = d.argmin(axis=1)
    return best[inverse].reshape(packed.shape)


#: Palette index of a pixel that is the same as in the frame before (transparent).
_UNCHANGED = 255


def _gif(reel: _Reel, durations: list[int]) -> bytes:
    """Encode RGB ``frames`` as a looping GIF with one palette for all.

    Each frame after the first keeps only the pixels that changed; the others
    are transparent, so the frame before shows through (disposal 1). Runs of
    one index compress to almost nothing, so a frame costs what it changes.
    """
    n = len(reel)
    picks = Counter([*range(0, n, max(1, n // 12)), n - 1])  # the last frame twice where the steps reach it
    palette = _palette([f.copy() for i, f in enumerate(reel.frames()) for _ in range(picks[i])])
    colours = palette.getpalette() or []
    table = np.array(colours[: 3 * _UNCHANGED], dtype=np.int32).reshape(-1, 3)
    frames = reel.frames()
    packed = _packed(next(frames))
    index = _nearest(packed, table)
    images = [Image.fromarray(index.copy(), "P")]
    for frame in frames:
        now = _packed(frame)
        changed = now != packed
        delta = np.full(index.shape, _UNCHANGED, dtype=np.uint8)
        if changed.any():
            fresh = _nearest(now[changed], table)
            moved = fresh != index[changed]
            index[changed] = fresh
            where = np.flatnonzero(changed.reshape(-1))[moved]
            delta.reshape(-1)[where] = fresh[moved]
        packed = now
        images.append(Image.fromarray(delta, "P"))
    for im in images:
        im.putpalette(colours)
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1, transparency=_UNCHANGED)
    return buf.getvalue()


def _durations(n: int, fps: float, hold: float) -> list[int]:
    """Milliseconds per frame, in GIF's hundredths, the last frame held ``hold`` seconds."""
    each = max(20, int(round(100 / fps)) * 10)
    return [each] * (n - 1) + [max(each, int(round(hold * 100)) * 10)]


def _aligned(box, k: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """``box`` grown to multiples of ``k`` and clipped to the image."""
    x0, y0, x1, y1 = box
    return (max(0, int(math.floor(x0 / k)) * k), max(0, int(math.floor(y0 / k)) * k),
            min(size[0], int(math.ceil(x1 / k)) * k), min(size[1], int(math.ceil(y1 / k)) * k))


class _Canvas:
    """A large canvas and its shrunk copy, kept in step one region at a time.

    Shrinking the whole canvas for every frame of a long tour would cost
    O(pixels) a frame; only the region a move touched is shrunk again (with a
    margin for the filter's reach), which costs O(square) a frame.
    """

    def __init__(self, big: Image.Image, geom: Geometry, k: int):
        self.big, self.geom, self.k = big, geom, k
        self.small = _shrink(big, geom, k)

    def _patch(self, box, draw_on=None):
        k = self.k
        inner = _aligned(box, k, self.big.size)
        outer = _aligned((inner[0] - 8 * k, inner[1] - 8 * k, inner[2] + 8 * k, inner[3] + 8 * k), k,
                         self.big.size)
        patch = self.big.crop(outer)
        if draw_on is not None:
            draw_on(patch, outer)
        if k > 1:
            patch = patch.resize(((outer[2] - outer[0]) // k, (outer[3] - outer[1]) // k),
                                 Image.Resampling.LANCZOS)
        cut = ((inner[0] - outer[0]) // k, (inner[1] - outer[1]) // k,
               (inner[2] - outer[0]) // k, (inner[3] - outer[1]) // k)
        return patch.crop(cut), (inner[0] // k, inner[1] // k)

    def refresh(self, box) -> None:
        """Shrink ``box`` (large canvas pixels) of the large canvas into the small copy."""
        patch, at = self._patch(box)
        self.small.paste(patch, at)

    def frame(self, squares: list[int], draw) -> Image.Image:
        """A copy of the small canvas with ``draw(image_draw, geometry)`` added around ``squares``."""
        out = self.small.copy()
        g = self.geom.scaled(self.k)
        for v in squares:
            x, y = g.centre(v)
            r = g.cell * 0.5 + 2 * self.k

            def paint(patch, outer):
                shifted = replace(g, left=g.left - outer[0], top=g.top - outer[1])
                draw(ImageDraw.Draw(patch), shifted)

            patch, at = self._patch((x - r, y - r, x + r, y + r), paint)
            out.paste(patch, at)
        return out


def animation_gif(board: Board, path: np.ndarray, closed: bool = False, size: int | None = None,
                  fps: float = 8.0,
                  hold: float = 2.0, max_frames: int = MAX_FRAMES, *, figure: str = "knight",
                  corners: np.ndarray | None = None, faded: int | None = None, memory: int = GIF_MEMORY,
                  deadline: float | None = None) -> bytes:
    """A GIF of a knight leaping along ``path``, drawing its line, ``fps`` frames a second.

    Paths longer than ``max_frames`` moves advance several moves a frame. The
    finished tour (closed if ``closed``) is held ``hold`` seconds, then it loops.
    ``figure``, ``corners`` and ``faded`` are as in :class:`Scene`: a bishop
    moves one diagonal step a frame, with dots only where its slides end.
    Fewer frames are drawn where ``max_frames`` would not fit in ``memory``
    bytes (:func:`gif_frames`); past ``deadline`` (a ``time.perf_counter()``
    value) the drawing stops with :class:`~chesstours.errors.LimitReached`.
    """
    path = np.asarray(path)
    geom = geometry(board, size)
    max_frames = gif_frames(geom.width, geom.height, max_frames, memory)
    k = _scale_for(geom)
    g = geom.scaled(k)
    canvas = _Canvas(_board_image(geom, board, k, faded), geom, k)
    dotted = np.ones(len(path) + 1, dtype=bool)
    if corners is not None:
        dotted[:] = False
        dotted[np.asarray(corners)] = True
    draw = ImageDraw.Draw(canvas.big)
    moves = len(path) - 1 + (1 if closed and len(path) > 1 else 0)
    per_frame = max(1, math.ceil(moves / max(1, max_frames - 1)))
    stops = list(range(0, moves, per_frame)) + [moves]
    centres = g.centres(np.append(path, path[0]) if closed and len(path) > 1 else path)
    reach = g.line_width + g.dot_radius + 2 * k
    first, last = int(path[0]), int(path[-1])
    reel = _Reel()
    done = 0
    for stop in stops:
        _past(deadline)
        if stop > done:
            part = centres[done : stop + 1]
            colour = gradient_colour((done + stop) / 2 / max(1, moves)) if g.gradient else COLOURS["line"]
            _polyline(draw, part, g.line_width, colour)
            if g.show_markers:
                inner = np.arange(max(done, 1), stop + 1)
                for x, y in centres[inner[dotted[inner]]].tolist():
                    _circle(draw, x, y, g.dot_radius, COLOURS["marker"], COLOURS["line"],
                            max(1.0, g.dot_radius * 0.45))
            lo, hi = part.min(axis=0), part.max(axis=0)
            canvas.refresh((lo[0] - reach, lo[1] - reach, hi[0] + reach, hi[1] + reach))
            done = stop
        at = int(path[stop]) if stop < len(path) else first
        finished = stop == moves and len(path) > 1

        def overlay(d, shifted, at=at, finished=finished):
            # The last frame, held, is the still picture: start and end marked, no knight.
            _start(d, shifted, first)
            if finished:
                _end(d, shifted, last)
            if not finished:
                _knight(d, shifted, at, figure)

        reel.add(canvas.frame(sorted({first, at, last}), overlay))
    _past(deadline)
    return _gif(reel, _durations(len(reel), fps, hold))


def frames_gif(scenes: list[Scene], size: int | None = None, fps: float = 2.0, hold: float = 3.0, *,
               memory: int = GIF_MEMORY, deadline: float | None = None) -> bytes:
    """A GIF showing ``scenes`` (on one board) in turn, the last held ``hold`` seconds.

    :raises InvalidArgument: if the frames would not fit in ``memory`` bytes (:func:`gif_frames`).
    """
    if not scenes:
        raise ValueError("no frames to draw")
    geom = geometry(scenes[0].board, size, caption=CAPTION_LINES if any(s.caption for s in scenes) else 0)
    if gif_frames(geom.width, geom.height, len(scenes), memory) < len(scenes):
        raise InvalidArgument(f"{len(scenes)} frames of {geom.width}x{geom.height} pixels do not fit in the "
                              "memory an animation may hold; ask for a smaller size or fewer steps.")
    reel = _Reel()
    for s in scenes:
        _past(deadline)
        reel.add(scene_image(s, geom=geom))
    return _gif(reel, _durations(len(reel), fps, hold))
