"""SVG pictures of tours, routes and searches, drawn with drawsvg.

A still picture is a chequered board (one ``<pattern>``, so its size does not
grow with the board), holes shaded, the path as one ``<path>`` through the
square centres with a dot at every move (an SVG ``marker-mid``), a disc on
the first square and a square on the last. With ``numbers`` each square gets
a badge with its step number(s) instead of a dot.

An animation moves a knight along the tour with SMIL: ``<animateMotion>``
for the knight and an animated ``stroke-dashoffset`` that draws the line
behind it. Every leap of a leaper has the same length, so constant speed
along the path is one move per frame. A trace is a sequence of frames, each
a group made visible in turn.

Examples
--------
>>> import xml.etree.ElementTree as ET
>>> from chesstours.board import Board
>>> svg = scene_svg(Scene(Board(5, 5), np.array([0, 7, 14])), size=200)
>>> root = ET.fromstring(svg)
>>> root.get("width"), root.get("height")
('200', '200')
>>> line = root.find(".//{http://www.w3.org/2000/svg}path[@class='route']")
>>> line.get("d")
'M38.5,161.5 L108.5,126.5 L178.5,91.5'
"""

from __future__ import annotations

import drawsvg as dw
import numpy as np

from ..board import Board
from .style import (
    CAPTION_LINES,
    COLOURS,
    FIGURES,
    Geometry,
    Scene,
    geometry,
    gradient_bands,
    square_colours,
    step_labels,
)

__all__ = ["scene_svg", "animation_svg", "frames_svg", "path_data"]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _num(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def path_data(points: np.ndarray, closed: bool = False) -> str:
    """SVG path data ``M x,y L x,y ...`` through ``points`` (``Z`` closes it)."""
    rounded = np.round(np.asarray(points, dtype=np.float64), 2)
    parts = [f"{_num(x)},{_num(y)}" for x, y in rounded.tolist()]
    text = "M" + " L".join(parts)
    return text + " Z" if closed and len(parts) > 1 else text


def _drawing(geom: Geometry, title: str | None) -> dw.Drawing:
    d = dw.Drawing(geom.width, geom.height, id_prefix="ct")
    if title:
        d.append(dw.Title(title))
    d.append(dw.Rectangle(0, 0, geom.width, geom.height, fill=COLOURS["paper"]))
    return d


def _board(d: dw.Drawing, geom: Geometry, board: Board, faded: int | None = None) -> None:
    """The chequer (squares of colour ``faded`` grey), the holes and the coordinates."""
    cell = geom.cell
    w, h = board.cols * cell, board.rows * cell
    light, dark = square_colours(cell, faded)
    if cell >= 2:
        pattern = dw.Pattern(_num(2 * cell), _num(2 * cell), x=_num(geom.left), y=_num(geom.top),
                             patternUnits="userSpaceOnUse")
        pattern.append(dw.Rectangle(0, 0, _num(2 * cell), _num(2 * cell), fill=light))
        for i in range(2):
            for j in range(2):
                # Pattern cell (i, j) is file i, rank rows - 1 - j (mod 2); a1 is dark.
                if (board.rows - 1 - j + i) % 2 == 0:
                    pattern.append(dw.Rectangle(_num(i * cell), _num(j * cell), _num(cell), _num(cell),
                                                fill=dark))
        d.append(dw.Rectangle(_num(geom.left), _num(geom.top), _num(w), _num(h), fill=pattern,
                              class_="board"))
    else:
        # Squares under two pixels would only shimmer: one even tone instead.
        d.append(dw.Rectangle(_num(geom.left), _num(geom.top), _num(w), _num(h), fill=dark, class_="board"))
    if board.holes:
        holes = dw.Group(class_="holes", fill=COLOURS["hole"])
        for v in sorted(board.holes):
            x, y = geom.corner(v)
            holes.append(dw.Rectangle(_num(x), _num(y), _num(cell), _num(cell), class_="hole",
                                      **{"data-square": board.name(v)}))
        d.append(holes)
    if geom.show_labels:
        size = _num(geom.label_font())
        labels = dw.Group(class_="coordinates", fill=COLOURS["label"], font_family=FONT, font_size=size)
        for text, x, y in geom.rank_labels():
            labels.append(dw.Text(text, None, _num(x), _num(y), text_anchor="end", dy="0.35em"))
        for text, x, y in geom.file_labels():
            labels.append(dw.Text(text, None, _num(x), _num(y), text_anchor="middle", dy="0.35em"))
        d.append(labels)


def _dot_marker(geom: Geometry) -> dw.Marker:
    r = geom.dot_radius
    m = dw.Marker(-r * 1.5, -r * 1.5, r * 1.5, r * 1.5, orient="0", markerUnits="userSpaceOnUse")
    m.append(dw.Circle(0, 0, _num(r), fill=COLOURS["marker"], stroke=COLOURS["line"],
                       stroke_width=_num(max(0.5, r * 0.45))))
    return m


def _line(geom: Geometry, path: np.ndarray, closed: bool, dots: bool, **extra) -> dw.Path:
    """The route through the centres of ``path``, with a dot at each inner point when ``dots``."""
    kwargs = dict(fill="none", stroke=COLOURS["line"], stroke_width=_num(geom.line_width),
                  stroke_linejoin="round", stroke_linecap="round", class_="route")
    kwargs.update(extra)
    line = dw.Path(d=path_data(geom.centres(path), closed), **kwargs)
    if dots and len(path) > 2:
        line.args["marker-mid"] = _dot_marker(geom)
    return line


def _gradient_line(geom: Geometry, path: np.ndarray, closed: bool) -> dw.Group:
    """The line in runs coloured from the first square to the last (large boards)."""
    points = geom.centres(np.append(path, path[0]) if closed else path)
    group = dw.Group(class_="route-gradient", fill="none", stroke_width=_num(geom.line_width),
                     stroke_linejoin="round", stroke_linecap="round")
    for a, b, colour in gradient_bands(len(points)):
        group.append(dw.Path(d=path_data(points[a : b + 1]), stroke=colour, class_="route-band"))
    return group


def _start(geom: Geometry, v: int, **extra) -> dw.Circle:
    x, y = geom.centre(v)
    return dw.Circle(_num(x), _num(y), _num(geom.end_radius), fill=COLOURS["start"], stroke=COLOURS["paper"],
                     stroke_width=_num(max(0.5, geom.cell * 0.03)), class_="start", **extra)


def _end(geom: Geometry, v: int, **extra) -> dw.Rectangle:
    x, y = geom.centre(v)
    r = geom.end_radius * 0.9
    return dw.Rectangle(_num(x - r), _num(y - r), _num(2 * r), _num(2 * r), fill=COLOURS["end"],
                        stroke=COLOURS["paper"], stroke_width=_num(max(0.5, geom.cell * 0.03)), class_="end",
                        **extra)


def _badge(geom: Geometry, v: int, text: str, fill: str, ink: str, role: str) -> dw.Group:
    x, y = geom.centre(v)
    g = dw.Group(class_=role)
    g.append(dw.Circle(_num(x), _num(y), _num(geom.badge_radius), fill=fill, stroke=COLOURS["line"],
                       stroke_width=_num(max(0.5, geom.cell * 0.025))))
    if text:
        g.append(dw.Text(text, _num(geom.badge_font(text)), _num(x), _num(y), fill=ink, font_family=FONT,
                         text_anchor="middle", dy="0.35em"))
    return g


def _knight_shape(geom: Geometry, x: float = 0.0, y: float = 0.0, figure: str = "knight") -> dw.Group:
    """The knight (or another of :data:`FIGURES`) drawn around ``(x, y)``."""
    c = geom.cell
    outline, dot = FIGURES[figure]
    pts = np.array(outline) * c + (x, y)
    g = dw.Group(class_=figure)
    g.append(dw.Path(d=path_data(pts, closed=True), fill=COLOURS["knight"], stroke=COLOURS["text"],
                     stroke_width=_num(max(0.6, c * 0.035)), stroke_linejoin="round"))
    ex, ey, er = dot
    g.append(dw.Circle(_num(x + ex * c), _num(y + ey * c), _num(max(0.5, er * c)), fill=COLOURS["text"]))
    return g


def _path_layers(geom: Geometry, scene: Scene) -> list:
    """The line, the markers, the numbers and the ends of ``scene``."""
    out: list = []
    path = scene.path
    if len(path) == 0:
        return out
    numbers = scene.numbers and geom.fits(str(len(path)))
    if len(path) > 1 and geom.gradient:
        out.append(_gradient_line(geom, path, scene.closed))
    elif len(path) > 1:
        out.append(_line(geom, scene.turns, scene.closed, dots=geom.show_markers and not numbers))
    first, last = int(path[0]), int(path[-1])
    if numbers:
        labels = step_labels(path)
        for v, text in labels.items():
            fill, ink, role = COLOURS["marker"], COLOURS["text"], "number"
            if scene.ends and v == first:
                fill, ink, role = COLOURS["start"], COLOURS["paper"], "number start"
            elif scene.ends and v == last:
                fill, ink, role = COLOURS["end"], COLOURS["paper"], "number end"
            out.append(_badge(geom, v, text if geom.fits(text) else "", fill, ink, role))
    elif scene.ends:
        out.append(_start(geom, first))
        if len(path) > 1 and last != first:
            out.append(_end(geom, last))
    return out


def _trace_layers(geom: Geometry, scene: Scene) -> list:
    out: list = []
    for v, text in scene.labels.items():
        out.append(_badge(geom, v, text if geom.fits(text) else "", COLOURS["candidate"], COLOURS["text"],
                          "candidate"))
    for v, how in scene.marks.items():
        x, y = geom.centre(v)
        r = geom.cell * 0.36
        if how == "skipped":
            g = dw.Group(class_="skipped", stroke=COLOURS["skipped"],
                         stroke_width=_num(max(1.0, geom.cell * 0.08)),
                         stroke_linecap="round")
            g.append(dw.Line(_num(x - r), _num(y - r), _num(x + r), _num(y + r)))
            g.append(dw.Line(_num(x - r), _num(y + r), _num(x + r), _num(y - r)))
            out.append(g)
        else:
            colour = COLOURS["left"] if how == "left" else COLOURS["skipped"]
            out.append(dw.Circle(_num(x), _num(y), _num(r * 1.1), fill="none", stroke=colour,
                                 stroke_width=_num(max(1.0, geom.cell * 0.07)), class_=how))
    if scene.knight is not None:
        out.append(_knight_shape(geom, *geom.centre(scene.knight), figure=scene.figure))
    if scene.caption and geom.caption:
        caption = dw.Group(class_="caption", fill=COLOURS["caption"], font_family=FONT,
                           font_size=_num(geom.caption_font()))
        for line, x, y in geom.caption_lines(scene.caption):
            caption.append(dw.Text(line, None, _num(x), _num(y), dy="0.35em"))
        out.append(caption)
    return out


def scene_svg(scene: Scene, size: int | None = None, title: str | None = None) -> str:
    """The SVG text of one still ``scene``; ``size`` is the board's longer side in pixels."""
    geom = geometry(scene.board, size, caption=CAPTION_LINES if scene.caption else 0)
    d = _drawing(geom, title)
    _board(d, geom, scene.board, scene.faded)
    for element in _path_layers(geom, scene) + _trace_layers(geom, scene):
        d.append(element)
    return d.as_svg()


def animation_svg(board: Board, path: np.ndarray, closed: bool = False, size: int | None = None,
                  fps: float = 8.0,
                  title: str | None = None, hold: float = 2.0, *, figure: str = "knight",
                  corners: np.ndarray | None = None, faded: int | None = None) -> str:
    """An animated SVG: a knight leaps along ``path`` at ``fps`` moves a second, drawing its line.

    The whole tour is drawn faintly beneath, so the picture makes sense even
    where SMIL animation is not played. The animation repeats after holding the
    finished tour for ``hold`` seconds. ``figure``, ``corners`` and ``faded``
    are as in :class:`Scene` (a bishop's route: the bishop moves one diagonal
    step a frame, the line turns and is dotted at its slides' ends only).
    Every move has the same length, so the motion along the line is linear in
    time whether the line lists every square or only its turns.
    """
    geom = geometry(board, size)
    d = _drawing(geom, title)
    _board(d, geom, board, faded)
    path = np.asarray(path)
    line_path = path if corners is None else path[np.asarray(corners)]
    moves = len(path) - 1 + (1 if closed and len(path) > 1 else 0)
    run = max(moves, 1) / fps
    total = run + hold
    key = f"0;{_num(run / total)};1"
    d.append(_line(geom, line_path, closed, dots=False, stroke_opacity="0.18", class_="route-shadow"))
    if len(path) > 1 and geom.gradient:
        # Each run of the coloured line is drawn in its own stretch of time.
        points = geom.centres(np.append(path, path[0]) if closed else path)
        group = dw.Group(class_="route-gradient", fill="none", stroke_width=_num(geom.line_width),
                         stroke_linejoin="round", stroke_linecap="round")
        for a, b, colour in gradient_bands(len(points)):
            n = b - a
            band = dw.Path(d=path_data(points[a : b + 1]), stroke=colour, class_="route-band", pathLength=n,
                           stroke_dasharray=f"{n} {n}", stroke_dashoffset=n)
            ta, tb = a / fps / total, b / fps / total
            band.append_anim(dw.Animate("stroke-dashoffset", f"{_num(total)}s", f"{n};{n};0;0",
                                        keyTimes=f"0;{ta:.5f};{tb:.5f};1", repeatCount="indefinite",
                                        calcMode="linear"))
            group.append(band)
        d.append(group)
    elif len(path) > 1:
        length = max(moves, 1)
        line = _line(geom, line_path, closed, dots=geom.show_markers, pathLength=length,
                     stroke_dasharray=f"{length} {length}", stroke_dashoffset=length)
        line.append_anim(dw.Animate("stroke-dashoffset", f"{_num(total)}s", f"{length};0;0", keyTimes=key,
                                    repeatCount="indefinite", calcMode="linear"))
        d.append(line)
    d.append(_start(geom, int(path[0])))
    if len(path) > 1:
        end = _end(geom, int(path[-1]), opacity="0")
        end.append_anim(dw.Animate("opacity", f"{_num(total)}s", "0;1", keyTimes=f"0;{_num(run / total)}",
                                   calcMode="discrete", repeatCount="indefinite"))
        d.append(end)
    knight = _knight_shape(geom, figure=figure)
    points = geom.centres(np.append(line_path, path[0]) if closed and len(path) > 1 else line_path)
    motion = dw.AnimateMotion(path_data(points), f"{_num(total)}s", repeatCount="indefinite",
                              calcMode="linear",
                              keyPoints="0;1;1", keyTimes=key)
    knight.append_anim(motion)
    d.append(knight)
    return d.as_svg()


def frames_svg(scenes: list[Scene], size: int | None = None, fps: float = 2.0, title: str | None = None,
               hold: float = 3.0) -> str:
    """An animated SVG that shows ``scenes`` (on one board) in turn, ``fps`` a second, then repeats.

    Frame ``i`` is a ``<g class="frame">`` made visible from ``i / fps`` seconds
    to the next frame's start. The last frame stays ``hold`` seconds.
    """
    if not scenes:
        raise ValueError("no frames to draw")
    board = scenes[0].board
    geom = geometry(board, size, caption=CAPTION_LINES if any(s.caption for s in scenes) else 0)
    d = _drawing(geom, title)
    _board(d, geom, board, scenes[0].faded)
    n = len(scenes)
    total = n / fps + hold
    starts = [i / fps / total for i in range(n)] + [1.0]
    for i, scene in enumerate(scenes):
        frame = dw.Group(class_="frame", visibility="visible" if i == n - 1 else "hidden",
                         **{"data-frame": str(i)})
        for element in _path_layers(geom, scene) + _trace_layers(geom, scene):
            frame.append(element)
        a, b = _num(starts[i]), _num(starts[i + 1])
        if n > 1:
            if i == 0:
                values, times = "visible;hidden", f"0;{b}"
            elif i == n - 1:
                values, times = "hidden;visible", f"0;{a}"
            else:
                values, times = "hidden;visible;hidden", f"0;{a};{b}"
            frame.append_anim(dw.Animate("visibility", f"{_num(total)}s", values, keyTimes=times,
                                         calcMode="discrete",
                                         repeatCount="indefinite"))
        d.append(frame)
    return d.as_svg()
