"""A search told in words, with the board after each move and each step back.

The board shows the knight as ``K`` (as a classic page that teaches backtracking
by hand draws it), the squares behind it with their move numbers, and ``.`` for
free squares. Under Warnsdorff's
rule (or Warnsdorff's move order) the moves still open are listed with their
number of onward moves, the weight the rule minimises.

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.trace import trace_search
>>> from itertools import islice
>>> print("\\n".join(trace_lines(islice(trace_search(Board(3, 4), "a1"), 2), Board(3, 4))))
Move 1: start on a1.
3 |  .  .  .  .
2 |  .  .  .  .
1 |  K  .  .  .
     a  b  c  d
<BLANKLINE>
Move 2: a1 to b3.
3 |  .  K  .  .
2 |  .  .  .  .
1 |  1  .  .  .
     a  b  c  d
<BLANKLINE>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from ..board import Board, file_name, grid_lines

if TYPE_CHECKING:
    from ..trace import TraceEvent

# The kinds of TraceEvent drawn with a board.
START, MOVE, BACK, TOUR = "start", "move", "back", "tour"

__all__ = ["trace_lines", "trace_grid"]


def trace_grid(board: Board, event: TraceEvent) -> str:
    """The board after ``event``: ``K`` on the knight's square (none after a tour), move numbers behind it."""
    cells = [["." for _ in range(board.cols)] for _ in range(board.rows)]
    for v in board.holes:
        cells[v // board.cols][v % board.cols] = "#"
    for i, v in enumerate(event.path, 1):
        cells[v // board.cols][v % board.cols] = str(i)
    if event.path and event.kind != TOUR:
        v = event.path[-1]
        cells[v // board.cols][v % board.cols] = "K"
    width = max(2, len(str(board.free_count)), len(file_name(board.cols - 1)))
    return "\n".join(grid_lines(board, cells, width))


def trace_lines(events: Iterable[TraceEvent], board: Board, boards: bool = True) -> Iterator[str]:
    """Lines telling ``events``: one sentence each, the open moves with their weights
    when the search weighs them, and (with ``boards``) the board after each move,
    step back and tour."""
    name = board.name
    for e in events:
        yield e.describe(board)
        if e.weights and e.candidates and e.kind in (START, MOVE, BACK):
            listed = ", ".join(f"{name(u)} {w}" for u, w in e.candidates)
            yield f"  open moves and their onward moves: {listed}"
        if boards and e.kind in (START, MOVE, BACK, TOUR) and e.path:
            yield trace_grid(board, e)
            yield ""
