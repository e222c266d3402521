"""Pictures of tours, routes and searches: one entry point for every format.

:func:`draw_tour` turns anything :class:`~chesstours.tour.Drawable` -- a
:class:`~chesstours.tour.Tour` or a bishop route, whose squares may repeat --
into an SVG, a PNG or an animated GIF (or an animated SVG).
:func:`draw_trace` turns the events of
:func:`chesstours.trace.trace_search` into frames. The format can
come from a file name (:func:`format_for`).

drawsvg and Pillow are imported only when a picture is drawn, so importing
chesstours stays quick.

Examples
--------
>>> import chesstours as ct
>>> svg = draw_tour(ct.find_tour("5x5", start="a1"), "svg", numbers=True)
>>> svg[:5], svg.count(b'class="number')
(b'<?xml', 25)
>>> format_for("tour.PNG"), format_for("tour.txt")
('png', None)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from ..board import Board
from ..errors import InvalidArgument
from ..tour import Drawable
from .style import Scene, check_fps, check_size, checked_path, default_size

__all__ = ["draw_tour", "draw_trace", "save_tour", "check_request", "trace_scenes", "format_for", "route_of",
           "PICTURE_FORMATS", "OUTPUT_EXTENSIONS",
           "MAX_PICTURE_SQUARES"]

#: Picture formats; png and gif are binary.
PICTURE_FORMATS = ("svg", "png", "gif")
#: Largest path drawn, by format: an SVG or GIF of more squares would be too large to use.
MAX_PICTURE_SQUARES = {"svg": 1_000_000, "png": 16_000_000, "gif": 1_000_000}
#: Default longest side of animations and trace frames (stills: up to 1200 pixels).
ANIMATION_SIZE = 640
_EXTENSIONS = {".svg": "svg", ".png": "png", ".gif": "gif", ".json": "json", ".npy": "npy", ".npz": "npz",
               ".txt": None, ".moves": "moves", ".grid": "grid"}
#: The extensions an output file may have (or none): what :func:`format_for` knows.
OUTPUT_EXTENSIONS = tuple(_EXTENSIONS)


def format_for(path: str | os.PathLike) -> str | None:
    """The output format a file name asks for (``.svg``, ``.png``, ``.gif``, ``.json``, ``.npy``, ``.npz``,
    ``.moves``, ``.grid``), or None (``.txt``, or no extension: the command's default)."""
    return _EXTENSIONS.get(Path(path).suffix.lower())


def route_of(obj: Drawable) -> tuple[Board, np.ndarray, bool]:
    """``(board, squares, closed)`` of a tour or route, its squares checked against its board.

    :raises InvalidArgument: if ``obj`` is not something that can be drawn, or a square is off its board.
    """
    if not isinstance(obj, Drawable):
        raise InvalidArgument("Only a tour or a bishop route can be drawn.")
    return obj.board, checked_path(obj.board, obj.path), bool(obj.closed)


def _check(fmt: str, board: Board, squares: int) -> None:
    if fmt not in PICTURE_FORMATS:
        raise InvalidArgument(f"Unknown picture format {fmt!r}; use one of {', '.join(PICTURE_FORMATS)}.")
    limit = MAX_PICTURE_SQUARES[fmt]
    if max(squares, board.free_count) > limit:
        raise InvalidArgument(
            f"A {fmt.upper()} picture of {board} is too large to be useful; pictures are drawn up to "
            f"{limit:,} squares in that format (PNG: {MAX_PICTURE_SQUARES['png']:,})."
        )

#: A PNG asked to move.
_STILL_PNG = "A PNG cannot move: use --format gif (or svg) for an animation."


def check_request(fmt: str, board: Board, size: int | None = None, fps: float | None = None,
                  animate: bool = False) -> None:
    """Refuse, before any search, a picture that cannot be drawn: format, board size, ``size``, ``fps``,
    an animated PNG.

    :raises InvalidArgument: saying what is wrong.
    """
    _check(fmt, board, board.free_count)
    check_size(size, board)
    check_fps(fps)
    if fmt == "png" and animate:
        raise InvalidArgument(_STILL_PNG)


def draw_tour(obj: Drawable, fmt: str = "svg", *, numbers: bool = False, size: int | None = None,
              fps: float | None = None, animate: bool = False, memory: int | None = None,
              deadline: float | None = None) -> bytes:
    """Draw a tour (or a route) as ``svg``, ``png`` or ``gif``; return the file's bytes.

    Parameters
    ----------
    obj : Drawable
        A :class:`~chesstours.tour.Tour`, or a
        :class:`~chesstours.bishop.route.BishopRoute`, which is drawn as a
        bishop's (see its :meth:`~chesstours.bishop.route.BishopRoute.drawing`);
        its numbers are the visit numbers, two on a square the bishop passes twice.
    fmt : str, optional
        ``"svg"``, ``"png"`` or ``"gif"``. ``gif`` is always an animation; ``svg`` is one when ``animate``.
    numbers : bool, optional
        Step numbers in each square (while squares are large enough to read them).
    size : int, optional
        The picture's longer side in pixels (64 to 4096; default: 64 a square,
        320 to 1200).
    fps : float, optional
        Moves a second of an animation (default 8).
    animate : bool, optional
        Draw an ``svg`` as an animation, one move after another (a ``png`` cannot move).
    memory : int, optional
        Bytes a GIF may hold while it is drawn (default
        :data:`~chesstours.render.raster.GIF_MEMORY`): a long tour is drawn in
        fewer frames to fit, and a size too large for even a few is refused.
    deadline : float, optional
        A ``time.perf_counter()`` value past which drawing a GIF stops.

    Raises
    ------
    InvalidArgument
        Unknown format, bad size or frame rate, a board too large for the format,
        or an animation too large for ``memory``.
    LimitReached
        Past ``deadline``.
    """
    board, squares, closed = route_of(obj)
    _check(fmt, board, len(squares))
    check_size(size, board)
    rate = check_fps(fps)
    style, title = obj.drawing(), obj.title()
    if size is None and (fmt == "gif" or animate):
        size = min(default_size(board), ANIMATION_SIZE)
    if fmt == "svg":
        from . import svg

        if animate:
            return svg.animation_svg(board, squares, closed, size, rate, title, **style).encode()
        return svg.scene_svg(Scene(board, squares, closed, numbers, **style), size, title).encode()
    from . import raster

    if fmt == "png":
        if animate:
            raise InvalidArgument(_STILL_PNG)
        return raster.scene_png(Scene(board, squares, closed, numbers, **style), size)
    budget = raster.GIF_MEMORY if memory is None else memory
    return raster.animation_gif(board, squares, closed, size, rate, memory=budget, deadline=deadline, **style)


def save_tour(obj: Drawable, path: str | os.PathLike, fmt: str | None = None, **options: Any) -> str:
    """Draw ``obj`` into the file ``path`` (atomically); return the format used.

    The format is ``fmt``, or else the file's extension.
    """
    from ..output import write_atomic

    fmt = fmt or format_for(path)
    if fmt not in PICTURE_FORMATS:
        raise InvalidArgument(f"Cannot tell the picture format of {path}; name it .svg, .png or .gif.")
    write_atomic(path, draw_tour(obj, fmt, **options))
    return fmt


#: The largest board a notebook shows as a picture; a larger tour shows its repr.
SHOWN_SQUARES = 4096


def notebook_svg(obj: Drawable) -> str | None:
    """The SVG picture of a tour or a route for a notebook, or None (its repr) on a board of over
    :data:`SHOWN_SQUARES` squares."""
    return None if obj.board.size > SHOWN_SQUARES else draw_tour(obj, "svg").decode()


def show_in_notebooks() -> None:
    """Where IPython runs (a Jupyter notebook), show tours and bishop routes as their pictures."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    from ..bishop.route import BishopRoute
    from ..tour import Tour

    formatter = shell.display_formatter.formatters["image/svg+xml"]
    for kind in (Tour, BishopRoute):
        formatter.for_type(kind, notebook_svg)


def trace_scenes(events: Iterable, board: Board) -> list[Scene]:
    """One scene per event of a trace: the path so far with its numbers, the knight,
    the moves still open (with their onward moves under Warnsdorff's rule), and
    the event in words."""
    BACK, SKIP, TOUR = "back", "skip", "tour"  # the kinds of TraceEvent
    scenes = []
    for e in events:
        path = np.array(e.path, dtype=np.int64)
        labels = {u: (str(w) if e.weights else "") for u, w in e.candidates}
        marks: dict[int, str] = {}
        if e.kind == SKIP:
            marks[e.square] = "skipped"
            if e.culprit >= 0 and e.culprit != e.square:
                marks[e.culprit] = "culprit"
        elif e.kind == BACK:
            marks[e.square] = "left"
        done = e.kind == TOUR  # a whole tour is shown as a still picture: ends marked, no knight
        knight = int(path[-1]) if len(path) and not done else None
        scenes.append(Scene(board, path, closed=done and e.closed, numbers=True, ends=done,
                            knight=knight, labels=labels, marks=marks, caption=e.describe(board)))
    return scenes


def draw_trace(events: Iterable, board: Board, fmt: str = "gif", *, size: int | None = None,
               fps: float | None = None, memory: int | None = None, deadline: float | None = None) -> bytes:
    """Frames of a search, one per event: an animated ``gif`` or ``svg``, or a ``png`` of the last.

    ``fps`` is events a second (default 2: time to read each caption); ``memory`` and
    ``deadline`` bound a GIF as in :func:`draw_tour`.
    """
    if fmt not in PICTURE_FORMATS:
        raise InvalidArgument(f"Unknown picture format {fmt!r}; use one of {', '.join(PICTURE_FORMATS)}.")
    _check(fmt, board, board.free_count)
    check_size(size, board)
    rate = check_fps(fps if fps is not None else 2.0)
    size = size if size is not None else min(default_size(board), ANIMATION_SIZE)
    scenes = trace_scenes(events, board)
    if not scenes:
        raise InvalidArgument("The trace is empty: there is nothing to draw.")
    if fmt == "svg":
        from . import svg

        return svg.frames_svg(scenes, size, rate, title=f"A search on {board}").encode()
    from . import raster

    if fmt == "png":
        return raster.scene_png(scenes[-1], size)
    return raster.frames_gif(scenes, size, rate, memory=raster.GIF_MEMORY if memory is None else memory,
                             deadline=deadline)
