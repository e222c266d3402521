"""Text renderings of boards: the numbered grid of seed 003.

The grid shows rank N at the top and rank 1 at the bottom, rank numbers on the
left and file letters below, each square holding its move number.

>>> import numpy as np
>>> from chesstours.board import Board
>>> print(number_grid(Board(2, 3, holes="b1"), np.array([[1, 0, 2], [3, 4, 5]])))
2 |  3  4  5
1 |  1  #  2
     a  b  c
"""

from __future__ import annotations

import numpy as np

from ..board import Board, file_name

__all__ = ["number_grid", "grid_lines", "render_tour"]


def grid_lines(board: Board, cells: list[list[str]], width: int) -> list[str]:
    """Lay out ``cells[row][col]`` (row 0 is rank 1) with rank and file labels.

    Each cell is right-aligned in ``width`` characters and preceded by a space.
    """
    label = len(str(board.rows))
    lines = []
    for r in range(board.rows - 1, -1, -1):
        row = "".join(" " + cell.rjust(width) for cell in cells[r])
        lines.append(f"{str(r + 1).rjust(label)} |{row}")
    files = "".join(" " + file_name(c).rjust(width) for c in range(board.cols))
    lines.append(" " * (label + 2) + files)
    return lines


def number_grid(board: Board, numbers: np.ndarray) -> str:
    """The grid of ``numbers[row, col]`` (0 shows as ``.``, holes as ``#``)."""
    width = max(2, len(str(int(numbers.max()) if numbers.size else 0)), len(file_name(board.cols - 1)))
    hole = board.hole_mask.reshape(board.rows, board.cols)
    cells = [
        ["#" if hole[r, c] else (str(int(numbers[r, c])) if numbers[r, c] else ".") for c in range(board.cols)]
        for r in range(board.rows)
    ]
    return "\n".join(grid_lines(board, cells, width))


def render_tour(tour, fmt: str = "grid") -> str:
    """Render a tour as ``grid`` (numbered board), ``moves`` (one line) or ``json``."""
    if fmt == "grid":
        return tour.grid()
    if fmt == "moves":
        return tour.moves()
    if fmt == "json":
        import json

        return json.dumps(tour.to_dict())
    raise ValueError(f"unknown format {fmt!r}")
