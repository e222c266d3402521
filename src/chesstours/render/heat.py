"""The heat map of all tours (``chesstours stats -o heat.svg``): every move drawn by the share of tours that take it.

Each move of the piece is a line between the centres of its squares, its
width and its darkness growing with the number of tours through it (over the
most any move has); for open tours each square is shaded by the tours that
start there. The numbers are those of :func:`~chesstours.tour_statistics`.
"""

from __future__ import annotations

import io
from typing import Any

from ..board import Board

__all__ = ["heat_map", "HEAT_SQUARE"]

#: Pixels a square, before ``size`` scales the picture.
HEAT_SQUARE = 64
_LIGHT, _DARK = "#f7f4ee", "#e4ddd0"  # a faint board: the heat is the picture
_INK = (122, 30, 30)


def _geometry(board: Board, size: int | None) -> tuple[float, int, int]:
    cell = HEAT_SQUARE if size is None else size / max(board.rows, board.cols)
    return cell, round(cell * board.cols), round(cell * board.rows)


def _centre(board: Board, v: int, cell: float) -> tuple[float, float]:
    r, c = board.row(v), board.col(v)
    return (c + 0.5) * cell, (board.rows - 1 - r + 0.5) * cell


def _layers(stats: Any, cell: float):
    """Each square's fill and each move's line: ``(squares, lines)``, shares of the largest count."""
    board = stats.board
    top_start = max(stats.starts.values(), default=0) or 1
    squares = []
    for v in range(board.size):
        r, c = board.row(v), board.col(v)
        x, y = c * cell, (board.rows - 1 - r) * cell
        if v in board.holes:
            squares.append((x, y, "#404040", 0.0))
        else:
            squares.append((x, y, _LIGHT if (r + c) % 2 else _DARK, stats.starts.get(v, 0) / top_start))
    top_edge = max(stats.edges.values(), default=0) or 1
    lines = [(_centre(board, u, cell), _centre(board, v, cell), n / top_edge)
             for (u, v), n in sorted(stats.edges.items(), key=lambda item: item[1]) if n]
    return squares, lines


def heat_map(stats: Any, kind: str = "svg", size: int | None = None) -> bytes:
    """The heat map of ``stats`` (a :class:`~chesstours.TourStatistics`) as ``svg`` or ``png`` bytes."""
    cell, width, height = _geometry(stats.board, size)
    squares, lines = _layers(stats, cell)
    if kind == "png":
        return _png(squares, lines, cell, width, height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">', f"<title>Tours through each move of {stats.board}</title>"]
    for x, y, fill, heat in squares:
        out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{cell:.2f}" height="{cell:.2f}" fill="{fill}"/>')
        if heat:
            out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{cell:.2f}" height="{cell:.2f}" '
                       f'fill="#2a6f97" fill-opacity="{0.75 * heat:.3f}"/>')
    ink = "#%02x%02x%02x" % _INK
    for (x0, y0), (x1, y1), share in lines:
        out.append(f'<line x1="{x0:.2f}" y1="{y0:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" stroke="{ink}" '
                   f'stroke-opacity="{0.15 + 0.85 * share:.3f}" stroke-width="{cell * (0.02 + 0.1 * share):.2f}" '
                   'stroke-linecap="round"/>')
    out.append("</svg>")
    return "\n".join(out).encode()


def _png(squares, lines, cell: float, width: int, height: int) -> bytes:
    from PIL import Image, ImageColor, ImageDraw

    img = Image.new("RGBA", (width, height))
    draw = ImageDraw.Draw(img, "RGBA")
    for x, y, fill, heat in squares:
        box = [x, y, x + cell, y + cell]
        draw.rectangle(box, fill=ImageColor.getrgb(fill))
        if heat:
            draw.rectangle(box, fill=(42, 111, 151, round(191 * heat)))
    for (x0, y0), (x1, y1), share in lines:
        draw.line([x0, y0, x1, y1], fill=(*_INK, round(255 * (0.15 + 0.85 * share))),
                  width=max(1, round(cell * (0.02 + 0.1 * share))))
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "PNG")
    return buf.getvalue()
