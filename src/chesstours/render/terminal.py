"""The numbered grid in colour, for a terminal (Rich).

The same characters as :func:`chesstours.render.text.number_grid`, each
square on its own colour: the chequer, holes in grey, the first square in
green and the last in red. Used only when standard output is a terminal;
piped output stays the plain grid, byte for byte.

Examples
--------
>>> import chesstours as ct
>>> tour = ct.find_tour("5x5", start="a1")
>>> text = colour_grid(tour)
>>> text.plain == tour.grid()
True
"""

from __future__ import annotations

from rich.text import Text

from ..board import file_name
from .style import COLOURS

__all__ = ["colour_grid"]


def colour_grid(tour) -> Text:
    """A Rich ``Text`` of ``tour``'s numbered grid, squares coloured."""
    board = tour.board
    numbers = tour.numbers()
    width = max(2, len(str(int(numbers.max()) if numbers.size else 0)), len(file_name(board.cols - 1)))
    label = len(str(board.rows))
    hole = board.hole_mask.reshape(board.rows, board.cols)
    first, last = tour.start, tour.end
    out = Text()
    for r in range(board.rows - 1, -1, -1):
        out.append(f"{str(r + 1).rjust(label)} |", style="dim")
        for c in range(board.cols):
            v = r * board.cols + c
            if hole[r, c]:
                out.append(" " + "#".rjust(width), style=f"#bbbbbb on {COLOURS['hole']}")
                continue
            n = int(numbers[r, c])
            cell = " " + (str(n) if n else ".").rjust(width)
            if v == first:
                style = f"bold #ffffff on {COLOURS['start']}"
            elif v == last:
                style = f"bold #ffffff on {COLOURS['end']}"
            else:
                style = f"#1b1b1b on {COLOURS['light'] if (r + c) % 2 else COLOURS['dark']}"
            out.append(cell, style=style)
        out.append("\n")
    files = "".join(" " + file_name(c).rjust(width) for c in range(board.cols))
    out.append(" " * (label + 2) + files, style="dim")
    return out
